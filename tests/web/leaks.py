"""Checking a seat's traffic for hidden information.

Given a finished game's record and every frame one seat received, rebuild
the game answer by answer and check that no frame names a card that seat
could not know at that moment: another hand's card (unless the rules showed
it to the seat), an ante card before the reveal, or any card of the deck or
the cards set aside.  Cards "become public" the way the engine says: a seat
may name every card its own views (``observe``) and events (``events_for``)
have shown it up to then.
"""

from __future__ import annotations

from typing import Any

from dragonante.engine.config import config_from_dict
from dragonante.engine.decisions import CODE_ANSWERS, SEAT_ANSWERS, SEER_KEEP
from dragonante.engine.game import apply, call_last_gambit, new_game
from dragonante.engine.state import GameState
from dragonante.engine.views import events_for, observe

#: Event data fields that hold a card number or a list of them.
EVENT_CARD_FIELDS = ("card", "cards", "old", "new", "gave", "took", "this")


def _ints(value: Any) -> list[int]:
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int):
        return [value] if value >= 0 else []
    if isinstance(value, list | tuple):
        return [x for v in value for x in _ints(v)]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _ints(v)]
    return []


def answer_cards(kind: str, values: list[int]) -> list[int]:
    """The card numbers among a question's answers (seat and code answers are not cards)."""
    if kind in SEAT_ANSWERS or kind in CODE_ANSWERS:
        return []
    return [v for v in values if v >= 0]


def cards_in_view(view: dict[str, Any]) -> set[int]:
    """Every card number a view (``observe``) names."""
    out: set[int] = set()
    for key in ("hand", "known_in_hands", "flights", "ante", "revealed", "private_look",
                "discard", "specials", "round_card", "wild", "dragonrider"):  # fmt: skip
        out.update(_ints(view.get(key)))
    if view.get("my_ante", -1) >= 0:
        out.add(view["my_ante"])
    q = view.get("question")
    if q:
        if q.get("source", -1) >= 0:
            out.add(q["source"])
        out.update(answer_cards(q["kind"], list(q.get("options", []))))
    return out


def cards_in_event(kind: str, data: dict[str, Any]) -> set[int]:
    out: set[int] = set()
    for key in EVENT_CARD_FIELDS:
        if key in data:
            out.update(_ints(data[key]))
    if kind == "auto_answer":
        out.update(answer_cards(str(data["question"]), [int(data["answer"])]))
    return out


def cards_in_frame(msg: dict[str, Any]) -> set[int]:
    """Every card number a server frame names (views, hints, answers, events)."""
    out: set[int] = set()
    if "view" in msg:
        out |= cards_in_view(msg["view"])
        out.update(_ints(msg.get("hints")))
        q = msg["view"].get("question")
        if q and msg.get("answers"):
            out.update(answer_cards(q["kind"], [a["value"] for a in msg["answers"]]))
    for e in msg.get("events", []):
        out |= cards_in_event(e["kind"], e["data"])
        why = e.get("why")
        if why and "card" in why:  # the card whose text explains the event
            out.add(int(why["card"]))
    chosen = (msg.get("face_down") or {}).get("chosen")
    if isinstance(chosen, int) and chosen >= 0:  # a face-down choice (docs/protocol.md)
        out.add(chosen)
    return out


def hidden_from(s: GameState, seat: int | None) -> set[int]:
    """Cards ``seat`` cannot see in ``s``: the deck, the cards aside, other hands
    (less what ``known`` says the seat knows), face-down ante cards, a private look."""
    hidden = set(s.deck) | set(s.aside)
    for p in range(s.n):
        if p == seat:
            continue
        for c in [*s.hands[p], s.ante_choice[p]]:
            if c >= 0 and not (seat is not None and (s.known.get(c, 0) >> seat) & 1):
                hidden.add(c)
    d = s.pending
    if d is not None and d.kind == SEER_KEEP and d.seat != seat:
        hidden.update(s.limbo)
    return hidden


def check_frames(
    record: dict[str, Any],
    seat: int | None,
    frames: list[dict[str, Any]],
    start: GameState | None = None,
) -> int:
    """Assert no frame of ``seat`` names a card hidden from it; returns the frames checked.

    ``record`` is the server's record of the finished game; every frame with
    a ``step`` is checked against the game after that many answers.
    ``start``: the game's first state when it was not dealt from the seed (a
    prepared position, whose seed is public: it is not looked for).
    """
    config = config_from_dict(record["config"])
    answers = record["answers"]
    last_gambit_at = record.get("last_gambit_at")
    s = new_game(config, record["seed"], log=True) if start is None else start
    seen: set[int] = set()
    by_step: dict[int, list[dict[str, Any]]] = {}
    for f in frames:
        if "step" in f and "view" in f:
            by_step.setdefault(f["step"], []).append(f)
    checked = 0
    seed = str(record["seed"])
    for f in frames if start is None else ():
        assert seed not in str(f), "a frame carries the game's seed"
    for step in range(len(answers) + 1):
        if step > 0:
            if last_gambit_at is not None and step - 1 == last_gambit_at:
                call_last_gambit(s)
            apply(s, answers[step - 1])
        if last_gambit_at is not None and step == last_gambit_at == len(answers):
            call_last_gambit(s)
        seen |= cards_in_view(observe(s, seat).to_dict())
        for _vis, kind, data in events_for(s.log or [], seat):
            seen |= cards_in_event(kind, data)
        secret = hidden_from(s, seat) - seen
        for f in by_step.get(step, []):
            leaked = cards_in_frame(f) & secret
            assert not leaked, f"step {step}: seat {seat} was sent hidden cards {sorted(leaked)}"
            checked += 1
    return checked


def _secret_abilities(s: GameState, seat: int | None, known: list[set[int]]) -> list[set[int]]:
    """Per owner, the abilities ``seat`` may not know yet in ``s``."""
    from dragonante.engine.abilities.table import AbilityTable

    ab = s.abilities
    if ab is None:
        return [set() for _ in range(s.n)]
    assert isinstance(ab, AbilityTable)
    return [set() if p == seat else set(ab.held[p]) - known[p] for p in range(s.n)]


def _config_leaks(config: dict[str, Any], seat: int | None) -> list[str]:
    """What a frame's config says of other seats' hidden abilities (should be nothing)."""
    ab = config.get("abilities") or {}
    out = []
    for p, keys in enumerate(ab.get("seats") or []):
        if p != seat and any(k != "random" for k in keys):
            out.append(f"abilities.seats[{p}] = {keys}")
    for p, color in enumerate(ab.get("ancestry") or []):
        if p != seat and color:
            out.append(f"abilities.ancestry[{p}] = {color}")
    for p, keys in enumerate(ab.get("qualified") or []):
        if p != seat and keys:
            out.append(f"abilities.qualified[{p}] = {keys}")
    return out


def check_ability_frames(
    record: dict[str, Any], seat: int | None, frames: list[dict[str, Any]], names: list[str]
) -> int:
    """Assert no frame of ``seat`` names another seat's hidden D&D ability before
    it is used: not in ``held``, the ancestry, events, question kinds or options,
    the table's config, nor by name (``names``: every ability's English name) in
    any text.  Returns the frames checked.  Frames sent after the game ended are
    not checked for the config (a finished game's record is public)."""
    from dragonante.engine.decisions import ABILITY_KINDS

    config = config_from_dict(record["config"])
    public = config.abilities.public
    answers = record["answers"]
    last_gambit_at = record.get("last_gambit_at")
    s = new_game(config, record["seed"], log=True)
    known: list[set[int]] = [set() for _ in range(s.n)]
    by_step: dict[int, list[dict[str, Any]]] = {}
    checked = 0
    for f in frames:
        table = f.get("table")
        if isinstance(table, dict) and table.get("status") != "finished":
            leaks = _config_leaks(table.get("config", {}), seat)
            assert not leaks, f"seat {seat} was sent another seat's hidden config: {leaks}"
        if "step" in f and "view" in f:
            by_step.setdefault(f["step"], []).append(f)
    for step in range(len(answers) + 1):
        if step > 0:
            if last_gambit_at is not None and step - 1 == last_gambit_at:
                call_last_gambit(s)
            apply(s, answers[step - 1])
        if last_gambit_at is not None and step == last_gambit_at == len(answers):
            call_last_gambit(s)
        view = observe(s, seat).abilities
        if view is not None:
            for p, held in enumerate(view["held"]):
                known[p].update(held)
        secret = _secret_abilities(s, seat, known)
        own = set().union(*known) if known else set()
        secret_names = {names[a] for p in range(s.n) for a in secret[p] if a not in own}
        for f in by_step.get(step, []):
            ab = f["view"].get("abilities")
            if ab is not None:
                for p, held in enumerate(ab["held"]):
                    leaked = set(held) & secret[p]
                    assert not leaked, f"step {step}: seat {seat} sees {p}'s hidden {leaked}"
                for p, color in enumerate(ab["ancestry"]):
                    if color and p != seat:
                        assert 2 in known[p], f"step {step}: seat {seat} sees {p}'s ancestry"
            q = f["view"].get("question")
            if q and q["seat"] != seat and not public:
                assert q["kind"] not in ABILITY_KINDS, f"step {step}: {q['kind']} shown"
                assert "options" not in q and not f.get("answers")
            for e in f.get("events", []):
                data = e["data"]
                owner = data.get("seat")
                if owner is None or owner == seat:
                    continue
                named = _ints(data.get("ability")) + _ints(data.get("abilities"))
                leaked = set(named) & secret[owner]
                assert not leaked, f"step {step}: event {e['kind']} names {owner}'s {leaked}"
            text = str(f)
            for name in secret_names:
                assert name not in text, f"step {step}: seat {seat} was sent the name {name}"
            checked += 1
    return checked


#: What a hand-over announcement may carry: seats, a direction and a bot level.
HANDOVER_KEYS = frozenset({"type", "seat", "to", "by", "bot"})


def check_handover_frames(frames: list[dict[str, Any]], players: int) -> int:
    """Assert every ``handover`` frame names only seats and a bot level (no card,
    no hand, no view), and that every summary's ``away``/``handed`` lists are
    per-seat booleans; returns the handover frames checked."""
    checked = 0
    for f in frames:
        table = f.get("table")
        if isinstance(table, dict) and "away" in table:
            for key in ("away", "handed"):
                assert len(table[key]) == players and all(type(x) is bool for x in table[key])
        if f.get("type") != "handover":
            continue
        assert set(f) <= HANDOVER_KEYS, f"a handover frame carries {sorted(set(f) - HANDOVER_KEYS)}"
        assert f["to"] in ("bot", "player")
        for key in ("seat", "by"):
            if key in f:
                assert type(f[key]) is int and 0 <= f[key] < players
        assert "bot" not in f or isinstance(f["bot"], str)
        checked += 1
    return checked


#: What each social frame may carry (``docs/protocol.md``): seats, numbers,
#: public names, what someone typed, a bot level, a table code.  Nothing else:
#: no card, hand, view or seed may ride along.
SOCIAL_KEYS = {
    "chat": frozenset({"type", "id", "seat", "spectator", "name", "text", "at"}),
    "chat_history": frozenset({"type", "messages", "muted_seats", "muted_spectators", "spectator"}),
    "mute": frozenset({"type", "seat", "spectator", "muted"}),
    # ``seats`` and ``decisions``: a face-down round's, on one clock.
    "turn": frozenset({"type", "seat", "decision", "seconds", "of", "seats", "decisions"}),
    "timeout": frozenset({"type", "seat", "decision", "bot"}),
    "rematch": frozenset({"type", "code", "by"}),
    "removed": frozenset({"type", "seat", "reason", "message", "spectator"}),
    "notice": frozenset({"type", "code", "seat", "message"}),
}


def check_social_frames(
    frames: list[dict[str, Any]], names: list[str], typed: set[str] | None = None
) -> int:
    """Assert every chat, mute, turn-timer, timeout, rematch and removal frame
    carries only its documented fields; a chat message's author is a public
    seat name (``names``) or a numbered spectator, and its text is one of the
    texts people ``typed`` (when given): the server adds nothing to what was
    said.  Returns the social frames checked."""
    checked = 0

    def chat(m: dict[str, Any]) -> None:
        assert set(m) <= SOCIAL_KEYS["chat"], f"a chat message carries {sorted(set(m))}"
        if m["seat"] is not None:
            assert m["name"] == names[m["seat"]] and m["spectator"] is None
        else:
            assert m["name"] is None and type(m["spectator"]) is int
        assert isinstance(m["text"], str)
        if typed is not None:
            assert m["text"] in typed, f"chat text {m['text']!r} is not what anyone typed"

    for f in frames:
        kind = f.get("type")
        if kind not in SOCIAL_KEYS:
            continue
        assert set(f) <= SOCIAL_KEYS[kind], f"a {kind} frame carries {sorted(set(f))}"
        if kind == "chat":
            chat(f)
        elif kind == "chat_history":
            for m in f["messages"]:
                chat(m)
        elif kind in ("turn", "timeout"):
            assert type(f["seat"]) is int and 0 <= f["seat"] < len(names)
            assert type(f["decision"]) is int
            for p in f.get("seats", []):
                assert type(p) is int and 0 <= p < len(names)
            assert all(type(d) is int for d in f.get("decisions", []))
        checked += 1
    return checked
