// JSON over HTTP to the lobby API; refusals come back as {error, detail}.
import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail || code);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body = undefined, token = undefined, key = undefined) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (key) headers["X-Player-Key"] = key; // a player key (players.js): a header, never the URL
  let r;
  try {
    r = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", t("error.network"));
  }
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = null;
  }
  if (!r.ok) {
    const code = data?.error || "error";
    throw new ApiError(r.status, code, refusal(code, r) || data?.detail || r.statusText);
  }
  return data;
}

// Refusals by a limit, said in the reader's language (the server's detail is
// English), with the wait the server asks for (Retry-After) when it gives one.
const SAID_HERE = new Set(["rate_limited", "server_full", "expired", "unknown_table"]);

function refusal(code, response) {
  if (!SAID_HERE.has(code)) return null;
  const wait = Number(response.headers.get("Retry-After"));
  if (code === "rate_limited" && wait > 0) return t("error.rate_limited_wait", { seconds: wait });
  return t(`error.${code}`);
}

// Seat and host tokens, per table code: localStorage keeps them across
// closing the page; the URL fragment (#token=...) carries a seat to another
// browser without sending it to the server in any request line.
export function savedToken(code) {
  return localStorage.getItem(`dragonante.seat.${code}`);
}
export function saveToken(code, token) {
  localStorage.setItem(`dragonante.seat.${code}`, token);
}
export function forgetToken(code) {
  localStorage.removeItem(`dragonante.seat.${code}`);
}
export function hostToken(code) {
  return localStorage.getItem(`dragonante.host.${code}`);
}
export function saveHostToken(code, token) {
  localStorage.setItem(`dragonante.host.${code}`, token);
}
// The game-master token of a table with hidden abilities (its creator's only).
export function gmToken(code) {
  return localStorage.getItem(`dragonante.gm.${code}`);
}
export function saveGmToken(code, token) {
  localStorage.setItem(`dragonante.gm.${code}`, token);
}
export function forgetGmToken(code) {
  localStorage.removeItem(`dragonante.gm.${code}`);
}

// Your name, asked once (the lobby) and offered wherever you sit down.
export function savedName() {
  return localStorage.getItem("dragonante.name") || "";
}
export function saveName(name) {
  if (name) localStorage.setItem("dragonante.name", name);
  else localStorage.removeItem("dragonante.name");
}
