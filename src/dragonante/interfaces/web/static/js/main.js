// Entry point: load the language and the cards, then show the page the URL
// names: the lobby (/), a table (/t/CODE), a replay (/r/CODE) or Learn to play (/learn).
import { loadAbilities } from "./abilities.js";
import { loadCards } from "./cards.js";
import { lang, onLangChange, setLang, t } from "./i18n.js";
import { mountLearn } from "./learn.js";
import { mountLobby } from "./lobby.js";
import { mountRulesButton } from "./primer.js";
import { mountReplay } from "./replay.js";
import { mountTable } from "./table.js";

let page = null;

function header() {
  document.title = t("app.title");
  document.getElementById("brand").textContent = t("app.title");
  document.getElementById("nav-lobby").textContent = t("nav.lobby");
  document.getElementById("lang-label").textContent = t("nav.language");
  document.getElementById("lang-select").value = lang;
}

function route() {
  const root = document.getElementById("app");
  const path = location.pathname;
  let m;
  if ((m = /^\/t\/([^/]+)\/?$/.exec(path))) page = mountTable(root, decodeURIComponent(m[1]));
  else if ((m = /^\/r\/([^/]+)\/?$/.exec(path))) page = mountReplay(root, decodeURIComponent(m[1]));
  else if (/^\/learn\/?$/.test(path)) page = mountLearn(root);
  else page = mountLobby(root);
  window.dragonante = page; // for the browser tests and the curious
}

async function boot() {
  await setLang(lang);
  header();
  document.getElementById("lang-select").addEventListener("change", (e) => setLang(e.target.value));
  mountRulesButton(document.getElementById("nav-rules"));
  onLangChange(() => {
    header();
    page?.rerender?.();
  });
  await Promise.all([loadCards(), loadAbilities()]);
  route();
}

boot().catch((err) => {
  document.getElementById("app").textContent = String(err);
});
