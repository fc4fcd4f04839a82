"""A bounded loopback flood of every limited endpoint while two tables play.

The server runs as its own process (as in production) and the flood comes
from another process, so the only thing shared with the measured tables is
the server itself.  Two tables of three people answer as fast as they can,
first alone (their usual latency), then while about 900 requests (table
creations, seat requests, socket openings) hit the server; their answer
latency must stay within a generous bound and nothing in them may change
but their own answers.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from tests.web.browser import ServerProcess
from tests.web.helpers import LiveServer, Seat, make_table

CONFIG = {"players": 3, "gold_per_player": 50}
LIMITS = (
    *("--limit-tables", "5", "--limit-seats", "6", "--limit-sockets", "20"),
    *("--max-sockets-per-address", "30"),
)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path / "web.sqlite3", bot_delay=0, args=LIMITS).start()
    yield s
    s.stop()


#: The questions each seat (by ``id``) has answered, across calls of :func:`answer_once`.
CHOSEN: dict[int, set[int]] = {}


def answer_once(seats: list[Seat]) -> float:
    """The asked seat answers its question; seconds until its ``ack``."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for seat in seats:
            seat.drain(0.001)
        for seat in seats:
            q = seat.question
            # everyone antes at once: a seat that chose already keeps its question
            # (it may change its mind) until the last chooses; answer it once
            if q is not None and q["id"] in CHOSEN.setdefault(id(seat), set()):
                continue
            if q and q.get("options") and seat.last and seat.last["view"]["phase"] != "over":
                CHOSEN[id(seat)].add(q["id"])
                sent = time.perf_counter()
                seat.send({"type": "answer", "decision": q["id"], "answer": q["options"][0]})
                seat.wait(lambda m, d=q["id"]: m.get("ack") == d or m["type"] == "error")
                assert seat.frames[-1].get("ack") == q["id"], seat.frames[-1]
                return time.perf_counter() - sent
    raise AssertionError("no seat was asked anything")


def settle(seats: list[Seat]) -> int:
    """Finish an ante round that only some seats have chosen in.

    Everyone antes at once: each choice is acknowledged at once but is played
    (and counted as a step) only when the last person chooses, so a run that
    stops mid-round has acknowledged more answers than the table has steps.
    Returns how many more answers that took.
    """
    answered = 0
    while True:
        for seat in seats:
            seat.drain(0.05)
        held = [s for s in seats if s.question and s.question["id"] in CHOSEN.get(id(s), set())]
        if not held:
            return answered
        answer_once(seats)
        answered += 1


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def test_a_flood_of_each_endpoint_does_not_slow_other_tables(server: ServerProcess):
    shim = cast(LiveServer, type("S", (), {"ws_base": f"ws://127.0.0.1:{server.port}"})())
    tables: list[tuple[str, list[Seat]]] = []
    with server.http() as http:
        for names in (["Ann", "Bob", "Cid"], ["Dan", "Eve", "Fay"]):
            code, tokens, _host = make_table(http, CONFIG, names)
            tables.append((code, [Seat(shim, code, tok) for tok in tokens]))
        before = {code: http.get(f"/api/tables/{code}").json()["seats"] for code, _ in tables}

    acked = dict.fromkeys(before, 0)

    def round_of_answers() -> list[float]:
        out = []
        for code, seats in tables:
            out.append(answer_once(seats))
            acked[code] += 1
        return out

    base: list[float] = []
    for _ in range(40):
        base += round_of_answers()

    flood = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from tests.web.flood import main; main()",
            server.base,
            tables[0][0],
            "300",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    during: list[float] = []
    started = time.monotonic()
    while flood.poll() is None or len(during) < 80:
        assert time.monotonic() - started < 180, "the flood did not end in time"
        during += round_of_answers()
    out, _ = flood.communicate(timeout=30)
    counts: dict[str, Any] = json.loads(out)

    # The flood was refused, cheaply and clearly.
    assert counts.get("create:201", 0) <= 3 and counts.get("create:429", 0) >= 250, counts
    assert counts.get("seat:201", 0) == 0 and counts.get("seat:429", 0) >= 250, counts
    assert counts.get("socket:welcome", 0) <= 20 and counts.get("socket:1013", 0) >= 100, counts
    assert not any(k.endswith(":error") for k in counts), counts

    # The tables kept their pace: p99 within 5x their usual, or under 250 ms.
    bound = max(0.25, 5 * p99(base))
    assert p99(during) < bound, (p99(base), p99(during), len(during))

    # Nothing in them changed but their own answers.
    for code, seats in tables:
        acked[code] += settle(seats)
    with server.http() as http:
        for code, seats in tables:
            now = http.get(f"/api/tables/{code}").json()
            assert now["seats"] == before[code] and now["step"] == acked[code]
            for seat in seats:
                assert not [f for f in seat.frames if f["type"] == "error"]
                seat.close()
