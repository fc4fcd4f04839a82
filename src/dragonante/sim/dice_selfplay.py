"""Whole Dice Gambit games between bots: for ``dragonante dice simulate`` and the soak tests.

``play(config, seed, bots)`` plays one game with seeded dice; a
(config, seed, bots) triple names one exact game.  ``simulate`` plays many
and reports the same keys, with the same shapes, as the card game's
simulation (``games``, ``completed``, ``errors`` and
``invariant_violations`` as lists of per-game findings, ``stuck``,
``mean_gambits``, ``wins_by_seat``), so one script can read both.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dragonante.bots.dice import DiceSeatView, make_bot
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
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...) and summarise them.

    A crash or a broken invariant is a finding to report with its seed (the
    game replays exactly from it), never a reason to stop the run.
    """
    completed = gambits = decisions = 0
    errors: list[dict[str, Any]] = []
    bad: list[dict[str, Any]] = []
    stuck: list[int] = []
    wins = [0] * config.players
    for g in range(seed, seed + games):
        try:
            _, r = play(config, g, bots, check=True)
        except Exception as e:  # a crash is reported with its seed, not raised
            frame = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
            where = f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" if frame else "?"
            errors.append({"seed": g, "error": f"{type(e).__name__}: {e}", "where": where})
            continue
        gambits += r.gambits
        decisions += r.decisions
        if r.violations:
            bad.append({"seed": g, "violations": r.violations})
        if r.completed:
            completed += 1
            for w in r.winners:
                wins[w] += 1
        elif not r.violations:
            stuck.append(g)
    played = max(games - len(errors), 1)
    first = ""
    if errors:
        first = f"seed {errors[0]['seed']}: {errors[0]['error']} ({errors[0]['where']})"
    elif bad:
        first = f"seed {bad[0]['seed']}: {bad[0]['violations'][0]}"
    elif stuck:
        first = f"seed {stuck[0]}: no end after {MAX_DECISIONS} decisions"
    return {
        "games": games,
        "completed": completed,
        "errors": errors,
        "invariant_violations": bad,
        "stuck": stuck,
        "mean_gambits": gambits / played,
        "mean_decisions": decisions / played,
        "wins_by_seat": wins,
        "players": config.players,
        "seed": seed,
        "bots": list(bots),
        "first_problem": first or None,
        "ok": not errors and not bad and not stuck and completed == games,
    }
