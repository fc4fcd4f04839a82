// Card data (every card, both languages, from /api/cards), the card element,
// and the detail panel that shows a card's full text on hover or tap.
import { append, clear, h } from "./dom.js";
import { lang, t } from "./i18n.js";

let CARDS = [];

export async function loadCards() {
  if (CARDS.length) return;
  const r = await fetch("/api/cards");
  CARDS = await r.json();
}

export function allCards() {
  return CARDS;
}

export function cardData(n) {
  return CARDS[n];
}

export function cardName(n) {
  const c = CARDS[n];
  return c ? c.name[lang] || c.name.en : "?";
}

export function cardLabel(n) {
  const c = CARDS[n];
  return c ? `${cardName(n)} (${c.strength})` : "?";
}

// The current question's "choose this card" hook, set by the board: the
// detail panel offers it for a card that is a legal answer.
let chooser = null;
let chooserKey = null;
export function setChooser(fn, key = null) {
  chooser = fn;
  if (key !== chooserKey) {
    chooserKey = key;
    // A pinned panel built for another question must not offer a stale choice.
    if (shown !== null && pinned) showCard(shown, true, true);
  }
}

let pinned = false;
let shown = null;

export function cardEl(n, opts = {}) {
  const c = CARDS[n];
  if (!c) return h("div", { class: "card unknown" }, "?");
  const color = c.colors[0] || (c.kind === "mortal" ? "mortal" : "special");
  const classes = ["card", `c-${color}`];
  if (c.kind === "mortal") classes.push("mortal");
  if (c.kind === "dragon god") classes.push("god");
  if (opts.triggers) classes.push("triggers");
  if (opts.option) classes.push("option");
  if (opts.small) classes.push("small");
  return h(
    "button",
    {
      type: "button",
      class: classes.join(" "),
      dataset: { card: String(n) },
      "aria-label": cardLabel(n) + (opts.triggers ? ` (${t("table.triggers")})` : ""),
      title: opts.triggers ? t("table.triggers") : null,
    },
    h("span", { class: "strength" }, String(c.strength)),
    opts.triggers ? h("span", { class: "badge" }, "⚡") : null,
    h("span", { class: "name" }, cardName(n)),
  );
}

// Hover and tap are handled once for the whole page (event delegation), so
// the board can be redrawn on every update without losing the open card.
function cardOf(target) {
  const el = target instanceof Element ? target.closest(".card[data-card]") : null;
  return el ? Number(el.dataset.card) : null;
}
document.addEventListener("pointerover", (e) => {
  if (e.pointerType !== "mouse" || pinned) return;
  const n = cardOf(e.target);
  if (n !== null) showCard(n, false);
});
document.addEventListener("pointerout", (e) => {
  if (e.pointerType !== "mouse" || pinned) return;
  if (cardOf(e.target) !== null && cardOf(e.relatedTarget) === null) hideCard();
});
document.addEventListener("click", (e) => {
  const n = cardOf(e.target);
  if (n !== null) showCard(n, true);
});

export function cardBack(count = 1) {
  return h("span", { class: "card back small", "aria-label": t("table.cards", { count }) }, "");
}

function section(title, text) {
  if (!text || (Array.isArray(text) && !text.length)) return null;
  const paras = Array.isArray(text) ? text : [text];
  return h("section", {}, h("h4", {}, title), paras.map((p) => h("p", {}, p)));
}

export function showCard(n, pin, force = false) {
  const c = CARDS[n];
  const panel = document.getElementById("card-detail");
  if (!c || !panel) return;
  if (!force && shown === n && !panel.hidden && pinned === pin) return;
  pinned = pin;
  shown = n;
  clear(panel);
  const colors = c.colors.map((col) => t(`color.${col}`)).join(", ");
  const choose = chooser ? chooser(n) : null;
  append(panel, [
    h(
      "div",
      { class: "detail-head" },
      h("h3", {}, cardName(n)),
      h("button", { type: "button", class: "close", onclick: hideCard, "aria-label": t("card.close") }, "×"),
    ),
    h(
      "p",
      { class: "muted" },
      [t("card.strength", { strength: c.strength }), c.type_line[lang] || c.type_line.en, colors]
        .filter(Boolean)
        .join(" · "),
    ),
    choose
      ? h("button", { type: "button", class: "primary choose", onclick: () => { hideCard(); choose(); } }, choose.label)
      : null,
    section(t("card.power"), c.power[lang] || c.power.en),
    section(t("card.dragon_god"), c.dragon_god[lang] || c.dragon_god.en),
    section(t("card.ante_effect"), c.ante_effect[lang] || c.ante_effect.en),
    section(t("card.explanation"), c.explanation[lang]?.length ? c.explanation[lang] : c.explanation.en),
  ]);
  panel.hidden = false;
}

export function hideCard() {
  pinned = false;
  shown = null;
  const panel = document.getElementById("card-detail");
  if (panel) panel.hidden = true;
}

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") hideCard();
});
