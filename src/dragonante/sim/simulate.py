"""Many games in a row, checked: the engine's smoke test and a source of statistics.

``simulate(config, games, seed)`` plays games with seeds ``seed .. seed +
games - 1`` and, for each one, catches any exception (reported with its
seed, so the game can be replayed and debugged), checks the conservation
laws of :mod:`dragonante.engine.invariants` at the end (or after every
answer with ``check_every_step``) and tallies gambits, decisions and
winners.  A game won by several tied players counts a win for each.

Who answers is pluggable: with ``bots=None`` every seat answers uniformly
at random through the engine's fast path
(:func:`dragonante.sim.selfplay.play_random`, no event log); with ``bots``
(one spec per seat, e.g. ``["heuristic", "random"]``) each seat is a bot
from :func:`dragonante.bots.make_bot` seeing only its ``SeatView``.  A
``--bots`` command-line option only has to pass the list through.

The games are played in chunks of consecutive seeds by
:func:`simulate_chunk`, a pure function, on any backend of
:mod:`dragonante.sim.parallel` (this process, local worker processes or a
Dask cluster); the chunk reports are merged in seed order, so the report is
the same whatever the backend, apart from ``seconds``.
"""

from __future__ import annotations

import platform
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from dragonante.bots import SeatView, make_bot
from dragonante.engine.config import GameConfig
from dragonante.engine.game import apply, new_game
from dragonante.engine.invariants import violations
from dragonante.engine.state import GameState
from dragonante.sim.parallel import Backend, run_chunks, split
from dragonante.sim.selfplay import MAX_DECISIONS, GameResult, play_random

#: Fewest games per chunk on worker processes: random games take about half
#: a millisecond, so a chunk must be long next to a process round trip.
CHUNK = 100
#: Most games per chunk: the progress bar moves at least this often.
LARGEST_CHUNK = 1000


@dataclass(slots=True)
class GameError:
    """A game that raised: its seed, the exception and where it happened."""

    seed: int
    error: str
    where: str


@dataclass(slots=True)
class GameViolations:
    """A game that broke an invariant: its seed and every broken law."""

    seed: int
    violations: list[str]


@dataclass(slots=True)
class SimulationReport:
    """What :func:`simulate` found; :meth:`to_dict` is the ``--json`` output."""

    players: int
    seed: int
    games: int
    completed: int = 0
    errors: list[GameError] = field(default_factory=list)
    invariant_violations: list[GameViolations] = field(default_factory=list)
    #: Games that hit the decision limit without finishing.
    stuck: list[int] = field(default_factory=list)
    #: Games each seat won (a tie counts for each tied winner).
    wins_by_seat: list[int] = field(default_factory=list)
    total_gambits: int = 0
    total_decisions: int = 0
    min_gambits: int = 0
    max_gambits: int = 0
    seconds: float = 0.0
    check_every_step: bool = False
    bots: list[str] | None = None

    @property
    def mean_gambits(self) -> float:
        return self.total_gambits / self.completed if self.completed else 0.0

    @property
    def mean_decisions(self) -> float:
        return self.total_decisions / self.completed if self.completed else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def ok(self) -> bool:
        """Every game finished, raised nothing and kept every invariant."""
        return (
            not self.errors
            and not self.invariant_violations
            and not self.stuck
            and self.completed == self.games
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "completed": self.completed,
            "errors": [asdict(e) for e in self.errors],
            "invariant_violations": [asdict(v) for v in self.invariant_violations],
            "stuck": list(self.stuck),
            "mean_gambits": round(self.mean_gambits, 3),
            "min_gambits": self.min_gambits,
            "max_gambits": self.max_gambits,
            "mean_decisions": round(self.mean_decisions, 3),
            "wins_by_seat": list(self.wins_by_seat),
            "players": self.players,
            "seed": self.seed,
            "seeds": [self.seed, self.seed + self.games - 1],
            "check_every_step": self.check_every_step,
            "bots": self.bots or ["random"] * self.players,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 2),
            "python": platform.python_version(),
            "ok": self.ok,
        }


def play_bots(
    config: GameConfig, seed: int, bots: Sequence[str], check: bool = False
) -> tuple[GameState, GameResult]:
    """One game with a bot per seat (specs), each seeing only its own seat."""
    s = new_game(config, seed, log=True)
    players = [make_bot(spec, seed * 31 + p + 1) for p, spec in enumerate(bots)]
    decisions = 0
    problems: list[str] = []
    while s.pending is not None and decisions < MAX_DECISIONS:
        d = s.pending
        apply(s, players[d.seat].choose(SeatView(s, d.seat)), d.id)
        decisions += 1
        if check:
            problems.extend(violations(s))
            if problems:
                break
    if check and not problems:
        problems.extend(violations(s))
    return s, GameResult(
        seed=seed,
        decisions=decisions,
        gambits=s.gambit,
        winners=s.winners,
        hoards=list(s.hoards),
        completed=s.over,
        violations=problems,
    )


def simulate_chunk(
    config: GameConfig,
    check_every_step: bool,
    bots: Sequence[str] | None,
    first_seed: int,
    n: int,
) -> SimulationReport:
    """Chunk function (any process, any machine): play seeds ``first_seed ..
    first_seed + n - 1`` and report them; :func:`merge_reports` adds chunks up."""
    players = config.players
    report = SimulationReport(
        players=players,
        seed=first_seed,
        games=n,
        wins_by_seat=[0] * players,
        check_every_step=check_every_step,
        bots=list(bots) if bots is not None else None,
    )
    gambits: list[int] = []
    for g in range(first_seed, first_seed + n):
        try:
            if bots is None:
                state, result = play_random(config, g, check=check_every_step)
            else:
                state, result = play_bots(config, g, bots, check=check_every_step)
            found = result.violations if check_every_step else violations(state)
        except Exception as e:  # a crash is a finding to report, not a reason to stop
            frame = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
            where = f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" if frame else "?"
            report.errors.append(GameError(g, f"{type(e).__name__}: {e}", where))
        else:
            if found:
                report.invariant_violations.append(GameViolations(g, found))
            if result.completed:
                report.completed += 1
                report.total_decisions += result.decisions
                gambits.append(result.gambits)
                for w in result.winners:
                    report.wins_by_seat[w] += 1
            elif not found:
                report.stuck.append(g)
    report.total_gambits = sum(gambits)
    report.min_gambits = min(gambits, default=0)
    report.max_gambits = max(gambits, default=0)
    return report


def merge_reports(total: SimulationReport, part: SimulationReport) -> None:
    """Add the chunk report ``part`` (the seeds right after ``total``'s) to ``total``."""
    if part.completed:
        low = part.min_gambits if not total.completed else min(total.min_gambits, part.min_gambits)
        total.min_gambits = low
        total.max_gambits = max(total.max_gambits, part.max_gambits)
    total.games += part.games
    total.completed += part.completed
    total.errors.extend(part.errors)
    total.invariant_violations.extend(part.invariant_violations)
    total.stuck.extend(part.stuck)
    total.wins_by_seat = [a + b for a, b in zip(total.wins_by_seat, part.wins_by_seat, strict=True)]
    total.total_gambits += part.total_gambits
    total.total_decisions += part.total_decisions


def simulate(
    config: GameConfig,
    games: int,
    seed: int = 0,
    check_every_step: bool = False,
    bots: Sequence[str] | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int | Backend = 1,
) -> SimulationReport:
    """Play ``games`` games (seeds ``seed`` upwards) and report what happened.

    ``workers`` is a number of local processes or a
    :class:`~dragonante.sim.parallel.Backend`.  ``progress(k)`` is called as
    each chunk of ``k`` games ends, for progress bars.  ``bots`` must have
    one spec per seat if given.
    """
    config = config.validate()
    n = config.players
    if bots is not None and len(bots) != n:
        raise ValueError(f"need one bot per seat ({n}), got {len(bots)}")
    backend = workers if isinstance(workers, Backend) else Backend(workers)
    report = SimulationReport(
        players=n,
        seed=seed,
        games=0,
        wins_by_seat=[0] * n,
        check_every_step=check_every_step,
        bots=list(bots) if bots is not None else None,
    )
    # Bot games are a hundred times slower than random ones: smaller chunks.
    smallest, largest = (CHUNK, LARGEST_CHUNK) if bots is None else (1, LARGEST_CHUNK // 20)
    pieces = split(seed, games, backend.parallelism, smallest, largest)
    specs = list(bots) if bots is not None else None
    clock = time.perf_counter
    t0 = clock()
    for part in run_chunks(
        simulate_chunk, (config, check_every_step, specs), pieces, backend, progress
    ):
        merge_reports(report, part)
    report.seconds = clock() - t0
    return report


__all__ = [
    "GameError",
    "GameViolations",
    "SimulationReport",
    "merge_reports",
    "play_bots",
    "simulate",
    "simulate_chunk",
]
