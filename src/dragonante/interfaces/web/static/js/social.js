// The turn timer's countdown and the rematch offer, as the table page shows them.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./render.js";

// A countdown from the server's `turn` frames.  The frame says how many
// seconds are left; the page counts down from its own clock, so the two
// machines' clocks never need to agree.
export function turnCountdown() {
  const el = h("p", { class: "turn-timer", id: "turn-timer", role: "timer", "aria-live": "off", hidden: true });
  let turn = null;
  let timer = 0;
  let table = null;
  let current = null;

  // The questions a clock runs for: one, or every seat's of a face-down
  // round (everyone antes at once, on one clock).
  const ids = (msg) => msg.decisions || [msg.decision];

  function draw() {
    if (!turn || !ids(turn).includes(current)) {
      el.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil((turn.endsAt - performance.now()) / 1000));
    el.hidden = false;
    el.classList.toggle("urgent", left <= 5);
    el.dataset.seat = String(turn.seat);
    el.textContent = turn.seats ? t("turn.countdown_all", { seconds: left }) : t("turn.countdown", { name: seatName(table, turn.seat), seconds: left });
  }

  return {
    el,
    // A `turn` frame.
    start(msg) {
      turn = { ...msg, endsAt: performance.now() + msg.seconds * 1000 };
      clearInterval(timer);
      timer = setInterval(draw, 250);
      draw();
    },
    // The question now in front of the table (the countdown shows only for it).
    follow(tableNow, decision) {
      table = tableNow;
      current = decision;
      if (turn && !ids(turn).includes(decision) && Math.max(...ids(turn)) < (decision ?? Infinity)) {
        turn = null;
        clearInterval(timer);
      }
      draw();
    },
    stop() {
      clearInterval(timer);
    },
  };
}

// After the game: the rematch on offer (join it), or a button to offer one.
export function rematchBar(table, { canOffer, onOffer, onJoin }) {
  if (!table || table.status !== "finished") return null;
  if (table.rematch) {
    return h(
      "section",
      { class: "rematch", id: "rematch" },
      h("p", {}, t("rematch.offered")),
      h("button", { type: "button", class: "primary", id: "rematch-join", onclick: () => onJoin(table.rematch) }, t("rematch.join")),
    );
  }
  if (!canOffer) return null;
  return h(
    "section",
    { class: "rematch", id: "rematch" },
    h("button", { type: "button", class: "primary", id: "rematch-offer", onclick: onOffer }, t("rematch.offer")),
    " ",
    h("span", { class: "muted" }, t("rematch.help")),
  );
}

// The sentence announcing a `rematch` frame.
export function rematchText(msg, table) {
  return msg.by === null || msg.by === undefined ? t("rematch.by_host") : t("rematch.by", { name: seatName(table, msg.by) });
}

// The sentence announcing a `timeout` frame.
export function timeoutText(msg, table) {
  return t("turn.timeout", { name: seatName(table, msg.seat) });
}
