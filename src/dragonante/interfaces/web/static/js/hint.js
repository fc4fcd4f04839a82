// A hint from the best bot at the table page: whether the table has hints
// (shown to everyone, changed by the host), the button a seated person
// presses for their own question, and the hint the server sends back to
// this connection alone (docs/protocol.md, "hint").  The server decides
// who may ask; the page only hides the button where it would be refused.
import { api, hostToken } from "./api.js";
import { append, clear, h, toast } from "./dom.js";
import { t } from "./i18n.js";

export function hintPanel(code, send) {
  const el = h("section", { class: "hint-box", id: "hint-box" });
  let table = null;
  let question = null;
  let mine = false;
  // The question a hint was asked for (waiting for it), and the hint shown.
  let asked = null;
  let shown = null;

  function people() {
    return (table?.seats || []).filter((s) => s && s.kind === "human").length;
  }

  function infoKey() {
    if (!table.hints_on) return "hint.off";
    return people() > 1 ? "hint.allowed" : "hint.solo";
  }

  function setOption(allowed) {
    api("POST", `/api/tables/${code}/hints`, { hints: allowed }, hostToken(code)).catch((err) => toast(err.message, "error"));
  }

  function draw() {
    clear(el);
    if (!table || (table.status !== "open" && table.status !== "playing")) return;
    append(el, h("p", { class: "muted", id: "hint-info" }, t(infoKey())));
    if (hostToken(code)) {
      append(el, h("p", {}, h("label", {}, h("input", { type: "checkbox", id: "hint-allow", checked: Boolean(table.hints), onchange: (e) => setOption(e.target.checked) }), " ", t("hint.allow"))));
    }
    if (!mine || !table.hints_on) return;
    append(el, h("p", {}, h("button", { type: "button", id: "hint-ask", title: t("hint.ask_help"), disabled: asked === question.id, onclick: ask }, t("hint.ask")), asked === question.id ? h("span", { class: "muted", id: "hint-thinking" }, " ", t("hint.thinking")) : null));
    if (shown && shown.decision === question.id) {
      append(el, h("div", { class: "hint", id: "hint", role: "status" }, h("h3", {}, t("hint.title")), h("ul", {}, shown.lines.map((line) => h("li", {}, line.trim())))));
    }
  }

  function ask() {
    if (!question || asked === question.id) return;
    asked = question.id;
    send({ type: "hint", decision: question.id });
    draw();
  }

  return {
    el,
    // The table and this seat's question now (null: none is this seat's).
    follow(tableNow, q, seat) {
      table = tableNow;
      const id = q && seat !== null && q.seat === seat ? q.id : null;
      if (id !== (question?.id ?? null)) {
        asked = null;
        shown = null;
      }
      question = id === null ? null : q;
      mine = id !== null;
      draw();
    },
    // A `hint` frame (kept only while its question is the one in front of us).
    show(msg) {
      if (question && msg.decision === question.id) shown = msg;
      asked = null;
      draw();
    },
    // An error frame: a hint asked may have been refused (the toast said why).
    refused() {
      if (asked === null) return;
      asked = null;
      draw();
    },
  };
}
