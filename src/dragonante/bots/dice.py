"""Dice Gambit players for the terminal table and simulations.

A bot is handed a :class:`DiceSeatView` - the question put to its seat and
the public table (:func:`dragonante.dice.views.observe`; nothing in this
game is hidden) - and answers with one of the question's options.

* ``random`` picks uniformly among the legal answers (it withdraws half the
  time it is asked: the weakest yardstick).
* ``basic`` plays every turn unless it is broke and behind, makes the
  richest opponent pay for its good dragons, and sacrifices Bahamut when a
  Tiamat is costing it the Leader Flight.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from dragonante.dice.core import players_in, tiamat_in_play
from dragonante.dice.decisions import (
    DEMAND,
    PASS,
    PLAY,
    ROLL,
    SACRIFICE,
    TURN,
    WITHDRAW,
    Decision,
)
from dragonante.dice.flights import total_strength
from dragonante.dice.state import DiceState
from dragonante.dice.views import observe


class DiceSeatView:
    """One seat's window on the game: its question, and the public table."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: DiceState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def decision(self) -> Decision:
        d = self._state.pending
        if d is None or d.seat != self.seat:
            raise RuntimeError(f"seat {self.seat} has no question to answer")
        return d

    def observation(self) -> dict[str, Any]:
        return observe(self._state)

    @property
    def state(self) -> DiceState:
        """A copy of the table (everything is public in Dice Gambit)."""
        return self._state.clone()


class DiceBot(Protocol):
    name: str

    def choose(self, view: DiceSeatView) -> int:
        """One of ``view.decision.options``."""
        ...


class RandomDiceBot:
    """Uniform over the legal answers, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: DiceSeatView) -> int:
        options = view.decision.options
        return options[self._rng.randrange(len(options))]


class BasicDiceBot:
    """A few rules of thumb; enough to make a table of bots play a sensible game."""

    name = "basic"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: DiceSeatView) -> int:
        d = view.decision
        s = view.state
        me = view.seat
        if d.kind == TURN:
            # Broke and not leading: every dragon played now only adds debts.
            return WITHDRAW if s.hoards[me] == 0 and not _leading(s, me) else PLAY
        if d.kind == DEMAND:
            targets = [p for p in d.options if p != PASS]
            return max(targets, key=lambda p: (s.hoards[p], -p))
        if d.kind == SACRIFICE:
            if _leading(s, me):
                return PASS
            return next(p for p in d.options if p != PASS)
        if d.kind == ROLL:
            return d.options[self._rng.randrange(len(d.options))]
        return d.options[0]


def _leading(s: DiceState, seat: int) -> bool:
    """Would ``seat`` win the Leader Flight if the gambit ended now (ties count as leading)?"""
    seats = players_in(s)
    totals = {p: total_strength(s.flights[p]) for p in seats}
    if seat not in totals:
        return False
    pick = min if tiamat_in_play(s) else max
    return totals[seat] == pick(totals.values())


BOTS: dict[str, Callable[[int], DiceBot]] = {"random": RandomDiceBot, "basic": BasicDiceBot}


def make_bot(name: str, seed: int = 0) -> DiceBot:
    """A bot by name; ``KeyError`` naming the choices if unknown."""
    factory = BOTS.get(name)
    if factory is None:
        raise KeyError(f"unknown dice bot {name!r}; choose from {', '.join(BOTS)}")
    return factory(seed)
