// The game board drawn from one seat's view (the server's observe() plus
// names): used live at the table and step by step in replays.
import { seatAbilities } from "./abilities.js";
import { cardBack, cardData, cardEl, cardLabel, setChooser } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import "./why.js";

// Question kinds whose answers are seats or codes, not card numbers (the
// engine's SEAT_ANSWERS and CODE_ANSWERS): a card whose number happens to
// equal such an answer must not be offered as one. (A browser test checks
// this list against the engine.)
export const NOT_CARD_KINDS = new Set(["choose_opponent", "adventurer_stack", "ability_seat", "blue_mode", "trigger_new", "use_ability", "draft_ability", "ancestry_color", "private"]);

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

const cardsRow = (cards, extra = () => ({}), label = null) =>
  h("div", { class: "cards", role: label ? "group" : null, "aria-label": label }, cards.map((n) => cardEl(n, extra(n))));

// The one order of cards in a hand (the terminal's ``hand_order``): weakest
// first, equal strengths by card number, so the hand reads in the order of
// the numbered answers ("the third card" is answer 3).
export function handOrder(cards) {
  const strength = (n) => cardData(n)?.strength ?? 0;
  return cards.slice().sort((a, b) => strength(a) - strength(b) || a - b);
}

// Whose card each ante card is, from this seat's events: the reveal names
// every seat's card, and a card put into the ante later (to_ante) its seat.
// Card numbers are unique, so a card maps to one seat; a new gambit or a
// redo starts afresh.
export function anteOwners(events) {
  const owners = new Map();
  for (const e of events) {
    if (e.kind === "gambit_start" || e.kind === "ante_redo") owners.clear();
    else if (e.kind === "ante_reveal") (e.data?.cards || []).forEach((c, p) => c >= 0 && owners.set(c, p));
    else if (e.kind === "to_ante") for (const c of e.data?.cards || []) owners.set(c, e.data.seat);
  }
  return owners;
}

// Where each seat sits around the table, seen from `bottom` (your seat, or
// seat 0 for a spectator): play goes clockwise, so the next seats are on the
// left, then across the top from left to right, then on the right.
export function ringPlaces(players, bottom) {
  const others = Array.from({ length: players - 1 }, (_, i) => (bottom + 1 + i) % players);
  const k = others.length;
  if (k <= 2) return { left: [], top: others, right: [], bottom };
  return { left: [others[0]], top: others.slice(1, k - 1), right: [others[k - 1]], bottom };
}

// One seat: name, online or away, whose turn, the leader, hoard, hand size,
// the ante placed, abilities, known cards and the flight as small cards.
function seatEl(view, table, p, { me, q, options }) {
  const known = view.known_in_hands?.[p] || view.known_in_hands?.[String(p)] || [];
  const info = table?.seats?.[p];
  const bot = info?.kind === "bot";
  const online = bot || Boolean(table?.online?.[p]);
  const acting = Boolean(q && q.seat === p && view.phase !== "over");
  // Nobody leads before the ante is revealed (the ante decides who leads).
  const leads = view.leader === p && view.phase === "play";
  const out = view.out?.includes(p);
  const name = seatName(table, p);
  const label = [
    name,
    p === me ? t("seat.you") : null,
    bot ? t("seat.bot", { level: levelName(info.bot) }) : online ? t("seat.online") : t("seat.away"),
    t("seat.hoard_n", { gold: view.hoards[p] }),
    t("table.cards", { count: view.hand_sizes[p] }),
    leads ? t("table.leader") : null,
    acting ? t("seat.acting") : null,
    view.winners?.includes(p) ? t("seat.winner") : null,
  ].filter(Boolean).join(", ");
  return h(
    "section",
    {
      class: ["seat", p === me ? "me" : "", acting ? "acting" : "", leads ? "leader" : "", out ? "out" : "", view.winners?.includes(p) ? "winner" : ""].filter(Boolean).join(" "),
      dataset: { seat: String(p) },
      "aria-label": label,
      "aria-current": acting ? "true" : null,
    },
    h(
      "div",
      { class: "seat-head" },
      h("span", { class: online ? "dot on" : "dot", title: online ? t("seat.online") : t("seat.away"), "aria-hidden": "true" }),
      h("strong", { class: "seat-title" }, name),
      p === me ? h("span", { class: "tag" }, t("seat.you")) : null,
      bot ? h("span", { class: "tag" }, t("seat.bot", { level: levelName(info.bot) })) : null,
      !online ? h("span", { class: "tag away" }, t("seat.away")) : null,
      leads ? h("span", { class: "tag lead", title: t("table.leader") }, icon("crown"), t("table.leader")) : null,
      acting ? h("span", { class: "tag turn-mark" }, icon("turn"), t("seat.turn")) : null,
    ),
    h(
      "div",
      { class: "seat-stats" },
      h("span", { class: "stat hoard", dataset: { stat: "hoard" }, title: t("table.hoard") }, h("span", { class: "coin", "aria-hidden": "true" }), h("span", { class: "label" }, t("table.hoard")), h("span", { class: "value" }, String(view.hoards[p]))),
      h("span", { class: "hand-count", dataset: { stat: "hand" }, title: t("table.cards", { count: view.hand_sizes[p] }) }, cardBack(view.hand_sizes[p]), h("span", { "aria-hidden": "true" }, String(view.hand_sizes[p]))),
      view.hole_owed[p] ? h("span", { class: "owed" }, t("table.owes_hole", { amount: view.hole_owed[p] })) : null,
      view.phase === "ante" && view.ante_placed[p] ? h("span", { class: "tag" }, t("table.anted")) : null,
    ),
    seatAbilities(view.abilities, p),
    known.length && p !== me ? h("div", { class: "known" }, t("table.known", { cards: "" }), cardsRow(known, () => ({ small: true }))) : null,
    h("div", { class: "flight", dataset: { count: String(view.flights[p].length) } }, cardsRow(view.flights[p], (n) => ({ small: true, option: options.has(n), key: options.get(n) }), t("seat.flight_of", { name }))),
  );
}

// Where the game is: "Gambit 2 · round 3" in play, "Gambit 2 · ante" while
// the ante is chosen (there is no round 0), "Gambit 2" otherwise.
function gambitLabel(view) {
  if (view.phase === "play" && view.round > 0) return t("table.gambit_round", { gambit: view.gambit, round: view.round });
  if (view.phase === "ante") return t("table.gambit_ante", { gambit: view.gambit });
  return t("table.gambit_summary", { gambit: view.gambit });
}

// The felt in the middle: stakes, the ante (face down until revealed
// together), deck, discard, the hole.
function feltEl(view, options, table, owners, me) {
  const placed = view.ante_placed.filter(Boolean).length;
  let ante;
  if (view.ante.length) {
    // Each ante card says whose it is (a card whose seat is not known, none).
    const whose = (n) => (owners.has(n) ? (owners.get(n) === me ? t("table.ante_you") : seatName(table, owners.get(n))) : null);
    ante = h(
      "div",
      { class: "cards ante-cards", role: "group", "aria-label": t("table.ante") },
      view.ante.map((n) => {
        const name = whose(n);
        return h(
          "figure",
          { class: "ante-card", dataset: { card: String(n), seat: owners.has(n) ? String(owners.get(n)) : "" } },
          cardEl(n, { small: true, option: options.has(n), key: options.get(n) }),
          name ? h("figcaption", { class: "ante-owner" }, name) : null,
        );
      }),
    );
  }
  else if (placed) ante = h("div", { class: "cards backs", "aria-label": t("table.ante_hidden", { count: placed }) }, Array.from({ length: placed }, () => cardBack(1)));
  else ante = h("p", { class: "muted" }, t("word.none"));
  return h(
    "section",
    { class: "felt", "aria-label": t("table.center") },
    h(
      "div",
      { class: "felt-stats status" },
      stat(gambitLabel(view), "", "gambit"),
      h("div", { class: "stat stakes", id: "stakes", dataset: { stat: "stakes" } }, h("span", { class: "coin pile", "aria-hidden": "true" }), h("span", { class: "label" }, t("table.stakes")), h("span", { class: "value" }, String(view.stakes))),
      stat(t("table.deck"), view.deck_size, "deck"),
      view.hole || view.hole_owed.some((x) => x) ? stat(t("table.hole"), view.hole, "hole") : null,
    ),
    h("div", { class: "zone ante", id: "ante", dataset: { revealed: view.ante.length ? "1" : "0" } }, h("h3", {}, t("table.ante")), ante),
    view.discard.length
      ? h("details", { class: "zone discard" }, h("summary", {}, `${t("table.discard")} (${view.discard.length})`), cardsRow(view.discard, () => ({ small: true })))
      : null,
  );
}

// msg: {view, hints, answers, effects}; opts: {table, onAnswer, interactive, busy,
// events (this seat's events so far: whose ante card is whose)}
export function renderBoard(msg, opts) {
  const { view } = msg;
  const table = opts.table;
  const me = view.seat;
  const q = view.question;
  const mine = opts.interactive && q && q.seat === me && msg.answers?.length;
  const cardAnswers = mine && !NOT_CARD_KINDS.has(q.kind);
  // Each card that answers the question -> its number key (1-9, as on the
  // answer buttons; null past 9), shown on the card.
  const options = new Map(cardAnswers ? msg.answers.map((a, i) => [a.value, i < 9 ? i + 1 : null]) : []);
  const hints = new Set(msg.hints || []);

  // The detail panel offers "choose this card" for a card that answers my question.
  setChooser(
    cardAnswers
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

  // A face-down round (every seat antes at once): who has not chosen yet,
  // and this seat's own card while it may still change it.
  const faceDown = msg.face_down || null;
  const chosen = mine && faceDown && "chosen" in faceDown ? faceDown.chosen : null;
  const waitingNames = () => faceDown.waiting.map((p) => (p === me && opts.interactive ? t("seat.you") : seatName(table, p))).join(", ");
  let turn = null;
  if (view.phase === "over") {
    turn = h("div", { class: "turn over" }, t("table.game_over"), " — ", t("table.winners", { names: view.winners.map((p) => seatName(table, p)).join(", ") }));
  } else if (faceDown && !mine) {
    // Watching a face-down round (your own question says it in its place).
    turn = h("div", { class: "turn", id: "turn", dataset: { kind: faceDown.kind, faceDown: "true" } }, t("table.face_down_waiting", { names: waitingNames() }));
  } else if (q && !mine) {
    // Another seat's hidden-ability question shows only that it is deciding.
    const text = q.kind === "private" ? t("table.deciding_private", { name: seatName(table, q.seat) }) : t("table.deciding", { name: seatName(table, q.seat), question: q.prompt });
    turn = h("div", { class: "turn", id: "turn", dataset: { kind: q.kind, seat: String(q.seat) } }, text);
  }

  let question = null;
  if (mine) {
    // The keys' line says the why of the answer in focus or under the pointer
    // (would it trigger, and against what): one line that never wraps, so the
    // answers keep one row and the dock its height whatever the text's length.
    const keysLine = faceDown ? null : h("p", { class: "keys-help muted", id: "keys-help" }, t("table.keys_help"));
    const sayWhy = (target) => {
      const why = target?.closest?.("#question .answer")?.querySelector(".answer-why")?.textContent || "";
      if (!keysLine) return;
      keysLine.textContent = why || t("table.keys_help");
      keysLine.classList.toggle("why", Boolean(why));
      keysLine.title = why;
    };
    question = h(
      "section",
      { class: "question", id: "question", dataset: { decision: String(q.id), kind: q.kind }, "aria-labelledby": "question-title", "aria-describedby": "question-prompt" },
      h("h2", { id: "question-title" }, t("table.question")),
      h("p", { class: "prompt", id: "question-prompt" }, q.text || q.prompt),
      h(
        "div",
        {
          class: "answers",
          role: "group",
          "aria-label": t("table.answers"),
          onfocusin: (e) => sayWhy(e.target),
          onfocusout: (e) => sayWhy(e.relatedTarget),
          onmouseover: (e) => sayWhy(e.target),
          onmouseleave: () => sayWhy(document.activeElement),
        },
        msg.answers.map((a, i) =>
          h(
            "button",
            {
              type: "button",
              class: `answer${a.detail ? " with-detail" : a.why ? " has-why" : ""}${a.value === chosen ? " chosen" : ""}`,
              disabled: opts.busy,
              "aria-pressed": faceDown ? String(a.value === chosen) : null,
              dataset: { answer: String(a.value) },
              "aria-keyshortcuts": i < 9 ? String(i + 1) : null,
              onclick: () => opts.onAnswer(a.value, q.id),
            },
            i < 9 ? h("kbd", { class: "key", "aria-hidden": "true" }, String(i + 1)) : null,
            a.detail ? h("span", { class: "answer-label" }, a.label) : a.label,
            a.detail ? h("span", { class: "answer-detail" }, a.detail) : null,
            // Read with the answer by a screen reader; shown in the keys' line.
            a.why ? h("span", { class: "answer-why" }, a.why) : null,
          ),
        ),
      ),
      // In a face-down round the line under the answers says it (in the keys'
      // place: the dock keeps its height, so nothing it shares the screen with moves).
      faceDown
        ? h("p", { class: "keys-help face-down muted", id: "face-down-note" }, chosen === null ? t("table.face_down_choose", { names: waitingNames() }) : t("table.face_down_chosen", { card: msg.answers.find((a) => a.value === chosen)?.label ?? cardLabel(chosen) }))
        : keysLine,
    );
  }

  let hand = null;
  if (me !== null && me !== undefined && view.hand) {
    hand = h(
      "section",
      { class: "hand", id: "hand", "aria-label": t("table.hand") },
      h("h2", {}, t("table.hand"), h("span", { class: "muted" }, ` (${view.hand.length})`), hints.size ? h("span", { class: "legend" }, icon("bolt"), t("table.triggers")) : null),
      cardsRow(handOrder(view.hand), (n) => ({ triggers: hints.has(n), option: options.has(n), key: options.get(n) })),
      view.my_ante >= 0 ? h("p", { class: "muted my-ante" }, t("table.ante"), ": ", cardLabel(view.my_ante)) : null,
    );
  }

  const extra = [];
  if (view.private_look?.length) {
    extra.push(h("section", { class: "zone" }, h("h3", {}, t("table.look")), cardsRow(view.private_look, (n) => ({ option: options.has(n), key: options.get(n) }))));
  }
  if (view.revealed?.length) {
    extra.push(h("section", { class: "zone" }, h("h3", {}, t("table.revealed")), cardsRow(view.revealed, (n) => ({ option: options.has(n), key: options.get(n) }))));
  }

  // The seats around the felt (an oval on wide screens, stacked on phones).
  const places = ringPlaces(view.players, me ?? 0);
  const seat = (p) => seatEl(view, table, p, { me, q, options });
  const k = view.players - 1;
  const seats = h(
    "div",
    { class: `ring ${k <= 2 ? "across" : "around"}`, id: "seats", dataset: { players: String(view.players) } },
    places.left.length ? h("div", { class: "ring-left" }, places.left.map(seat)) : null,
    h("div", { class: "ring-top" }, places.top.map(seat)),
    places.right.length ? h("div", { class: "ring-right" }, places.right.map(seat)) : null,
    feltEl(view, options, table, anteOwners(opts.events || []), opts.interactive ? me : null),
    h("div", { class: "ring-bottom" }, seat(places.bottom)),
  );

  const debts = view.debts?.length
    ? h(
        "section",
        { class: "zone" },
        h("h3", {}, t("table.debts")),
        h("ul", {}, view.debts.map(([debtor, creditor, amount]) => h("li", {}, t("table.debt", { debtor: seatName(table, debtor), creditor: seatName(table, creditor), amount })))),
      )
    : null;

  // The running effects of triggered powers (the Warlord's fourth round...), as
  // the server words them: nobody has to remember them.
  const effects = msg.effects?.length
    ? h("section", { class: "zone", id: "effects" }, h("h3", {}, t("table.effects")), h("ul", {}, msg.effects.map((e) => h("li", {}, e))))
    : null;

  const specials = view.specials?.length
    ? h("details", { class: "zone" }, h("summary", {}, t("table.specials")), cardsRow(view.specials, () => ({ small: true })))
    : null;

  // Your part of the table (whose turn, your question, your hand, cards you
  // look at) comes first: on a phone it is at the top, the answers and the
  // hand together; from 700px the CSS draws it under the seats and keeps it
  // on screen (sticky), so the question, the hand and the table are seen at
  // once. The summary slot (table.js) goes between the dock and the seats.
  const dock = h("div", { class: "dock", id: "dock" }, turn, question, hand, extra);
  return h("div", { class: "board", dataset: { phase: view.phase } }, dock, seats, effects, debts, specials);
}

export function renderLog(events, { highlightNew = false } = {}) {
  return h(
    "ol",
    { class: "log", id: "log", role: "log", "aria-live": "polite", "aria-label": t("table.log") },
    // a line with a rule (why.js) opens it on a click or Enter
    events.filter((e) => e.text).map((e) => h("li", { class: [e.kind === "gambit_won" || e.kind === "game_over" ? "big" : "", highlightNew && e.new ? "new" : ""].join(" "), dataset: e.why ? { kind: e.kind, why: JSON.stringify(e.why) } : { kind: e.kind }, tabindex: e.why ? "0" : null, title: e.why ? t("table.why_hint") : null }, e.text)),
  );
}
