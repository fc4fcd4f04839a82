// The D&D abilities (every ability, both languages, from /api/abilities) and
// how a seat's abilities are drawn: each name is a focusable button whose
// rule text shows on hover, tap or keyboard focus (and is its description
// for screen readers).
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

let ABILITIES = [];
let uid = 0;

export async function loadAbilities() {
  if (ABILITIES.length) return;
  const r = await fetch("/api/abilities");
  ABILITIES = await r.json();
}

export function abilityName(n) {
  const a = ABILITIES[n];
  return a ? a.name[lang] || a.name.en : `#${n}`;
}

export function abilityText(n) {
  const a = ABILITIES[n];
  return a ? a.text[lang] || a.text.en || "" : "";
}

// One ability: its name, with the rule text on hover, tap or focus.
export function abilityEl(n, { spent = false } = {}) {
  const id = `ability-text-${++uid}`;
  const text = abilityText(n);
  return h(
    "li",
    { class: `ability${spent ? " spent" : ""}`, dataset: { ability: String(n), key: ABILITIES[n]?.key || "" } },
    h(
      "button",
      { type: "button", class: "ability-name", "aria-describedby": text ? id : undefined },
      abilityName(n),
      spent ? h("span", { class: "muted" }, ` (${t("ability.spent")})`) : null,
    ),
    text ? h("span", { class: "ability-text", role: "tooltip", id }, text) : null,
  );
}

// A seat's abilities as this view knows them (view.abilities from observe):
// the known names, how many are still hidden, the disk's side or the spent
// abilities and Diplomacy, and the Draconic Ancestry color when known.
export function seatAbilities(ab, p) {
  if (!ab) return null;
  const held = ab.held?.[p] || [];
  const count = ab.counts?.[p] ?? held.length;
  const hidden = Math.max(0, count - held.length);
  const spent = new Set(ab.spent?.[p] || []);
  const disk = ab.disks?.[p];
  const ancestry = ab.ancestry?.[p];
  if (!count && !disk) return null;
  return h(
    "div",
    { class: "abilities", dataset: { seat: String(p) }, "aria-label": t(`abilities.system.${ab.system}`) },
    disk ? h("span", { class: `tag disk ${disk}`, dataset: { disk } }, t(`abilities.disk.${disk}`)) : null,
    ab.diplomacy_used?.[p] ? h("span", { class: "tag diplomacy-used" }, t("abilities.diplomacy_used")) : null,
    held.length ? h("ul", { class: "ability-list" }, held.map((n) => abilityEl(n, { spent: spent.has(n) }))) : null,
    hidden ? h("span", { class: "muted hidden-count" }, t("abilities.hidden", { count: hidden })) : null,
    ancestry ? h("span", { class: "tag ancestry" }, t("abilities.ancestry", { color: t(`color.${ancestry}`) })) : null,
  );
}

// A table's abilities in one line (lobby lists, table header):
// "Legendary ability disks · random · 2 each · hidden".
export function abilitiesLine(ab) {
  return [t(`abilities.system.${ab.system}`), t(`abilities.assign.${ab.assign}`), t("abilities.per_character", { count: ab.per_character }), t(ab.public ? "abilities.public" : "abilities.hidden_all")].join(" · ");
}
