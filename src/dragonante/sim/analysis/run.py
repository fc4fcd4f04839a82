"""Playing the games of an analysis: pure chunks of seeds, merged in seed order.

``run_chunk(config, bots, first_seed, n)`` plays games ``first_seed ..
first_seed + n - 1`` and returns their :class:`Summary`; it depends on
nothing but its arguments, so it can run in any process (or on a cluster)
and :func:`run_analysis` only has to merge what comes back, in seed order,
from whichever backend of :mod:`dragonante.sim.parallel` ran it.  Chunks
hold at least :data:`CHUNK` games: sending a config and a seed costs
nothing, while a process round trip per game would.

Game ``g`` uses seed ``g`` exactly as ``dragonante simulate`` does: with
every seat ``random`` the engine's fast random self-play plays it (the same
games ``simulate`` checks); otherwise each seat is the bot of its spec,
seeing only its own seat.  The event log is on either way: it is what
:func:`add_game` reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dragonante.engine.config import GameConfig
from dragonante.engine.state import GameState
from dragonante.sim.analysis.summary import Summary, add_game, merge_all
from dragonante.sim.parallel import Backend, run_chunks, split
from dragonante.sim.selfplay import play_random
from dragonante.sim.simulate import play_bots

#: Fewest games per chunk sent to a worker process.
CHUNK = 200
#: Most games per chunk: a long run still moves its progress bar (about two
#: seconds of random games, more with bots).
LARGEST_CHUNK = 2000


def _play(config: GameConfig, bots: Sequence[str], seed: int) -> tuple[GameState, int, bool]:
    if all(b == "random" for b in bots):
        state, result = play_random(config, seed, log=True)
    else:
        state, result = play_bots(config, seed, bots)
    return state, result.decisions, result.completed


def run_chunk(config: GameConfig, bots: Sequence[str], first_seed: int, n: int) -> Summary:
    """Play ``n`` games from seed ``first_seed`` and tally them."""
    config = config.validate()
    summary = Summary(config.players)
    for seed in range(first_seed, first_seed + n):
        state, decisions, completed = _play(config, bots, seed)
        if not completed or state.log is None:
            summary.unfinished += 1
            continue
        add_game(summary, state.log, state.universe, decisions)
    return summary


def chunks(first_seed: int, games: int, workers: int) -> list[tuple[int, int]]:
    """(first seed, games) pieces: at least CHUNK games each, a few per worker."""
    return split(first_seed, games, workers, CHUNK, LARGEST_CHUNK)


def run_analysis(
    config: GameConfig,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int | Backend = 1,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games from seed ``seed`` on ``workers`` (a number of local
    processes, or a :class:`~dragonante.sim.parallel.Backend`) and merge them.

    The result does not depend on the backend: the summaries are integer
    tallies, merged in seed order.  ``progress(k)`` is told as each chunk of
    ``k`` games ends.
    """
    config = config.validate()
    if len(bots) != config.players:
        raise ValueError(f"need one bot per seat ({config.players}), got {len(bots)}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    backend = workers if isinstance(workers, Backend) else Backend(workers)
    pieces = chunks(seed, games, backend.parallelism)
    parts = run_chunks(run_chunk, (config, list(bots)), pieces, backend, progress)
    return merge_all(parts, config.players)


__all__ = ["CHUNK", "chunks", "run_analysis", "run_chunk"]
