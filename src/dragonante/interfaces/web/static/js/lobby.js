// The lobby: Quick play first (you and three medium bots, one click), your
// name (asked once, remembered), a table of your own with every option
// (ruleset, deck, options, endings) folded under it, join by code, and the
// lists of open tables, games in progress and finished games.
import { abilitiesLine } from "./abilities.js";
import { api, saveGmToken, saveHostToken, savedName, saveName, saveToken } from "./api.js";
import { playerKey } from "./players.js";
import { turnSeconds, turnTimerField } from "./turntimer.js";
import { allCards } from "./cards.js";
import { append, clear, h, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { icon } from "./icons.js";

const ENDINGS = ["gambits", "target_gold", "players_remaining", "time_limit_minutes"];
// Quick play's table: you and three bots (of the server's default level,
// medium: no level is sent).
const QUICK_PLAYERS = 4;

function field(label, control, extraClass = "") {
  return h("label", { class: `field ${extraClass}` }, h("span", {}, label), control);
}

function select(name, values, labelOf, selected) {
  return h(
    "select",
    { name, id: `f-${name}` },
    values.map((v) => h("option", { value: String(v), selected: String(v) === String(selected) }, labelOf(v))),
  );
}

function number(name, value, min, max) {
  return h("input", { type: "number", name, id: `f-${name}`, value: String(value), min: String(min), max: String(max), inputmode: "numeric" });
}

export function mountLobby(root) {
  let meta = null;
  let timer = 0;
  let saved = {};
  let optionsOpen = false;
  const lists = h("div", { class: "lists" });

  function formValues(form) {
    const values = {};
    for (const el of form.elements) if (el.name) values[el.name] = el.type === "checkbox" ? el.checked : el.value;
    return values;
  }

  function buildForm() {
    const defaults = meta.defaults || {};
    const v = { ruleset: "legendary", preset: "legendary", ...defaults, ab_system: defaults.abilities || "", ab_assign: "random", ab_per_character: 0, ab_visibility: defaults.ability_visibility || "", play_for_fun: false, selection: "random", players: 4, gold_per_player: 10, starting_gold_fixed: 0, reveal_specials: false, name: "", ...saved };
    for (const e of ENDINGS) if (v[`ending_${e}`] === undefined) v[`ending_${e}`] = 0;
    const error = h("p", { class: "error", role: "alert", hidden: true });
    const legendaryOnly = h(
      "div",
      { class: "legendary-only" },
      field(t("lobby.selection"), select("selection", meta.selections, (s) => t(`selection.${s}`), v.selection)),
      field(t("lobby.special_count"), number("special_count", v.special_count ?? 10, 0, 30)),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "reveal_specials", id: "f-reveal_specials", checked: v.reveal_specials }), " ", t("lobby.reveal_specials")),
      h(
        "details",
        { class: "forced" },
        h("summary", {}, t("lobby.forced")),
        h("p", { class: "muted" }, t("lobby.forced_help")),
        h(
          "div",
          { class: "forced-list" },
          allCards()
            .filter((c) => c.set === "legendary-dragon" || c.set === "legendary-mortal")
            .map((c) => h("label", { class: "check" }, h("input", { type: "checkbox", name: `forced:${c.key}`, checked: Boolean(v[`forced:${c.key}`]) }), " ", c.name[lang] || c.name.en)),
        ),
      ),
    );
    // D&D abilities: the system, how characters get them, how many, who knows them.
    const abMeta = meta.abilities || { systems: [], assign: ["random"], visibility: [], per_character: {} };
    const abSystem = select("ab_system", ["", ...abMeta.systems], (s) => t(s ? `abilities.system.${s}` : "abilities.system.none"), v.ab_system);
    const abCount = h("select", { name: "ab_per_character", id: "f-ab_per_character" });
    const syncCount = () => {
      const pc = abMeta.per_character[abSystem.value];
      const keep = abCount.value || String(v.ab_per_character);
      abCount.replaceChildren(
        h("option", { value: "0" }, t("abilities.book_default", { count: pc ? pc.default : 0 })),
        ...Array.from({ length: pc ? pc.max : 0 }, (_, i) => h("option", { value: String(i + 1) }, String(i + 1))),
      );
      abCount.value = [...abCount.options].some((o) => o.value === keep) ? keep : "0";
    };
    const abilityOptions = h(
      "div",
      { class: "grid ability-options" },
      field(t("abilities.assign"), select("ab_assign", abMeta.assign, (a) => t(`abilities.assign.${a}`), v.ab_assign)),
      field(t("abilities.count"), abCount),
      field(t("abilities.visibility"), select("ab_visibility", ["", ...abMeta.visibility], (x) => t(x ? `abilities.visibility.${x}` : "abilities.visibility.book"), v.ab_visibility)),
    );
    const syncAbilities = () => {
      syncCount();
      abilityOptions.hidden = !abSystem.value;
    };
    abSystem.addEventListener("change", syncAbilities);
    const abilities = h(
      "fieldset",
      { class: "abilities-box", id: "abilities-box" },
      h("legend", {}, t("abilities.title")),
      h("p", { class: "muted" }, t("abilities.help")),
      field(t("abilities.system"), abSystem),
      abilityOptions,
    );
    // Play for fun (Pure Roleplay): "consider playing with 8 gold per player".
    const gold = number("gold_per_player", v.gold_per_player, 1, 100);
    const forFun = h("input", { type: "checkbox", name: "play_for_fun", id: "f-play_for_fun", checked: v.play_for_fun });
    const syncFun = () => {
      if (forFun.checked) gold.value = String(meta.play_for_fun_gold || 8);
      gold.readOnly = forFun.checked;
    };
    forFun.addEventListener("change", syncFun);
    // Every rule switch of the engine, preset by the ruleset: only changes are sent.
    const switches = meta.rule_switches || [];
    const presetRules = (r) => (meta.ruleset_rules || {})[r] || {};
    const ruleset = select("ruleset", meta.rulesets, (r) => t(`ruleset.${r}`), v.ruleset);
    const ruleGrid = h("div", { class: "grid rule-switches" });
    const ruleControl = (sw, value) => {
      const name = `rule:${sw.key}`;
      if (sw.kind === "bool") return select(name, ["true", "false"], (x) => t(`rule.value.${x}`), String(value));
      if (sw.kind === "int") return number(name, value, sw.min ?? 0, 1000);
      return select(name, sw.choices, (x) => t(`rule.${sw.key}.${x}`), value);
    };
    const syncRules = (keep) => {
      const base = presetRules(ruleset.value);
      ruleGrid.replaceChildren(
        ...switches.map((sw) => field(t(`rule.${sw.key}`), ruleControl(sw, keep && v[`rule:${sw.key}`] !== undefined ? v[`rule:${sw.key}`] : base[sw.key]))),
      );
    };
    ruleset.addEventListener("change", () => syncRules(false));
    const rules = h("details", { class: "rules", id: "rules-box" }, h("summary", {}, t("lobby.rules")), h("p", { class: "muted" }, t("lobby.rules_help")), ruleGrid);
    const preset = select("preset", meta.presets, (p) => t(`preset.${p}`), v.preset);
    // Theme decks: the original edition's six dragons per original color.
    const themeOnly = h("label", { class: "check theme-only" }, h("input", { type: "checkbox", name: "original_six_cards", id: "f-original_six_cards", checked: Boolean(v.original_six_cards) }), " ", t("lobby.original_six_cards"));
    const syncPreset = () => {
      legendaryOnly.hidden = preset.value !== "legendary";
      themeOnly.hidden = preset.value === "legendary" || preset.value === "eg_full";
    };
    preset.addEventListener("change", syncPreset);
    const form = h(
      "form",
      { class: "create", id: "create-form" },
      h(
        "div",
        { class: "grid" },
        field(t("lobby.ruleset"), ruleset),
        field(t("lobby.deck"), preset),
        field(t("lobby.players"), select("players", meta.players, String, v.players)),
        field(t("lobby.gold_per_player"), gold),
        field(t("lobby.starting_gold_fixed"), number("starting_gold_fixed", v.starting_gold_fixed, 0, 1000)),
        field(t("lobby.turn_timer"), turnTimerField(v, meta)),
      ),
      h("p", { class: "muted" }, t("lobby.name_above")),
      h("label", { class: "check" }, forFun, " ", t("lobby.play_for_fun", { gold: meta.play_for_fun_gold || 8 })),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "unlisted", id: "f-unlisted", checked: Boolean(v.unlisted) }), " ", t("table.unlisted")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "hints", id: "f-hints", checked: Boolean(v.hints) }), " ", t("table.hints")),
      legendaryOnly,
      themeOnly,
      rules,
      abilities,
      h(
        "details",
        { class: "endings" },
        h("summary", {}, t("lobby.endings")),
        h("div", { class: "grid" }, ENDINGS.map((e) => field(t(`lobby.ending.${e}`), number(`ending_${e}`, v[`ending_${e}`], 0, 10000)))),
      ),
      error,
      h("button", { type: "submit", class: "primary", id: "create" }, t("lobby.create")),
    );
    syncPreset();
    syncRules(v.ruleset === ruleset.value);
    syncAbilities();
    syncFun();
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = { ...formValues(form), name: rememberName() };
      saved = f;
      const int = (x) => Number.parseInt(x, 10) || 0;
      const config = {
        players: int(f.players),
        gold_per_player: int(f.gold_per_player),
        starting_gold_fixed: int(f.starting_gold_fixed),
        rules: { ruleset: f.ruleset },
        deck: { preset: f.preset },
        ending: Object.fromEntries(ENDINGS.map((k) => [k, int(f[`ending_${k}`])])),
      };
      const base = presetRules(f.ruleset);
      for (const sw of switches) {
        const raw = f[`rule:${sw.key}`];
        if (raw === undefined) continue;
        const value = sw.kind === "bool" ? raw === "true" : sw.kind === "int" ? Number.parseInt(raw, 10) || 0 : raw;
        if (value !== base[sw.key]) config.rules[sw.key] = value;
      }
      if (f.play_for_fun) {
        // "8 gold per player" whatever the ruleset: not the original rules' 50 either.
        config.gold_per_player = meta.play_for_fun_gold || 8;
        config.starting_gold_fixed = 0;
        config.rules.starting_hoard = 0;
      }
      if (f.ab_system) {
        config.abilities = { system: f.ab_system, assign: f.ab_assign, per_character: int(f.ab_per_character) };
        if (f.ab_visibility) config.abilities.visibility = f.ab_visibility;
      }
      if (f.preset === "legendary") {
        config.deck.selection = f.selection;
        config.deck.special_count = int(f.special_count);
        config.deck.reveal_specials = f.reveal_specials;
        config.deck.forced_includes = Object.keys(f).filter((k) => k.startsWith("forced:") && f[k]).map((k) => k.slice(7));
      } else if (f.preset !== "eg_full" && f.original_six_cards) {
        config.deck.original_colors_six_cards = true;
      }
      error.hidden = true;
      try {
        const turn = turnSeconds(f);
        const body = turn > 0 ? { config, turn_seconds: turn } : { config };
        if (f.unlisted) body.unlisted = true;
        if (f.hints) body.hints = true;
        const made = await api("POST", "/api/tables", body);
        saveHostToken(made.code, made.host_token);
        if (f.name.trim()) {
          // A creator who plays is no game-master: the host token tells the
          // server so (it voids the game-master token), and none is kept here.
          const seat = await api("POST", `/api/tables/${made.code}/seats`, { name: f.name, seat: 0 }, made.host_token, playerKey());
          saveToken(made.code, seat.token);
          location.assign(`/t/${made.code}#token=${encodeURIComponent(seat.token)}`);
        } else {
          if (made.gm_token) saveGmToken(made.code, made.gm_token);
          location.assign(`/t/${made.code}`);
        }
      } catch (err) {
        error.textContent = err.message;
        error.hidden = false;
      }
    });
    // The full options, folded: most people want Quick play, above.
    return h(
      "details",
      { class: "create-box", id: "create-box", open: optionsOpen },
      h("summary", {}, h("h2", {}, t("lobby.new_table"))),
      form,
    );
  }

  // The name is asked once, here, for Quick play and a table of your own
  // alike, and remembered (the table's "Sit here" offers it too).
  function nameBox() {
    const input = h("input", { name: "name", id: "f-name", value: savedName(), maxlength: String(meta.name_max), autocomplete: "nickname" });
    input.addEventListener("input", rememberName);
    return h("div", { class: "your-name" }, field(t("seat.your_name"), input));
  }

  function rememberName() {
    const input = document.getElementById("f-name");
    const name = input ? input.value.trim() : savedName();
    if (input) saveName(name);
    return name;
  }

  // Quick play: you and three medium bots, the server's usual table, one click.
  function quickPlay() {
    const error = h("p", { class: "error", role: "alert", hidden: true });
    const button = h("button", { type: "button", class: "primary big", id: "quick-play" }, t("lobby.quick_play"));
    button.addEventListener("click", async () => {
      const name = rememberName();
      error.hidden = true;
      if (!name) {
        error.textContent = t("lobby.name_needed");
        error.hidden = false;
        document.getElementById("f-name")?.focus();
        return;
      }
      button.disabled = true;
      try {
        const made = await api("POST", "/api/tables", { config: { players: QUICK_PLAYERS } });
        saveHostToken(made.code, made.host_token);
        const seat = await api("POST", `/api/tables/${made.code}/seats`, { name, seat: 0 }, made.host_token);
        saveToken(made.code, seat.token);
        await api("POST", `/api/tables/${made.code}/bots`, { fill: true }, made.host_token);
        await api("POST", `/api/tables/${made.code}/start`, undefined, made.host_token);
        location.assign(`/t/${made.code}#token=${encodeURIComponent(seat.token)}`);
      } catch (err) {
        error.textContent = err.message;
        error.hidden = false;
        button.disabled = false;
      }
    });
    return h(
      "section",
      { class: "quick-play", id: "quick-box" },
      h("h2", {}, t("lobby.quick_play")),
      h("p", { class: "muted" }, t("lobby.quick_play_help")),
      nameBox(),
      button,
      error,
    );
  }

  function joinBox() {
    const input = h("input", { name: "code", id: "join-code", placeholder: "ABC123", maxlength: "16", autocapitalize: "characters", autocomplete: "off" });
    const form = h("form", { class: "join", id: "join-form" }, field(t("lobby.enter_code"), input), h("button", { type: "submit" }, t("lobby.go")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const code = input.value.trim().toUpperCase();
      if (code) location.assign(`/t/${encodeURIComponent(code)}`);
    });
    return form;
  }

  function describe(x) {
    const base = `${t(`ruleset.${x.ruleset}`)} · ${t(`preset.${x.preset}`)}`;
    return x.abilities ? `${base} · ${abilitiesLine(x.abilities)}` : base;
  }

  async function refresh() {
    let live;
    let finished;
    try {
      [live, finished] = await Promise.all([api("GET", "/api/tables"), api("GET", "/api/games?limit=20")]);
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    const list = (title, items, row, id) =>
      h("section", { class: "list", id }, h("h2", {}, title), items.length ? h("ul", {}, items.map(row)) : h("p", { class: "muted" }, t("lobby.none")));
    append(clear(lists), 
      list(t("lobby.open_tables"), live.open, (x) => h("li", {}, h("a", { href: `/t/${x.code}` }, x.code), " ", describe(x), " · ", t("lobby.seats", { taken: x.taken, players: x.players }), " ", h("span", { class: "muted" }, x.names.join(", "))), "open-tables"),
      list(t("lobby.playing_tables"), live.playing, (x) => h("li", {}, h("a", { href: `/t/${x.code}` }, x.code), " ", describe(x), " · ", x.names.join(", "), " ", h("a", { href: `/t/${x.code}`, class: "button" }, t("lobby.watch"))), "playing-tables"),
      list(t("lobby.finished"), finished.games, (x) => h("li", {}, h("a", { href: `/r/${x.code}` }, x.code), " ", describe(x), " · ", x.seats.map((s, i) => [i ? ", " : null, x.winners.includes(i) ? h("span", { class: "crown" }, icon("crown"), h("span", { class: "sr-only" }, `${t("seat.winner")}: `), s?.name) : s?.name]), " ", h("a", { href: `/r/${x.code}`, class: "button" }, t("lobby.replay"))), "finished-games"),
    );
  }

  function render() {
    const form = document.getElementById("create-form");
    if (form) saved = formValues(form);
    const learn = h("p", { class: "learn-entry", id: "learn-entry" }, h("a", { href: "/learn", class: "button primary", id: "learn-link" }, t("lobby.learn")), " ", h("span", { class: "muted" }, t("lobby.learn_help")));
    optionsOpen = Boolean(document.getElementById("create-box")?.open);
    append(clear(root), h("p", { class: "tagline" }, t("app.tagline")), learn, h("div", { class: "lobby" }, h("div", { class: "lobby-new" }, quickPlay(), buildForm()), h("div", {}, joinBox(), lists)));
  }

  (async () => {
    try {
      meta = await api("GET", "/api/meta");
    } catch (err) {
      append(clear(root), h("p", { class: "error" }, err.message));
      return;
    }
    render();
    await refresh();
    timer = setInterval(refresh, 5000);
  })();

  return {
    rerender() {
      if (meta) {
        render();
        refresh();
      }
    },
    destroy() {
      clearInterval(timer);
    },
  };
}
