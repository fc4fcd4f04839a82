"""Measure the CPU the web server spends building update frames, per answer.

    .venv/bin/python tools/frames_speed.py [--seconds 3] [--seeds 1,2,3]
        [--abilities] [--lang en|it] [--watchers] [--seats 4] [--profile] [--digest]

After every accepted answer ``frames.broadcast`` builds, for each kind of
connection, ``seat_view`` and encodes it once.  This plays seeded random
4-player games through a :class:`LiveTable` (no database, no sockets) and,
after each answer, does the same for the four seats (``--watchers``: a
spectator and, at a hidden-abilities table, a game-master too), timing only
that part (``--seats``: only the first seats have a connection, as at a
table of people and bots).  It prints microseconds per frame and per answer (CPU time of
this process, ``time.process_time``, so other processes on a shared machine
disturb it less than wall-clock time).

``--digest`` prints a SHA-256 of every frame built, in order, and plays each
seed's game once: two versions of the code that print the same digest sent
byte-identical frames; to compare two versions, run the tool of this one
with ``PYTHONPATH`` pointing at the other's ``src`` (an exported tree of
an older commit), interleaved, since a shared machine drifts.
``--profile`` runs the loop under cProfile and prints the top functions
by cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import sys
import time
from datetime import UTC, datetime
from typing import Any

from dragonante.engine.game import apply
from dragonante.interfaces.web.shared.protocol import encode
from dragonante.interfaces.web.storage.store import HUMAN, PLAYING, SeatInfo, StoredTable
from dragonante.interfaces.web.tables import live as tables
from dragonante.interfaces.web.tables.live import LiveTable, seat_view

PLAIN: dict[str, Any] = {"players": 4, "gold_per_player": 10}
ABILITIES: dict[str, Any] = {
    "players": 4,
    "gold_per_player": 10,
    "abilities": {"system": "disks", "visibility": "hidden"},
}


def new_table(config: dict[str, Any], seed: int) -> LiveTable:
    """A started 4-seat table of people (names with accents: UTF-8 frames)."""
    seats = {p: SeatInfo(p, f"Pè{p}", HUMAN) for p in range(4)}
    stored = StoredTable(
        code=f"BENCH{seed}",
        config=config,
        seed=seed,
        status=PLAYING,
        created_at=datetime(2024, 1, 1, tzinfo=UTC),
        started_at=datetime(2024, 1, 1, tzinfo=UTC),
        seats=seats,
    )
    return LiveTable(stored)


def play(
    config: dict[str, Any],
    seed: int,
    lang: str,
    watchers: bool,
    digest: Any | None,
    seats: int = 4,
) -> tuple[int, int, float]:
    """One game: (answers, frames, CPU seconds spent building and encoding frames)."""
    table = new_table(config, seed)
    state = table.state
    assert state is not None
    gm = bool(table.config.abilities.enabled and not table.config.abilities.public)
    # (seat, gm) per connection kind; every connection starts with what it has seen.
    kinds: list[tuple[int | None, bool]] = [(p, False) for p in range(seats)]
    if watchers:
        kinds.append((None, False))
        if gm:
            kinds.append((None, True))
    log_pos = {k: len(state.log or []) for k in kinds}
    rng = random.Random(seed)
    answers = frames = 0
    spent = 0.0
    clock = time.process_time
    while state.pending is not None:
        d = state.pending
        answer = d.options[rng.randrange(len(d.options))]
        apply(state, answer)
        table.answers.append(answer)
        answers += 1
        start = clock()
        # frames.broadcast shares what the views have in common (older code had no SharedParts).
        shared_parts = getattr(tables, "SharedParts", None)
        extra = () if shared_parts is None or len(kinds) < 2 else (shared_parts(table, state),)
        for k in kinds:
            seat, is_gm = k
            body = seat_view(table, state, seat, lang, log_pos[k], is_gm, *extra)
            body["type"] = "update"
            text = encode(body)
            log_pos[k] = body["log_size"]
            if digest is not None:
                digest.update(text.encode())
            frames += 1
        spent += clock() - start
    return answers, frames, spent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds to play for")
    ap.add_argument("--seeds", default="1,2,3", help="comma-separated game seeds, cycled")
    ap.add_argument("--abilities", action="store_true", help="a hidden-abilities table")
    ap.add_argument("--lang", default="en", choices=("en", "it"))
    ap.add_argument("--watchers", action="store_true", help="a spectator and a game-master too")
    ap.add_argument("--seats", type=int, default=4, help="seats with a connection (1-4)")
    ap.add_argument("--profile", action="store_true", help="print a cProfile summary")
    ap.add_argument("--digest", action="store_true", help="each seed once; print a frame digest")
    args = ap.parse_args(argv)
    config = ABILITIES if args.abilities else PLAIN
    seeds = [int(s) for s in args.seeds.split(",")]
    digest = hashlib.sha256() if args.digest else None
    profiler = cProfile.Profile() if args.profile else None
    answers = frames = 0
    spent = 0.0
    i = 0
    if profiler is not None:
        profiler.enable()
    while True:
        if args.digest and i == len(seeds):
            break
        if not args.digest and spent >= args.seconds:
            break
        seed = seeds[i % len(seeds)]
        a, f, s = play(config, seed, args.lang, args.watchers, digest, args.seats)
        answers, frames, spent = answers + a, frames + f, spent + s
        i += 1
    if profiler is not None:
        profiler.disable()
    print(
        f"games {i}  answers {answers}  frames {frames}  "
        f"{spent / frames * 1e6:.1f} us/frame  {spent / answers * 1e6:.1f} us/answer"
    )
    if digest is not None:
        print(f"digest {digest.hexdigest()}")
    if profiler is not None:
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(35)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
