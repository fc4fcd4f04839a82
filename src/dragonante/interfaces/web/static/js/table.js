// A table: seating before the start (invite link, seats, bots, start), then
// the live game over this seat's WebSocket.  The seat token lives in
// localStorage, so closing and reopening the page takes the same seat back.
// A link carrying it (#token=..., #gm=...) is read once and the token taken
// out of the address bar at once: copying the address must not hand over
// the seat (issue 22).  A game-master link's token is kept for this tab only
// (sessionStorage), so reloading keeps the game-master view.
import { abilitiesLine } from "./abilities.js";
import { awayPanel, EXPIRED_CLOSE, handoverText, LIMIT_CLOSE } from "./away.js";
import { api, forgetGmToken, forgetToken, gmToken, hostToken, saveGmToken, saveHostToken, savedName, saveName, savedToken, saveToken } from "./api.js";
import { fitNames, hideCard, placeCard } from "./cards.js";
import { historyPanel } from "./history.js";
import { chatPanel, muteText } from "./chat.js";
import { append, clear, h, toast } from "./dom.js";
import { hintPanel } from "./hint.js";
import { lang, t } from "./i18n.js";
import { bindAnswerKeys, focusSnapshot, restoreFocus } from "./keys.js";
import { animateEvents } from "./motion.js";
import { turnAnnouncer } from "./notify.js";
import { handSeatPanel, playerKey } from "./players.js";
import { levelName, renderBoard, renderLog, seatName } from "./render.js";
import { rematchBar, rematchText, timeoutText, turnCountdown } from "./social.js";
import { openSocket } from "./socket.js";
import { summaryEl } from "./summary.js";
import { tipsPanel } from "./tips.js";

const SUMMARY_KINDS = new Set(["scoring", "gambit_won", "priest_split", "no_winner", "monarch_gift", "hole_paid", "hole_won", "debt_paid", "adventurer_split", "eliminated", "target_reached", "game_over"]);
// Close codes after which reconnecting cannot help.
const FINAL_CLOSE = new Set([4400, 4401, 4404]);

function tokenFromHash(name = "token") {
  const m = new RegExp(`(?:^|[#&])${name}=([^&]+)`).exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

// The game-master view of a table with hidden abilities: /t/CODE#gm=TOKEN.
function gmLink(code, gm) {
  return `${location.origin}/t/${code}#gm=${encodeURIComponent(gm)}`;
}

export function mountTable(root, code) {
  code = code.toUpperCase();
  // A game-master connection: a spectator who sees every character's abilities.
  const gmKey = `dragonante.gmview.${code}`;
  const gmMode = tokenFromHash("gm") || sessionStorage.getItem(gmKey);
  if (gmMode) sessionStorage.setItem(gmKey, gmMode);
  let token = gmMode || tokenFromHash() || savedToken(code);
  if (token && !gmMode) saveToken(code, token);
  if (location.hash) history.replaceState(null, "", `/t/${code}`);
  let mySeat = null;
  let table = null;
  let last = null;
  let events = [];
  let ws = null;
  let stopped = false;
  let retry = 0;
  let busy = false;
  let summary = null;
  let gambitNo = 0;
  let meta = null;
  let connState = "connecting";
  let isGm = false;
  // Hoards when the last summary was shown (or at the start), for its changes.
  let hoardsBefore = null;
  // The question last drawn for this seat, to move the focus to a new one.
  let askedId = null;

  const header = h("div", { class: "table-head" });
  const banner = h("p", { class: "banner", role: "status", hidden: true });
  const summarySlot = h("div", { class: "summary-slot" });
  const awaySlot = h("div", { class: "away-slot" });
  const handover = handSeatPanel(code, () => hostToken(code), (fn) => act(fn));
  const main = h("div", { class: "table-main" });
  const logBox = h("section", { class: "log-box", "aria-labelledby": "log-title" }, h("h2", { id: "log-title" }, t("table.log")));
  // Read out by screen readers: a new question for this seat.
  const announcer = h("p", { class: "sr-only", id: "announcer", "aria-live": "assertive" });
  let logList = renderLog([]);
  logBox.append(logList);
  const gambitHistory = historyPanel();
  const chat = chatPanel({
    send,
    max: 300,
    // Only the host mutes (a seated player is not the host by sitting down).
    mute: hostToken(code) ? (target, muted) => act(() => api("POST", `/api/tables/${code}/mute`, { ...target, muted }, hostToken(code))) : null,
  });
  const countdown = turnCountdown();
  const hints = hintPanel(code, send);
  // Tips on at a table opened from Learn to play (tips.js): none elsewhere.
  const tips = tipsPanel(code);
  // The tab's title and icon, the sound and the notification of your turn.
  const turnNote = turnAnnouncer(code);
  const rematchSlot = h("div", { class: "rematch-slot" });
  append(clear(root), h("div", { class: "table-page" }, header, banner, countdown.el, rematchSlot, awaySlot, h("div", { class: "table-layout" }, main, h("div", { class: "table-side" }, tips.el, hints.el, gambitHistory.el, logBox, chat.el)), announcer));
  const unbindKeys = bindAnswerKeys(main);

  api("GET", "/api/meta").then((m) => { meta = m; if (table?.status === "open") render(); }).catch(() => {});

  function manageToken() {
    return hostToken(code) || token;
  }

  // Only the host adds bots, takes them off and starts (the server refuses anyone else).
  function canManage() {
    return Boolean(hostToken(code));
  }

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }

  function connect() {
    if (stopped) return;
    const hello = () => ({ type: "hello", token: token || null, key: playerKey(), lang });
    ws = openSocket(`/ws/${encodeURIComponent(code)}`, hello, (sock, msg) => sock === ws && handle(msg), (sock, e) => {
      if (sock !== ws || stopped) return;
      if (e.code === 4404) {
        connState = "gone";
        append(clear(main), h("p", { class: "error" }, t("table.not_found")), h("a", { href: "/" }, t("nav.lobby")));
        return;
      }
      if (FINAL_CLOSE.has(e.code) || e.code === EXPIRED_CLOSE) return; // the error frame said why
      connState = "reconnecting";
      banner.textContent = LIMIT_CLOSE.has(e.code) ? t(LIMIT_CLOSE.get(e.code)) : t("table.reconnecting");
      banner.hidden = false;
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 400 * 2 ** retry);
    });
  }

  function reconnect() {
    const old = ws;
    ws = null;
    if (old) old.close();
    connect();
  }

  function handle(msg) {
    switch (msg.type) {
      case "welcome":
        mySeat = msg.seat;
        if (mySeat !== null && !token && !gmMode) token = playerKey(); // seated by the key (memory only)
        isGm = Boolean(msg.gm);
        retry = 0;
        connState = "open";
        banner.hidden = true;
        break;
      case "table":
        table = msg.table;
        if (table.status === "open" || !last) render();
        else {
          renderHeader();
          renderAway();
          renderRematch();
          followHints();
        }
        break;
      case "state":
        table = msg.table;
        busy = false;
        if (msg.view) {
          last = msg;
          events = msg.events.slice();
          gambitNo = msg.view.gambit;
          noteStart(events, msg.view);
          logList.replaceWith((logList = renderLog(events)));
          gambitHistory.show(msg.history);
          tips.reset(events);
        }
        render();
        scrollLog();
        break;
      case "update":
        busy = false;
        last = msg;
        events.push(...msg.events);
        logList.append(...Array.from(renderLog(msg.events).children));
        gambitHistory.show(msg.history);
        tips.more(msg.events);
        noteSummaries(msg.events, msg.view);
        render();
        animateEvents(main.querySelector(".board"), msg.events);
        scrollLog();
        break;
      case "error":
        busy = false;
        hints.refused();
        toast(msg.message, "error");
        if (msg.code === "bad_token" && gmMode) {
          sessionStorage.removeItem(gmKey);
          stopped = true;
          append(clear(main), h("p", { class: "error" }, msg.message));
        } else if (msg.code === "bad_token") {
          forgetToken(code);
          token = null;
          history.replaceState(null, "", `/t/${code}`);
          reconnect();
        } else if (msg.code === "unknown_table" || msg.code === "expired") {
          stopped = true;
          append(clear(main), h("p", { class: "error", id: "table-gone" }, msg.code === "expired" ? msg.message : t("table.not_found")));
        } else if (last) {
          render();
        }
        break;
      case "handover":
        toast(handoverText(msg, table));
        break;
      case "chat_history":
        chat.history(msg);
        chat.setMe(mySeat, msg.spectator);
        break;
      case "chat":
        chat.add(msg);
        break;
      case "mute":
        chat.mute(msg);
        chat.system(muteText(msg, table));
        break;
      case "turn":
        countdown.start(msg);
        break;
      case "hint":
        hints.show(msg);
        break;
      case "timeout":
        toast(timeoutText(msg, table));
        chat.system(timeoutText(msg, table));
        break;
      case "notice":
        // A server notice about the table (a bot's move the database refused,
        // then stored; an answer taken back), already in this page's language.
        if (msg.code === "taken_back" && summary && !summary.final) {
          summary = null; // the gambit it summed up may be undone
          render();
        }
        toast(msg.message, msg.code === "bot_unstored" ? "error" : undefined);
        chat.system(msg.message);
        break;
      case "rematch":
        toast(rematchText(msg, table));
        break;
      case "removed":
        // This page's seat or game-master view is gone (the host freed the
        // seat, its person left it from another page, or the creator sat down:
        // no game-master any more): its token holds nothing now, and this
        // page watches the table as a spectator.
        if (msg.reason === "gm_ended") {
          forgetGmToken(code);
          isGm = false;
        } else forgetToken(code);
        token = null;
        mySeat = null;
        history.replaceState(null, "", `/t/${code}`);
        banner.textContent = msg.message;
        banner.hidden = false;
        banner.id = "removed-notice";
        chat.setMe(null, msg.spectator);
        toast(msg.message, "error");
        break;
      default:
        break;
    }
  }

  function scrollLog() {
    logList.scrollTop = logList.scrollHeight;
  }

  // The hoards a reconnecting page starts its changes from: the last
  // summary's (gambit_won / no_winner are followed by the hoards then), or
  // the starting gold.
  function noteStart(all, view) {
    const setup = all.find((e) => e.kind === "setup");
    hoardsBefore = setup ? view.hoards.map(() => setup.data.gold) : null;
  }

  function noteSummaries(newEvents, view) {
    for (const e of newEvents) {
      if (e.kind === "gambit_start") gambitNo = e.data.gambit;
      if (e.kind === "gambit_won" || e.kind === "no_winner") {
        const since = events.length - newEvents.length + newEvents.indexOf(e);
        let start = since;
        while (start > 0 && events[start - 1].kind !== "gambit_start") start -= 1;
        const lines = events.slice(start, since + 1).filter((x) => SUMMARY_KINDS.has(x.kind) && x.text).map((x) => x.text);
        // ``asked``: the question pending when it opened (it may already be
        // this seat's next ante): the box stays until a later one.
        summary = { title: t("table.gambit_summary", { gambit: gambitNo }), lines, hoards: view.hoards.slice(), before: hoardsBefore, winners: e.kind === "gambit_won" ? [e.data.winner] : [], final: false, asked: view.question?.id ?? null };
        hoardsBefore = view.hoards.slice();
      }
      if (e.kind === "game_over") {
        const lines = summary && !summary.final ? summary.lines.concat(e.text) : [e.text];
        const before = summary && !summary.final ? summary.before : hoardsBefore;
        summary = { title: t("table.game_over"), lines, hoards: e.data.hoards, before, winners: e.data.winners, final: true };
      }
    }
  }

  function renderSummary() {
    clear(summarySlot);
    if (!summary) return;
    summarySlot.append(
      summaryEl(summary, {
        name: (p) => seatName(table, p),
        replay: summary.final ? `/r/${code}` : null,
        onClose: closeSummary,
      }),
    );
  }

  function closeSummary() {
    summary = null;
    renderSummary();
    main.querySelector("#seats")?.style.removeProperty("min-height");
  }

  function renderHeader() {
    const me = mySeat !== null && table ? table.seats[mySeat] : null;
    const gm = gmToken(code);
    append(clear(header), 
      h("h1", {}, t("table.title", { code })),
      isGm
        ? h("p", { class: "muted", id: "gm-view" }, t("table.gm_view"))
        : me ? h("p", { class: "muted", id: "playing-as" }, t("table.playing_as", { name: me.name })) : table && table.status !== "open" ? h("p", { class: "muted", id: "spectating" }, t("table.spectating")) : null,
      table?.abilities ? h("p", { class: "muted", id: "abilities-info" }, abilitiesLine(table.abilities)) : null,
      gm && !isGm && mySeat === null && table && table.status !== "open" ? h("p", {}, h("a", { href: gmLink(code, gm), target: "_blank", rel: "noopener", id: "gm-link-play" }, t("table.gm_link"))) : null,
      table?.ended === "idle" ? h("p", { class: "banner", id: "idle-ended" }, t("table.idle_ended")) : null,
      table?.ended === "runaway" ? h("p", { class: "banner", id: "runaway-ended" }, t("table.runaway_ended")) : null,
      mySeat !== null && !isGm && table && table.status !== "finished" ? turnNote.el : null,
      canTakeBack()
        ? h("button", { type: "button", class: "small", id: "take-back", title: t("table.take_back_help"), onclick: () => { hideCard(); send({ type: "take_back" }); } }, t("table.take_back"))
        : null,
    );
  }

  // Take-back (the server decides, take_back.py): only for a person whose
  // every other seat is a bot, while the game is played.
  function canTakeBack() {
    if (mySeat === null || isGm || table?.status !== "playing") return false;
    return table.seats.every((s, p) => p === mySeat || s?.kind === "bot");
  }

  async function act(fn) {
    try {
      await fn();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  function seating() {
    const invite = `${location.origin}/t/${code}`;
    const manage = canManage();
    const levels = meta?.levels || ["random"];
    // The server's default level (medium, as the terminal's --opponents).
    const wanted = meta?.defaults?.bot_level || "medium";
    const preferred = levels.includes(wanted) ? wanted : levels[0];
    const levelSelect = (id) => h("select", { class: "bot-level", id }, levels.map((l) => h("option", { value: l, selected: l === preferred }, levelName(l))));
    const rows = Array.from({ length: table.players }, (_, p) => {
      const s = table.seats[p];
      if (s) {
        return h(
          "li",
          { class: "seat-row taken", dataset: { seat: String(p) } },
          h("strong", {}, s.name),
          p === mySeat ? h("span", { class: "tag" }, t("seat.you")) : null,
          s.kind === "bot" ? h("span", { class: "tag" }, t("seat.bot", { level: levelName(s.bot) })) : null,
          s.kind === "human" && p !== mySeat && hostToken(code)
            ? h("button", { type: "button", class: "small remove-player", dataset: { seat: String(p) }, onclick: () => act(() => api("DELETE", `/api/tables/${code}/seats/${p}`, undefined, hostToken(code))) }, t("seat.remove_player", { name: s.name }))
            : null,
          s.kind === "bot" && manage ? h("button", { type: "button", class: "small", onclick: () => act(() => api("DELETE", `/api/tables/${code}/seats/${p}`, undefined, manageToken())) }, t("seat.remove")) : null,
          p === mySeat
            ? h("button", { type: "button", class: "small", onclick: () => act(async () => {
                await api("DELETE", `/api/tables/${code}/seats/${p}`, undefined, token);
                forgetToken(code);
                token = null;
                history.replaceState(null, "", `/t/${code}`);
                reconnect();
              }) }, t("seat.leave"))
            : null,
        );
      }
      // The name the lobby asked once (remembered), offered here too.
      const nameInput = h("input", { class: "seat-name", placeholder: t("seat.your_name"), maxlength: "24", autocomplete: "nickname", value: savedName() });
      const sit = async () => {
        saveName(nameInput.value.trim());
        // The host's token goes along: a creator who plays is no game-master
        // (the server ends that role, and this page forgets its link).
        const made = await api("POST", `/api/tables/${code}/seats`, { seat: p, name: nameInput.value }, hostToken(code) || undefined, playerKey());
        forgetGmToken(code);
        token = made.token;
        saveToken(code, token);
        reconnect();
      };
      const level = levelSelect(`bot-level-${p}`);
      return h(
        "li",
        { class: "seat-row free", dataset: { seat: String(p) } },
        h("span", { class: "muted" }, t("seat.free")),
        mySeat === null && !isGm
          ? h("form", { class: "sit", onsubmit: (e) => { e.preventDefault(); act(sit); } }, nameInput, h("button", { type: "submit", class: "primary" }, t("seat.take")))
          : null,
        manage ? h("span", { class: "add-bot" }, level, h("button", { type: "button", class: "small", onclick: () => act(() => api("POST", `/api/tables/${code}/bots`, { seat: p, level: level.value }, manageToken())) }, t("seat.add_bot"))) : null,
      );
    });
    const full = Object.values(table.seats).filter(Boolean).length === table.players;
    const fillLevel = levelSelect("fill-level");
    return h(
      "section",
      { class: "seating", id: "seating" },
      h(
        "div",
        { class: "invite" },
        h("p", {}, t("table.code"), ": ", h("strong", { class: "code", id: "table-code" }, code)),
        h("p", {}, t("table.invite"), ": ", h("a", { href: invite, id: "invite-link" }, invite), " ",
          h("button", { type: "button", class: "small", onclick: () => navigator.clipboard?.writeText(invite).then(() => toast(t("table.copied"))) }, t("table.copy"))),
        h("p", { class: "muted" }, `${t(`ruleset.${table.ruleset}`)} · ${t(`preset.${table.preset}`)} · ${table.starting_gold} ${t("word.gold")}`),
        table.turn_seconds ? h("p", { class: "muted", id: "turn-info" }, t("turn.info", { seconds: table.turn_seconds })) : null,
        gmToken(code) && !isGm && mySeat === null
          ? h("p", { id: "gm-box" }, t("table.gm_link"), ": ", h("a", { href: gmLink(code, gmToken(code)), id: "gm-link", target: "_blank", rel: "noopener" }, t("table.gm_open")), " ", h("span", { class: "muted" }, t("table.gm_help")))
          : null,
      ),
      h("ol", { class: "seat-list" }, rows),
      manage ? h("p", {}, h("label", {}, h("input", { type: "checkbox", id: "unlisted", checked: Boolean(table.unlisted), onchange: (e) => act(() => api("POST", `/api/tables/${code}/listing`, { unlisted: e.target.checked }, hostToken(code))) }), " ", t("table.make_unlisted"))) : null,
      manage && !full ? h("p", {}, fillLevel, " ", h("button", { type: "button", id: "fill-bots", onclick: () => act(() => api("POST", `/api/tables/${code}/bots`, { fill: true, level: fillLevel.value }, manageToken())) }, t("seat.fill_bots"))) : null,
      manage
        ? h("p", {}, h("button", { type: "button", class: "primary", id: "start", disabled: !full, onclick: () => act(() => api("POST", `/api/tables/${code}/start`, undefined, manageToken())) }, t("table.start")), full ? null : h("span", { class: "muted" }, " ", t("table.need_seats")))
        : null,
    );
  }

  // ``decision`` is the question the button was drawn for: if a newer
  // question arrived meanwhile, the server refuses it as stale.
  function answer(value, decision) {
    if (busy || !last?.view?.question) return;
    busy = true;
    hideCard();
    if (summary && !summary.final) summary = null; // answered: the gambit's box has been read
    send({ type: "answer", decision, answer: value });
    render();
  }

  // The token this page asks for the rematch with: its seat's (which claims
  // the same seat there with a fresh token), else the host's.
  function rematchToken() {
    return (mySeat !== null && !isGm ? token : null) || hostToken(code);
  }

  // Move this page to the rematch table with what the server gave it there:
  // a fresh seat token (seat tokens are new at every table of a chain), a
  // new game-master token for a creator who did not play; none carried over.
  function joinRematch(next, given = {}) {
    if (given.token) saveToken(next, given.token);
    if (hostToken(code)) saveHostToken(next, hostToken(code));
    if (given.gm_token) saveGmToken(next, given.gm_token);
    const seat = given.token || savedToken(next);
    const gm = gmMode ? given.gm_token || gmToken(next) : null;
    const frag = gm ? `#gm=${encodeURIComponent(gm)}` : seat ? `#token=${encodeURIComponent(seat)}` : "";
    location.assign(`/t/${next}${frag}`);
  }

  function renderRematch() {
    const asker = rematchToken();
    const ask = () => api("POST", `/api/tables/${code}/rematch`, undefined, asker);
    append(clear(rematchSlot), rematchBar(table, {
      canOffer: Boolean(asker),
      onOffer: () => act(async () => {
        const made = await ask();
        joinRematch(made.code, made);
      }),
      onJoin: (next) => act(async () => joinRematch(next, asker ? await ask() : {})),
    }));
  }

  // From 700px a gambit's summary floats over the seats, above your dock:
  // the seats' area grows to hold it (as far as the screen allows, the dock
  // staying on it), and a longer summary scrolls inside, so it never hides
  // under the dock, nor the dock under it.
  function fitSummary(board) {
    const box = summarySlot.firstElementChild;
    const ring = board.querySelector("#seats");
    const dock = board.querySelector("#dock");
    if (!box || !ring || !dock || box.classList.contains("final")) return;
    if (getComputedStyle(summarySlot).position !== "absolute") return; // a phone: in the flow
    const margin = 16;
    const space = innerHeight - board.getBoundingClientRect().top - dock.offsetHeight - margin;
    const height = Math.max(ring.offsetHeight, Math.min(box.scrollHeight + margin, space));
    ring.style.minHeight = `${height}px`;
    box.style.maxHeight = `${height - margin}px`;
  }

  // A new question for this seat scrolled out of sight (a phone reading the
  // seats or the log) comes back into view, with the hand below it.
  function showQuestion(question) {
    if (!question) return;
    const r = question.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) question.scrollIntoView({ block: "nearest" });
  }

  function followHints() {
    hints.follow(table, table.status === "playing" ? last?.view?.question ?? null : null, isGm ? null : mySeat);
  }

  function renderAway() {
    append(clear(awaySlot), awayPanel(table, isGm ? null : mySeat, send), handover.update(table));
  }

  function render() {
    if (!table) return;
    renderHeader();
    renderAway();
    renderRematch();
    renderSummary();
    countdown.follow(table, last?.view?.question?.id ?? null);
    followHints();
    const focus = focusSnapshot(main);
    clear(main);
    if (table.status === "open") {
      main.append(seating());
      return;
    }
    if (last?.view) {
      const q = last.view.question;
      const mine = mySeat !== null && !isGm && q && q.seat === mySeat && last.answers?.length;
      const fresh = Boolean(mine && q.id !== askedId);
      askedId = mine ? q.id : null;
      // A face-down ante already chosen waits on the others, not on you.
      turnNote.update(mine && !(last.face_down && "chosen" in last.face_down), fresh, q?.text || q?.prompt);
      // The gambit's box closes by itself once your next decision comes (the
      // one it was shown with, if any, is still "this" decision).
      if (fresh && summary && !summary.final && summary.asked !== q.id) closeSummary();
      const board = renderBoard(last, { table, interactive: mySeat !== null && !isGm, onAnswer: answer, busy, events });
      // The summaries never push the question down: the slot sits after your
      // part of the table (the dock), and from 700px it floats over the seats.
      board.insertBefore(summarySlot, board.querySelector("#seats"));
      main.append(board);
      fitSummary(board);
      placeCard(); // a card's text open over a box that just opened moves aside
      fitNames(main);
      restoreFocus(main, focus, fresh);
      if (fresh) showQuestion(main.querySelector("#question"));
      if (fresh) announcer.textContent = `${t("table.question")}: ${q.text || q.prompt}`;
    } else {
      turnNote.update(false, false, "");
      main.append(h("p", { class: "muted" }, t("table.connecting")));
    }
  }

  connect();
  return {
    rerender() {
      logBox.firstChild.textContent = t("table.log");
      chat.relabel();
      turnNote.relabel();
      tips.relabel();
      send({ type: "lang", lang });
      render();
    },
    destroy() {
      stopped = true;
      unbindKeys();
      countdown.stop();
      turnNote.stop();
      if (ws) ws.close();
    },
    get state() {
      return { connState, mySeat, isGm };
    },
  };
}
