"""Public entry points of the rules engine: start a game, answer its questions.

    state = new_game(GameConfig(players=4), seed=7)
    while not state.over:
        d = state.pending                      # who must decide what
        apply(state, d.options[0], d.id)       # answer by value (+ id to detect staleness)

``apply`` validates before it changes anything, so an illegal or stale
answer raises :class:`~dragonante.kernel.IllegalAnswer` and leaves the state exactly as it was;
it returns True when the answer drew on the seeded random stream.
``advance`` is the trusted twin for search and self-play: no validation, for
answers taken from ``state.pending.options``.  ``answered`` /
``draws_on_chance`` ask whether an answer draws on chance without changing
the state.  All of them are the kernel's interpreter
(:class:`dragonante.kernel.Registry`) over the card game's registry.
The engine is pure standard library: no I/O, no clocks, no global randomness.
"""

from __future__ import annotations

# Importing these modules registers their steps, resolvers and powers.
from dragonante.engine import flights as _flights
from dragonante.engine import flow as _flow
from dragonante.engine import powers as _powers
from dragonante.engine import powers_eg as _powers_eg
from dragonante.engine.abilities.setup import install as install_abilities
from dragonante.engine.config import GameConfig
from dragonante.engine.core import RULES, ev
from dragonante.engine.decisions import Decision
from dragonante.engine.state import GameState
from dragonante.kernel import rng

_REGISTERED = (_flights, _flow, _powers, _powers_eg)

#: Interpret queued steps until a question is pending or the game is over.
run = RULES.run
#: ``apply(state, answer, decision_id=None) -> drew_on_chance``: answer the
#: pending question; raises ``IllegalAnswer`` (state unchanged) if it cannot.
apply = RULES.apply
#: ``advance(state, answer)``: answer the pending question with a known-legal
#: answer, unchecked (the search and self-play hot path).
advance = RULES.advance
#: ``answered(state, answer) -> (copy_after, drew_on_chance)``; ``state`` unchanged.
answered = RULES.answered
#: ``draws_on_chance(state, answer) -> bool``; ``state`` unchanged.
draws_on_chance = RULES.draws_on_chance

__all__ = [
    "advance",
    "answered",
    "apply",
    "call_last_gambit",
    "current_decision",
    "draws_on_chance",
    "legal_answers",
    "new_game",
    "run",
]


def new_game(config: GameConfig | None = None, seed: int = 0, log: bool = True) -> GameState:
    """Set up a table and run until the first question (the first ante, or pick 'em)."""
    config = (config or GameConfig()).validate()
    s = GameState(config, seed)
    s.rng = rng.seed_state(seed)
    if log:
        s.log = []
    s.queue.append(("setup",))
    if config.abilities.enabled:  # dealt (or drafted) before the cards
        install_abilities(s)
    run(s)
    return s


def legal_answers(s: GameState) -> tuple[int, ...]:
    d = s.pending
    return () if d is None else d.options


def current_decision(s: GameState) -> Decision | None:
    return s.pending


def call_last_gambit(s: GameState) -> None:
    """The time limit ran out (EG optional rule 5): finish the current gambit,
    play exactly one more, then the game ends and the most gold wins."""
    if not s.over and not s.last_gambit:
        s.last_gambit = s.gambit + 1
        ev(s, "last_gambit_called", gambit=s.last_gambit)
