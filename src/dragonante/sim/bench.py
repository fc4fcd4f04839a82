"""How fast the rules engine plays: whole random games on one core for a while.

``bench(players, seconds)`` plays random games back to back through the
engine's fast path (:func:`dragonante.sim.selfplay.play_random`: no event
log, answers applied straight to the resolvers) in this one process, so
the figures are single-core throughput, comparable across machines and
across changes to the engine.  It also times ``GameState.clone()`` - the
operation every search bot does thousands of times per decision - on
states from an early and a late gambit of one long game played *with* its
event log: the two figures match because a clone copies only the current
position, never the game's history.
"""

from __future__ import annotations

import datetime
import platform
import time
from dataclasses import dataclass, field
from typing import Any

from dragonante.compiled_engine import engine_build
from dragonante.engine.config import GameConfig
from dragonante.engine.state import GameState
from dragonante.sim.selfplay import play_random

#: A game with at least this many gambits is used for the clone timings.
LATE_GAMBIT_MIN = 4
#: Seeds tried when looking for such a game.
CLONE_SEED_TRIES = 300
#: Clones per timing run, and runs (the fastest run is reported).
CLONE_NUMBER = 2000
CLONE_REPEAT = 5


@dataclass(slots=True)
class CloneTiming:
    """``state.clone()`` cost on a position of an early and of a late gambit."""

    early_microseconds: float
    late_microseconds: float
    early_gambit: int
    late_gambit: int
    #: Events logged before each position: the history a clone does not copy.
    early_log_events: int
    late_log_events: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "early": round(self.early_microseconds, 3),
            "late": round(self.late_microseconds, 3),
            "early_gambit": self.early_gambit,
            "late_gambit": self.late_gambit,
            "early_log_events": self.early_log_events,
            "late_log_events": self.late_log_events,
        }


@dataclass(slots=True)
class BenchReport:
    players: int
    seconds: float
    games: int
    decisions: int
    gambits: int
    #: CPU time this process spent playing (less than ``seconds`` when the
    #: core was shared with other processes).
    cpu_seconds: float = 0.0
    clone: CloneTiming | None = None
    date: str = field(default_factory=lambda: datetime.date.today().isoformat())

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_cpu_second(self) -> float:
        return self.games / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        games = max(self.games, 1)
        return {
            "players": self.players,
            "games": self.games,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 1),
            "decisions_per_second": round(self.decisions_per_second, 1),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "games_per_cpu_second": round(self.games_per_cpu_second, 1),
            "cpu_share": round(self.cpu_seconds / self.seconds, 3) if self.seconds > 0 else 0.0,
            "mean_decisions_per_game": round(self.decisions / games, 2),
            "mean_gambits_per_game": round(self.gambits / games, 2),
            "clone_microseconds": self.clone.to_dict() if self.clone else None,
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "machine": platform.machine(),
            "system": platform.system(),
            "date": self.date,
            "cores_used": 1,
            # compiled, partly compiled or pure (dragonante.compiled_engine)
            "engine_build": engine_build(),
        }


def throughput(
    config: GameConfig, seconds: float, seed: int = 0
) -> tuple[int, int, int, float, float]:
    """Random games for ``seconds`` of wall time:
    (games, decisions, gambits, elapsed seconds, CPU seconds of this process).

    At least one game is always played, so a tiny ``seconds`` still measures.
    The CPU time is what the games cost on their core; on a machine shared
    with other work the wall-clock rate is lower by however much of the core
    the others took.
    """
    clock = time.perf_counter
    cpu = time.process_time
    games = decisions = gambits = 0
    start = clock()
    cpu_start = cpu()
    deadline = start + seconds
    g = seed
    while True:
        _state, result = play_random(config, g)
        games += 1
        decisions += result.decisions
        gambits += result.gambits
        g += 1
        if clock() >= deadline:
            break
    return games, decisions, gambits, clock() - start, cpu() - cpu_start


def _positions(config: GameConfig, seed: int) -> tuple[tuple[GameState, int], ...] | None:
    """A mid-gambit position of gambit 1 and one of the last gambit of one game
    played with its log, each with the number of events logged by then."""
    early: list[tuple[GameState, int]] = []
    late: list[tuple[GameState, int]] = []

    def keep(s: GameState) -> None:
        if s.over or s.phase != "play" or s.round < 2:
            return
        logged = len(s.log or ())
        if s.gambit == 1 and not early:
            early.append((s.clone(keep_log=True), logged))
        elif s.gambit > 1 and (not late or late[0][0].gambit != s.gambit):
            late[:] = [(s.clone(keep_log=True), logged)]

    final, _result = play_random(config, seed, log=True, on_step=keep)
    if early and late and final.gambit >= LATE_GAMBIT_MIN:
        return early[0], late[0]
    return None


def _time_clone(s: GameState) -> float:
    """Microseconds per ``s.clone()`` (fastest of several runs)."""
    clock = time.perf_counter
    best = float("inf")
    for _ in range(CLONE_REPEAT):
        t0 = clock()
        for _ in range(CLONE_NUMBER):
            s.clone()
        best = min(best, clock() - t0)
    return best / CLONE_NUMBER * 1e6


def clone_timing(config: GameConfig, seed: int = 0) -> CloneTiming | None:
    """Clone costs early and late in a long game (None if no long game was found)."""
    for g in range(seed, seed + CLONE_SEED_TRIES):
        found = _positions(config, g)
        if found is None:
            continue
        (early, early_events), (late, late_events) = found
        return CloneTiming(
            early_microseconds=_time_clone(early),
            late_microseconds=_time_clone(late),
            early_gambit=early.gambit,
            late_gambit=late.gambit,
            early_log_events=early_events,
            late_log_events=late_events,
        )
    return None


def bench(config: GameConfig, seconds: float, seed: int = 0, clones: bool = True) -> BenchReport:
    """Benchmark ``config`` for about ``seconds`` seconds of random games."""
    config = config.validate()
    games, decisions, gambits, elapsed, cpu_seconds = throughput(config, seconds, seed)
    report = BenchReport(config.players, elapsed, games, decisions, gambits, cpu_seconds)
    if clones:
        report.clone = clone_timing(config, seed)
    return report


__all__ = ["BenchReport", "CloneTiming", "bench", "clone_timing", "throughput"]
