// The current gambit at a glance, beside the log: each round, who played what
// (in turn order, marked when it triggered), the special flights and what they
// paid, who leads next; then who won the gambit.  The server words it from this
// seat's own events (frame.history, interfaces/gambit_history.py, the same the
// terminal table draws), so this only lays it out.
import { append, clear, h } from "./dom.js";
import { onLangChange, t } from "./i18n.js";

export function historyPanel() {
  const title = h("h2", { id: "history-title" }, t("table.history"));
  const body = h("div", { class: "history", id: "history" });
  const el = h("section", { class: "history-box", "aria-labelledby": "history-title" }, title, body);
  onLangChange(() => { title.textContent = t("table.history"); });
  let shown = "";

  function show(history) {
    if (!history) return;
    const key = JSON.stringify(history);
    if (key === shown) return;
    shown = key;
    const rounds = history.rounds.map((r) =>
      h("li", { class: "history-round", dataset: { round: r.round } },
        h("span", { class: "history-round-title" }, r.title),
        h("ul", {}, r.lines.map((line) => h("li", {}, line)))));
    append(clear(body),
      h("p", { class: "history-title" }, history.title),
      history.ante ? h("p", { class: "history-ante" }, history.ante) : null,
      rounds.length ? h("ol", { class: "history-rounds" }, rounds) : null,
      history.result ? h("p", { class: "history-result" }, history.result) : null);
    body.scrollTop = body.scrollHeight;
  }

  return { el, show };
}
