// Learn to play (/learn): the guided first game on the table the web always
// draws (render.js), with the coach beside it. The server plays the tutorial
// over its own socket (/learn/ws, docs/protocol.md "Learn to play") and
// sends the seat's views as at any table, plus `coach` frames: the notes in
// this page's language, the suggested answer, the step, and the player's
// answers, which this page keeps in localStorage. The tutorial is
// deterministic from them, so leaving and coming back (a reload, another day,
// another server process) resumes it where it was: the page sends them back
// in its first message. "Skip" makes a normal table against easy bots through
// the lobby's own API and opens it with tips on (tips.js).
import { api, saveHostToken, saveToken } from "./api.js";
import { hideCard } from "./cards.js";
import { append, clear, h, toast } from "./dom.js";
import { historyPanel } from "./history.js";
import { lang, t } from "./i18n.js";
import { bindAnswerKeys, focusSnapshot, restoreFocus } from "./keys.js";
import { animateEvents } from "./motion.js";
import { openPrimer } from "./primer.js";
import { NOT_CARD_KINDS, renderBoard, renderLog } from "./render.js";
import { openSocket } from "./socket.js";
import { markTips } from "./tips.js";

// The saved tutorial: the server's progress dict (format, rules_version, answers, step, finished).
const SAVED = "dragonante.learn";

export function savedLesson() {
  try {
    const p = JSON.parse(localStorage.getItem(SAVED) || "null");
    return p && Array.isArray(p.answers) ? p : null;
  } catch {
    return null;
  }
}

function saveLesson(progress) {
  localStorage.setItem(SAVED, JSON.stringify(progress));
}

export function forgetLesson() {
  localStorage.removeItem(SAVED);
}

// A normal game after (or instead of) the tutorial: 3 players, you and two
// easy bots, invite only, started at once; tips on at that table.
export async function normalGame(name) {
  const made = await api("POST", "/api/tables", { config: { players: 3 }, unlisted: true });
  const code = made.code;
  saveHostToken(code, made.host_token);
  const seat = await api("POST", `/api/tables/${code}/seats`, { seat: 0, name }, made.host_token);
  saveToken(code, seat.token);
  await api("POST", `/api/tables/${code}/bots`, { fill: true, level: "easy" }, made.host_token);
  await api("POST", `/api/tables/${code}/start`, undefined, made.host_token);
  markTips(code);
  return code;
}

export function mountLearn(root) {
  let ws = null;
  let stopped = false;
  let retry = 0;
  let busy = false;
  let table = null;
  let last = null;
  let coach = null;
  let events = [];
  let askedId = null;

  const main = h("div", { class: "table-main" });
  const notes = h("ol", { class: "coach-notes", id: "coach-notes", "aria-live": "polite" });
  const stepLine = h("p", { class: "muted coach-step", id: "coach-step" });
  const title = h("h2", { id: "coach-title" });
  const replayBtn = h("button", { type: "button", id: "learn-replay", onclick: () => ask({ type: "replay" }) });
  const restartBtn = h("button", { type: "button", id: "learn-restart", onclick: () => ask({ type: "restart" }) });
  const skipBtn = h("button", { type: "button", id: "learn-skip", onclick: () => skip() });
  const buttons = h("p", { class: "coach-actions" }, replayBtn, " ", restartBtn, " ", skipBtn);
  const coachBox = h("section", { class: "coach", id: "coach", "aria-labelledby": "coach-title" }, title, stepLine, notes, buttons);
  const banner = h("p", { class: "banner", role: "status", hidden: true });
  const heading = h("h1", {});
  const gambitHistory = historyPanel();
  const logTitle = h("h2", { id: "log-title" }, t("table.log"));
  const logBox = h("section", { class: "log-box", "aria-labelledby": "log-title" }, logTitle);
  const announcer = h("p", { class: "sr-only", id: "announcer", "aria-live": "assertive" });
  let logList = renderLog([]);
  logBox.append(logList);
  append(clear(root), h("div", { class: "table-page learn-page", id: "learn" }, h("div", { class: "table-head" }, heading), banner, h("div", { class: "table-layout" }, main, h("div", { class: "table-side" }, coachBox, gambitHistory.el, logBox)), announcer));
  const unbindKeys = bindAnswerKeys(main);

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }

  // A message that changes the whole table (replay, restart): nothing else until it is drawn.
  function ask(msg) {
    if (busy) return;
    busy = true;
    hideCard();
    send(msg);
    render();
  }

  function connect() {
    if (stopped) return;
    const hello = () => ({ type: "learn", lang, answers: savedLesson()?.answers ?? [] });
    ws = openSocket("/learn/ws", hello, (sock, msg) => sock === ws && handle(msg), (sock, e) => {
      if (sock !== ws || stopped) return;
      if (e.code === 4400) return; // the error frame said why
      banner.textContent = e.code === 1013 ? t("error.server_full") : t("table.reconnecting");
      banner.hidden = false;
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 400 * 2 ** retry);
    });
  }

  function handle(msg) {
    switch (msg.type) {
      case "welcome":
        retry = 0;
        banner.hidden = true;
        break;
      case "state":
        busy = false;
        table = msg.table;
        last = msg;
        events = msg.events.slice();
        logList.replaceWith((logList = renderLog(events)));
        gambitHistory.show(msg.history);
        render();
        scrollLog();
        break;
      case "update":
        busy = false;
        last = msg;
        events.push(...msg.events);
        logList.append(...Array.from(renderLog(msg.events).children));
        gambitHistory.show(msg.history);
        render();
        animateEvents(main.querySelector(".board"), msg.events);
        scrollLog();
        break;
      case "table":
        table = msg.table;
        break;
      case "coach":
        coach = msg;
        saveLesson(msg.progress);
        renderCoach();
        render();
        break;
      case "error":
        busy = false;
        toast(msg.message, "error");
        if (msg.code === "bad_progress") forgetLesson();
        if (last) render();
        break;
      default:
        break;
    }
  }

  function scrollLog() {
    logList.scrollTop = logList.scrollHeight;
  }

  function answer(value, decision) {
    if (busy || !last?.view?.question) return;
    busy = true;
    hideCard();
    send({ type: "answer", decision, answer: value });
    render();
  }

  async function skip() {
    skipBtn.disabled = true;
    try {
      const code = await normalGame(t("learn.player"));
      stopped = true;
      location.assign(`/t/${code}`);
    } catch (err) {
      skipBtn.disabled = false;
      toast(err.message, "error");
    }
  }

  function noteEl(n) {
    return h(
      "li",
      { class: `note note-${n.kind}`, dataset: { kind: n.kind, step: n.step } },
      n.text,
      n.kind === "rule" && n.primer ? [" ", h("button", { type: "button", class: "link primer-link", onclick: () => openPrimer(n.primer) }, t("learn.more"))] : null,
    );
  }

  function renderCoach() {
    heading.textContent = t("learn.title");
    title.textContent = t("learn.coach");
    replayBtn.textContent = t("learn.replay");
    restartBtn.textContent = t("learn.restart");
    skipBtn.textContent = coach?.finished ? t("learn.normal_game") : t("learn.skip");
    skipBtn.classList.toggle("primary", Boolean(coach?.finished));
    logTitle.textContent = t("table.log");
    if (!coach) return;
    stepLine.textContent = coach.step ? t("learn.step", { index: coach.step.index, steps: coach.steps, title: coach.step.title }) : "";
    replayBtn.disabled = busy || !coach.replayable;
    restartBtn.disabled = busy;
    append(clear(notes), coach.notes.map(noteEl));
  }

  // The suggested answer stands out: its button, and the card in your hand.
  function markSuggestion(board) {
    const s = coach?.suggestion;
    const q = last?.view?.question;
    if (s === null || s === undefined || !q || coach.decision !== q.id) return;
    const button = board.querySelector(`#question button.answer[data-answer="${s}"]`);
    if (!button) return;
    button.classList.add("suggested");
    button.id = "suggested";
    button.setAttribute("aria-description", t("learn.suggested"));
    button.append(h("span", { class: "answer-detail suggested-tag" }, t("learn.suggested")));
    if (!NOT_CARD_KINDS.has(q.kind)) board.querySelector(`#hand .card[data-card="${s}"]`)?.classList.add("suggested");
  }

  function render() {
    renderCoach();
    const focus = focusSnapshot(main);
    clear(main);
    if (!last?.view) {
      main.append(h("p", { class: "muted" }, t("table.connecting")));
      return;
    }
    const q = last.view.question;
    const mine = q && q.seat === last.view.seat && last.answers?.length;
    const fresh = Boolean(mine && q.id !== askedId);
    askedId = mine ? q.id : null;
    const board = renderBoard(last, { table, interactive: true, onAnswer: answer, busy });
    markSuggestion(board);
    main.append(board);
    restoreFocus(main, focus, fresh);
    if (fresh) announcer.textContent = `${t("table.question")}: ${q.text || q.prompt}`;
  }

  renderCoach();
  render();
  connect();
  return {
    rerender() {
      send({ type: "lang", lang });
      renderCoach();
      render();
    },
    destroy() {
      stopped = true;
      unbindKeys();
      if (ws) ws.close();
    },
    get state() {
      return { coach, busy };
    },
  };
}
