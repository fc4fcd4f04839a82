// The game board drawn from one seat's view (the server's observe() plus
// names): used live at the table and step by step in replays.
import { seatAbilities } from "./abilities.js";
import { cardBack, cardEl, cardLabel, setChooser } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

// A bot level's name in the current language (the engine's name if unknown).
export function levelName(level) {
  const key = `level.${level}`;
  const name = t(key);
  return name === key ? level : name;
}

export function seatName(table, p) {
  if (p === -1) return t("word.stakes");
  return table?.seats?.[p]?.name ?? `#${p + 1}`;
}

function stat(label, value, id) {
  return h("div", { class: "stat", dataset: id ? { stat: id } : {} }, h("span", { class: "label" }, label), h("span", { class: "value" }, String(value)));
}

// msg: {view, hints, answers}; opts: {table, onAnswer, interactive, busy}
export function renderBoard(msg, opts) {
  const { view } = msg;
  const table = opts.table;
  const me = view.seat;
  const q = view.question;
  const mine = opts.interactive && q && q.seat === me && msg.answers?.length;
  const options = new Set(mine ? msg.answers.map((a) => a.value) : []);
  const hints = new Set(msg.hints || []);

  // The detail panel offers "choose this card" for a card that answers my question.
  setChooser(
    mine
      ? (n) => {
          const a = msg.answers.find((x) => x.value === n);
          if (!a) return null;
          const fn = () => opts.onAnswer(a.value, q.id);
          fn.label = `${q.prompt}: ${a.label}`;
          return fn;
        }
      : null,
    mine ? q.id : null,
  );

  const status = h(
    "div",
    { class: "status" },
    stat(t("table.gambit_round", { gambit: view.gambit, round: view.round }), "", "gambit"),
    stat(t("table.stakes"), view.stakes, "stakes"),
    stat(t("table.deck"), view.deck_size, "deck"),
    stat(t("table.discard"), view.discard.length, "discard"),
    view.hole || view.hole_owed.some((x) => x) ? stat(t("table.hole"), view.hole, "hole") : null,
  );

  let turn = null;
  if (view.phase === "over") {
    turn = h("div", { class: "turn over" }, t("table.game_over"), " — ", t("table.winners", { names: view.winners.map((p) => seatName(table, p)).join(", ") }));
  } else if (q && !mine) {
    // Another seat's hidden-ability question shows only that it is deciding.
    const text = q.kind === "private" ? t("table.deciding_private", { name: seatName(table, q.seat) }) : t("table.deciding", { name: seatName(table, q.seat), question: q.prompt });
    turn = h("div", { class: "turn", id: "turn", dataset: { kind: q.kind } }, text);
  }

  let question = null;
  if (mine) {
    question = h(
      "section",
      { class: "question", id: "question", dataset: { decision: String(q.id), kind: q.kind } },
      h("h2", {}, t("table.question")),
      h("p", { class: "prompt" }, q.text || q.prompt),
      h(
        "div",
        { class: "answers" },
        msg.answers.map((a) =>
          h(
            "button",
            {
              type: "button",
              class: a.detail ? "answer with-detail" : "answer",
              disabled: opts.busy,
              dataset: { answer: String(a.value) },
              onclick: () => opts.onAnswer(a.value, q.id),
            },
            a.detail ? h("span", { class: "answer-label" }, a.label) : a.label,
            a.detail ? h("span", { class: "answer-detail" }, a.detail) : null,
          ),
        ),
      ),
    );
  }

  const cardsRow = (cards, extra = () => ({})) =>
    h("div", { class: "cards" }, cards.map((n) => cardEl(n, extra(n))));

  let hand = null;
  if (me !== null && me !== undefined && view.hand) {
    hand = h(
      "section",
      { class: "hand", id: "hand" },
      h("h2", {}, t("table.hand"), h("span", { class: "muted" }, ` (${view.hand.length})`), hints.size ? h("span", { class: "legend" }, "⚡ ", t("table.triggers")) : null),
      cardsRow(view.hand, (n) => ({ triggers: hints.has(n), option: options.has(n) })),
      view.my_ante >= 0 ? h("p", { class: "muted" }, t("table.ante"), ": ", cardLabel(view.my_ante)) : null,
    );
  }

  const extra = [];
  if (view.private_look?.length) {
    extra.push(h("section", { class: "zone" }, h("h3", {}, t("table.look")), cardsRow(view.private_look, (n) => ({ option: options.has(n) }))));
  }
  if (view.revealed?.length) {
    extra.push(h("section", { class: "zone" }, h("h3", {}, t("table.revealed")), cardsRow(view.revealed, (n) => ({ option: options.has(n) }))));
  }

  const seats = h(
    "section",
    { class: "seats", id: "seats" },
    Array.from({ length: view.players }, (_, p) => {
      const known = view.known_in_hands?.[p] || view.known_in_hands?.[String(p)] || [];
      const info = table?.seats?.[p];
      const online = table?.online?.[p];
      return h(
        "div",
        {
          class: ["seat", p === me ? "me" : "", q && q.seat === p ? "acting" : "", view.winners?.includes(p) ? "winner" : ""].join(" "),
          dataset: { seat: String(p) },
        },
        h(
          "div",
          { class: "seat-head" },
          h("span", { class: online ? "dot on" : "dot", title: online ? "" : t("seat.offline") }),
          h("strong", {}, seatName(table, p)),
          p === me ? h("span", { class: "tag" }, t("seat.you")) : null,
          info?.kind === "bot" ? h("span", { class: "tag" }, t("seat.bot", { level: levelName(info.bot) })) : null,
          view.leader === p && view.phase !== "over" ? h("span", { class: "tag lead" }, "♛ ", t("table.leader")) : null,
        ),
        h(
          "div",
          { class: "seat-stats" },
          stat(t("table.hoard"), view.hoards[p], "hoard"),
          h("span", { class: "hand-count" }, cardBack(view.hand_sizes[p]), " ", String(view.hand_sizes[p])),
          view.hole_owed[p] ? h("span", { class: "owed" }, t("table.owes_hole", { amount: view.hole_owed[p] })) : null,
          view.phase === "ante" && view.ante_placed[p] ? h("span", { class: "tag" }, t("table.anted")) : null,
        ),
        seatAbilities(view.abilities, p),
        known.length && p !== me ? h("div", { class: "known" }, t("table.known", { cards: "" }), cardsRow(known, () => ({ small: true }))) : null,
        h("div", { class: "flight" }, cardsRow(view.flights[p], (n) => ({ small: true, option: options.has(n) }))),
      );
    }),
  );

  const ante = h(
    "section",
    { class: "zone ante", id: "ante" },
    h("h3", {}, t("table.ante")),
    view.ante.length ? cardsRow(view.ante, (n) => ({ small: true, option: options.has(n) })) : h("p", { class: "muted" }, t("word.none")),
  );

  const debts = view.debts?.length
    ? h(
        "section",
        { class: "zone" },
        h("h3", {}, t("table.debts")),
        h("ul", {}, view.debts.map(([debtor, creditor, amount]) => h("li", {}, t("table.debt", { debtor: seatName(table, debtor), creditor: seatName(table, creditor), amount })))),
      )
    : null;

  const specials = view.specials?.length
    ? h("details", { class: "zone" }, h("summary", {}, t("table.specials")), cardsRow(view.specials, () => ({ small: true })))
    : null;

  const discard = view.discard.length
    ? h("details", { class: "zone" }, h("summary", {}, `${t("table.discard")} (${view.discard.length})`), cardsRow(view.discard, () => ({ small: true })))
    : null;

  return h("div", { class: "board", dataset: { phase: view.phase } }, status, turn, question, hand, extra, seats, ante, debts, specials, discard);
}

export function renderLog(events, { highlightNew = false } = {}) {
  return h(
    "ol",
    { class: "log", id: "log" },
    events.filter((e) => e.text).map((e) => h("li", { class: [e.kind === "gambit_won" || e.kind === "game_over" ? "big" : "", highlightNew && e.new ? "new" : ""].join(" "), dataset: { kind: e.kind } }, e.text)),
  );
}
