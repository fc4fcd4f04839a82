"""Measure other tables' answer latency while spectators flood a finished game with sync.

    .venv/bin/python tools/sync_flood.py [--sockets 20] [--rate 20] [--seconds 10]
        [--calm 5] [--tables 2]

Issue 22, hole 2: twenty spectator sockets sending ``{"type":"sync"}`` at
the allowed message rate against a finished game of ~286 answers stalled
the server's event loop for seconds.  This starts ``dragonante serve`` (its
own process, a temporary SQLite file, loopback only), lets bots play a
few 4-player games to their end (``--games``; the one closest to
``--answers`` answers is flooded), and starts ``--tables`` tables of two
people and a bot whose people this tool plays, answering each question quickly and
timing the answer's round trip (answer sent to its ``ack`` received).  For
``--calm`` seconds nothing else happens (the usual latency); then
``--sockets`` spectator sockets of the finished game send ``sync`` at
``--rate`` a second each for ``--seconds``.  It prints one JSON object: the
latency percentiles of both phases, what the flood got (states, ``busy``
refusals, bytes) and the server's loop lag.

To compare with an older version, run this tool with ``PYTHONPATH``
pointing at that version's exported ``src`` (the server is started with the
same interpreter and path).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))], 1)


def start_server(db: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-c",
        "from dragonante.interfaces.cli import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        str(db),
        "--bot-delay",
        "0",
        "--log-level",
        "warning",
    ]
    with open(log, "ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=out, env={**os.environ})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {log.read_text()[-2000:]}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def table(http: httpx.Client, config: dict[str, Any], people: list[str], bots: bool) -> Any:
    made = http.post("/api/tables", json={"config": config}).json()
    code, host = made["code"], made["host_token"]
    tokens = []
    for i, name in enumerate(people):
        r = http.post(f"/api/tables/{code}/seats", json={"name": name, "seat": i})
        tokens.append(r.json()["token"])
    auth = {"Authorization": f"Bearer {host}"}
    if bots:
        http.post(f"/api/tables/{code}/bots", json={"fill": True, "level": "random"}, headers=auth)
    http.post(f"/api/tables/{code}/start", headers=auth)
    return code, tokens


#: Seconds a measured person takes to answer (a quick one: within the message rate).
THINK = 0.15


class Player:
    """One person's socket: answers every question put to it after
    :data:`THINK` seconds, timing each answer until its ``ack``."""

    def __init__(self, ws: ClientConnection, record: Callable[[float], None]) -> None:
        self.ws = ws
        self.record = record
        self.sent: dict[int, float] = {}
        self.over = False

    async def run(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            if "ack" in msg and msg["ack"] in self.sent:
                self.record((time.perf_counter() - self.sent.pop(msg["ack"])) * 1000)
            view = msg.get("view")
            if view is None:
                continue
            if view.get("phase") == "over":
                self.over = True
                return
            q = view.get("question")
            if q and q.get("options") and q["id"] not in self.sent:
                await asyncio.sleep(THINK)  # a quick person, within the message rate
                self.sent[q["id"]] = time.perf_counter()
                await self.ws.send(
                    json.dumps({"type": "answer", "decision": q["id"], "answer": q["options"][0]})
                )


async def play_tables(
    ws_base: str, http: httpx.Client, n: int, record: Callable[[float], None]
) -> None:
    """Keep ``n`` tables of two people and a bot playing (a new one when one ends)."""

    async def one() -> None:
        while True:
            code, tokens = table(http, {"players": 3, "gold_per_player": 200}, ["P", "Q"], True)
            sockets = [await connect(f"{ws_base}/ws/{code}", max_size=2**24) for _ in tokens]
            players = []
            for ws, token in zip(sockets, tokens, strict=True):
                await ws.send(json.dumps({"type": "hello", "token": token}))
                players.append(Player(ws, record))
            await asyncio.gather(*(p.run() for p in players), return_exceptions=True)
            for ws in sockets:
                await ws.close()

    await asyncio.gather(*(one() for _ in range(n)))


async def flood_one(
    ws_base: str, code: str, rate: float, until: float, got: dict[str, int]
) -> None:
    """One spectator socket sending ``sync`` at ``rate`` until ``until``; when
    the server closes it (too many refusals in a row), it connects again."""
    while time.monotonic() < until:
        try:
            async with connect(f"{ws_base}/ws/{code}", max_size=2**24) as ws:
                got["connections"] += 1
                await ws.send(json.dumps({"type": "hello", "token": None}))

                async def reader(ws: ClientConnection = ws) -> None:
                    async for raw in ws:
                        got["bytes"] += len(raw)
                        kind = json.loads(raw).get("type")
                        if kind == "state":
                            got["states"] += 1
                        elif kind == "error":
                            got["refused"] += 1

                task = asyncio.create_task(reader())
                while time.monotonic() < until and not task.done():
                    await ws.send('{"type":"sync"}')
                    got["sent"] += 1
                    await asyncio.sleep(1 / rate)
                task.cancel()
        except (OSError, ConnectionClosed, InvalidStatus):
            got["closed"] += 1
            await asyncio.sleep(0.2)


async def measure(args: argparse.Namespace, base: str) -> dict[str, Any]:
    ws_base = base.replace("http", "ws")
    http = httpx.Client(base_url=base, timeout=30)
    # A long finished game (the review's had 286 answers).
    finished, steps = "", 0
    for _ in range(args.games):
        code, _ = table(http, {"players": 4, "gold_per_player": args.gold}, [], True)
        while (got := http.get(f"/api/tables/{code}").json())["status"] != "finished":
            await asyncio.sleep(0.1)
        if abs(got["step"] - args.answers) < abs(steps - args.answers):
            finished, steps = code, got["step"]
    calm: list[float] = []
    flooded: list[float] = []
    phase = [calm]  # where answer latencies go now

    def record(ms: float) -> None:
        phase[0].append(ms)

    players = asyncio.create_task(play_tables(ws_base, http, args.tables, record))
    await asyncio.sleep(args.calm)
    phase[0] = flooded
    got = dict.fromkeys(("sent", "states", "refused", "bytes", "connections", "closed"), 0)
    until = time.monotonic() + args.seconds
    started = time.monotonic()
    await asyncio.gather(
        *(flood_one(ws_base, finished, args.rate, until, got) for _ in range(args.sockets)),
        return_exceptions=True,
    )
    took = time.monotonic() - started
    if players.done() and players.exception() is not None:
        raise SystemExit(f"the measured tables stopped: {players.exception()!r}")
    players.cancel()
    stats = http.get("/api/stats").json()
    return {
        "finished_game_answers": steps,
        "calm": {
            "answers": len(calm),
            "p50_ms": percentile(calm, 50),
            "p95_ms": percentile(calm, 95),
            "max_ms": percentile(calm, 100),
        },
        "flood": {
            "answers": len(flooded),
            "p50_ms": percentile(flooded, 50),
            "p95_ms": percentile(flooded, 95),
            "max_ms": percentile(flooded, 100),
            "syncs_sent": got["sent"],
            "states_received": got["states"],
            "refused": got["refused"],
            "connections": got["connections"],
            "mb_received": round(got["bytes"] / 1e6, 1),
            "seconds": round(took, 1),
        },
        "server_loop_lag_ms": stats["loop_lag_ms"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=20)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--calm", type=float, default=5.0)
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--games", type=int, default=6, help="bot games to pick one of")
    parser.add_argument("--answers", type=int, default=286, help="the flooded game's length")
    parser.add_argument("--gold", type=int, default=45, help="gold per player of those games")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(Path(tmp) / "web.sqlite3", port, Path(tmp) / "server.log")
        try:
            result = asyncio.run(measure(args, f"http://127.0.0.1:{port}"))
        finally:
            proc.terminate()
            proc.wait(20)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
