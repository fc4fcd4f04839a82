"""The complete, clonable state of one Three-Dragon Ante game.

Everything is plain ints and lists of ints so that :meth:`GameState.clone`
costs microseconds and never grows with the game's history: the event log
lives beside the state (``log``) and is not copied by default.

Zones: every physical card in play is in exactly one of ``deck`` (top is the
*end* of the list), ``discard``, ``aside`` (specials not used this game),
``ante``, a ``hands[p]``, a ``flights[p]``, or ``limbo`` (cards a power has
revealed and not yet placed, e.g. the Sorcerer's three).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dragonante.engine.config import GameConfig
from dragonante.engine.decisions import Decision
from dragonante.engine.effects import EffectSlots, compile_function, copy_code, init_effects
from dragonante.engine.effects import to_dict as effects_dict
from dragonante.kernel import Step

if TYPE_CHECKING:
    from dragonante.engine.hooks import AbilityHooks

#: One logged event: (seats that may see it, or None for everyone; kind; data).
Event = tuple[tuple[int, ...] | None, str, dict[str, Any]]

# Phases, for views and interfaces.
SETUP = "setup"
ANTE_PHASE = "ante"
PLAY_PHASE = "play"
OVER = "over"


class GameState(EffectSlots):
    """Mutable game state; :mod:`dragonante.engine.game` is its only writer.

    The running effects of triggered powers (the Warlord's fourth round...)
    are slots of the base :class:`~dragonante.engine.effects.EffectSlots`,
    declared once in :data:`~dragonante.engine.effects.EFFECTS`.
    """

    __slots__ = (
        "abilities",
        "ante",
        "ante_choice",
        "aside",
        "collected_colors",
        "collected_strengths",
        "config",
        "debts",
        "decision_count",
        "deck",
        "dirty",
        "discard",
        "flights",
        "gambit",
        "gambit_winner",
        "gold_total",
        "hands",
        "has_ante_fx",
        "hoards",
        "hole",
        "hole_owed",
        "known",
        "last_gambit",
        "leader",
        "limbo",
        "log",
        "n",
        "out",
        "pending",
        "phase",
        "queue",
        "replaced",
        "rng",
        "round",
        "round_card",
        "round_removed",
        "seed",
        "specials",
        "stakes",
        "stakes_emptied",
        "universe",
        "winners",
    )

    def __init__(self, config: GameConfig, seed: int) -> None:
        n = config.players
        self.config = config
        self.seed = seed
        self.n = n
        self.rng = 0
        self.phase = SETUP
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.aside: list[int] = []
        #: The specials in this game's deck (public only with "show 'em").
        self.specials: list[int] = []
        #: Every physical card of this game (deck, hands, aside...), sorted;
        #: fixed at setup, shared by clones.
        self.universe: tuple[int, ...] = ()
        self.ante: list[int] = []
        self.ante_choice: list[int] = [-1] * n
        self.limbo: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.flights: list[list[int]] = [[] for _ in range(n)]
        self.hoards: list[int] = [config.starting_gold] * n
        #: All gold in the game (hoards + stakes + hole), for conservation checks.
        self.gold_total = config.starting_gold * n
        self.stakes = 0
        self.hole = 0
        self.hole_owed: list[int] = [0] * n
        #: Emperor's Gambit debts, in the order incurred: (debtor, creditor
        #: seat or -1 for the stakes, amount).
        self.debts: list[tuple[int, int, int]] = []
        self.gambit = 0
        self.round = 0
        self.leader = 0
        self.round_card: list[int] = [-1] * n
        self.round_removed: list[bool] = [False] * n
        self.collected_colors: list[int] = [0] * n
        self.collected_strengths: list[int] = [0] * n
        # The running effects of triggered powers (engine/effects.py).
        init_effects(self, n)
        #: Whether any card of this game has an ante effect (EG): lets
        #: Legendary-only games skip every ante-effect check.
        self.has_ante_fx = False
        self.stakes_emptied = False
        #: Cards a Copper Dragon or Copper Trickster replacement discarded this
        #: turn (bit mask of card numbers): a replacement that brings one of
        #: them back ends the chain (``powers.replace_from_deck``).
        self.replaced = 0
        #: Seats whose flight changed since special flights were last checked.
        self.dirty = 0
        self.gambit_winner = -1
        #: Hidden cards whose location some seats know (a card revealed from a
        #: hand, taken at random...): card number -> bit mask of those seats.
        #: Forgotten when the card reaches a public zone.
        self.known: dict[int, int] = {}
        self.queue: list[Step] = []
        self.pending: Decision | None = None
        self.decision_count = 0
        self.winners: tuple[int, ...] = ()
        #: Eliminated seats (bit mask), with ``ending.players_remaining``.
        self.out = 0
        #: The gambit after which the game ends (time limit called), 0: none.
        self.last_gambit = 0
        self.log: list[Event] | None = None
        #: The D&D abilities of this table (their state and rule hooks), or None
        #: when the table plays without them (:mod:`dragonante.engine.hooks`).
        self.abilities: AbilityHooks[GameState] | None = None

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def clone(self, keep_log: bool = False) -> GameState:
        """An independent copy; the event log is shared only if asked.

        Straight-line code generated at import from :data:`_SHARED`,
        :data:`_COPIED`, :data:`_NESTED` and the effects table: search clones
        hundreds of thousands of times, so no loop over the fields.
        """
        return _clone(self, keep_log)  # replaced by _clone itself below: one call less

    def to_dict(self) -> dict[str, Any]:
        """Full (omniscient) state as JSON-ready data; used for digests and debugging."""
        return {
            "seed": self.seed,
            "rng": self.rng,
            "phase": self.phase,
            "deck": self.deck,
            "discard": self.discard,
            "aside": self.aside,
            "specials": self.specials,
            "universe": list(self.universe),
            "ante": self.ante,
            "ante_choice": self.ante_choice,
            "limbo": self.limbo,
            "hands": self.hands,
            "flights": self.flights,
            "hoards": self.hoards,
            "gold_total": self.gold_total,
            "stakes": self.stakes,
            "hole": self.hole,
            "hole_owed": self.hole_owed,
            "debts": [list(d) for d in self.debts],
            "gambit": self.gambit,
            "round": self.round,
            "leader": self.leader,
            "round_card": self.round_card,
            "round_removed": self.round_removed,
            "collected_colors": self.collected_colors,
            "collected_strengths": self.collected_strengths,
            "has_ante_fx": self.has_ante_fx,
            "stakes_emptied": self.stakes_emptied,
            "replaced": self.replaced,
            "dirty": self.dirty,
            "gambit_winner": self.gambit_winner,
            "known": {str(c): m for c, m in sorted(self.known.items())},
            "queue": [list(step) for step in self.queue],
            "pending": None if self.pending is None else self.pending.to_dict(),
            "decision_count": self.decision_count,
            "winners": list(self.winners),
            "out": self.out,
            "last_gambit": self.last_gambit,
            **effects_dict(self),
            **({} if self.abilities is None else {"abilities": self.abilities.to_dict()}),
        }


#: Fields a clone shares: immutable values, and the pending decision (never mutated).
_SHARED = (
    "config",
    "seed",
    "n",
    "rng",
    "phase",
    "universe",
    "gold_total",
    "stakes",
    "hole",
    "gambit",
    "round",
    "leader",
    "has_ante_fx",
    "stakes_emptied",
    "replaced",
    "dirty",
    "gambit_winner",
    "pending",
    "decision_count",
    "winners",
    "out",
    "last_gambit",
)
#: Flat lists a clone copies.
_COPIED = (
    "deck",
    "discard",
    "aside",
    "specials",
    "ante",
    "ante_choice",
    "limbo",
    "hoards",
    "hole_owed",
    "debts",
    "round_card",
    "round_removed",
    "collected_colors",
    "collected_strengths",
    "queue",
)
#: Lists of lists a clone copies one level down.
_NESTED = ("hands", "flights")
#: Copied by hand below: the known-cards dict, the shared log, the abilities.
_SPECIAL = ("known", "log", "abilities")
if sorted((*_SHARED, *_COPIED, *_NESTED, *_SPECIAL)) != sorted(GameState.__slots__):
    raise AssertionError("GameState.clone must copy every slot exactly once")

_clone: Callable[[GameState, bool], GameState] = compile_function(
    "clone",
    "self, keep_log=False",
    [
        "c = new(GameState)",
        *(f"c.{f} = self.{f}" for f in _SHARED),
        *(f"c.{f} = self.{f}[:]" for f in _COPIED),
        *(f"c.{f} = [x[:] for x in self.{f}]" for f in _NESTED),
        *copy_code("self", "c"),
        "c.known = self.known.copy() if self.known else {}",
        "c.log = self.log if keep_log else None",
        "ab = self.abilities",
        "c.abilities = None if ab is None else ab.clone()",
        "return c",
    ],
    GameState.clone.__doc__ or "",
    {"GameState": GameState, "new": GameState.__new__},
)
# Compiled (state.pxd), an extension type's methods are fixed: clone() calls _clone.
with contextlib.suppress(TypeError):
    GameState.clone = _clone  # type: ignore[method-assign,assignment]
