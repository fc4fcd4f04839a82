// The end-of-gambit and end-of-game screens: what happened (the narrated
// scoring events) and the scores, every seat's hoard ranked, with the change
// since the previous screen (or the start) and the winners crowned.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";

// s: {title, lines, hoards, before, winners, final}; opts: {name(p), replay, onClose}
export function summaryEl(s, opts) {
  const order = s.hoards.map((g, p) => p).sort((a, b) => s.hoards[b] - s.hoards[a] || a - b);
  const winners = new Set(s.winners || []);
  let rank = 0;
  const rows = order.map((p, i) => {
    if (i === 0 || s.hoards[p] !== s.hoards[order[i - 1]]) rank = i + 1;
    const change = s.before ? s.hoards[p] - s.before[p] : null;
    return h(
      "tr",
      { class: winners.has(p) ? "winner" : "", dataset: { seat: String(p) } },
      h("td", { class: "rank" }, String(rank)),
      h("th", { scope: "row" }, winners.has(p) ? h("span", { class: "crown", role: "img", "aria-label": t("seat.winner") }, icon("crown")) : null, opts.name(p)),
      h("td", { class: "gold" }, String(s.hoards[p])),
      h("td", { class: change > 0 ? "change up" : change < 0 ? "change down" : "change" }, change === null ? "" : change > 0 ? `+${change}` : String(change)),
    );
  });
  const id = s.final ? "game-summary" : "gambit-summary";
  return h(
    "section",
    { class: `summary ${s.final ? "final" : ""}`, id, role: "region", "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, s.final ? icon("trophy") : null, s.title),
    s.lines.length ? h("ul", { class: "summary-lines" }, s.lines.map((l) => h("li", {}, l))) : null,
    h(
      "table",
      { class: "hoards scores" },
      h("caption", { class: "sr-only" }, t("summary.scores")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("summary.rank")), h("th", { scope: "col" }, t("summary.player")), h("th", { scope: "col" }, t("table.hoard")), h("th", { scope: "col" }, s.before ? t("summary.change") : ""))),
      h("tbody", {}, rows),
    ),
    opts.replay ? h("a", { class: "button", href: opts.replay, id: "replay-link" }, t("table.watch_replay")) : null,
    h("button", { type: "button", class: "ok primary", onclick: opts.onClose }, t("table.ok")),
  );
}
