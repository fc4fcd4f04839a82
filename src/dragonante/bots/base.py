"""What a bot may know, and the interface every bot implements.

A bot never holds the game state.  It is handed a :class:`SeatView`: the
seat's observation (:func:`dragonante.engine.views.observe`), the seat's
filtered event log, the question put to it, the table's rules (public), the
"would this card trigger" hint every player sees, and - for search -
re-deals of the hidden cards consistent with what the seat knows
(:func:`dragonante.engine.determinize.determinize`).  Two states that differ
only in what the seat cannot see give identical views, so a bot cannot
cheat even by accident (``tests/bots/test_information.py`` checks it for
every bot).
"""

from __future__ import annotations

from typing import Protocol

from dragonante.engine.config import GameConfig
from dragonante.engine.decisions import Decision
from dragonante.engine.determinize import determinize
from dragonante.engine.flow import would_trigger
from dragonante.engine.state import Event, GameState
from dragonante.engine.views import Observation, config_for, events_for, observe


class SeatView:
    """The window through which a bot sees the game: one seat's information only."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: GameState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def decision(self) -> Decision:
        """The question this seat must answer now."""
        d = self._state.pending
        if d is None or d.seat != self.seat:
            raise RuntimeError(f"seat {self.seat} has no question to answer")
        return d

    @property
    def config(self) -> GameConfig:
        """The table's rules and deck options: everyone at the table knows them
        (except other seats' hidden D&D abilities, which are left out)."""
        return config_for(self._state.config, self.seat)

    def observation(self) -> Observation:
        """What this seat sees (the engine's typed view, hints included)."""
        return observe(self._state, self.seat)

    def events(self, start: int = 0) -> list[Event]:
        log = self._state.log
        return [] if log is None else events_for(log, self.seat, start)

    def would_trigger(self, card: int) -> bool:
        """Would ``card`` trigger if this seat played it now?  (Public facts only:
        the leader, this round's cards, the Archmage, the ante.)"""
        return would_trigger(self._state, self.seat, card)

    def determinize(self, seed: int) -> GameState:
        """A full game state consistent with everything this seat knows (for search)."""
        return determinize(self._state, self.seat, seed)


class Bot(Protocol):
    """A player: answers the questions put to its seat."""

    name: str

    def choose(self, view: SeatView) -> int:
        """One of ``view.decision.options``."""
        ...
