// The web client's message catalogs (the same files the server narrates
// events from): English and Italian, chosen by the header's switch and
// remembered in localStorage.

const catalogs = {};
const listeners = new Set();
export const LANGS = ["en", "it"];

function initialLang() {
  const saved = localStorage.getItem("dragonante.lang");
  if (LANGS.includes(saved)) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("it") ? "it" : "en";
}

export let lang = initialLang();

async function fetchCatalog(l) {
  if (!catalogs[l]) {
    const r = await fetch(`/static/i18n/${l}.json`);
    catalogs[l] = await r.json();
  }
  return catalogs[l];
}

export async function setLang(l) {
  if (!LANGS.includes(l)) l = "en";
  await Promise.all([fetchCatalog("en"), fetchCatalog(l)]);
  lang = l;
  localStorage.setItem("dragonante.lang", l);
  document.documentElement.lang = l;
  for (const fn of listeners) fn(l);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function t(key, params = {}) {
  const msg = catalogs[lang]?.[key] ?? catalogs.en?.[key] ?? key;
  return msg.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}
