"""The complete, clonable state of one Dice Gambit game.

Plain ints, lists and tuples only, so that cloning is cheap, ``to_dict`` is
JSON and two states can be compared byte for byte.  The event log lives
beside the state (``log``) and is not copied by :meth:`DiceState.clone`.

A dragon in a flight is ``(face, strength)``: the d12 face that named it
(see :mod:`dragonante.dice.table`) and its strength.  A debt is
``(debtor, creditor, amount)`` with creditor ``STAKES`` (-1) for the stakes;
the list is in the order the debts were incurred, which is the order the
rules settle them in.
"""

from __future__ import annotations

from typing import Any, Final

from dragonante.dice.config import DiceConfig, config_to_dict
from dragonante.kernel import Decision, Step

#: A payment's recipient or a debt's creditor that is the stakes, not a player.
STAKES: Final = -1
#: Where repaid stake debts go with ``stake_debt_payee=lost``: out of play.
OUT_OF_PLAY: Final = -2
#: Where the dice come from: the seeded stream, or a person at a real table.
SEEDED: Final = "seeded"
PHYSICAL: Final = "physical"
DICE_SOURCES: Final = (SEEDED, PHYSICAL)

#: Special flights, in their order of evaluation (§8.7); also the tracker's boxes.
GOD_FLIGHT: Final = "god"
TRIPLET_FLIGHT: Final = "triplet"
ALLIED_FLIGHT: Final = "allied"
LEADER_FLIGHT: Final = "leader"
FLIGHTS: Final = (GOD_FLIGHT, TRIPLET_FLIGHT, ALLIED_FLIGHT, LEADER_FLIGHT)

Dragon = tuple[int, int]
Debt = tuple[int, int, int]
#: One logged event: (kind, data).  Dice Gambit has no hidden information.
Event = tuple[str, dict[str, Any]]


class DiceState:
    """Mutable game state; :mod:`dragonante.dice.game` and its steps are its only writers."""

    __slots__ = (
        "config",
        "debt_cancelled",
        "debt_incurred",
        "debt_paid",
        "debts",
        "decision_count",
        "dice",
        "ended_early",
        "faces",
        "first",
        "first_rolls",
        "flights",
        "flights_earned",
        "gambit",
        "gambit_winner",
        "gambit_winners",
        "god_turns",
        "gods_played",
        "gods_total",
        "gold_total",
        "hoards",
        "in_session",
        "log",
        "order",
        "out_of_play",
        "over",
        "pending",
        "queue",
        "rng",
        "rolls",
        "round",
        "seed",
        "stake_winner",
        "stakes",
        "totals",
        "turns_taken",
        "winners",
        "withdrawn",
    )

    def __init__(self, config: DiceConfig, seed: int, dice: str) -> None:
        n = config.players
        self.config = config
        self.seed = seed
        self.dice = dice
        #: SplitMix64 stream state (:mod:`dragonante.kernel.rng`); unused with physical dice.
        self.rng = 0
        self.gambit = 0
        self.round = 0
        self.hoards = [config.starting_hoard] * n
        self.stakes = 0
        #: Gold that left play (repaid stake debts with ``stake_debt_payee=lost``).
        self.out_of_play = 0
        #: hoards + stakes + out_of_play must always equal this (set at each gambit start).
        self.gold_total = n * config.starting_hoard
        self.flights: list[list[Dragon]] = [[] for _ in range(n)]
        #: Turns this gambit on which the seat's type roll was a dragon god (God Flight).
        self.god_turns = [0] * n
        self.turns_taken = [0] * n
        #: Dragon gods rolled this gambit (tie-breaker 2: sacrificed ones count).
        self.gods_played = [0] * n
        #: Dragon gods rolled over the whole game (overall tie-breaker).
        self.gods_total = [0] * n
        self.withdrawn = [False] * n
        #: Seats still in the session (``withdraw_scope=session`` removes them).
        self.in_session = [True] * n
        self.debts: list[Debt] = []
        self.debt_incurred = 0
        self.debt_paid = 0
        self.debt_cancelled = 0
        self.first_rolls = [0] * n
        self.first = -1
        #: Seats in turn order this gambit, the first player first.
        self.order: list[int] = []
        #: Special flights each seat earned this gambit (the tracker's check boxes).
        self.flights_earned: list[list[str]] = [[] for _ in range(n)]
        self.stake_winner = -1
        self.gambit_winner = -1
        self.gambit_winners: list[int] = []
        #: Combined final hoards over the gambits played (multi-gambit, ``reset``).
        self.totals = [0] * n
        #: The gambit's remaining turns were skipped: only one player was left in it.
        self.ended_early = False
        self.over = False
        self.winners: tuple[int, ...] = ()
        self.pending: Decision | None = None
        self.decision_count = 0
        self.queue: list[Step] = []
        #: Roll results not yet used by the step that asked for them.
        self.rolls: list[int] = []
        #: Faces answered so far for a physical roll of several dice (advantage).
        self.faces: list[int] = []
        self.log: list[Event] | None = None

    @property
    def n(self) -> int:
        return self.config.players

    def clone(self) -> DiceState:
        """An independent copy (without the event log)."""
        c = DiceState.__new__(DiceState)
        for name in DiceState.__slots__:
            value = getattr(self, name)
            if name == "log":
                value = None
            elif name in ("flights", "flights_earned"):
                value = [list(x) for x in value]
            elif isinstance(value, list):
                value = list(value)
            setattr(c, name, value)
        return c

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data (for digests, saves and determinism tests)."""
        out: dict[str, Any] = {}
        for name in DiceState.__slots__:
            if name == "log":
                continue
            value = getattr(self, name)
            if name == "config":
                value = config_to_dict(value)
            elif name == "pending":
                value = None if value is None else value.to_dict()
            elif name in ("flights", "flights_earned"):
                value = [[list(d) if isinstance(d, tuple) else d for d in f] for f in value]
            elif name in ("debts", "queue"):
                value = [list(x) for x in value]
            elif isinstance(value, (list, tuple)):
                value = list(value)  # a copy: the dict must not change with the state
            out[name] = value
        return out
