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

from typing import TYPE_CHECKING, Any

from dragonante.engine.config import GameConfig
from dragonante.engine.decisions import Decision

if TYPE_CHECKING:
    from dragonante.engine.hooks import AbilityHooks

#: One logged event: (seats that may see it, or None for everyone; kind; data).
Event = tuple[tuple[int, ...] | None, str, dict[str, Any]]

# Phases, for views and interfaces.
SETUP = "setup"
ANTE_PHASE = "ante"
PLAY_PHASE = "play"
OVER = "over"


class GameState:
    """Mutable game state; :mod:`dragonante.engine.game` is its only writer."""

    __slots__ = (
        "abilities",
        "ante",
        "ante_choice",
        "archmage",
        "aside",
        "collected_colors",
        "collected_strengths",
        "config",
        "debts",
        "decision_count",
        "deck",
        "dirty",
        "discard",
        "dracolich",
        "dragonrider",
        "druid",
        "emperor",
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
        "merchant_prince",
        "monarch",
        "monarch_gifts",
        "mortal_flights",
        "n",
        "out",
        "pending",
        "phase",
        "priest",
        "queue",
        "rng",
        "round",
        "round_card",
        "round_removed",
        "score_round",
        "seed",
        "specials",
        "stakes",
        "stakes_emptied",
        "universe",
        "warlord",
        "wild",
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
        # Gambit-long effects of triggered powers.
        self.archmage = 0  # bit mask of seats
        self.merchant_prince = -1  # seat receiving card-buying gold
        self.druid = False
        self.priest = False
        self.monarch = 0  # bit mask of seats (Gold Monarch gift if they win)
        self.warlord = 0  # bit mask of seats (Bronze Warlord fourth round)
        self.dracolich: list[int] = [0] * n  # scoring bonus triggers per seat
        self.monarch_gifts: list[int] = [0] * n  # Gold Monarch triggers per seat
        self.dragonrider = 0  # bit mask of card numbers with a triggered Dragonrider
        self.wild = 0  # bit mask of card numbers counting as every color
        self.emperor: list[int] = [0] * n  # Emperor triggers per seat (+4 each at scoring)
        #: The gambit is scored from the end of this round on (Emperor: 4).
        self.score_round = 0
        #: Seats allowed a three-Mortal color flight by a triggered EG Wyrmpriest.
        self.mortal_flights = 0
        #: Whether any card of this game has an ante effect (EG): lets
        #: Legendary-only games skip every ante-effect check.
        self.has_ante_fx = False
        self.stakes_emptied = False
        #: Seats whose flight changed since special flights were last checked.
        self.dirty = 0
        self.gambit_winner = -1
        #: Hidden cards whose location some seats know (a card revealed from a
        #: hand, taken at random...): card number -> bit mask of those seats.
        #: Forgotten when the card reaches a public zone.
        self.known: dict[int, int] = {}
        self.queue: list[tuple[Any, ...]] = []
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
        """An independent copy; the event log is shared only if asked."""
        c = GameState.__new__(GameState)
        c.config = self.config
        c.seed = self.seed
        c.n = self.n
        c.rng = self.rng
        c.phase = self.phase
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.aside = self.aside[:]
        c.specials = self.specials[:]
        c.universe = self.universe
        c.ante = self.ante[:]
        c.ante_choice = self.ante_choice[:]
        c.limbo = self.limbo[:]
        c.hands = [h[:] for h in self.hands]
        c.flights = [f[:] for f in self.flights]
        c.hoards = self.hoards[:]
        c.gold_total = self.gold_total
        c.stakes = self.stakes
        c.hole = self.hole
        c.hole_owed = self.hole_owed[:]
        c.debts = self.debts[:]
        c.gambit = self.gambit
        c.round = self.round
        c.leader = self.leader
        c.round_card = self.round_card[:]
        c.round_removed = self.round_removed[:]
        c.collected_colors = self.collected_colors[:]
        c.collected_strengths = self.collected_strengths[:]
        c.archmage = self.archmage
        c.merchant_prince = self.merchant_prince
        c.druid = self.druid
        c.priest = self.priest
        c.monarch = self.monarch
        c.warlord = self.warlord
        c.dracolich = self.dracolich[:]
        c.monarch_gifts = self.monarch_gifts[:]
        c.dragonrider = self.dragonrider
        c.wild = self.wild
        c.emperor = self.emperor[:]
        c.score_round = self.score_round
        c.mortal_flights = self.mortal_flights
        c.has_ante_fx = self.has_ante_fx
        c.stakes_emptied = self.stakes_emptied
        c.dirty = self.dirty
        c.gambit_winner = self.gambit_winner
        c.known = self.known.copy() if self.known else {}
        c.queue = self.queue[:]
        c.pending = self.pending  # decisions are never mutated
        c.decision_count = self.decision_count
        c.winners = self.winners
        c.out = self.out
        c.last_gambit = self.last_gambit
        c.log = self.log if keep_log else None
        ab = self.abilities
        c.abilities = None if ab is None else ab.clone()
        return c

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
            "archmage": self.archmage,
            "merchant_prince": self.merchant_prince,
            "druid": self.druid,
            "priest": self.priest,
            "monarch": self.monarch,
            "warlord": self.warlord,
            "dracolich": self.dracolich,
            "monarch_gifts": self.monarch_gifts,
            "dragonrider": self.dragonrider,
            "wild": self.wild,
            "emperor": self.emperor,
            "score_round": self.score_round,
            "mortal_flights": self.mortal_flights,
            "has_ante_fx": self.has_ante_fx,
            "stakes_emptied": self.stakes_emptied,
            "dirty": self.dirty,
            "gambit_winner": self.gambit_winner,
            "known": {str(c): m for c, m in sorted(self.known.items())},
            "queue": [list(step) for step in self.queue],
            "pending": None if self.pending is None else self.pending.to_dict(),
            "decision_count": self.decision_count,
            "winners": list(self.winners),
            "out": self.out,
            "last_gambit": self.last_gambit,
            **({} if self.abilities is None else {"abilities": self.abilities.to_dict()}),
        }
