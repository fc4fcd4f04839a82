// The lobby's turn timer, in seconds, minutes, hours or days (issue 32,
// section 4): a table may play like Board Game Arena's turn-based mode, a
// move a day, and nobody should have to type 172800 for two days.  The
// server takes seconds (`turn_seconds`, up to its `turn_timer.max`).
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const UNITS = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };

// The amount and unit fields, from the form's saved values `v`.
export function turnTimerField(v, meta) {
  const unit = v.turn_unit in UNITS ? v.turn_unit : "seconds";
  const max = meta.turn_timer?.max ?? 600;
  const amount = h("input", { type: "number", name: "turn_amount", id: "f-turn_amount", value: String(v.turn_amount ?? 0), min: "0", max: String(max), inputmode: "numeric", "aria-label": t("lobby.turn_timer") });
  const units = h("select", { name: "turn_unit", id: "f-turn_unit", "aria-label": t("lobby.turn_unit") }, Object.keys(UNITS).map((u) => h("option", { value: u, selected: u === unit }, t(`lobby.turn_unit.${u}`))));
  return h("span", { class: "turn-timer" }, amount, " ", units);
}

// The form's timer in seconds (0: none).
export function turnSeconds(f) {
  const amount = Number.parseFloat(f.turn_amount || "0") || 0;
  return Math.round(amount * (UNITS[f.turn_unit] || 1));
}
