// "Rules": the rules primer in a dialog, from any page (the header's button).
// The text is the server's catalogue (GET /api/primer?lang=..., the same
// `dragonante rules` prints and docs/primer.md shows), fetched once per
// language.  openPrimer("trigger") opens it at that section: an explanation
// elsewhere links to a section by its stable id (primer.trigger).
import { api } from "./api.js";
import { append, clear, h } from "./dom.js";
import { lang, onLangChange, t } from "./i18n.js";

const cache = new Map();
let dialog = null;

function primerText(l) {
  if (!cache.has(l)) cache.set(l, api("GET", `/api/primer?lang=${encodeURIComponent(l)}`).catch((e) => { cache.delete(l); throw e; }));
  return cache.get(l);
}

// A section's lines: paragraphs, and runs of "- " or "1. " items as lists.
function sectionBody(lines) {
  const out = [];
  let list = null;
  for (const line of lines) {
    const m = /^(- |\d+\. )(.*)$/.exec(line);
    if (m) {
      const tag = m[1] === "- " ? "ul" : "ol";
      if (!list || list.tagName.toLowerCase() !== tag) out.push((list = h(tag, {})));
      list.append(h("li", {}, m[2]));
    } else {
      list = null;
      out.push(h("p", {}, line));
    }
  }
  return out;
}

function ensureDialog() {
  if (dialog) return dialog;
  dialog = h("dialog", { class: "primer", id: "primer", "aria-labelledby": "primer-title" });
  dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
  document.body.append(dialog);
  return dialog;
}

export async function openPrimer(section = null) {
  const box = ensureDialog();
  const close = h("button", { type: "button", class: "primer-close", onclick: () => box.close() }, t("primer.close"));
  append(clear(box), h("p", { class: "muted" }, t("primer.loading")));
  if (!box.open) box.showModal();
  let data;
  try {
    data = await primerText(lang);
  } catch {
    append(clear(box), h("p", { class: "error" }, t("primer.error")), close);
    return;
  }
  const contents = h("nav", { class: "primer-contents", "aria-label": t("primer.contents") },
    h("ol", {}, data.sections.map((s) => h("li", {}, h("a", { href: `#primer-${s.id}`, onclick: (e) => { e.preventDefault(); goTo(s.id); } }, s.title)))));
  const sections = data.sections.map((s) =>
    h("section", { id: `primer-${s.id}`, dataset: { key: s.key } }, h("h3", {}, s.title), sectionBody(s.lines)));
  const body = h("div", { class: "primer-body" }, h("p", {}, data.intro), contents, sections);
  append(clear(box), h("div", { class: "primer-head" }, h("h2", { id: "primer-title" }, data.title), close), body);
  function goTo(id) {
    box.querySelector(`#primer-${CSS.escape(id)}`)?.scrollIntoView({ block: "start" });
  }
  const id = section ? String(section).replace(/^primer\./, "") : null;
  if (id) goTo(id);
  else body.scrollTop = 0;
  close.focus();
}

// The header's "Rules" button (index.html), labelled in the page's language.
export function mountRulesButton(button) {
  if (!button) return;
  const label = () => { button.textContent = t("nav.rules"); };
  label();
  onLangChange(() => {
    label();
    if (dialog?.open) openPrimer();
  });
  button.addEventListener("click", () => openPrimer());
}
