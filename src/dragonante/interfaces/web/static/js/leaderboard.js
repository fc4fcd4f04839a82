// The leaderboard (/leaderboard) and a player's page (/players/ID): openskill
// ratings of the player keys, from finished games (issue 32, section 5).
// Public: names and public ids only, never a key.
import { api } from "./api.js";
import { append, clear, h } from "./dom.js";
import { t } from "./i18n.js";

function ratingText(r) {
  return r ? t("players.rating_value", { ordinal: r.ordinal.toFixed(1), mu: r.mu.toFixed(1), sigma: r.sigma.toFixed(1) }) : t("players.unrated");
}

export function mountLeaderboard(root) {
  async function render() {
    const board = h("table", { id: "leaderboard", class: "leaderboard" });
    append(clear(root), h("section", {}, h("h1", {}, t("players.leaderboard")), h("p", { class: "muted" }, t("players.leaderboard_help")), board));
    try {
      const { players } = await api("GET", "/api/leaderboard");
      board.append(
        h("thead", {}, h("tr", {}, ["#", t("players.name"), t("players.rating"), t("players.games"), t("players.wins")].map((c) => h("th", {}, c)))),
        h("tbody", {}, players.map((p) => h("tr", { dataset: { player: p.id } }, h("td", {}, String(p.rank)), h("td", {}, h("a", { href: `/players/${p.id}` }, p.name || p.id)), h("td", {}, ratingText(p)), h("td", {}, String(p.games)), h("td", {}, String(p.wins))))),
      );
      if (!players.length) root.querySelector("section").append(h("p", { class: "muted", id: "leaderboard-empty" }, t("players.leaderboard_empty")));
    } catch (err) {
      root.append(h("p", { class: "error" }, err.message));
    }
  }
  render();
  return { rerender: render };
}

// The rating over time as a line of its ordinal (mu - 3 sigma), in SVG.
function ratingChart(history) {
  const NS = "http://www.w3.org/2000/svg";
  const W = 320;
  const H = 120;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", String(W));
  svg.setAttribute("height", String(H));
  svg.setAttribute("id", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("players.rating_over_time"));
  const values = [0, ...history.map((s) => s.ordinal)];
  const lo = Math.min(...values);
  const hi = Math.max(...values, lo + 1);
  const x = (i) => 10 + (i * (W - 20)) / Math.max(1, values.length - 1);
  const y = (v) => H - 10 - ((v - lo) * (H - 20)) / (hi - lo);
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  return svg;
}

export function mountPlayer(root, pid) {
  async function render() {
    clear(root);
    try {
      const p = await api("GET", `/api/players/${encodeURIComponent(pid)}`);
      append(
        root,
        h(
          "section",
          { class: "player-page", id: "player-page" },
          h("h1", {}, p.name || p.id),
          h("p", { id: "player-rating" }, t("players.rating"), ": ", ratingText(p.rating)),
          h("p", { id: "player-record" }, t("players.record", { games: p.games.length, wins: p.wins })),
          p.history.length ? h("figure", {}, ratingChart(p.history), h("figcaption", { class: "muted" }, t("players.rating_over_time"))) : null,
          h("ul", { id: "player-games" }, p.games.map((g) => h("li", {}, h("a", { href: `/r/${g.code}` }, g.code), " ", g.ended ? t("players.game_ended") : g.won ? t("players.game_won") : t("players.game_lost")))),
          h("p", {}, h("a", { href: "/leaderboard" }, t("players.leaderboard"))),
        ),
      );
    } catch (err) {
      append(root, h("p", { class: "error", id: "player-error" }, err.message));
    }
  }
  render();
  return { rerender: render };
}
