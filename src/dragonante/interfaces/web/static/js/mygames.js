// My games (/me): every table this browser's player key sits at, with whose
// turn it is, and the personal link (and its QR code) that opens the same
// person on another device.  The link is a secret: shown only on request,
// with a word of warning, and its QR code is fetched with the key in a
// header (never in the image's address).
import { ApiError, api } from "./api.js";
import { append, clear, h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { ensurePlayer, personalLink, playerKey, whoAmI } from "./players.js";

const REFRESH_MS = 20000;

function gameLine(g) {
  const names = g.names ? g.names.map((n, p) => (p === g.seat ? t("players.you_named", { name: n }) : n)).join(", ") : "";
  let state;
  if (g.status === "open") state = t("players.game_open");
  else if (g.status === "finished") state = g.ended ? t("players.game_ended") : g.winners.includes(g.seat) ? t("players.game_won") : t("players.game_lost");
  else if (g.your_turn) state = t("players.your_turn");
  else if (g.waiting.length) state = t("players.waiting_for", { names: g.waiting.map((p) => g.names?.[p] ?? `#${p + 1}`).join(", ") });
  else state = t("players.game_playing");
  const href = g.status === "finished" ? `/r/${g.code}` : `/t/${g.code}`;
  return h(
    "li",
    { class: g.your_turn ? "my-game your-turn" : "my-game", dataset: { code: g.code } },
    h("a", { href }, g.code),
    " ",
    h("strong", { class: "my-game-state" }, state),
    names ? h("span", { class: "muted" }, " · ", names) : null,
  );
}

async function qrImage() {
  const r = await fetch("/api/players/me/qr", { headers: { "X-Player-Key": playerKey() } });
  if (!r.ok) throw new ApiError(r.status, "qr", t("error.network"));
  // A data: address (the page's Content-Security-Policy allows no blob:).
  const url = `data:image/svg+xml,${encodeURIComponent(await r.text())}`;
  return h("img", { src: url, alt: t("players.qr_alt"), id: "personal-qr", width: "180", height: "180" });
}

function linkBox() {
  const box = h("div", { id: "personal-link-box", hidden: true });
  const show = h("button", { type: "button", id: "show-personal-link" }, t("players.show_link"));
  show.addEventListener("click", async () => {
    const link = personalLink();
    const input = h("input", { id: "personal-link", readonly: true, value: link, size: "60" });
    const copy = h("button", { type: "button", class: "small", onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        toast(t("players.copied"));
      } catch {
        input.select();
      }
    } }, t("players.copy"));
    append(clear(box), h("p", { class: "warning" }, t("players.link_secret")), h("p", {}, input, " ", copy));
    box.hidden = false;
    show.hidden = true;
    try {
      box.append(await qrImage());
    } catch (err) {
      box.append(h("p", { class: "error" }, err.message));
    }
  });
  return h("section", { class: "personal-link" }, h("h2", {}, t("players.link_heading")), h("p", {}, t("players.link_help")), show, box, h("p", { class: "muted" }, t("players.terminal_help")));
}

export function mountMyGames(root) {
  let timer = 0;
  let me = null;
  const list = h("ul", { id: "my-games", class: "my-games" });
  const who = h("p", { id: "my-id" });
  const linkSection = linkBox();

  function render() {
    if (!me) return;
    clear(who);
    append(who, t("players.your_id"), " ", h("code", { id: "my-player-id" }, me.id), " ", h("a", { href: `/players/${me.id}` }, t("players.your_page")));
    const games = me.games.map(gameLine);
    list.replaceChildren(...(games.length ? games : [h("li", { class: "muted" }, t("players.no_games"))]));
    document.title = me.your_turn ? `(${me.your_turn}) ${t("players.my_games")}` : t("players.my_games");
  }

  async function load() {
    try {
      me = await whoAmI();
      render();
    } catch (err) {
      append(clear(list), h("li", { class: "error" }, err.message));
    }
  }

  async function start() {
    append(clear(root), h("section", { class: "my-games-page" }, h("h1", {}, t("players.my_games")), who, list, linkSection, h("p", {}, h("a", { href: "/leaderboard" }, t("players.leaderboard")))));
    if (!(await ensurePlayer())) {
      append(clear(list), h("li", { class: "error" }, t("players.no_key")));
      return;
    }
    await load();
    timer = setInterval(() => { if (!document.hidden) load(); }, REFRESH_MS);
  }

  start();
  return {
    rerender: () => { clearInterval(timer); start(); },
    refresh: load,
    stop: () => clearInterval(timer),
  };
}
