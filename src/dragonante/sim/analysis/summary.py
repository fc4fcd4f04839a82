"""The mergeable tallies of a balance analysis: counts only, so merging is exact.

A :class:`Summary` holds what many games add up to (card plays and antes per
seat, gambits and games won, lengths, special flights).  Everything in it is
an integer, so :meth:`Summary.merge` is plain addition: associative,
commutative and exact.  That is what lets the games run in chunks on any
number of processes (or machines) and still give the same report, bit for
bit, as one process playing them in order: rates, intervals and lifts are
computed only at the end, by :mod:`dragonante.sim.analysis.report`.

Game wins shared by ``k`` tied players count ``1/k`` each (as in
``tournament``); to stay in integers they are kept in sixtieths
(:data:`WIN_UNIT`), which every ``k`` from 1 to 6 divides.

:func:`add_game` folds one game's event log (the engine's ``(visibility,
kind, data)`` events, ``docs/engine.md``) into a summary.  It reads only
events every seat may see, so a recorded game's public log is enough.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from dragonante.cards import ALL_CARDS

#: One game win, in the integer unit of shared wins (1/k for k = 1..6 tied winners).
WIN_UNIT = 60
#: Strengths a card can have (0-13) plus room for the odd power that changes them.
MAX_STRENGTH = 16

IntArray = npt.NDArray[np.int64]


def _zeros(*shape: int) -> IntArray:
    return np.zeros(shape, dtype=np.int64)


@dataclass(slots=True)
class Summary:
    """Integer tallies over a set of games at one table size."""

    players: int
    #: Finished games, and games stopped at the decision limit (left out of every tally).
    games: int = 0
    unfinished: int = 0
    gambits: int = 0
    #: Gambits that ended with nobody winning the stakes (carried over).
    gambits_without_winner: int = 0
    #: Per card: games whose deck held it.
    in_deck: IntArray = field(default_factory=lambda: _zeros(len(ALL_CARDS)))
    #: Per card and seat: plays; plays whose seat won that gambit; game-win credit of those plays.
    played: IntArray = field(init=False)
    played_gambit_won: IntArray = field(init=False)
    played_game_won: IntArray = field(init=False)
    #: Per card and seat: antes, and antes whose seat won that gambit.
    anted: IntArray = field(init=False)
    anted_gambit_won: IntArray = field(init=False)
    #: Per seat: game-win credit (in WIN_UNITs), gambits at the table, gambits won.
    seat_game_wins: IntArray = field(init=False)
    seat_gambits: IntArray = field(init=False)
    seat_gambit_wins: IntArray = field(init=False)
    #: Per ante rank (0 = the strongest ante of the gambit): antes, and gambits won.
    ante_rank: IntArray = field(init=False)
    ante_rank_won: IntArray = field(init=False)
    #: Per ante card strength: antes, and gambits won.
    ante_strength: IntArray = field(default_factory=lambda: _zeros(MAX_STRENGTH))
    ante_strength_won: IntArray = field(default_factory=lambda: _zeros(MAX_STRENGTH))
    #: Distributions: rounds per gambit, gambits per game, decisions per game.
    gambit_rounds: Counter[int] = field(default_factory=Counter)
    game_gambits: Counter[int] = field(default_factory=Counter)
    game_decisions: Counter[int] = field(default_factory=Counter)
    #: Special flights by color / strength: how many, and the gold they brought in.
    color_flights: Counter[str] = field(default_factory=Counter)
    color_flight_gold: Counter[str] = field(default_factory=Counter)
    strength_flights: Counter[int] = field(default_factory=Counter)
    strength_flight_gold: Counter[int] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        n, p = len(ALL_CARDS), self.players
        self.played = _zeros(n, p)
        self.played_gambit_won = _zeros(n, p)
        self.played_game_won = _zeros(n, p)
        self.anted = _zeros(n, p)
        self.anted_gambit_won = _zeros(n, p)
        self.seat_game_wins = _zeros(p)
        self.seat_gambits = _zeros(p)
        self.seat_gambit_wins = _zeros(p)
        self.ante_rank = _zeros(p)
        self.ante_rank_won = _zeros(p)

    _ARRAYS = (
        "in_deck",
        "played",
        "played_gambit_won",
        "played_game_won",
        "anted",
        "anted_gambit_won",
        "seat_game_wins",
        "seat_gambits",
        "seat_gambit_wins",
        "ante_rank",
        "ante_rank_won",
        "ante_strength",
        "ante_strength_won",
    )
    _COUNTERS = (
        "gambit_rounds",
        "game_gambits",
        "game_decisions",
        "color_flights",
        "color_flight_gold",
        "strength_flights",
        "strength_flight_gold",
    )
    _INTS = ("games", "unfinished", "gambits", "gambits_without_winner")

    def merge(self, other: Summary) -> Summary:
        """A new summary of both sets of games (exact integer sums)."""
        if other.players != self.players:
            raise ValueError(f"cannot merge {other.players}-player games into {self.players}")
        out = Summary(self.players)
        for name in self._INTS:
            setattr(out, name, getattr(self, name) + getattr(other, name))
        for name in self._ARRAYS:
            setattr(out, name, getattr(self, name) + getattr(other, name))
        for name in self._COUNTERS:
            total: Counter[Any] = Counter(getattr(self, name))
            total.update(getattr(other, name))
            setattr(out, name, total)
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Summary) or other.players != self.players:
            return False
        return (
            all(getattr(self, n) == getattr(other, n) for n in self._INTS)
            and all(np.array_equal(getattr(self, n), getattr(other, n)) for n in self._ARRAYS)
            and all(
                +getattr(self, n) == +getattr(other, n)  # '+' drops zero counts
                for n in self._COUNTERS
            )
        )

    __hash__ = None  # type: ignore[assignment]


def merge_all(summaries: Iterable[Summary], players: int) -> Summary:
    """Merge any number of summaries (an empty one for none)."""
    out = Summary(players)
    for s in summaries:
        out = out.merge(s)
    return out


def _ranks(strengths: Sequence[int]) -> list[int]:
    """Each ante's rank: how many antes of the gambit were strictly stronger."""
    return [sum(1 for o in strengths if o > st) for st in strengths]


def add_game(
    summary: Summary,
    events: Iterable[tuple[Any, str, dict[str, Any]]],
    deck: Iterable[int],
    decisions: int,
) -> None:
    """Fold one finished game's event log into ``summary``.

    ``deck`` is every physical card the game used (``state.universe``).
    Plays and antes are credited to the gambit they happened in; the ante
    that counts is the last one revealed (an ante redone after a tie
    replaces the first).  A color flight's worth is the gold its opponents'
    payments actually moved to the flight's owner; a strength flight's, the
    gold it stole from the stakes.
    """
    s = summary
    game_plays: list[tuple[int, int]] = []
    gambit_plays: list[tuple[int, int]] = []
    ante: list[int] = []
    rounds = 0
    gambits = 0
    # A special flight waiting for the payments that follow it: (kind, seat, key).
    flight: tuple[str, int, Any] | None = None
    winners: list[int] | None = None
    for _vis, kind, data in events:
        if flight is not None:
            if kind == "pay" and flight[0] == "color" and data["to"] == flight[1]:
                s.color_flight_gold[flight[2]] += data["paid"]
                continue
            if kind == "steal" and flight[0] == "strength" and data["seat"] == flight[1]:
                s.strength_flight_gold[flight[2]] += data["taken"]
                flight = None
                continue
            flight = None
        if kind == "play":
            seat, card = data["seat"], data["card"]
            gambit_plays.append((card, seat))
            game_plays.append((card, seat))
            s.played[card, seat] += 1
        elif kind == "gambit_start":
            gambit_plays = []
            ante = []
            rounds = 0
        elif kind == "ante_reveal":
            ante = list(data["cards"])
        elif kind == "round_start":
            rounds += 1
        elif kind == "color_flight":
            flight = ("color", data["seat"], data["color"])
            s.color_flights[data["color"]] += 1
        elif kind == "strength_flight":
            flight = ("strength", data["seat"], data["strength"])
            s.strength_flights[data["strength"]] += 1
        elif kind in ("gambit_won", "no_winner"):
            winner = data["winner"] if kind == "gambit_won" else -1
            gambits += 1
            _end_gambit(s, winner, ante, gambit_plays, rounds)
            gambit_plays = []
            ante = []
        elif kind == "game_over":
            winners = list(data["winners"])
    if winners is None:
        raise ValueError("the game did not end: no game_over event")
    s.games += 1
    s.game_gambits[gambits] += 1
    s.game_decisions[decisions] += 1
    for c in deck:
        s.in_deck[c] += 1
    credit = WIN_UNIT // len(winners) if winners else 0
    for w in winners:
        s.seat_game_wins[w] += credit
    won = set(winners)
    for card, seat in game_plays:
        if seat in won:
            s.played_game_won[card, seat] += credit


def _end_gambit(
    s: Summary, winner: int, ante: list[int], plays: list[tuple[int, int]], rounds: int
) -> None:
    s.gambits += 1
    s.gambit_rounds[rounds] += 1
    s.seat_gambits += 1  # every seat's share of all gambits is its base rate
    if winner < 0:
        s.gambits_without_winner += 1
    else:
        s.seat_gambit_wins[winner] += 1
    for card, seat in plays:
        if seat == winner:
            s.played_gambit_won[card, seat] += 1
    strengths = [ALL_CARDS[c].strength for c in ante if c >= 0]
    ranks = iter(_ranks(strengths))
    for seat, card in enumerate(ante):
        if card < 0:
            continue
        rank = next(ranks)
        won = seat == winner
        s.anted[card, seat] += 1
        s.ante_rank[rank] += 1
        st = min(ALL_CARDS[card].strength, MAX_STRENGTH - 1)
        s.ante_strength[st] += 1
        if won:
            s.anted_gambit_won[card, seat] += 1
            s.ante_rank_won[rank] += 1
            s.ante_strength_won[st] += 1


__all__ = ["WIN_UNIT", "Summary", "add_game", "merge_all"]
