"""Public entry points of the rules engine: start a game, answer its questions.

    state = new_game(GameConfig(players=4), seed=7)
    while not state.over:
        d = state.pending                      # who must decide what
        apply(state, d.options[0], d.id)       # answer by value (+ id to detect staleness)

``apply`` validates before it changes anything, so an illegal or stale
answer raises :class:`IllegalAnswer` and leaves the state exactly as it was.
The engine is pure standard library: no I/O, no clocks, no global randomness.
"""

from __future__ import annotations

# Importing these modules registers their steps, resolvers and powers.
from dragonante.engine import flights as _flights
from dragonante.engine import flow as _flow
from dragonante.engine import powers as _powers
from dragonante.engine import powers_eg as _powers_eg
from dragonante.engine import rng
from dragonante.engine.abilities.setup import install as install_abilities
from dragonante.engine.config import GameConfig
from dragonante.engine.core import RESOLVERS, STEPS, ev
from dragonante.engine.decisions import Decision, IllegalAnswer
from dragonante.engine.state import GameState

_REGISTERED = (_flights, _flow, _powers, _powers_eg)


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


def run(s: GameState) -> None:
    """Interpret queued steps until a question is pending or the game is over."""
    queue = s.queue
    steps = STEPS
    while s.pending is None and queue:
        st = queue.pop()
        steps[st[0]](s, st)


def apply(s: GameState, answer: int, decision_id: int | None = None) -> None:
    """Answer the pending question; raises :class:`IllegalAnswer` if it cannot."""
    d = s.pending
    if d is None:
        raise IllegalAnswer("the game is over: there is no question to answer")
    if decision_id is not None and decision_id != d.id:
        raise IllegalAnswer(
            f"stale answer: it answers question {decision_id}, the current question is {d.id}"
        )
    if type(answer) is not int or answer not in d.options:
        raise IllegalAnswer(
            f"{answer!r} is not a legal answer to {d.kind!r}; legal: {list(d.options)}"
        )
    s.pending = None
    RESOLVERS[d.kind](s, d, answer)
    run(s)


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
