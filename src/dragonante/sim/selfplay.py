"""Random self-play: the fastest way to drive the engine through whole games.

Used by ``dragonante simulate`` and ``dragonante bench`` and by the random-game
invariant tests.  The players pick uniformly among the legal answers with
their own seeded generator, so a (config, seed) pair names one exact game.
Answers go through the engine's trusted ``advance``: they are drawn from the
legal options, so validating them would only cost time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from dragonante.engine.config import GameConfig
from dragonante.engine.game import advance, new_game
from dragonante.engine.invariants import violations
from dragonante.engine.state import GameState

#: Safety net: a game that asks more questions than this is reported as stuck.
MAX_DECISIONS = 200_000


@dataclass(slots=True)
class GameResult:
    seed: int
    decisions: int
    gambits: int
    winners: tuple[int, ...]
    hoards: list[int]
    completed: bool
    violations: list[str]


def play_random(
    config: GameConfig,
    seed: int,
    check: bool = False,
    log: bool = False,
    on_step: Callable[[GameState], None] | None = None,
) -> tuple[GameState, GameResult]:
    """Play one game with uniformly random answers.

    ``check`` verifies the invariants after every answer (slow; for tests).
    """
    s = new_game(config, seed, log=log)
    pick = random.Random(seed ^ 0x5EED).random
    answer = advance  # a local name: this loop is the bench's hot path
    decisions = 0
    problems: list[str] = []
    while s.pending is not None and decisions < MAX_DECISIONS:
        d = s.pending
        opts = d.options
        answer(s, opts[int(pick() * len(opts))])  # legal by construction: no checks
        decisions += 1
        if check:
            problems.extend(violations(s))
            if problems:
                break
        if on_step is not None:
            on_step(s)
    completed = s.over
    if check and not problems:
        problems.extend(violations(s))
    result = GameResult(
        seed=seed,
        decisions=decisions,
        gambits=s.gambit,
        winners=s.winners,
        hoards=list(s.hoards),
        completed=completed,
        violations=problems,
    )
    return s, result
