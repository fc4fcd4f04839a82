"""A seat's observation vector kept up to date from the engine state itself.

The learning environments observe a seat at every step (issue 24's loop:
``env.last()`` then ``env.step``).  Making the seat's view
(:func:`~dragonante.engine.views.observe`) copies every zone of the table
into fresh lists, and diffing that view against the last one
(:class:`~dragonante.agents.encoding.IncrementalEncoder`) compares them all
again: together about three times the engine's own work for the step.  This
encoder skips the view on the common path:

* it keeps **one public vector**, the encoding of what a spectator sees
  (``observe(state, None)``), and brings it up to date by comparing the
  state's zones with its own copies of them, rewriting only the blocks
  whose zones changed (a card played: one flight, one round card, a hand
  size; the question; some gold);
* a seat's vector is a copy of it with the **seat's own entries** written
  in: its hand, ``is_me``, its face-down ante card, and, only when the
  rules showed it something, the cards it knows in other hands, the
  Silver Seer's private look and the known cards in the discard pile.

What a seat may see is still decided by the view's code: the seat's extras
come from :func:`~dragonante.engine.views.known_in_hands` and
:func:`~dragonante.engine.views.visible_discards`, the running effects from
:func:`~dragonante.engine.effects.seen_effects`; the rest of the public
vector is the state's public zones, each read as ``observe`` reads it.
Tables where a seat's view differs from the spectator's in more than these
(D&D abilities; a running effect only its owner sees) are encoded through
the view and :class:`~dragonante.agents.encoding.IncrementalEncoder`.

Either way the vector is equal byte for byte to
``encode(observe(state, seat, hints=False))``:
``tests/agents/test_state_encoding.py`` compares them for every seat in
every state of whole games of every kind of table, and checks that a
twin state differing only in what a seat cannot see gives that seat the
same vector.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from dragonante.agents.compiled import fastobs
from dragonante.agents.encoding import (
    _BLOCKS,
    _CODE_ACTION,
    _G_ANTE,
    _G_ANTE_PLACED,
    _G_COLLECTED,
    _G_DISCARD,
    _G_GAMBIT_WINNER,
    _G_LEADER,
    _G_OUT,
    _G_PHASE,
    _G_REVEALED,
    _G_SEATED,
    _G_SPECIALS,
    _G_WINNERS,
    _GLOBALS,
    _HAND,
    _IS_ME,
    _KIND_AT,
    _KNOWN,
    _O,
    _PHASE_AT,
    _PRIVATE_KIND,
    _QUESTION_SOURCE,
    _ROUND_CARD,
    _SEATED,
    _SYSTEM_AT,
    _TO_ACT,
    _UNSEEN,
    MAX_PLAYERS,
    N_ACTIONS,
    N_CARDS,
    N_FLIGHT_COLORS,
    N_STRENGTHS,
    OBS_SIZE,
    IncrementalEncoder,
    _collected_hot,
    _LastVector,
    encode,
    mask_bytes,
)
from dragonante.engine.config import DeckOptions, GameConfig
from dragonante.engine.decisions import SEER_KEEP, Decision
from dragonante.engine.effects import (
    AMOUNT,
    CARDS,
    COUNTS,
    FLAG,
    OWNER,
    SEAT,
    SEATS,
    VISIBLE,
    bits,
    seen_effects,
)
from dragonante.engine.state import GameState
from dragonante.engine.views import known_in_hands, observe, seen_face_down, visible_discards

_ANTE: Final = _O["ante"]
_DISCARD: Final = _O["discard"]
_MY_ANTE: Final = _O["my_ante"]
_PRIVATE_LOOK: Final = _O["private_look"]
_REVEALED: Final = _O["revealed"]
_HAND_SIZES: Final = _O["hand_sizes"]
_NO_QUESTION: Final = _KIND_AT[None]
_SPECIALS: Final = _O["specials"]
_ANTE_PLACED: Final = _O["ante_placed"]
_LEADER: Final = _O["leader"]
_GAMBIT_WINNER: Final = _O["gambit_winner"]
_OUT: Final = _O["out"]
_WINNERS: Final = _O["winners"]
#: The fields of the view (:class:`~dragonante.engine.views.Observation`) this
#: encoder writes, each from the state as ``observe`` reads it; the vector
#: encodes no other (``encoding._NOT_ENCODED``: the hints for people).  A new
#: field of the view must be added here and written by :class:`StateEncoder`
#: (``tests/agents/test_state_encoding.py`` fails until it is).
COVERED_FIELDS: Final = (
    # the public vector, kept up to date by ``_sync``
    "players",
    "phase",
    "gambit",
    "round",
    "leader",
    "hoards",
    "stakes",
    "hole",
    "hole_owed",
    "debts",
    "flights",
    "ante",
    "ante_placed",
    "revealed",
    "deck_size",
    "discard",
    "discard_size",
    "specials",
    "effects",
    "collected_colors",
    "collected_strengths",
    "gambit_winner",
    "winners",
    "out",
    "last_gambit",
    "abilities",
    # written into each copy (``encode``)
    "seat",
    "hand",
    "hand_sizes",
    "known_in_hands",
    "my_ante",
    "private_look",
    "round_card",
    "question",
)
#: Running effects only their owner sees would make a seat's vector differ
#: from the spectator's in more than its own entries: while any exists, every
#: table goes through the view (none does today).
_VIEW_ONLY: Final = any(e.seen_by == OWNER for e in VISIBLE)
#: The visible effects' stored values, as one tuple (ints, flags and lists of
#: counts: the copy kept of it holds copies of the lists).
_EFFECT_VALUES: Final = attrgetter(*(e.name for e in VISIBLE))
#: What the public blocks other than gold, hands and cards read: compared at once.
_TABLE: Final = attrgetter(
    "phase", "round", "leader", "gambit", "gambit_winner", "out", "last_gambit", "winners"
)


#: The effects' shapes as the C encoder numbers them.
_SHAPE_CODE: Final = {SEATS: 0, SEAT: 1, FLAG: 2, CARDS: 3, COUNTS: 4, AMOUNT: 5}


def compiled_spec() -> dict[str, Any]:
    """What the C encoder (``_fastobs.c``) is told of the vector at set-up:
    every slice's first entry, the question kinds' and phases' entries and
    the running effects seats may see, so the layout is written only in
    :mod:`dragonante.agents.encoding`."""
    slices = (
        *("hand", "flights", "round_card", "known_in_hands", "ante", "my_ante", "revealed"),
        *("private_look", "discard", "specials", "question_source", "is_me", "seated"),
        *("to_act", "leader", "ante_placed", "out", "winners", "gambit_winner", "hoards"),
        *("hole_owed", "debts_owed", "debts_due", "hand_sizes", "collected_colors"),
        *("collected_strengths", "globals"),
    )
    spec: dict[str, Any] = {name: _O[name] for name in slices}
    spec.update(
        obs_size=OBS_SIZE,
        n_cards=N_CARDS,
        n_flight_colors=N_FLIGHT_COLORS,
        n_strengths=N_STRENGTHS,
        no_question=_KIND_AT[None],
        private_kind=_PRIVATE_KIND,
        system_none=_SYSTEM_AT[None],
        kinds={k: i for k, i in _KIND_AT.items() if k is not None},
        phases=dict(_PHASE_AT),
        seer_keep=SEER_KEEP,
        effects=tuple((e.name, _SHAPE_CODE[e.shape], _O[e.name]) for e in VISIBLE),
        n_actions=N_ACTIONS,
        first_action={kind: first for kind, (first, _) in _BLOCKS.items()},
        code_action=dict(_CODE_ACTION),
        state_type=GameState,
        decision_type=Decision,
        config_type=GameConfig,
        deck_type=DeckOptions,
    )
    return spec


class CompiledEncoder(Protocol):
    """The C encoder's functions (``_fastobs.c``)."""

    def setup(self, spec: dict[str, Any]) -> None: ...

    def encode(self, state: GameState, seat: int, out: npt.NDArray[np.float32]) -> None: ...

    def mask(self, question: Decision, out: npt.NDArray[np.int8]) -> None: ...


def _compiled_encoder() -> CompiledEncoder | None:
    """The C encoder, set up, or None when it is not built, stale or turned off
    (:func:`~dragonante.agents.compiled.fastobs` says which)."""
    module = fastobs()
    if module is None:
        return None
    encoder: CompiledEncoder = module  # the tests check its functions
    try:
        encoder.setup(compiled_spec())
    except TypeError:
        # The C encoder reads the engine's attributes through their __slots__
        # offsets (pure-Python engine) or their C getters (compiled engine);
        # an engine class it cannot read leaves the pure-Python encoder in
        # use, and tests/agents/test_compiled.py fails to say so.
        return None
    return encoder


#: The C encoder, set up, when it is built and current; else None.
_FAST: Final = _compiled_encoder()


def legal_actions(d: Decision) -> tuple[npt.NDArray[np.int8], bytes]:
    """The action mask of ``d`` (:func:`~dragonante.agents.encoding.action_mask`,
    a fresh writable array) and a copy of its bytes, which the environments
    check an action against in O(1) (the caller may write into the array)."""
    if _FAST is not None:
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        _FAST.mask(d, mask)
        return mask, mask.tobytes()
    buf = mask_bytes(d)
    return np.frombuffer(buf, dtype=np.int8), bytes(buf)


def encode_into(s: GameState, seat: int, out: npt.NDArray[np.float32]) -> None:
    """``out[:] = encode(observe(s, seat, hints=False))``: in C, without making
    the view, when the C encoder is in use and covers the table (for states
    seen once each, like OpenSpiel's copies, where :class:`StateEncoder`'s
    kept copies would not help)."""
    if _FAST is not None and s.abilities is None and not _VIEW_ONLY:
        _FAST.encode(s, seat, out)
    else:
        out[:] = encode(observe(s, seat, hints=False))


class StateEncoder:
    """``encode(observe(state, seat, hints=False))``, from the state, fast.

    Keeps the public vector of the last state it encoded and copies of the
    zones it was made from; a different state object (a new game) starts
    the public vector again.  The result is a fresh array the caller may
    keep or change.  Like :class:`IncrementalEncoder`, one encoder serves
    any seat of any table, in any order.
    """

    __slots__ = (
        "_ante",
        "_choices",
        "_colors",
        "_compiled",
        "_debts",
        "_deck_size",
        "_discard",
        "_effects",
        "_face_down",
        "_gold_key",
        "_hoards",
        "_hole_owed",
        "_known",
        "_limbo",
        "_pub",
        "_specials",
        "_state",
        "_strengths",
        "_table",
        "_views",
    )

    def __init__(self, compiled: bool = True) -> None:
        #: The encoder of the views, for the tables this one does not cover.
        self._views = IncrementalEncoder()
        #: The C encoder when it is built and current (``compiled=False``: never).
        self._compiled = _FAST if compiled else None
        self._state: GameState | None = None
        self._restart()

    def __reduce__(self) -> tuple[type[StateEncoder], tuple[bool]]:
        """Pickled (and copied) as a new encoder of the same kind: a module
        cannot be pickled, and what it kept is only a cache.  Environments
        are pickled whole by multiprocessing vector environments
        (Stable-Baselines3's ``SubprocVecEnv`` sends their spaces, which
        refer back to them)."""
        return (StateEncoder, (self._compiled is not None,))

    def _restart(self) -> None:
        """Forget everything: the next sync writes every block."""
        self._pub = _LastVector()
        self._table: Any = _UNSEEN
        self._gold_key: Any = _UNSEEN
        self._deck_size = -1
        self._hoards: list[int] = []
        self._hole_owed: list[int] = []
        self._debts: list[Any] = []
        self._ante: Any = _UNSEEN
        self._choices: Any = _UNSEEN
        self._limbo: Any = _UNSEEN
        self._discard: Any = _UNSEEN
        self._known: Any = _UNSEEN
        self._specials: Any = _UNSEEN
        self._colors: Any = _UNSEEN
        self._strengths: Any = _UNSEEN
        self._effects: Any = _UNSEEN
        #: Whether the discard pile holds cards discarded face down.
        self._face_down = False

    def encode(self, s: GameState, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat`` in ``s`` (a fresh array)."""
        if s.abilities is not None or _VIEW_ONLY:
            return self._views.encode(observe(s, seat, hints=False))
        compiled = self._compiled
        if compiled is not None:
            out = np.empty(OBS_SIZE, dtype=np.float32)
            compiled.encode(s, seat, out)
            return out
        if s is not self._state:
            self._restart()
            self._state = s
        self._sync(s)
        out = self._pub.v.copy()
        mv: Any = memoryview(out)  # type: ignore[arg-type]  # numpy arrays are buffers
        # The blocks that change at nearly every step are not kept in the
        # public vector (they are 0 there) but written whole into each copy:
        # fewer writes than clearing the old entries and setting the new.
        d = s.pending
        if d is None:
            mv[_NO_QUESTION] = 1.0
        else:
            mv[_TO_ACT + d.seat] = 1.0
            mv[_KIND_AT[d.kind]] = 1.0
            if d.source >= 0:
                mv[_QUESTION_SOURCE + d.source] = 1.0
            if d.kind == SEER_KEEP and d.seat == seat:
                for c in d.options:
                    if c >= 0:
                        mv[_PRIVATE_LOOK + c] = 1.0
        for b, c in zip(_ROUND_CARD, s.round_card, strict=False):
            if c >= 0:
                mv[b + c] = 1.0
        for i, hand in enumerate(s.hands, _HAND_SIZES):
            k = len(hand)
            if k:
                mv[i] = k / 10 if k < 10 else 1.0
        # Then the seat's own entries.
        for c in s.hands[seat]:
            mv[_HAND + c] = 1.0
        mv[_IS_ME + seat] = 1.0
        mine = s.ante_choice[seat]
        if mine >= 0:
            mv[_MY_ANTE + mine] = 1.0
        if s.known:
            for p, cards in known_in_hands(s, seat).items():
                b = _KNOWN[p]
                for c in cards:
                    mv[b + c] = 1.0
            if self._face_down:
                # The seat may have seen cards discarded face down that a
                # spectator has not: the public block lacks only those.
                for c in seen_face_down(s, seat):
                    mv[_DISCARD + c] = 1.0
        return out

    def _sync(self, s: GameState) -> None:
        """Bring the public vector up to ``s``: compare each public zone with
        the copy kept of it, rewrite the blocks of those that changed."""
        pub = self._pub
        swap = pub._swap
        mv = pub.mv
        d = s.pending
        limbo = s.limbo if d is None or d.kind != SEER_KEEP else []
        if limbo != self._limbo:
            swap(_G_REVEALED, [_REVEALED + c for c in limbo if c >= 0])
            self._limbo = limbo[:]
        table = _TABLE(s)
        if table != self._table:
            self._table_fields(s, table)
            self._table = table
        n_deck = len(s.deck)
        if n_deck != self._deck_size:
            mv[_GLOBALS + 3] = min(n_deck, N_CARDS) / N_CARDS
            self._deck_size = n_deck
        last = pub.flights
        flights = s.flights
        if flights != last[: len(flights)]:  # one comparison in C when none changed
            pub._flights(flights)
        gold_key = (s.stakes, s.hole)
        if (
            gold_key != self._gold_key
            or s.hoards != self._hoards
            or s.hole_owed != self._hole_owed
            or s.debts != self._debts
        ):
            pub.gold(s.hoards, s.stakes, s.hole, s.hole_owed, s.debts)
            self._gold_key = gold_key
            self._hoards = s.hoards[:]
            self._hole_owed = s.hole_owed[:]
            self._debts = s.debts[:]
        if s.ante != self._ante:
            swap(_G_ANTE, [_ANTE + c for c in s.ante if c >= 0])
            self._ante = s.ante[:]
        choices = s.ante_choice
        if choices != self._choices:
            b = _ANTE_PLACED
            swap(_G_ANTE_PLACED, [b + p for p, c in enumerate(choices) if c >= 0])
            self._choices = choices[:]
        discard = s.discard
        if discard != self._discard or s.known != self._known:
            public = visible_discards(s, None)
            pub._grow(_G_DISCARD, _DISCARD, public)
            # Some cards went there face down: seats that saw them see more.
            self._face_down = len(public) != len(discard)
            mv[_GLOBALS + 4] = min(len(discard), N_CARDS) / N_CARDS
            self._discard = discard[:]
            self._known = dict(s.known)
        if s.collected_colors != self._colors or s.collected_strengths != self._strengths:
            self._collected(s)
        effects = _EFFECT_VALUES(s)
        if effects != self._effects:
            pub._effects(seen_effects(s, s.n, None))
            self._effects = tuple([*v] if type(v) is list else v for v in effects)
        specials = s.specials if s.config.deck.reveal_specials else None
        if specials != self._specials:
            swap(_G_SPECIALS, [_SPECIALS + c for c in specials if c >= 0] if specials else [])
            mv[_GLOBALS + 8] = float(specials is not None)
            self._specials = None if specials is None else specials[:]

    def _table_fields(self, s: GameState, table: tuple[Any, ...]) -> None:
        """The blocks of :data:`_TABLE`'s fields that differ from the last
        ones, and the seats (the table size is read on a fresh start only)."""
        pub = self._pub
        swap = pub._swap
        mv = pub.mv
        old = self._table
        fresh = old is _UNSEEN
        phase, rnd, leader, gambit, gambit_winner, out, last_gambit, winners = table
        if fresh:
            n = s.n
            swap(_G_SEATED, list(_SEATED[n]))
            mv[_GLOBALS + 7] = n / MAX_PLAYERS
            pub._abilities(None)
            old = (None,) * len(table)
        if phase != old[0]:
            swap(_G_PHASE, [_PHASE_AT[phase]])
        if rnd != old[1]:
            mv[_GLOBALS + 6] = min(rnd, 50) / 50
        if leader != old[2]:
            swap(_G_LEADER, [_LEADER + leader])
        if gambit != old[3]:
            mv[_GLOBALS + 5] = min(gambit, 50) / 50
        if gambit_winner != old[4]:
            w = gambit_winner
            swap(_G_GAMBIT_WINNER, [_GAMBIT_WINNER + w] if w >= 0 else [])
        if out != old[5]:
            swap(_G_OUT, [_OUT + p for p in bits(out)])
        if last_gambit != old[6]:
            mv[_GLOBALS + 9] = float(bool(last_gambit))
        if winners != old[7]:
            swap(_G_WINNERS, [_WINNERS + p for p in winners if p >= 0])

    def _collected(self, s: GameState) -> None:
        """The special flights each seat has scored this gambit (Emperor's Gambit)."""
        colors, strengths = s.collected_colors, s.collected_strengths
        hot = _collected_hot(s.n, colors, strengths)
        self._pub._swap(_G_COLLECTED, hot)
        self._colors = colors[:]
        self._strengths = strengths[:]


__all__ = ["COVERED_FIELDS", "StateEncoder", "encode_into", "legal_actions"]
