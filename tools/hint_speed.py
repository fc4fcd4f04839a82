"""Time a hint from the best bot (``dragonante.bots.hint``) at a real table.

    .venv/bin/python tools/hint_speed.py [--players 4] [--hints 40] [--iters N] [--seed 1]

Plays games in which seat 0 is played by the medium bot (a stand-in for the
person) against medium bots, and asks a hint at seat 0's questions that
have more than one answer (antes, plays and the powers' questions, in the
proportions a game has them), until ``--hints`` hints were timed.  Prints,
as JSON, the median, 95th percentile and longest time per hint, in wall
clock seconds and in CPU seconds of this process (``time.process_time``:
what a hint costs when the core is its own, the steadier figure on a shared
machine), overall and for antes and plays apart, and the iterations per CPU
second.  ``docs/benchmarks.md`` ("A hint from the best bot") keeps the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from dragonante.bots import SeatView, make_bot
from dragonante.bots.hint import HINT_ITERS, SEARCHED, hint
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.decisions import ANTE, PLAY


def _figures(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "median": round(statistics.median(ordered), 3),
        "p95": round(p95, 3),
        "max": round(ordered[-1], 3),
    }


def measure(players: int, hints: int, iters: int, seed: int) -> dict[str, object]:
    """Time ``hints`` hints at ``players``-player tables (see the module's text)."""
    rng = random.Random(seed)
    timed: list[tuple[str, float, float, int]] = []  # kind, wall, cpu, iterations
    game = 0
    while len(timed) < hints:
        s = new_game(GameConfig(players=players), seed * 1000 + game, log=True)
        bots = {p: make_bot("medium", seed * 100 + game * 10 + p) for p in range(players)}
        game += 1
        while not s.over and len(timed) < hints:
            d = s.pending
            assert d is not None
            if d.seat == 0 and len(d.options) > 1 and rng.random() < 0.5:
                wall, cpu = time.perf_counter(), time.process_time()
                h = hint(SeatView(s, 0), seed=rng.getrandbits(31), iters=iters)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                if h.how == SEARCHED:
                    timed.append((d.kind, wall, cpu, h.iterations))
            apply(s, bots[d.seat].choose(SeatView(s, d.seat)))
    out: dict[str, object] = {
        "players": players,
        "iterations": iters,
        "hints": len(timed),
        "games": game,
        "wall_seconds": _figures([w for _, w, _, _ in timed]),
        "cpu_seconds": _figures([c for _, _, c, _ in timed]),
        "iterations_per_cpu_second": round(
            sum(i for *_, i in timed) / sum(c for _, _, c, _ in timed)
        ),
    }
    for name, kinds in (("ante", {ANTE}), ("play", {PLAY})):
        mine = [(w, c) for k, w, c, _ in timed if k in kinds]
        if mine:
            out[name] = {
                "hints": len(mine),
                "wall_seconds": _figures([w for w, _ in mine]),
                "cpu_seconds": _figures([c for _, c in mine]),
            }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hints", type=int, default=40)
    parser.add_argument("--iters", type=int, default=HINT_ITERS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(measure(args.players, args.hints, args.iters, args.seed), indent=2))


if __name__ == "__main__":
    main()
