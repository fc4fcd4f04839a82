// Card data (every card, both languages, from /api/cards), the card element,
// and the detail panel that shows a card's full text on hover or tap.
import { append, clear, h } from "./dom.js";
import { backSvg, cardSvg, frameColors, markKind } from "./cardart.js";
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
    // A panel built for another question (pinned, or shown by the hover of a
    // mouse resting where the chosen card was) must not offer a stale choice.
    if (shown !== null) showCard(shown, pinned, true);
  }
}

let pinned = false;
let shown = null;

// What a screen reader says for a card: name, strength, colors, kind.
export function cardDescription(n) {
  const c = CARDS[n];
  if (!c) return "?";
  const mark = markKind(c);
  const colors = c.colors.filter((col) => col !== "mortal").map((col) => t(`color.${col}`));
  return [cardName(n), t("card.strength", { strength: c.strength }), ...colors, mark ? t(`card.mark.${mark}`) : null]
    .filter(Boolean)
    .join(", ");
}

// A card drawn as a card: the SVG face (cardart.js) with the name laid over
// it as text. opts: triggers (the bolt on your own hand), option (answers
// your question: a click chooses it), key (that answer's number key, drawn
// on the card), small (for flights and zones).
export function cardEl(n, opts = {}) {
  const c = CARDS[n];
  if (!c) return h("div", { class: "card unknown" }, "?");
  const classes = ["card", `c-${frameColors(c)[0]}`];
  if (frameColors(c).length > 1) classes.push("multi");
  if (c.kind === "mortal") classes.push("mortal");
  if (c.kind === "dragon god") classes.push("god");
  if (opts.triggers) classes.push("triggers");
  if (opts.option) classes.push("option");
  if (opts.small) classes.push("small");
  const extra = [opts.triggers ? t("table.triggers") : null, opts.option ? t("card.answers") : null].filter(Boolean);
  return h(
    "button",
    {
      type: "button",
      class: classes.join(" "),
      dataset: { card: String(n), mark: markKind(c) || "none" },
      "aria-label": [cardDescription(n), ...extra].join(", "),
      title: opts.triggers ? t("table.triggers") : null,
    },
    cardSvg(c, { triggers: opts.triggers }),
    h("span", { class: "name", "aria-hidden": "true" }, cardName(n)),
    opts.option && opts.key ? h("kbd", { class: "card-key", "aria-hidden": "true" }, String(opts.key)) : null,
  );
}

// Card names never break inside a word (CSS: keep-all, no hyphens): a name
// whose longest word or whose lines do not fit gets a smaller font instead.
// Run after the cards are in the page; sizes are remembered per card, size
// and language, so redrawing the board costs nothing.
const fitted = new Map();
const MIN_FONT = 5;
export function fitNames(root) {
  for (const name of root.querySelectorAll(".card .name")) {
    const card = name.parentElement;
    const box = name.clientWidth;
    if (!box) continue; // not laid out (a closed <details>): fitted when shown
    const key = `${card.dataset.card}|${card.classList.contains("small") ? "s" : "n"}|${box}|${lang}`;
    if (fitted.has(key)) {
      const size = fitted.get(key);
      if (size) name.style.fontSize = `${size}px`;
      continue;
    }
    name.style.fontSize = "";
    let size = Number.parseFloat(getComputedStyle(name).fontSize);
    let shrunk = false;
    while (size > MIN_FONT && (name.scrollWidth > name.clientWidth + 0.5 || name.scrollHeight > name.clientHeight + 0.5)) {
      size -= 0.5;
      name.style.fontSize = `${size}px`;
      shrunk = true;
    }
    fitted.set(key, shrunk ? size : 0);
  }
}
document.addEventListener("toggle", (e) => { if (e.target instanceof HTMLDetailsElement && e.target.open) fitNames(e.target); }, true);

// Enter on a focused card that answers your question chooses it, and so does
// a click (a card that answers nothing opens its full text instead).
document.addEventListener("keydown", (e) => {
  if (e.key !== "Enter" || e.repeat) return;
  const el = e.target instanceof Element ? e.target.closest(".card.option[data-card]") : null;
  if (!el || !chooser) return;
  const choose = chooser(Number(el.dataset.card));
  if (!choose) return;
  e.preventDefault();
  hideCard();
  choose();
});

// Hover and tap are handled once for the whole page (event delegation), so
// the board can be redrawn on every update without losing the open card.
function cardOf(target) {
  const el = target instanceof Element ? target.closest(".card[data-card]") : null;
  return el ? Number(el.dataset.card) : null;
}
document.addEventListener("pointerover", (e) => {
  if (e.pointerType !== "mouse" || pinned) return;
  const n = cardOf(e.target);
  // Off the cards, a hover's panel closes: also when its card was redrawn
  // under a resting mouse (a detached card never gets its pointerout).
  if (n !== null) showCard(n, false);
  else if (shown !== null) hideCard();
});
document.addEventListener("pointerout", (e) => {
  if (e.pointerType !== "mouse" || pinned) return;
  if (cardOf(e.target) !== null && cardOf(e.relatedTarget) === null) hideCard();
});
// A tap first opens the card's text (with a "choose" button): on a phone
// there is no hover to read a card before playing it. A second tap on the
// same card chooses it. A mouse click chooses at once (hover shows the text).
let pointer = "mouse";
document.addEventListener("pointerdown", (e) => { pointer = e.pointerType; }, true);
document.addEventListener("click", (e) => {
  const n = cardOf(e.target);
  if (n === null) return;
  const option = e.target.closest(".card.option[data-card]");
  const choose = option && chooser ? chooser(n) : null;
  if (choose && (pointer !== "touch" || (pinned && shown === n))) {
    hideCard();
    choose();
    return;
  }
  showCard(n, true);
});

export function cardBack(count = 1) {
  return h("span", { class: "card back", role: "img", "aria-label": t("table.cards", { count }) }, backSvg());
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
  placeCard();
}

// The boxes a card's text must never cover: an open <dialog> (the rules),
// the game-over box, and a gambit's box where it floats over the seats
// (from 700px; on a phone it is in the page's flow, under the text's sheet).
function dialogs() {
  const boxes = [...document.querySelectorAll("dialog[open], .summary")];
  return boxes.filter((el) => el.tagName === "DIALOG" || el.classList.contains("final") || getComputedStyle(el.parentElement).position === "absolute");
}

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

// Put the card's text where it covers no dialog: its usual corner, else the
// other side, else nowhere (closed).  Called when it opens and whenever a
// box opens or the board is redrawn (table.js).
export function placeCard() {
  const panel = document.getElementById("card-detail");
  if (!panel || panel.hidden) return;
  const boxes = dialogs().map((el) => el.getBoundingClientRect()).filter((r) => r.width && r.height);
  panel.classList.remove("other-side");
  if (!boxes.some((r) => overlaps(panel.getBoundingClientRect(), r))) return;
  panel.classList.add("other-side");
  if (!boxes.some((r) => overlaps(panel.getBoundingClientRect(), r))) return;
  panel.classList.remove("other-side");
  hideCard();
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
