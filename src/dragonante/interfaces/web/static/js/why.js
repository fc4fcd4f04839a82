// "Why?" on the log: a click (or Enter) on a line of the log shows the rule
// behind its event. Each event of a frame carries `why`, a citation made by
// the server from the table of events (interfaces/events.py): the rule's
// message key, the book and section, and whose text explains it (a card's
// power or ante effect by card number, an ability by key) - only a card
// that event or the power before it showed this seat. The words come from
// /api/rules (fetched once per language) and the card and ability data the
// table already has, so nothing here can name a hidden card.
import { cardData, cardName, hideCard } from "./cards.js";
import { append, clear, h } from "./dom.js";
import { lang, t } from "./i18n.js";

const rules = {};

export async function loadRules(l) {
  if (!rules[l]) {
    const r = await fetch(`/api/rules?lang=${encodeURIComponent(l)}`);
    rules[l] = await r.json();
  }
  return rules[l];
}

// The text that explains the event: the card's power or ante effect, the ability's.
function citedText(why, words) {
  if (why.kind === "power" || why.kind === "ante_effect") {
    const c = cardData(why.card);
    if (!c) return "";
    const field = why.kind === "power" ? c.power : c.ante_effect;
    return { name: cardName(why.card), text: field[lang] || field.en || "" };
  }
  if (why.kind === "ability") {
    const a = words.abilities[why.ability];
    return a ? { name: a.name, text: a.text } : "";
  }
  return "";
}

export async function showWhy(why, line) {
  const words = await loadRules(lang);
  const panel = document.getElementById("card-detail");
  if (!panel) return;
  hideCard();
  clear(panel);
  const cited = why ? citedText(why, words) : "";
  append(panel, [
    h(
      "div",
      { class: "detail-head" },
      h("h3", {}, t("table.why")),
      h("button", { type: "button", class: "close", onclick: hideCard, "aria-label": t("card.close") }, "×"),
    ),
    h("p", { class: "muted why-line" }, line),
    why
      ? [
          h("p", { class: "why-rule" }, words.rules[why.rule] || why.rule),
          cited && cited.text ? h("section", {}, h("h4", {}, cited.name), h("p", { class: "why-text" }, cited.text)) : null,
          words.refs[why.ref] ? h("p", { class: "muted why-source" }, `${words.books[words.refs[why.ref][0]]}, “${words.refs[why.ref][1]}”`) : null,
        ]
      : h("p", {}, words.words.none),
  ]);
  panel.hidden = false;
  panel.dataset.why = why ? why.rule : "";
}

function lineOf(target) {
  return target.closest ? target.closest("#log li[data-why]") : null;
}

function open(li) {
  let why = null;
  try {
    why = JSON.parse(li.dataset.why);
  } catch {
    why = null;
  }
  showWhy(why, li.textContent);
}

document.addEventListener("click", (e) => {
  const li = lineOf(e.target);
  if (li) open(li);
});

document.addEventListener("keydown", (e) => {
  if (e.key !== "Enter" && e.key !== " ") return;
  const li = lineOf(e.target);
  if (!li) return;
  e.preventDefault();
  open(li);
});
