"""Scripting Dice Gambit tables for the rules tests.

:class:`Script` plays a game with physical dice, so a test states every
face rolled and every choice made, in the order the rules ask for them,
and fails on any question it did not expect.  :func:`position` sets up a
table at the end of a gambit's play (flights, hoards, stakes, debts) to test
the special flights, tie-breakers and settlement on their own.  Both read their
settings back from JSON first (:func:`saved`), as a restored or web table does.
"""

from __future__ import annotations

import json
from typing import Any

from dragonante.dice import PHYSICAL, DiceConfig, apply, new_game, run
from dragonante.dice.config import config_from_dict, config_to_dict
from dragonante.dice.core import push
from dragonante.dice.decisions import DEMAND, PASS, PLAY, ROLL, SACRIFICE, TURN, WITHDRAW, Decision
from dragonante.dice.invariants import violations
from dragonante.dice.state import DiceState, Dragon
from dragonante.dice.table import dragon


def saved(config: DiceConfig) -> DiceConfig:
    """``config`` as a table restored from a save file or the web lobby has it: read from
    JSON, so its settings are new string objects, and a rule must compare them by value."""
    return config_from_dict(json.loads(json.dumps(config_to_dict(config))))


class Script:
    """A physical-dice game driven by the test, one scripted answer at a time."""

    def __init__(self, players: int = 2, **settings: Any) -> None:
        self.s = new_game(saved(DiceConfig(players=players, **settings)), dice=PHYSICAL)

    @property
    def d(self) -> Decision:
        assert self.s.pending is not None, "the game is over"
        return self.s.pending

    def answer(self, value: int, kind: str, seat: int | None = None) -> None:
        d = self.d
        assert d.kind == kind, f"expected a {kind!r} question, the game asks {d}"
        if seat is not None:
            assert d.seat == seat, f"expected seat {seat} to answer, the game asks {d}"
        apply(self.s, value, d.id)
        assert not violations(self.s), violations(self.s)

    def rolls(self, *faces: int, seat: int | None = None) -> None:
        for face in faces:
            self.answer(face, ROLL, seat)

    def decline_sacrifices(self) -> None:
        """Pass every Bahamut sacrifice offer pending now."""
        while self.s.pending is not None and self.s.pending.kind == SACRIFICE:
            self.answer(PASS, SACRIFICE)

    def turn(self, seat: int, face: int, *strength: int, demand: int | None = PASS) -> None:
        """``seat`` plays a dragon: the type face, then its strength die (one face
        each, two with advantage); a good dragon's demand defaults to nobody
        (``demand=None`` leaves the question for the test)."""
        self.decline_sacrifices()
        if self.d.kind == TURN:
            self.answer(PLAY, TURN, seat)
        self.answer(face, ROLL, seat)
        self.rolls(*strength, seat=seat)
        d = self.s.pending
        if demand is not None and d is not None and d.kind == DEMAND and d.seat == seat:
            self.answer(demand, DEMAND, seat)

    def withdraw(self, seat: int) -> None:
        self.decline_sacrifices()
        self.answer(WITHDRAW, TURN, seat)

    def events(self, kind: str, **match: Any) -> list[dict[str, Any]]:
        return events(self.s, kind, **match)


def events(s: DiceState, kind: str, **match: Any) -> list[dict[str, Any]]:
    """The data of every logged event of ``kind`` whose fields include ``match``."""
    assert s.log is not None
    return [
        data
        for k, data in s.log
        if k == kind and all(data.get(key) == value for key, value in match.items())
    ]


def position(
    players: int = 2,
    *,
    hoards: list[int],
    stakes: int,
    flights: list[list[Dragon]],
    first: int = 0,
    debts: tuple[tuple[int, int, int], ...] = (),
    god_turns: list[int] | None = None,
    gods_played: list[int] | None = None,
    withdrawn: tuple[int, ...] = (),
    **settings: Any,
) -> DiceState:
    """A table whose last turn has just been played (the next step is the special flights)."""
    config = saved(DiceConfig(players=players, **settings))
    s = new_game(config, dice=PHYSICAL)
    s.pending = None
    s.queue.clear()
    s.gambit = 1
    s.round = config.rounds_per_gambit
    s.first = first
    s.order = [(first + i) % players for i in range(players)]
    s.hoards = list(hoards)
    s.stakes = stakes
    s.flights = [list(f) for f in flights]
    s.turns_taken = [len(f) for f in flights]
    gods = [sum(1 for face, _ in f if dragon(face).god) for f in flights]
    s.god_turns = list(god_turns if god_turns is not None else gods)
    s.gods_played = list(gods_played if gods_played is not None else gods)
    s.gods_total = list(s.gods_played)
    s.withdrawn = [p in withdrawn for p in range(players)]
    s.debts = list(debts)
    s.debt_incurred = sum(amount for _, _, amount in debts)
    s.gold_total = sum(hoards) + stakes
    return s


def end_gambit(s: DiceState) -> DiceState:
    """Run the special flights, settlement and winner (stopping at any roll-off)."""
    push(s, ("end_of_play",))
    run(s)
    assert not violations(s), violations(s)
    return s
