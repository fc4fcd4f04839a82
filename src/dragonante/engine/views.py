"""What one seat may see: observations and the per-seat event log.

These are the only ways information leaves the engine.  A seat sees its own
hand, every public zone and count, and the private facts the rules show it
(the Silver Seer's look, a card taken at random from or by it, its own ante
card before the reveal, its own pick 'em choice).  It never sees another
hand, the deck order, the unused specials (unless "show 'em"), or another
seat's options.  ``seat=None`` is a spectator: public information only.

D&D abilities (``state.abilities``): a seat sees its own abilities, every
ability already used (or all of them at a table where they are public), how
many each character has, and every disk's side.  A game-master
(``gm=True``) also sees every character's abilities, but no hidden card.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dragonante.engine.config import GameConfig
from dragonante.engine.decisions import SEER_KEEP
from dragonante.engine.effects import VISIBLE, shown
from dragonante.engine.state import Event, GameState

SPECTATOR = None


def observe(
    s: GameState, seat: int | None, gm: bool = False, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A JSON-ready view of ``s`` for ``seat`` (or a spectator; ``gm``: a game-master).

    The learning environments call this at every step (issue 14), so it skips
    work on empty zones and masks; ``tests/agents/reference_encoding.py``
    keeps the plain version whose views it must equal.

    ``public``: ``observe(s, None)`` of this very state, when the caller makes
    views for several seats at once (the web server, after every answer).
    The entries no seat sees differently are then taken from it - the same
    list objects, not copies, so none of these views may be changed in place
    - and only the seat's own are made (:data:`SEAT_KEYS`); the result is
    equal, key order included.
    """
    if public is not None:
        return _seat_part(s, seat, gm, public)
    n = s.n
    d = s.pending
    ab = s.abilities
    question = _question(s, seat, gm)
    known_in_hands = _known_in_hands(s, seat) if seat is not None and s.known else {}
    private_look: list[int] = []
    if d is not None and d.kind == SEER_KEEP and seat == d.seat:
        private_look = list(d.options)
    reveal = s.config.deck.reveal_specials
    return {
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
        "debts": [list(d) for d in s.debts] if s.debts else [],
        "hand": list(s.hands[seat]) if seat is not None else None,
        "hand_sizes": list(map(len, s.hands)),
        "known_in_hands": known_in_hands,
        "flights": [list(f) for f in s.flights],
        "ante": list(s.ante),
        "ante_placed": [c >= 0 for c in s.ante_choice],
        "my_ante": s.ante_choice[seat] if seat is not None else -1,
        "revealed": list(s.limbo) if d is None or d.kind != SEER_KEEP else [],
        "private_look": private_look,
        "deck_size": len(s.deck),
        "discard": visible_discards(s, seat),
        "discard_size": len(s.discard),
        "specials": list(s.specials) if reveal else None,
        "round_card": list(s.round_card),
        # The running effects of triggered powers (engine/effects.py).
        **{e.name: shown(e, getattr(s, e.name), n, seat) for e in VISIBLE},
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
    }


#: The entries of ``observe`` that depend on who looks (seat or game-master);
#: every other one is the same for everyone.
SEAT_KEYS = (
    "seat",
    "hand",
    "known_in_hands",
    "my_ante",
    "private_look",
    "discard",
    "question",
    "abilities",
)


def _seat_part(s: GameState, seat: int | None, gm: bool, public: dict[str, Any]) -> dict[str, Any]:
    """``observe(s, seat, gm)`` from the spectator's view ``public``: the
    :data:`SEAT_KEYS` made for ``seat`` as ``observe`` makes them, the rest shared."""
    view = dict(public)  # observe's key order: replacing an entry keeps its place
    if seat is None and not gm:
        return view
    ab = s.abilities
    view["question"] = _question(s, seat, gm)
    view["abilities"] = None if ab is None else ab.view(s, seat, gm)
    if seat is None:
        return view
    d = s.pending
    view["seat"] = seat
    view["hand"] = list(s.hands[seat])
    view["known_in_hands"] = _known_in_hands(s, seat) if s.known else {}
    view["my_ante"] = s.ante_choice[seat]
    if d is not None and d.kind == SEER_KEEP and seat == d.seat:
        view["private_look"] = list(d.options)
    else:
        view["private_look"] = []
    view["discard"] = visible_discards(s, seat)
    return view


def _question(s: GameState, seat: int | None, gm: bool) -> dict[str, Any] | None:
    """The pending question as ``seat`` may see it (its options only if it is asked)."""
    d = s.pending
    if d is None:
        return None
    ab = s.abilities
    kind = d.kind if ab is None or gm else ab.question_for(d, seat)
    question: dict[str, Any] = {"id": d.id, "seat": d.seat, "kind": kind, "source": d.source}
    if seat == d.seat:
        question["options"] = list(d.options)
    return question


def _known_in_hands(s: GameState, seat: int) -> dict[int, list[int]]:
    """The cards ``seat`` knows in other hands (``s.known`` not empty)."""
    known_in_hands: dict[int, list[int]] = {}
    get, bit = s.known.get, 1 << seat
    for p in range(s.n):
        if p != seat:
            # A known card anted face down is still "in that player's
            # hand" until the reveal: listing it elsewhere would leak the ante.
            held = [*s.hands[p], s.ante_choice[p]]
            cards = [c for c in held if c >= 0 and get(c, 0) & bit]
            if cards:
                known_in_hands[p] = sorted(cards)
    return known_in_hands


def config_for(config: GameConfig, seat: int | None) -> GameConfig:
    """The table's configuration as ``seat`` may know it (``None``: a spectator).

    Everything in a config is public except the game-master's notes on hidden
    D&D abilities: which ones another seat was given, its dragon ancestry.
    """
    known = config.abilities.as_known_by(seat)
    return config if known is config.abilities else replace(config, abilities=known)


def visible_discards(s: GameState, seat: int | None) -> list[int]:
    """The discard pile as ``seat`` knows it: cards discarded face down (the Silver
    Seer's two, an eliminated player's hand) only for the seats that saw them."""
    known = s.known
    if not known:
        return list(s.discard)
    get = known.get
    if seat is None:
        return [c for c in s.discard if get(c) is None]
    bit = 1 << seat
    return [c for c in s.discard if (mask := get(c)) is None or mask & bit]


def _seats(mask: int, n: int) -> list[int]:
    """The seats below ``n`` whose bit is set in ``mask`` (most masks are 0)."""
    return [p for p in range(n) if (mask >> p) & 1] if mask else []


def _bits(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def visible(event: Event, seat: int | None) -> bool:
    vis = event[0]
    return vis is None or (seat is not None and seat in vis)


def events_for(log: list[Event], seat: int | None, start: int = 0) -> list[Event]:
    """The events of ``log[start:]`` that ``seat`` may see."""
    return [e for e in log[start:] if visible(e, seat)]


#: Private events a game-master sees too: who was given or picked which hidden
#: ability, and a dragonborn's ancestry.  Never an event naming a hidden card.
GM_EVENTS = frozenset({"abilities_dealt", "draft_pick", "ancestry_chosen"})


def events_for_gm(log: list[Event], start: int = 0) -> list[Event]:
    """The events of ``log[start:]`` a game-master may see: the public ones and the
    hidden abilities' (``observe(state, None, gm=True)`` is the matching view)."""
    return [e for e in log[start:] if e[0] is None or e[1] in GM_EVENTS]
