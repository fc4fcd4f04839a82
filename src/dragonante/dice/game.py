"""Public entry points of the Dice Gambit engine: start a game, answer its questions.

    state = new_game(DiceConfig(players=4), seed=7)          # seeded dice
    while not state.over:
        d = state.pending                                    # who must decide what
        apply(state, d.options[0], d.id)                     # answer by value (+ id)

With ``dice=PHYSICAL`` the same game asks each roller for their die faces
(``roll`` questions) instead of drawing them from the seeded stream.
``apply`` validates before it changes anything, so an illegal or stale
answer raises :class:`~dragonante.kernel.IllegalAnswer` and leaves the state
exactly as it was; ``advance`` is its trusted twin for bots and self-play.
Both are the kernel's interpreter over the Dice Gambit's registry
(:data:`dragonante.dice.core.RULES`).  Standard library only: no I/O, no
clock, no global randomness.
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
from dragonante.dice.core import RULES
from dragonante.dice.state import DICE_SOURCES, SEEDED, DiceState
from dragonante.kernel import rng

_REGISTERED = (_flights, _flow, _powers, _rolls, _settlement, _tiebreak)

#: Interpret queued steps until a question is pending or the game is over
#: (``RuntimeError`` if a gambit ever loops without asking: a bug).
run = RULES.run
#: ``apply(state, answer, decision_id=None) -> drew_on_chance``: answer the
#: pending question; raises ``IllegalAnswer`` (state unchanged) if it cannot.
apply = RULES.apply
#: ``advance(state, answer)``: a known-legal answer, unchecked (bots, self-play).
advance = RULES.advance
#: ``answered(state, answer) -> (copy_after, drew_on_chance)``; ``state`` unchanged.
answered = RULES.answered
#: ``draws_on_chance(state, answer) -> bool``; ``state`` unchanged.
draws_on_chance = RULES.draws_on_chance

__all__ = ["advance", "answered", "apply", "draws_on_chance", "new_game", "run"]


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
