"""Public entry points of the Dice Gambit engine: start a game, answer its questions.

    state = new_game(DiceConfig(players=4), seed=7)          # seeded dice
    while not state.over:
        d = state.pending                                    # who must decide what
        apply(state, d.options[0], d.id)                     # answer by value (+ id)

With ``dice=PHYSICAL`` the same game asks each roller for their die faces
(``roll`` questions) instead of drawing them from the seeded stream.
``apply`` validates before it changes anything, so an illegal or stale
answer raises :class:`IllegalAnswer` and leaves the state exactly as it was.
Standard library only: no I/O, no clock, no global randomness.
"""

from __future__ import annotations

# Importing these modules registers their steps and resolvers.
from dragonante.dice import flights as _flights
from dragonante.dice import flow as _flow
from dragonante.dice import powers as _powers
from dragonante.dice import rolls as _rolls
from dragonante.dice import settlement as _settlement
from dragonante.dice import tiebreak as _tiebreak
from dragonante.dice.config import DiceConfig
from dragonante.dice.core import RESOLVERS, STEPS
from dragonante.dice.decisions import ROLL, IllegalAnswer
from dragonante.dice.state import DICE_SOURCES, SEEDED, DiceState
from dragonante.engine import rng

_REGISTERED = (_flights, _flow, _powers, _rolls, _settlement, _tiebreak)

#: Safety net for :func:`run`: no real gambit takes anywhere near this many steps.
MAX_STEPS_PER_ANSWER = 100_000


def new_game(
    config: DiceConfig | None = None, seed: int = 0, dice: str = SEEDED, log: bool = True
) -> DiceState:
    """Seat the table and run until the first question (a roll or a player's choice)."""
    config = (config or DiceConfig()).validate()
    if dice not in DICE_SOURCES:
        raise ValueError(f"dice must be one of {', '.join(DICE_SOURCES)}, got {dice!r}")
    s = DiceState(config, seed, dice)
    s.rng = rng.seed_state(seed)
    if log:
        s.log = []
    s.queue.append(("gambit_start",))
    run(s)
    return s


def run(s: DiceState) -> None:
    """Interpret queued steps until a question is pending or the game is over."""
    queue = s.queue
    steps = STEPS
    budget = MAX_STEPS_PER_ANSWER
    while s.pending is None and queue:
        st = queue.pop()
        steps[st[0]](s, st)
        budget -= 1
        if budget == 0:
            raise RuntimeError("the dice game did not reach a question; this is a bug")


def apply(s: DiceState, answer: int, decision_id: int | None = None) -> None:
    """Answer the pending question; raises :class:`IllegalAnswer` if it cannot."""
    d = s.pending
    if d is None:
        raise IllegalAnswer("the game is over: there is no question to answer")
    if decision_id is not None and decision_id != d.id:
        raise IllegalAnswer(
            f"stale answer: it answers question {decision_id}, the current question is {d.id}"
        )
    if type(answer) is not int or answer not in d.options:
        if d.kind == ROLL:
            sides = d.ctx[0]
            raise IllegalAnswer(f"a d{sides} shows 1 to {sides}; {answer!r} is impossible")
        raise IllegalAnswer(
            f"{answer!r} is not an answer to {d.kind!r}; choose from {list(d.options)}"
        )
    s.pending = None
    RESOLVERS[d.kind](s, d, answer)
    run(s)
