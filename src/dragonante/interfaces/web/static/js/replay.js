// A finished game, step by step: forward and back through the answers, as a
// spectator or as any seat saw it (views are computed by the server).
import { api } from "./api.js";
import { fitNames } from "./cards.js";
import { append, clear, h, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { renderBoard, renderLog, seatName } from "./render.js";

export function mountReplay(root, code) {
  code = code.toUpperCase();
  const params = new URLSearchParams(location.search);
  let step = Number.parseInt(params.get("step") || "0", 10) || 0;
  let seat = params.has("seat") && params.get("seat") !== "" ? Number.parseInt(params.get("seat"), 10) : null;
  // A finished game hides nothing: the game-master's view shows every ability.
  let gm = params.get("gm") === "1";
  let data = null;
  let loading = false;

  async function load() {
    if (loading) return;
    loading = true;
    const q = new URLSearchParams({ step: String(step), lang });
    if (seat !== null) q.set("seat", String(seat));
    else if (gm) q.set("gm", "1");
    try {
      data = await api("GET", `/api/games/${encodeURIComponent(code)}/replay?${q}`);
      step = data.step;
      const url = new URLSearchParams({ step: String(step) });
      if (seat !== null) url.set("seat", String(seat));
      else if (gm) url.set("gm", "1");
      history.replaceState(null, "", `/r/${code}?${url}`);
      render();
    } catch (err) {
      append(clear(root), h("p", { class: "error", id: "replay-error" }, err.message), h("a", { href: "/" }, t("nav.lobby")));
    } finally {
      loading = false;
    }
  }

  function go(n) {
    if (!data) return;
    const next = Math.max(0, Math.min(data.total, n));
    if (next !== step) {
      step = next;
      load();
    }
  }

  function render() {
    const table = data.table;
    const viewAs = h(
      "select",
      { id: "view-as", onchange: (e) => { const v = e.target.value; gm = v === "gm"; seat = v === "" || v === "gm" ? null : Number(v); load(); } },
      h("option", { value: "", selected: seat === null && !gm }, t("replay.spectator")),
      table.abilities && !table.abilities.public ? h("option", { value: "gm", selected: seat === null && gm }, t("table.gm_link")) : null,
      Array.from({ length: table.players }, (_, p) => h("option", { value: String(p), selected: seat === p }, seatName(table, p))),
    );
    const slider = h("input", { type: "range", min: "0", max: String(data.total), value: String(step), id: "replay-slider", "aria-label": t("replay.step", { step, total: data.total }) });
    slider.addEventListener("change", () => go(Number(slider.value)));
    const log = renderLog(data.events, { highlightNew: true });
    append(clear(root), 
      h(
        "div",
        { class: "replay-page" },
        h("h1", {}, t("replay.title", { code })),
        h(
          "div",
          { class: "replay-controls" },
          h("button", { type: "button", id: "replay-first", onclick: () => go(0), disabled: step === 0 }, t("replay.first")),
          h("button", { type: "button", id: "replay-prev", onclick: () => go(step - 1), disabled: step === 0 }, t("replay.prev")),
          h("span", { id: "replay-step" }, t("replay.step", { step, total: data.total })),
          h("button", { type: "button", id: "replay-next", onclick: () => go(step + 1), disabled: step === data.total }, t("replay.next")),
          h("button", { type: "button", id: "replay-last", onclick: () => go(data.total), disabled: step === data.total }, t("replay.last")),
          slider,
          h("label", {}, t("replay.view_as"), " ", viewAs),
          h("a", { href: `/api/games/${code}/record`, download: `dragonante-${code}.json` }, t("replay.download")),
        ),
        h("div", { class: "table-layout" }, h("div", { class: "table-main" }, renderBoard(data, { table, interactive: false })), h("section", { class: "log-box" }, h("h2", {}, t("table.log")), log)),
      ),
    );
    fitNames(root);
    const fresh = log.querySelector(".new");
    if (fresh) fresh.scrollIntoView({ block: "nearest" });
    else log.scrollTop = log.scrollHeight;
  }

  const keys = (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
  };
  document.addEventListener("keydown", keys);
  load().catch((err) => toast(err.message, "error"));
  return {
    rerender: () => load(),
    destroy: () => document.removeEventListener("keydown", keys),
  };
}
