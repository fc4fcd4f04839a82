"""Playing the games of an analysis: pure chunks of seeds, merged in seed order.

``run_chunk(config, bots, first_seed, n)`` plays games ``first_seed ..
first_seed + n - 1`` and returns their :class:`Summary`; it depends on
nothing but its arguments, so it can run in any process (or on a cluster)
and :func:`run_analysis` only has to merge what comes back.  Chunks hold
at least :data:`CHUNK` games: sending a config and a seed costs nothing,
while a process round trip per game would.

Game ``g`` uses seed ``g`` exactly as ``dragonante simulate`` does: with
every seat ``random`` the engine's fast random self-play plays it (the same
games ``simulate`` checks); otherwise each seat is the bot of its spec,
seeing only its own seat.  The event log is on either way: it is what
:func:`add_game` reads.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed

from dragonante.engine.config import GameConfig
from dragonante.engine.state import GameState
from dragonante.sim.analysis.summary import Summary, add_game, merge_all
from dragonante.sim.selfplay import play_random
from dragonante.sim.simulate import play_bots

#: Fewest games per chunk sent to a worker process.
CHUNK = 200


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
    size = max(CHUNK, -(-games // (workers * 4)))
    return [
        (s, min(size, first_seed + games - s)) for s in range(first_seed, first_seed + games, size)
    ]


def run_analysis(
    config: GameConfig,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games from seed ``seed`` on ``workers`` processes and merge them.

    The result does not depend on ``workers``: the summaries are integer
    tallies, merged in seed order.  ``progress(k)`` is told as each chunk of
    ``k`` games ends.
    """
    config = config.validate()
    if len(bots) != config.players:
        raise ValueError(f"need one bot per seat ({config.players}), got {len(bots)}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    pieces = chunks(seed, games, workers)
    parts: dict[int, Summary] = {}
    if workers == 1 or len(pieces) == 1:
        for first, n in pieces:
            parts[first] = run_chunk(config, bots, first, n)
            if progress is not None:
                progress(n)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, os.cpu_count() or workers)) as pool:
            futures: dict[Future[Summary], tuple[int, int]] = {
                pool.submit(run_chunk, config, list(bots), first, n): (first, n)
                for first, n in pieces
            }
            for fut in as_completed(futures):
                first, n = futures[fut]
                parts[first] = fut.result()
                if progress is not None:
                    progress(n)
    return merge_all((parts[k] for k in sorted(parts)), config.players)


__all__ = ["CHUNK", "chunks", "run_analysis", "run_chunk"]
