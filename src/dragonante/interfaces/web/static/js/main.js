// Entry point: load the language and the cards, then show the page the URL
// names: the lobby (/), a table (/t/CODE), a replay (/r/CODE) or Learn to play (/learn).
import { loadAbilities } from "./abilities.js";
import { loadCards } from "./cards.js";
import { lang, onLangChange, setLang, t } from "./i18n.js";
import { mountLearn } from "./learn.js";
import { mountLeaderboard, mountPlayer } from "./leaderboard.js";
import { mountLobby } from "./lobby.js";
import { mountMyGames } from "./mygames.js";
import { adoptKeyFromLink, ensurePlayer } from "./players.js";
import { mountRulesButton } from "./primer.js";
import { mountReplay } from "./replay.js";
import { mountTable } from "./table.js";

let page = null;

function header() {
  document.title = t("app.title");
  document.getElementById("brand").textContent = t("app.title");
  document.getElementById("nav-lobby").textContent = t("nav.lobby");
  document.getElementById("lang-label").textContent = t("nav.language");
  document.getElementById("nav-me").textContent = t("players.my_games");
  document.getElementById("nav-leaderboard").textContent = t("players.leaderboard");
  document.getElementById("lang-select").value = lang;
}

function route() {
  const root = document.getElementById("app");
  const path = location.pathname;
  let m;
  if ((m = /^\/t\/([^/]+)\/?$/.exec(path))) page = mountTable(root, decodeURIComponent(m[1]));
  else if ((m = /^\/r\/([^/]+)\/?$/.exec(path))) page = mountReplay(root, decodeURIComponent(m[1]));
  else if (/^\/learn\/?$/.test(path)) page = mountLearn(root);
  else if (/^\/me\/?$/.test(path)) page = mountMyGames(root);
  else if (/^\/leaderboard\/?$/.test(path)) page = mountLeaderboard(root);
  else if ((m = /^\/players\/([^/]+)\/?$/.exec(path))) page = mountPlayer(root, decodeURIComponent(m[1]));
  else page = mountLobby(root);
  window.dragonante = page; // for the browser tests and the curious
}

async function boot() {
  adoptKeyFromLink(); // a personal link's key, out of the address bar first
  await setLang(lang);
  header();
  document.getElementById("lang-select").addEventListener("change", (e) => setLang(e.target.value));
  mountRulesButton(document.getElementById("nav-rules"));
  onLangChange(() => {
    header();
    page?.rerender?.();
  });
  await Promise.all([loadCards(), loadAbilities(), ensurePlayer()]);
  route();
}

boot().catch((err) => {
  document.getElementById("app").textContent = String(err);
});
