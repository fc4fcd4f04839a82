// Away seats and the server's limits, as the table page shows them.
//
// A person disconnected for longer than the server's `--away-after` is
// "away" in the table summary; any other seated player may then let a bot
// play for them (`hand_to_bot`), and the seat returns to its person when
// they reconnect.  Kept apart from render.js so the board's look can change
// without touching this.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./render.js";

// Close codes of refusals by a limit (1008, 1013) and of an expired table (4410).
export const LIMIT_CLOSE = new Map([[1008, "error.too_many_sockets"], [1013, "error.rate_limited"]]);
export const EXPIRED_CLOSE = 4410;

// The away seats (other than `mySeat`) with a button each for a seated
// player, and the seats a bot plays for; null when there is nothing to show.
export function awayPanel(table, mySeat, send) {
  if (!table || table.status !== "playing") return null;
  const away = [];
  const handed = [];
  for (let p = 0; p < table.players; p += 1) {
    if (table.away?.[p] && p !== mySeat) away.push(p);
    if (table.handed?.[p]) handed.push(p);
  }
  if (!away.length && !handed.length) return null;
  return h(
    "section",
    { class: "away", id: "away", "aria-live": "polite" },
    h("h2", {}, t("away.heading")),
    h(
      "ul",
      {},
      away.map((p) => {
        const name = seatName(table, p);
        return h(
          "li",
          { dataset: { seat: String(p) } },
          t("away.is_away", { name }),
          " ",
          mySeat !== null
            ? h("button", { type: "button", class: "small hand-to-bot", dataset: { seat: String(p) }, onclick: () => send({ type: "hand_to_bot", seat: p }) }, t("away.button", { name }))
            : null,
        );
      }),
      handed.map((p) => h("li", { class: "handed", dataset: { seat: String(p) } }, t("away.handed", { name: seatName(table, p) }))),
    ),
  );
}

// The sentence announcing a `handover` frame.
export function handoverText(msg, table) {
  const name = seatName(table, msg.seat);
  if (msg.to === "player") return t("away.to_player", { name });
  return t("away.to_bot", { name, by: seatName(table, msg.by) });
}
