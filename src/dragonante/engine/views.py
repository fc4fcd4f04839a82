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

from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Annotated, Any, NamedTuple, get_type_hints

from dragonante.engine.config import GameConfig
from dragonante.engine.decisions import PLAY, SEER_KEEP
from dragonante.engine.effects import VISIBLE, active, bits, seen_effects, shown
from dragonante.engine.flights import completed_by
from dragonante.engine.flow import scoring_totals, triggers
from dragonante.engine.state import Event, GameState

SPECTATOR = None


#: card -> (color indexes, strengths) of the special flights playing it completes.
Completes = dict[int, tuple[list[int], list[int]]]
_NO_HINTS: tuple[list[int], Completes] = ([], {})

#: Marks a field of :class:`Observation` that depends on who looks (seat or game-master).
SEAT = "seat"


class Question(NamedTuple):
    """The pending question as one seat may see it.

    ``kind`` is what the seat may know (another seat's hidden-ability
    question shows as ``private``); ``options`` and ``ctx`` (the question's
    parameters: the gold to pay, the card just drawn...) only for the seat
    that is asked, else ``None``.
    """

    id: int
    seat: int
    kind: str
    source: int
    options: list[int] | None = None
    ctx: list[int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; ``options`` and ``ctx`` only when the seat has them."""
        out: dict[str, Any] = {"id": self.id, "seat": self.seat, "kind": self.kind}
        out["source"] = self.source
        if self.options is not None:
            out["options"] = self.options
        if self.ctx is not None:
            out["ctx"] = self.ctx
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Question:
        return cls(
            int(data["id"]),
            int(data["seat"]),
            str(data["kind"]),
            int(data["source"]),
            data.get("options"),
            data.get("ctx"),
        )


class Observation(NamedTuple):
    """Everything one seat (or a spectator, ``seat=None``) may know, finished.

    Made only by :func:`observe`; the command line, the full-screen table,
    the web and the agents draw or encode it and add nothing of their own.
    Besides the zones and counts it holds the public figures everyone would
    otherwise work out again (``totals``: each flight as scored) and the
    seat's hints (``hints``: the cards of its hand that would trigger,
    ``completes``: the special flights each would complete), both from the
    engine's one rule for each.  The lists may be shared with other views of
    the same state (``observe(..., public=)``): never change them in place.

    Fields marked ``SEAT`` (:data:`SEAT_KEYS`) are the only ones that
    differ between seats.  ``effects`` holds only the effects in force (an
    effect not in force is absent; :meth:`to_dict` writes every one).

    A named tuple, not a frozen dataclass: the learning environments make
    one per step, and a frozen slotted dataclass costs about 10 us to build
    on Python 3.11 against about 2 for a named tuple (``docs/engine.md``).
    """

    seat: Annotated[int | None, SEAT]
    players: int
    phase: str
    gambit: int
    round: int
    leader: int
    hoards: list[int]
    stakes: int
    hole: int
    hole_owed: list[int]
    #: Emperor's Gambit debts: [debtor, creditor (-1: the stakes), amount].
    debts: list[list[int]]
    hand: Annotated[list[int] | None, SEAT]
    hand_sizes: list[int]
    #: Cards of other hands this seat has seen: seat -> cards.
    known_in_hands: Annotated[dict[int, list[int]], SEAT]
    flights: list[list[int]]
    ante: list[int]
    ante_placed: list[bool]
    my_ante: Annotated[int, SEAT]
    revealed: list[int]
    private_look: Annotated[list[int], SEAT]
    deck_size: int
    discard: Annotated[list[int], SEAT]
    discard_size: int
    specials: list[int] | None
    round_card: list[int]
    #: The running effects in force that this seat may see (engine/effects.py),
    #: as seen: name -> seats, a seat, a flag, cards, counts per seat or an amount.
    effects: dict[str, Any]
    collected_colors: list[int]
    collected_strengths: list[int]
    gambit_winner: int
    question: Annotated[Question | None, SEAT]
    winners: list[int]
    #: Seats eliminated (Emperor's Gambit "play until N players remain").
    out: list[int]
    #: The gambit announced as the last one (time limit), else 0.
    last_gambit: int
    #: The D&D abilities as this seat may know them (None: the table has none).
    abilities: Annotated[dict[str, Any] | None, SEAT]
    #: Each flight's strength as scored (Dragonrider, Dracolich, Emperor applied).
    totals: list[int]
    #: The cards of the seat's hand that would trigger if played now: only
    #: while the seat is asked what to play (the book's rule reads the card
    #: just played by the player to its right, known only then).
    hints: Annotated[list[int], SEAT]
    #: For each card the seat may play now, the special flights it would
    #: complete: card -> (color indexes, strengths); cards completing none
    #: are left out.
    completes: Annotated[dict[int, tuple[list[int], list[int]]], SEAT]

    def effect(self, name: str) -> Any:
        """One running effect as this seat sees it (KeyError: not a visible effect)."""
        return self.effects[name]

    def to_dict(self, public: dict[str, Any] | None = None) -> dict[str, Any]:
        """JSON-ready data: the fields by name, each effect flattened to a key of
        its own (the browser's names), card keys of ``completes`` as strings.

        The web server makes one per connection after every answer, so this
        builds the dict in one pass, and the "off" value of each effect not in
        force is made once per table size (:func:`_effects_off`) and shared:
        like the shared parts of :func:`observe`, no view may be changed in
        place.  ``public``: the ``to_dict()`` of the spectator's view of this
        very state (``observe(s, None)``), when the caller makes several
        seats' dicts at once; only the :data:`SEAT_KEYS` entries are then made,
        the rest taken from it (the result is equal, key order included).
        """
        if public is not None:
            out = public.copy()
            for i, name in _SEAT_AT:
                out[name] = self[i]
            q = self.question
            out["question"] = None if q is None else q.to_dict()
            out["completes"] = {str(c): [cs, ss] for c, (cs, ss) in self.completes.items()}
            return out
        out = dict(zip(_BEFORE_EFFECTS, self[:_EFFECTS_AT], strict=True))
        effects = self.effects
        if effects:
            for name, off in _effects_off(self.players):
                out[name] = effects.get(name, off)
        else:
            out.update(_effects_off(self.players))
        out.update(zip(_AFTER_EFFECTS, self[_EFFECTS_AT + 1 :], strict=True))
        q = self.question
        out["question"] = None if q is None else q.to_dict()
        out["completes"] = {str(c): [cs, ss] for c, (cs, ss) in self.completes.items()}
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Observation:
        """The observation :meth:`to_dict` gave (the remote terminal client's view);
        JSON's string keys of ``known_in_hands`` and ``completes`` become ints again."""
        kw: dict[str, Any] = {f: data[f] for f in _FIELDS if f in data and f not in _SPECIAL}
        kw["effects"] = {
            e.name: data[e.name] for e in VISIBLE if e.name in data and active(e, data[e.name])
        }
        q = data.get("question")
        kw["question"] = None if q is None else Question.from_dict(q)
        kw["known_in_hands"] = {int(p): cs for p, cs in (data.get("known_in_hands") or {}).items()}
        kw["completes"] = {
            int(c): (list(v[0]), list(v[1])) for c, v in (data.get("completes") or {}).items()
        }
        return cls(**kw)


_FIELDS = Observation._fields
_EFFECTS_AT = _FIELDS.index("effects")
_BEFORE_EFFECTS = _FIELDS[:_EFFECTS_AT]
_AFTER_EFFECTS = _FIELDS[_EFFECTS_AT + 1 :]


@cache
def _effects_off(n: int) -> tuple[tuple[str, Any], ...]:
    """(name, value) of every visible effect when it is not in force, as a
    spectator sees it, at a table of ``n`` seats (:meth:`Observation.to_dict`)."""
    return tuple((e.name, shown(e, e.fresh(n), n, None)) for e in VISIBLE)


#: ``tuple.__new__``: makes an :class:`Observation` from one tuple of all its fields.
_new_observation: Callable[[type[Observation], tuple[Any, ...]], Observation] = tuple.__new__
#: The same for a :class:`Question` (all six fields, ``None`` for those it lacks).
_new_question: Callable[[type[Question], tuple[Any, ...]], Question] = tuple.__new__
_SPECIAL = frozenset({"effects", "question", "known_in_hands", "completes"})
#: The fields of an :class:`Observation` that depend on who looks (seat or
#: game-master), from their ``SEAT`` mark; every other one is the same for everyone.
SEAT_KEYS = tuple(
    f
    for f, hint in get_type_hints(Observation, include_extras=True).items()
    if SEAT in getattr(hint, "__metadata__", ())
)
#: (index, name) of each seat-dependent field; "effects" must not be one:
#: ``to_dict(public)`` takes the effects from the spectator's dict.
_SEAT_AT = tuple((_FIELDS.index(f), f) for f in SEAT_KEYS)
assert "effects" not in SEAT_KEYS
#: :func:`_seat_part`: the fields a seat's view replaces in the spectator's, by index.
_I_SEAT, _I_HAND, _I_KNOWN, _I_MY_ANTE, _I_LOOK, _I_DISCARD, _I_QUESTION, _I_ABILITIES = (
    _FIELDS.index(f)
    for f in (
        "seat",
        "hand",
        "known_in_hands",
        "my_ante",
        "private_look",
        "discard",
        "question",
        "abilities",
    )
)
_I_HINTS, _I_COMPLETES = _FIELDS.index("hints"), _FIELDS.index("completes")


def observe(
    s: GameState,
    seat: int | None,
    gm: bool = False,
    public: Observation | None = None,
    hints: bool = True,
) -> Observation:
    """What ``seat`` may see of ``s`` (or a spectator; ``gm``: a game-master).

    The learning environments call this at every step (issue 14), so it skips
    work on empty zones and masks, and they pass ``hints=False``: the totals,
    trigger hints and completed flights are for people (the vector does not
    encode them), and the flights a card would complete cost more than the
    rest of the view.  ``tests/agents/reference_encoding.py`` keeps the plain
    version whose views it must equal.

    ``public``: ``observe(s, None)`` of this very state, when the caller makes
    views for several seats at once (the web server, after every answer).
    The fields no seat sees differently are then taken from it - the same
    list objects, not copies, so none of these views may be changed in place
    - and only the seat's own are made (:data:`SEAT_KEYS`); the result is equal.
    """
    if public is not None:
        return _seat_part(s, seat, gm, public, hints)
    n = s.n
    d = s.pending
    ab = s.abilities
    known = known_in_hands(s, seat) if seat is not None and s.known else {}
    private_look: list[int] = []
    if d is not None and d.kind == SEER_KEEP and seat == d.seat:
        private_look = list(d.options)
    reveal = s.config.deck.reveal_specials
    trig, completes = _hints(s, seat) if hints else _NO_HINTS
    # One tuple in the fields' order, made into the named tuple without its
    # ``__new__`` (a Python function taking 37 arguments): keywords would cost
    # more than the rest of the view.  Python does not count the fields here:
    # tests/agents/reference_encoding.py builds the view by name and
    # tests/agents/test_encoding.py checks the two equal on many states.
    return _new_observation(
        Observation,
        (
            seat,
            n,
            s.phase,
            s.gambit,
            s.round,
            s.leader,
            list(s.hoards),
            s.stakes,
            s.hole,
            list(s.hole_owed),
            [list(d) for d in s.debts] if s.debts else [],
            list(s.hands[seat]) if seat is not None else None,
            list(map(len, s.hands)),
            known,
            [list(f) for f in s.flights],
            list(s.ante),
            [c >= 0 for c in s.ante_choice],
            s.ante_choice[seat] if seat is not None else -1,
            list(s.limbo) if d is None or d.kind != SEER_KEEP else [],
            private_look,
            len(s.deck),
            visible_discards(s, seat),
            len(s.discard),
            list(s.specials) if reveal else None,
            list(s.round_card),
            seen_effects(s, n, seat),
            list(s.collected_colors),
            list(s.collected_strengths),
            s.gambit_winner,
            _question(s, seat, gm),
            list(s.winners),
            bits(s.out),
            s.last_gambit,
            None if ab is None else ab.view(s, seat, gm),
            scoring_totals(s) if hints else [],
            trig,
            completes,
        ),
    )


def _hints(
    s: GameState, seat: int | None
) -> tuple[list[int], dict[int, tuple[list[int], list[int]]]]:
    """The seat's hints: the cards in hand that would trigger and the special
    flights each would complete, only while the seat is asked what to play."""
    d = s.pending
    if seat is None or d is None or d.seat != seat or d.kind != PLAY:
        return [], {}
    trig = [c for c in d.options if c >= 0 and triggers(s, seat, c)]
    completes: Completes = {}
    for c in d.options:
        if c >= 0:
            colors, strengths = completed_by(s, seat, c)
            if colors or strengths:
                completes[c] = (colors, strengths)
    return trig, completes


def _seat_part(
    s: GameState, seat: int | None, gm: bool, public: Observation, hints: bool
) -> Observation:
    """``observe(s, seat, gm)`` from the spectator's view ``public``: the
    :data:`SEAT_KEYS` made for ``seat`` as ``observe`` makes them, the rest shared."""
    if seat is None and not gm:
        return public
    ab = s.abilities
    question = _question(s, seat, gm)
    abilities = None if ab is None else ab.view(s, seat, gm)
    # A list of the spectator's fields with the seat's own put in by index, made
    # a tuple again: NamedTuple._replace costs several times more (the web
    # server makes one of these per connection after every answer).
    fields = list(public)
    fields[_I_QUESTION] = question
    fields[_I_ABILITIES] = abilities
    if seat is not None:
        d = s.pending
        fields[_I_SEAT] = seat
        fields[_I_HAND] = list(s.hands[seat])
        fields[_I_KNOWN] = known_in_hands(s, seat) if s.known else {}
        fields[_I_MY_ANTE] = s.ante_choice[seat]
        fields[_I_LOOK] = (
            list(d.options) if d is not None and d.kind == SEER_KEEP and seat == d.seat else []
        )
        fields[_I_DISCARD] = visible_discards(s, seat)
        fields[_I_HINTS], fields[_I_COMPLETES] = _hints(s, seat) if hints else _NO_HINTS
    return _new_observation(Observation, tuple(fields))


def _question(s: GameState, seat: int | None, gm: bool) -> Question | None:
    """The pending question as ``seat`` may see it (its options only if it is asked)."""
    d = s.pending
    if d is None:
        return None
    ab = s.abilities
    kind = d.kind if ab is None or gm else ab.question_for(d, seat)
    # Made without the named tuple's ``__new__`` (a Python function), as
    # :func:`observe` makes the view: the learning environments make one per step.
    if seat == d.seat:
        return _new_question(Question, (d.id, d.seat, kind, d.source, list(d.options), list(d.ctx)))
    return _new_question(Question, (d.id, d.seat, kind, d.source, None, None))


def known_in_hands(s: GameState, seat: int) -> dict[int, list[int]]:
    """The cards ``seat`` knows in other hands (``s.known`` not empty).

    A known card anted face down is still "in that player's hand" until the
    reveal: listing it elsewhere would leak the ante.  ``s.known`` holds a
    few cards (two or three in a typical game) and the hands a dozen or more,
    so this looks for the seat's known cards in the hands, not the other
    way round (a card is in one place only), skipping those in the seat's
    own hand or ante.  One plain loop, no comprehension: the learning
    environments call this at every step (issue 24: about a third less).
    """
    bit = 1 << seat
    hands = s.hands
    own = hands[seat]
    ante = s.ante_choice
    own_ante = ante[seat]
    found: dict[int, list[int]] | None = None
    for c, mask in s.known.items():
        if not mask & bit or c in own or c == own_ante:
            continue
        for p, hand in enumerate(hands):
            if c in hand or c == ante[p]:
                if found is None:
                    found = {p: [c]}
                elif p in found:
                    found[p].append(c)
                else:
                    found[p] = [c]
                break
    if found is None:
        return {}
    if len(found) > 1:
        found = dict(sorted(found.items()))
    for cards in found.values():
        if len(cards) > 1:
            cards.sort()
    return found


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
    discard = s.discard
    if not known or not discard:
        return list(discard)
    # The few known cards this seat has not seen (usually none is discarded);
    # a plain loop, no set made when there is none (called at every step).
    unseen: set[int] | None = None
    if seat is None:
        unseen = set(known)
    else:
        bit = 1 << seat
        for c, mask in known.items():
            if not mask & bit:
                if unseen is None:
                    unseen = {c}
                else:
                    unseen.add(c)
    if unseen is None or unseen.isdisjoint(discard):
        return list(discard)
    return [c for c in discard if c not in unseen]


def seen_face_down(s: GameState, seat: int) -> list[int]:
    """The cards of the discard pile that ``seat`` saw discarded face down: what
    its :func:`visible_discards` holds and a spectator's does not (a known
    card is forgotten once it reaches a public zone, so every known card in
    the pile went there face down)."""
    bit = 1 << seat
    discard = s.discard
    return [c for c, mask in s.known.items() if mask & bit and c in discard]


def visible(event: Event, seat: int | None) -> bool:
    vis = event[0]
    return vis is None or (seat is not None and seat in vis)


def events_for(log: list[Event], seat: int | None, start: int = 0) -> list[Event]:
    """The events of ``log[start:]`` that ``seat`` may see."""
    return [e for e in log[start:] if visible(e, seat)]


#: Private events a game-master sees too: who was given or picked which hidden
#: ability, and a dragonborn's ancestry.  Never an event naming a hidden card.
GM_EVENTS = frozenset({"abilities_dealt", "draft_pick", "ancestry_chosen"})


def visible_to_gm(event: Event) -> bool:
    """Whether a game-master may see ``event``: a public one or a hidden ability's."""
    return event[0] is None or event[1] in GM_EVENTS


def events_for_gm(log: list[Event], start: int = 0) -> list[Event]:
    """The events of ``log[start:]`` a game-master may see: the public ones and the
    hidden abilities' (``observe(state, None, gm=True)`` is the matching view)."""
    return [e for e in log[start:] if e[0] is None or e[1] in GM_EVENTS]
