"""Breaking ties (options.md §8.9), for every tie the game can have.

In order: largest dragon hoard, most dragon gods played (sacrificed and
destroyed gods count: they were played), most good dragons in the flight,
then an unmodified d20 roll-off - with advantage for gaming-set owners -
re-rolled among those still tied.  The same steps break the tie for who goes
first, for the Leader Flight, for the gambit winner (where the hoard is the
tie itself and is skipped) and for the overall winner of a multi-gambit game
(gods played over the whole game; the hoard criterion is each player's final
hoard, skipped when hoards carry over because then it is the tie itself).
"""

from __future__ import annotations

from collections.abc import Callable

from dragonante.dice.core import emit, push, step
from dragonante.dice.decisions import TIEBREAK_ROLL
from dragonante.dice.flights import good_dragons
from dragonante.dice.rolls import roll
from dragonante.dice.state import DiceState
from dragonante.dice.table import TIEBREAK_DIE
from dragonante.kernel import Step

#: What each tie decides: the step that acts on the tie's winner.
OUTCOMES: dict[str, str] = {
    "first": "set_first",
    "leader": "leader_wins",
    "winner": "gambit_won",
    "overall": "game_won",
}


def criteria(
    s: DiceState, purpose: str, skip_hoard: bool
) -> list[tuple[str, Callable[[int], int]]]:
    gods = s.gods_total if purpose == "overall" else s.gods_played
    keys: list[tuple[str, Callable[[int], int]]] = []
    if not skip_hoard:
        keys.append(("hoard", lambda p: s.hoards[p]))
    keys.append(("gods", lambda p: gods[p]))
    keys.append(("good_dragons", lambda p: good_dragons(s.flights[p])))
    return keys


@step("tiebreak", "purpose", "skip_hoard", "*seats")
def _tiebreak(s: DiceState, st: Step) -> None:
    _, purpose, skip_hoard, *rest = st
    tied: list[int] = list(rest)
    emit(s, "tie", purpose=purpose, seats=list(tied))
    for name, key in criteria(s, purpose, bool(skip_hoard)):
        best = max(key(p) for p in tied)
        tied = [p for p in tied if key(p) == best]
        if len(tied) == 1:
            emit(s, "tie_broken", purpose=purpose, seat=tied[0], by=name)
            push(s, (OUTCOMES[purpose], tied[0]))
            return
    _roll_off(s, purpose, tied)


def _roll_off(s: DiceState, purpose: str, seats: list[int]) -> None:
    emit(s, "roll_off", purpose=purpose, seats=list(seats))
    push(
        s,
        *(roll(s, p, TIEBREAK_DIE, TIEBREAK_ROLL) for p in seats),
        ("tiebreak_d20", purpose, *seats),
    )


@step("tiebreak_d20", "purpose", "*seats")
def _tiebreak_d20(s: DiceState, st: Step) -> None:
    _, purpose, *rest = st
    seats: list[int] = list(rest)
    values = s.rolls[-len(seats) :]
    del s.rolls[-len(seats) :]
    best = max(values)
    tied = [p for p, v in zip(seats, values, strict=True) if v == best]
    if len(tied) == 1:
        emit(s, "tie_broken", purpose=purpose, seat=tied[0], by="d20")
        push(s, (OUTCOMES[purpose], tied[0]))
    else:
        _roll_off(s, purpose, tied)
