"""Compare ``dragonante bench`` between two checkouts (or two option sets), interleaved.

A shared machine's speed drifts by 10-20% over minutes, so two benchmarks run
one after the other compare the machine as much as the code.  This runs the
bench alternately, A B A B ..., for several rounds and reports each side's
median and the ratio of medians, in games per CPU second (the bench's own
``time.process_time`` figure, which other processes on the core disturb
least) and per wall second::

    python tools/bench_ab.py --a /path/to/old-checkout --b . --rounds 7 --seconds 6
    python tools/bench_ab.py --b-args "--abilities disks" --rounds 7   # same code, two tables

Each side runs ``.venv/bin/dragonante bench --players P --seconds S --json``
(plus its extra arguments) in its checkout.  Standard library only.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import sys
from pathlib import Path


def run_once(root: Path, players: int, seconds: float, extra: list[str]) -> dict[str, float]:
    cmd = [
        str(root / ".venv" / "bin" / "dragonante"),
        "bench",
        "--players",
        str(players),
        "--seconds",
        str(seconds),
        "--json",
        *extra,
    ]
    out = subprocess.run(cmd, cwd=root, check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    return {
        "games_per_cpu_second": float(data["games_per_cpu_second"]),
        "games_per_second": float(data["games_per_second"]),
        "decisions_per_second": float(data["decisions_per_second"]),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", type=Path, default=Path("."), help="checkout A (default: here)")
    ap.add_argument("--b", type=Path, default=Path("."), help="checkout B (default: here)")
    ap.add_argument("--a-args", default="", help="extra bench arguments for A")
    ap.add_argument("--b-args", default="", help="extra bench arguments for B")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args(argv)
    sides = {
        "A": (args.a.resolve(), shlex.split(args.a_args)),
        "B": (args.b.resolve(), shlex.split(args.b_args)),
    }
    results: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    for r in range(args.rounds):
        order = ("A", "B") if r % 2 == 0 else ("B", "A")
        for side in order:
            root, extra = sides[side]
            res = run_once(root, args.players, args.seconds, extra)
            results[side].append(res)
            print(
                f"round {r + 1} {side}: {res['games_per_cpu_second']:.0f} games/CPU s, "
                f"{res['games_per_second']:.0f} games/s",
                file=sys.stderr,
            )
    summary: dict[str, object] = {}
    for side in ("A", "B"):
        root, extra = sides[side]
        summary[side] = {
            "checkout": str(root),
            "args": extra,
            **{
                key: statistics.median(r[key] for r in results[side])
                for key in ("games_per_cpu_second", "games_per_second", "decisions_per_second")
            },
        }
    a, b = summary["A"], summary["B"]
    assert isinstance(a, dict) and isinstance(b, dict)
    summary["ratio_b_over_a"] = {
        key: round(b[key] / a[key], 4)
        for key in ("games_per_cpu_second", "games_per_second", "decisions_per_second")
    }
    summary["players"] = args.players
    summary["rounds"] = args.rounds
    summary["seconds"] = args.seconds
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
