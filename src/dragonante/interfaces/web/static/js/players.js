// The player key in the browser (issue 32, section 4): a person without a
// password or an e-mail.  Made by the server on the first visit and kept in
// localStorage, it goes to the server only in the X-Player-Key header and
// in the WebSocket's hello, never in an address.  The personal link carries
// it in its fragment (/me#key=...), which no request line holds; the page
// that opens such a link takes the key and takes it out of the address bar
// at once (history.replaceState), so copying the address hands nothing over.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./render.js";

const KEY = "dragonante.player.key";
const ID = "dragonante.player.id";

export function playerKey() {
  return localStorage.getItem(KEY);
}

export function playerId() {
  return localStorage.getItem(ID);
}

// The personal link of this browser's key (to open it on another device).
export function personalLink() {
  const key = playerKey();
  return key ? `${location.origin}/me#key=${encodeURIComponent(key)}` : null;
}

// A personal link opened here: its key becomes this browser's (the same
// person on another device), and the address loses it before anything else.
export function adoptKeyFromLink() {
  const m = /(?:^|[#&])key=([^&]+)/.exec(location.hash);
  if (!m) return false;
  const key = decodeURIComponent(m[1]);
  history.replaceState(null, "", location.pathname + location.search);
  if (key !== playerKey()) {
    localStorage.setItem(KEY, key);
    localStorage.removeItem(ID); // learnt again from /api/players/me
  }
  return true;
}

// This browser's key, made on the first visit.  A refusal (a limit, the
// server away) leaves the page working without one: seats are then held by
// their seat tokens only, as before keys.
export async function ensurePlayer() {
  if (playerKey()) return playerKey();
  try {
    const made = await api("POST", "/api/players");
    localStorage.setItem(KEY, made.key);
    localStorage.setItem(ID, made.id);
    return made.key;
  } catch {
    return null;
  }
}

// Who this key is, with their games; remembers the public id.
export async function whoAmI() {
  const me = await api("GET", "/api/players/me", undefined, undefined, playerKey());
  localStorage.setItem(ID, me.id);
  return me;
}

// The host's panel for a person who lost their key: their seat goes to the
// public id of their new key (shown on their My games page).  Made once per
// table page, so what the host types survives the table's updates.
export function handSeatPanel(code, hostToken, act) {
  const seatSelect = h("select", { id: "hand-seat-seat" });
  const idInput = h("input", { id: "hand-seat-player", placeholder: "p0123456789", maxlength: "11", autocomplete: "off", spellcheck: "false" });
  const button = h("button", { type: "button", id: "hand-seat-go", class: "small" }, t("players.hand_seat_go"));
  const help = h("p", { class: "muted" }, t("players.hand_seat_help"));
  const summary = h("summary", {}, t("players.hand_seat"));
  const el = h("details", { class: "hand-seat", id: "hand-seat" }, summary, help, h("p", {}, seatSelect, " ", idInput, " ", button));
  button.addEventListener("click", () => act(async () => {
    await api("POST", `/api/tables/${code}/seats/${seatSelect.value}/player`, { player: idInput.value.trim() }, hostToken());
    idInput.value = "";
    el.open = false;
  }));
  return {
    el,
    // null unless this page is the host's, the table in play, and a person seated.
    update(table) {
      summary.textContent = t("players.hand_seat");
      help.textContent = t("players.hand_seat_help");
      button.textContent = t("players.hand_seat_go");
      const people = (table?.seats || []).map((s, p) => (s && s.kind === "human" ? p : null)).filter((p) => p !== null);
      if (!hostToken() || !table || !["open", "playing"].includes(table.status) || !people.length) return null;
      const chosen = seatSelect.value;
      seatSelect.replaceChildren(...people.map((p) => h("option", { value: String(p), selected: String(p) === chosen }, seatName(table, p))));
      return el;
    },
  };
}
