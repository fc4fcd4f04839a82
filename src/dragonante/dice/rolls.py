"""Rolling dice: the seeded stream, or a person at the table typing the faces.

Every roll in the game is one ``("roll", seat, sides, purpose, count)``
step.  With seeded dice it draws ``count`` faces from the SplitMix64 stream
kept in the state (so a game replays exactly from its seed); with physical
dice it asks the roller a ``roll`` question per die, whose legal answers are
the die's faces - an impossible value (13 on a d12) is an illegal answer,
refused with the state unchanged.  Either way the kept value (the highest
face: advantage rolls two dice, §8.3) goes on ``state.rolls`` for the step
that asked for it, and a ``roll`` event shows every face.
"""

from __future__ import annotations

from dragonante.dice.core import ask, emit, push, resolver, step
from dragonante.dice.decisions import ROLL, TYPE_ROLL, Decision
from dragonante.dice.state import SEEDED, DiceState
from dragonante.kernel import Step, rng

_FACES: dict[int, tuple[int, ...]] = {}


def faces(sides: int) -> tuple[int, ...]:
    """The legal answers to a roll of a ``sides``-sided die."""
    got = _FACES.get(sides)
    if got is None:
        got = _FACES[sides] = tuple(range(1, sides + 1))
    return got


def dice_count(s: DiceState, seat: int, purpose: int) -> int:
    """Two dice (keep the highest) for gaming-set owners, except on the dragon-type d12."""
    if purpose != TYPE_ROLL and s.config.has_gaming_set(seat):
        return 2
    return 1


def roll(s: DiceState, seat: int, sides: int, purpose: int) -> Step:
    """The step that rolls for ``seat``; its result is appended to ``state.rolls``."""
    return ("roll", seat, sides, purpose, dice_count(s, seat, purpose))


def queue_roll(s: DiceState, seat: int, sides: int, purpose: int, then: Step) -> None:
    """Roll, then run ``then`` (which pops the result from ``state.rolls``)."""
    push(s, roll(s, seat, sides, purpose), then)


@step("roll", "seat", "sides", "purpose", "count")
def _roll(s: DiceState, st: Step) -> None:
    _, seat, sides, purpose, count = st
    if s.dice == SEEDED:
        state = s.rng
        got: list[int] = []
        for _ in range(count):
            state, k = rng.below(state, sides)
            got.append(k + 1)
        s.rng = state
    elif len(s.faces) < count:
        s.queue.append(st)  # come back here once the face is typed in
        ask(s, seat, ROLL, faces(sides), (sides, purpose, len(s.faces) + 1, count))
        return
    else:
        got = s.faces
        s.faces = []
    value = max(got)
    s.rolls.append(value)
    emit(s, "roll", seat=seat, sides=sides, purpose=purpose, faces=got, value=value)


@resolver(ROLL)
def _answer_roll(s: DiceState, d: Decision, answer: int) -> None:
    s.faces.append(answer)
