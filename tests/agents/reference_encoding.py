"""The first observation encoder and seat view, kept unchanged as references.

``dragonante.agents.encoding.encode`` (and its ``IncrementalEncoder``, issue
24) and ``dragonante.engine.views.observe`` were tuned for speed (issue 14);
their output must stay identical to these
straightforward versions (the vector byte for byte), which
``test_encoding.py`` checks on many random states.  Do not optimise this file.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from dragonante.agents.encoding import (
    EFFECT_SCALE,
    MAX_PLAYERS,
    N_CARDS,
    OBS_SIZE,
    PHASES,
    PRIVATE,
    QUESTION_KINDS,
    SLICES,
    SYSTEMS,
)
from dragonante.engine.abilities.catalog import ABILITIES, ANCESTRY_COLORS
from dragonante.engine.decisions import SEER_KEEP
from dragonante.engine.effects import (
    AMOUNT,
    CARDS,
    COUNTS,
    FLAG,
    PUBLIC,
    SEAT,
    SEATS,
    VISIBLE,
    Effect,
)
from dragonante.engine.state import GameState
from dragonante.engine.tables import COLORS, STRENGTH
from dragonante.engine.views import Observation, Question

N_ABILITIES = len(ABILITIES)
N_COLORS = len(ANCESTRY_COLORS)
N_FLIGHT_COLORS = len(COLORS)
N_STRENGTHS = max(STRENGTH) + 1
_O = {name: s.start for name, s in SLICES.items()}
_KIND_INDEX: dict[str | None, int] = {k: i for i, k in enumerate(QUESTION_KINDS)}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_ANCESTRY_INDEX = {c: i for i, c in enumerate(ANCESTRY_COLORS)}


def _scalars(sidx: list[int], sval: list[float], first: int, values: list[int], top: int) -> None:
    """Queue ``values`` (one per seat from ``first``), each divided by ``top`` and clipped."""
    sidx.extend(range(first, first + len(values)))
    sval.extend([min(x, top) / top for x in values])


def reference_encode(view: Observation) -> npt.NDArray[np.float32]:
    """The observation vector of ``view``, as the first, simple encoder built it
    (reading the typed view through its JSON form, the running effects by the
    effects table's shapes)."""
    obs = view.to_dict()
    hot: list[int] = []
    sidx: list[int] = []
    sval: list[float] = []
    o = _O
    n: int = obs["players"]
    seat: int | None = obs["seat"]
    hoards: list[int] = obs["hoards"]
    total = max(1, sum(hoards) + obs["stakes"] + obs["hole"])

    def cards(name: str, cs: list[int] | tuple[int, ...]) -> None:
        base = o[name]
        hot.extend(base + c for c in cs if c >= 0)

    def seats(name: str, ps: list[int] | tuple[int, ...]) -> None:
        base = o[name]
        hot.extend(base + p for p in ps if p >= 0)

    hand = obs["hand"]
    if hand:
        cards("hand", hand)
    base = o["flights"]
    for p, f in enumerate(obs["flights"]):
        hot.extend(base + p * N_CARDS + c for c in f)
    base = o["round_card"]
    for p, c in enumerate(obs["round_card"]):
        if c >= 0:
            hot.append(base + p * N_CARDS + c)
    base = o["known_in_hands"]
    for p, cs in obs["known_in_hands"].items():
        hot.extend(base + p * N_CARDS + c for c in cs)
    cards("ante", obs["ante"])
    if obs["my_ante"] >= 0:
        hot.append(o["my_ante"] + obs["my_ante"])
    cards("revealed", obs["revealed"])
    cards("private_look", obs["private_look"])
    cards("discard", obs["discard"])
    if obs["specials"]:
        cards("specials", obs["specials"])
    q = obs["question"]
    if q is not None:
        if q["source"] >= 0:
            hot.append(o["question_source"] + q["source"])
        hot.append(o["to_act"] + q["seat"])
        hot.append(o["question_kind"] + _KIND_INDEX.get(q["kind"], _KIND_INDEX[PRIVATE]))
    else:
        hot.append(o["question_kind"] + _KIND_INDEX[None])
    if seat is not None:
        hot.append(o["is_me"] + seat)
    hot.extend(range(o["seated"], o["seated"] + n))
    hot.append(o["leader"] + obs["leader"])
    seats("ante_placed", [p for p, placed in enumerate(obs["ante_placed"]) if placed])
    seats("out", obs["out"])
    seats("winners", obs["winners"])
    seats("gambit_winner", [obs["gambit_winner"]])
    hot.append(o["phase"] + _PHASE_INDEX[obs["phase"]])
    base_c, base_s = o["collected_colors"], o["collected_strengths"]
    for p in range(n):
        mask = obs["collected_colors"][p]
        i = 0
        while mask:
            if mask & 1:
                hot.append(base_c + p * N_FLIGHT_COLORS + i)
            mask >>= 1
            i += 1
        mask = obs["collected_strengths"][p]
        i = 0
        while mask:
            if mask & 1:
                hot.append(base_s + p * N_STRENGTHS + i)
            mask >>= 1
            i += 1

    ab = obs["abilities"]
    if ab is None:
        hot.append(o["ability_system"])
    else:
        hot.append(o["ability_system"] + SYSTEMS.index(ab["system"]))
        if ab["public"]:
            hot.append(o["abilities_public"])
        base = o["ability_held"]
        for p, held in enumerate(ab["held"]):
            hot.extend(base + p * N_ABILITIES + a for a in held)
        base = o["ancestry"]
        for p, color in enumerate(ab["ancestry"]):
            if color is not None:
                hot.append(base + p * N_COLORS + _ANCESTRY_INDEX[color])
        for p, side in enumerate(ab.get("disks", ())):
            if side == "expended":
                hot.append(o["disk_expended"] + p)
        base = o["ability_spent"]
        for p, spent in enumerate(ab.get("spent", ())):
            hot.extend(base + p * N_ABILITIES + a for a in spent)
        for p, used in enumerate(ab.get("diplomacy_used", ())):
            if used:
                hot.append(o["diplomacy_used"] + p)
        _scalars(sidx, sval, o["ability_counts"], ab["counts"], 4)
        _scalars(sidx, sval, o["ability_wins"], ab["wins"], 10)

    _scalars(sidx, sval, o["hoards"], hoards, total)
    _scalars(sidx, sval, o["hole_owed"], obs["hole_owed"], total)
    _scalars(sidx, sval, o["hand_sizes"], obs["hand_sizes"], 10)
    for e in VISIBLE:
        value = obs[e.name]
        if e.shape == CARDS:
            cards(e.name, value)
        elif e.shape == SEATS:
            seats(e.name, value)
        elif e.shape == SEAT:
            seats(e.name, [value])
        elif e.shape == FLAG:
            sidx.append(o[e.name])
            sval.append(float(bool(value)))
        elif e.shape == COUNTS:
            _scalars(sidx, sval, o[e.name], value, EFFECT_SCALE[COUNTS])
        else:
            _scalars(sidx, sval, o[e.name], [value], EFFECT_SCALE[AMOUNT])
    to_stakes = 0
    if obs["debts"]:
        owed = [0] * MAX_PLAYERS
        due = [0] * MAX_PLAYERS
        for debtor, creditor, amount in obs["debts"]:
            owed[debtor] += amount
            if creditor >= 0:
                due[creditor] += amount
            else:
                to_stakes += amount
        _scalars(sidx, sval, o["debts_owed"], owed, total)
        _scalars(sidx, sval, o["debts_due"], due, total)
    g = o["globals"]
    sidx.extend(range(g, g + 10))
    sval.extend(
        (
            min(obs["stakes"], total) / total,
            min(obs["hole"], total) / total,
            min(to_stakes, total) / total,
            min(obs["deck_size"], N_CARDS) / N_CARDS,
            min(obs["discard_size"], N_CARDS) / N_CARDS,
            min(obs["gambit"], 50) / 50,
            min(obs["round"], 50) / 50,
            n / MAX_PLAYERS,
            float(obs["specials"] is not None),
            float(bool(obs["last_gambit"])),
        )
    )
    v = np.zeros(OBS_SIZE, dtype=np.float32)
    v[np.fromiter(hot, np.intp, len(hot))] = 1.0
    v[np.fromiter(sidx, np.intp, len(sidx))] = np.fromiter(sval, np.float32, len(sval))
    return v


def reference_observe(s: GameState, seat: int | None, gm: bool = False) -> Observation:
    """``views.observe(..., hints=False)`` as it was before it was tuned for speed
    (issue 14); the running effects as the effects table shapes them."""
    n = s.n
    d = s.pending
    ab = s.abilities
    question: Question | None = None
    if d is not None:
        kind = d.kind if ab is None or gm else ab.question_for(d, seat)
        question = Question(d.id, d.seat, kind, d.source)
        if seat == d.seat:
            question = Question(d.id, d.seat, kind, d.source, list(d.options), list(d.ctx))
    known_in_hands: dict[int, list[int]] = {}
    if seat is not None:
        known = s.known
        if known:
            for p in range(n):
                if p != seat:
                    # A known card anted face down is still "in that player's
                    # hand" until the reveal: listing it elsewhere would leak the ante.
                    held = [*s.hands[p], s.ante_choice[p]]
                    cards = [c for c in held if c >= 0 and (known.get(c, 0) >> seat) & 1]
                    if cards:
                        known_in_hands[p] = sorted(cards)
    private_look: list[int] = []
    if d is not None and d.kind == SEER_KEEP and seat == d.seat:
        private_look = list(d.options)
    reveal = s.config.deck.reveal_specials
    data: dict[str, Any] = {
        "seat": seat,
        "players": n,
        "phase": s.phase,
        "gambit": s.gambit,
        "round": s.round,
        "leader": s.leader,
        "hoards": list(s.hoards),
        "stakes": s.stakes,
        "hole": s.hole,
        "hole_owed": list(s.hole_owed),
        "debts": [list(d) for d in s.debts],
        "hand": list(s.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in s.hands],
        "known_in_hands": known_in_hands,
        "flights": [list(f) for f in s.flights],
        "ante": list(s.ante),
        "ante_placed": [c >= 0 for c in s.ante_choice],
        "my_ante": s.ante_choice[seat] if seat is not None else -1,
        "revealed": [c for c in s.limbo if d is None or d.kind != SEER_KEEP],
        "private_look": private_look,
        "deck_size": len(s.deck),
        "discard": _visible_discards(s, seat),
        "discard_size": len(s.discard),
        "specials": list(s.specials) if reveal else None,
        "round_card": list(s.round_card),
        "effects": {
            e.name: _effect(e, getattr(s, e.name), n)
            for e in VISIBLE
            if getattr(s, e.name) != e.fresh(n)  # only the effects in force
        },
        "collected_colors": list(s.collected_colors),
        "collected_strengths": list(s.collected_strengths),
        "gambit_winner": s.gambit_winner,
        "question": question,
        "winners": list(s.winners),
        #: Seats eliminated (Emperor's Gambit "play until N players remain").
        "out": _bits(s.out),
        #: The gambit announced as the last one (time limit), else 0.
        "last_gambit": s.last_gambit,
        #: The D&D abilities as this seat may know them (None: the table has none).
        "abilities": None if ab is None else ab.view(s, seat, gm),
        "totals": [],
        "hints": [],
        "completes": {},
    }
    return Observation(**data)


def _effect(e: Effect, value: Any, n: int) -> Any:
    """A running effect as every seat sees it, by its shape (all public today)."""
    assert e.seen_by == PUBLIC, "an owner-only effect needs its own reference here"
    if e.shape == SEATS:
        return [p for p in range(n) if (value >> p) & 1]
    if e.shape == CARDS:
        return _bits(value)
    if e.shape == COUNTS:
        return list(value)
    return value


def _visible_discards(s: GameState, seat: int | None) -> list[int]:
    """The discard pile as ``seat`` knows it: cards discarded face down (the Silver
    Seer's two, an eliminated player's hand) only for the seats that saw them."""
    known = s.known
    if not known:
        return list(s.discard)
    out = []
    for c in s.discard:
        mask = known.get(c)
        if mask is None or (seat is not None and (mask >> seat) & 1):
            out.append(c)
    return out


def _bits(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out
