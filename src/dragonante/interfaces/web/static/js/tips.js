// Tips on: at a normal table opened from Learn to play ("Skip", or after the
// tutorial), the rule behind each event is told the first time it comes up,
// and later events of the same rule pass without a tip, so the tips thin out
// as the player learns (the terminal's tips do the same: tutorial/tips.py,
// whose QUIET set this one repeats; a test checks they agree). The rule
// comes with each event of a frame (`why`, the same citation the log's "why?"
// opens), its words from /api/rules in this page's language: nothing here
// knows more than the seat's own events.
import { append, clear, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { loadRules } from "./why.js";

// Rules not worth a tip: the program's own shortcut, a card's power (the card says it).
export const QUIET = new Set(["why.auto_answer", "why.power", "why.power_step", "why.setup"]);
// The newest tips shown at once.
const SHOWN = 4;

const key = (code) => `dragonante.tips.${code}`;

export function markTips(code) {
  localStorage.setItem(key(code), "1");
}

export function tipsOn(code) {
  return localStorage.getItem(key(code)) === "1";
}

// The panel beside the table; `events`: every event of the seat so far, in
// order (a full state), or the new ones of an update (`more`).
export function tipsPanel(code) {
  const on = tipsOn(code);
  const list = h("ol", { class: "tips", id: "tips" });
  const title = h("h2", { id: "tips-title" }, t("learn.tips"));
  const off = h("button", { type: "button", class: "small", id: "tips-off", onclick: () => { localStorage.removeItem(key(code)); el.hidden = true; } }, t("learn.tips_off"));
  const el = h("section", { class: "tips-box", id: "tips-box", "aria-labelledby": "tips-title", hidden: !on }, title, list, off);
  let told = [];
  let seen = new Set();

  function take(events) {
    for (const e of events) {
      const rule = e.why?.rule;
      if (!rule || seen.has(rule)) continue;
      seen.add(rule);
      if (!QUIET.has(rule)) told.push(rule);
    }
  }

  async function draw() {
    if (!tipsOn(code)) return;
    const words = await loadRules(lang);
    title.textContent = t("learn.tips");
    off.textContent = t("learn.tips_off");
    append(clear(list), told.slice(-SHOWN).reverse().map((rule) => h("li", { class: "tip", dataset: { rule } }, t("learn.tip", { rule: words.rules[rule] || rule }))));
  }

  return {
    el,
    reset(events) {
      told = [];
      seen = new Set();
      take(events);
      draw();
    },
    more(events) {
      take(events);
      draw();
    },
    relabel: draw,
  };
}
