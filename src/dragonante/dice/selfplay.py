"""Whole Dice Gambit games between bots: for ``dragonante dice simulate`` and the soak tests.

``play(config, seed, bots)`` plays one game with seeded dice; a
(config, seed, bots) triple names one exact game.  ``simulate`` plays many
and reports the same keys as the card game's simulation (``games``,
``completed``, ``errors``, ``invariant_violations``, ``mean_gambits``,
``wins_by_seat``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dragonante.dice.bots import DiceSeatView, make_bot
from dragonante.dice.config import DiceConfig
from dragonante.dice.game import apply, new_game
from dragonante.dice.invariants import violations
from dragonante.dice.state import DiceState

#: A game that asks more questions than this is reported as stuck.
MAX_DECISIONS = 100_000


@dataclass(slots=True)
class DiceResult:
    seed: int
    decisions: int
    gambits: int
    winners: tuple[int, ...]
    hoards: list[int]
    completed: bool
    violations: list[str] = field(default_factory=list)


def play(
    config: DiceConfig,
    seed: int,
    bots: Sequence[str] = ("random",),
    check: bool = False,
    chooser: Callable[[DiceState], int] | None = None,
) -> tuple[DiceState, DiceResult]:
    """Play one seeded game; bot names are cycled over the seats.

    ``chooser`` overrides the bots (tests use it to steer random play);
    ``check`` verifies the invariants after every answer.
    """
    s = new_game(config, seed, log=False)
    players = [make_bot(bots[p % len(bots)], seed * 31 + p) for p in range(config.players)]
    decisions = 0
    problems: list[str] = []
    if check:
        problems.extend(violations(s))
    while s.pending is not None and decisions < MAX_DECISIONS and not problems:
        d = s.pending
        if chooser is not None:
            answer = chooser(s)
        else:
            answer = players[d.seat].choose(DiceSeatView(s, d.seat))
        apply(s, answer, d.id)
        decisions += 1
        if check:
            problems.extend(violations(s))
    return s, DiceResult(
        seed=seed,
        decisions=decisions,
        gambits=s.gambit,
        winners=s.winners,
        hoards=list(s.hoards),
        completed=s.over,
        violations=problems,
    )


def simulate(
    config: DiceConfig, games: int, seed: int = 0, bots: Sequence[str] = ("random",)
) -> dict[str, Any]:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...) and summarise them."""
    completed = errors = bad = 0
    gambits = decisions = 0
    wins = [0] * config.players
    first_error = ""
    for i in range(games):
        try:
            _, r = play(config, seed + i, bots, check=True)
        except Exception as e:  # a crash is counted and reported, not raised
            errors += 1
            first_error = first_error or f"seed {seed + i}: {type(e).__name__}: {e}"
            continue
        gambits += r.gambits
        decisions += r.decisions
        if r.violations:
            bad += 1
            first_error = first_error or f"seed {seed + i}: {r.violations[0]}"
        if r.completed:
            completed += 1
            for w in r.winners:
                wins[w] += 1
    played = max(games - errors, 1)
    return {
        "games": games,
        "completed": completed,
        "errors": errors,
        "invariant_violations": bad,
        "mean_gambits": gambits / played,
        "mean_decisions": decisions / played,
        "wins_by_seat": wins,
        "players": config.players,
        "seed": seed,
        "bots": list(bots),
        "first_problem": first_error or None,
    }
