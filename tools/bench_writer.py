"""Micro-benchmark of the web server's database thread (``web/storage/writer.py``).

Pushes answer jobs through a :class:`Writer` on a temporary SQLite file
configured as the server configures it (WAL, ``synchronous=FULL``): many
"tables" each await their answers one after another, as
``Answers._submit_now`` (``web/tables/answers.py``) does, so the writer
sees the same group commits as under load.  The last answer of every
table also finishes its game.  It reports jobs per wall
second and the CPU time of the whole process (``time.process_time``: the
event loop plus the database thread) per job, the figure the server's event
loop loses to storage::

    python tools/bench_writer.py --jobs 20000 --tables 200
    python tools/bench_writer.py --ab /path/to/old/src --rounds 5   # interleaved A/B

With ``--ab OLD_SRC`` it runs itself alternately on ``OLD_SRC`` (A) and on the
``src`` beside this script (B), A B A B ..., since a shared machine's speed
drifts over minutes, and prints each side's median.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def measure(jobs: int, tables: int) -> dict[str, float]:
    """One run in this process; what ``dragonante.interfaces.web`` is on the path decides A or B."""
    from sqlalchemy.orm import Session

    from dragonante.interfaces.web.storage import store
    from dragonante.interfaces.web.storage.db import open_database
    from dragonante.interfaces.web.storage.writer import Writer

    per_table = max(1, jobs // tables)
    with tempfile.TemporaryDirectory() as tmp:
        writer = Writer(open_database(str(Path(tmp) / "bench.sqlite3")))
        codes = [f"T{i:05d}" for i in range(tables)]

        def create(s: Session) -> None:
            for i, code in enumerate(codes):
                store.create_table(s, code, {"players": 4}, i, "h" * 64)
                store.start_table(s, code, store.now())

        writer.run_sync(create)

        async def table(code: str) -> None:
            for n in range(per_table):
                over = n == per_table - 1

                def commit(s: Session, n: int = n, over: bool = over) -> None:
                    # The job ``Answers._submit_now`` runs for each accepted answer.
                    store.add_answer(s, code, n, n + 1, n % 4, n % 3)
                    if over:
                        store.finish_table(s, code, [0], "d" * 64)

                await writer.run(commit)

        async def main() -> None:
            await asyncio.gather(*(table(c) for c in codes))

        commits0 = writer.commits
        cpu0, wall0 = time.process_time(), time.perf_counter()
        asyncio.run(main())
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        commits = writer.commits - commits0
        stored = writer.run_sync(lambda s: sum(store.count_answers(s, c) for c in codes))
        writer.close()
    done = per_table * tables
    if stored != done:
        raise SystemExit(f"only {stored} of {done} answers were stored")
    return {
        "jobs": done,
        "jobs_per_s": done / wall,
        "cpu_us_per_job": cpu / done * 1e6,
        "jobs_per_commit": done / max(1, commits),
        "wall_s": wall,
    }


def run_side(src: Path, jobs: int, tables: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src))
    cmd = [sys.executable, __file__, "--jobs", str(jobs), "--tables", str(tables), "--json"]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    data: dict[str, float] = json.loads(out)
    return data


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--jobs", type=int, default=20000, help="answer jobs in all (default 20000)")
    p.add_argument("--tables", type=int, default=200, help="tables answering at once (default 200)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--ab", type=Path, help="the old src directory to compare against")
    p.add_argument("--rounds", type=int, default=5, help="A/B rounds (default 5)")
    args = p.parse_args()
    if args.jobs < 1 or args.tables < 1 or args.rounds < 1:
        p.error("--jobs, --tables and --rounds must be positive")
    if args.ab is None:
        result = measure(args.jobs, args.tables)
        if args.json:
            print(json.dumps(result))
        else:
            print(
                f"{result['jobs']:.0f} jobs: {result['jobs_per_s']:.0f} jobs/s, "
                f"{result['cpu_us_per_job']:.1f} µs CPU per job, "
                f"{result['jobs_per_commit']:.1f} jobs per commit"
            )
        return
    here = Path(__file__).resolve().parent.parent / "src"
    sides: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    for r in range(args.rounds):
        for name, src in (("A", args.ab.resolve()), ("B", here)):
            res = run_side(src, args.jobs, args.tables)
            sides[name].append(res)
            print(
                f"round {r + 1} {name}: {res['jobs_per_s']:.0f} jobs/s, "
                f"{res['cpu_us_per_job']:.1f} µs CPU/job, {res['jobs_per_commit']:.1f} jobs/commit",
                file=sys.stderr,
            )
    summary: dict[str, Any] = {}
    for name, runs in sides.items():
        summary[name] = {
            k: statistics.median(r[k] for r in runs)
            for k in ("jobs_per_s", "cpu_us_per_job", "jobs_per_commit")
        }
    summary["cpu_ratio_b_over_a"] = summary["B"]["cpu_us_per_job"] / summary["A"]["cpu_us_per_job"]
    summary["speed_ratio_b_over_a"] = summary["B"]["jobs_per_s"] / summary["A"]["jobs_per_s"]
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
