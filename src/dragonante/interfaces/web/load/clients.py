"""The load benchmark's clients: one WebSocket per seat, answering at random.

The clients usually share the machine's cores with the server they measure,
so every bit of CPU they burn is taken from it.  They still behave like
browsers (each frame is received, decompressed and parsed whole; the answer
is a random legal one sent after the think time), but the harness around
them is kept lean: the event loop is uvloop when it is installed, frames are
taken as bytes and parsed once with orjson, the clients send no keep-alive
pings of their own (a browser's WebSocket cannot; the server's pings are
still answered), and the cyclic garbage collector runs rarely (the parsed
frames are trees freed by reference counting; collecting every 700
allocations only cost time and, in its long pauses, latency that would be
charged to the server).  ``client_cpu_s`` in the report is what the clients
cost.

With several servers on separate ports (``affinity``) the clients play the
part of a proxy that routes each table to one process: every request naming
a table goes to the process chosen by a hash of its code (:func:`route`;
creations go round the processes), and the table moves there once
(``docs/web.md``, "Table affinity").
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable, Coroutine
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosedOK, WebSocketException

from dragonante.interfaces.web.load.report import LoadReport, LoadSettings

#: The clients' young-generation collection threshold (CPython's default is
#: 700): see the module's docstring.
CLIENT_GC_THRESHOLD = 50_000

#: How long client processes get to start (import, spawn) before playing.
PROCS_START = 5.0


def http(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """One JSON request to the server (blocking: the clients run it in a thread)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def route(bases: tuple[str, ...], code: str) -> str:
    """The server a request naming table ``code`` goes to: one per table, as
    a proxy hashing the table code would choose (stable across runs)."""
    return bases[zlib.crc32(code.encode()) % len(bases)]


class Run:
    """The table slots of one client process, playing until ``deadline``."""

    def __init__(self, settings: LoadSettings, bases: tuple[str, ...], report: LoadReport) -> None:
        self.s = settings
        self.bases = bases
        self.made = 0
        self.report = report
        self.rng = random.Random(settings.seed)
        self.deadline = 0.0
        self.steady = 0.0

    async def new_table(self) -> tuple[str, list[str], str]:
        """A new table with every seat taken: its code, the seat tokens and
        the host token (only the host starts it)."""
        s = self.s
        config = {"players": s.players, "gold_per_player": s.gold_per_player}

        create = self.bases[self.made % len(self.bases)]  # creations go round
        self.made += 1

        def setup() -> tuple[str, list[str], str]:
            made = http(create, "POST", "/api/tables", {"config": config})
            code = made["code"]
            base = route(self.bases, code)
            tokens = [
                http(base, "POST", f"/api/tables/{code}/seats", {"name": f"P{p}"})["token"]
                for p in range(s.players)
            ]
            return code, tokens, str(made["host_token"])

        return await asyncio.to_thread(setup)

    async def seat(self, code: str, token: str, ready: asyncio.Event, done: asyncio.Event) -> None:
        """One player: answer at random until the game ends or time is up."""
        rep = self.report
        rng = random.Random(self.rng.random())
        sent_at: dict[int, float] = {}
        answered: set[int] = set()
        steady, deadline = self.steady, self.deadline
        perf, mono, loads = time.perf_counter, time.monotonic, orjson.loads
        async with connect(
            f"ws{route(self.bases, code)[4:]}/ws/{code}",
            max_size=2**22,
            compression="deflate" if self.s.compression else None,
            # A browser's WebSocket sends no pings (the server's are answered),
            # and pings from thousands of clients would only cost CPU here.
            ping_interval=None,
            # Loopback only: never through a proxy named in the environment.
            proxy=None,
        ) as ws:
            rep.sockets += 1
            if ws.protocol.extensions:  # permessage-deflate is the only one offered
                rep.deflate_sockets += 1
            await ws.send(orjson.dumps({"type": "hello", "token": token, "lang": "en"}), text=True)
            ready.set()
            recv = ws.recv
            while True:
                try:
                    # Bytes, not str: orjson parses (and validates) the UTF-8
                    # itself, so decoding to a str first would be done twice.
                    frame = await recv(decode=False)
                except ConnectionClosedOK:
                    return
                now = perf()
                rep.frames_received += 1
                rep.bytes_received += len(frame)
                # The whole frame is parsed, as a browser's JSON.parse does:
                # finding just the ack and the question in the bytes would
                # save a few per cent of the client's CPU (orjson is the cheap
                # part of a frame, the WebSocket layer the dear one) and stop
                # the client from noticing a malformed frame.
                msg = loads(frame)
                kind = msg.get("type")
                # Time is checked on every frame, not only on views: a seat
                # leaving at the deadline may leave unread the view that asks
                # it the next question (with a second process relaying its
                # frames it can be a frame behind the others), and then the
                # others get no view again, only the seating frame that says it
                # left.  Checked on views alone, they would wait for ever.
                late = time.monotonic() > self.deadline
                if kind == "error":
                    rep.refused[msg["code"]] = rep.refused.get(msg["code"], 0) + 1
                    if late:
                        return
                    continue
                if kind not in ("state", "update") or "view" not in msg:
                    if late:
                        return
                    continue  # the table's seating, or a state from before the start
                ack = msg.get("ack")
                if ack is not None and ack in sent_at:
                    ms = (now - sent_at.pop(ack)) * 1000
                    if mono() < steady:
                        rep.warmup_latencies_ms.append(ms)
                    else:
                        rep.latencies_ms.append(ms)
                view = msg["view"]
                if view["phase"] == "over":
                    done.set()
                    return
                q = view["question"]
                if q is not None and q.get("options") and q["id"] not in answered:
                    answered.add(q["id"])
                    await self.answer(ws, q, rng, sent_at)
                if mono() > deadline:
                    return

    async def answer(
        self, ws: ClientConnection, q: dict[str, Any], rng: random.Random, sent: dict[int, float]
    ) -> None:
        if self.s.think_ms:
            await asyncio.sleep(self.s.think_ms / 1000 * (0.5 + rng.random()))
        choice = q["options"][rng.randrange(len(q["options"]))]
        sent[q["id"]] = time.perf_counter()
        await ws.send(
            orjson.dumps({"type": "answer", "decision": q["id"], "answer": choice}), text=True
        )
        self.report.answers += 1

    async def slot(self) -> None:
        """One table place: play games back to back until the time is up."""
        while time.monotonic() < self.deadline:
            try:
                code, tokens, host = await self.new_table()
                ready = [asyncio.Event() for _ in tokens]
                done = asyncio.Event()
                seats = [
                    asyncio.create_task(self.seat(code, tok, ev, done))
                    for tok, ev in zip(tokens, ready, strict=True)
                ]
                await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), 30)
                await asyncio.to_thread(
                    http,
                    route(self.bases, code),
                    "POST",
                    f"/api/tables/{code}/start",
                    None,
                    host,
                )
                self.report.games_started += 1
                await asyncio.gather(*seats)
                if done.is_set():
                    self.report.games_finished += 1
            except (OSError, WebSocketException, TimeoutError, urllib.error.URLError, KeyError):
                self.report.errors += 1
                await asyncio.sleep(0.5)

    async def main(self, start_at: float) -> None:
        """Play from ``start_at`` (``time.time()``, shared by every client process)."""
        await asyncio.sleep(max(0.0, start_at - time.time()))
        self.deadline = time.monotonic() + self.s.seconds
        self.steady = time.monotonic() + min(self.s.warmup, self.s.seconds / 2)
        tasks = [asyncio.create_task(self.slot()) for _ in range(self.s.tables)]
        _done, pending = await asyncio.wait(tasks, timeout=self.s.seconds + 30)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)


def loop_factory(want_uvloop: bool) -> tuple[Callable[[], asyncio.AbstractEventLoop], str]:
    """uvloop's event loop if wanted and installed (it comes with uvicorn[standard]),
    else asyncio's: uvloop's loop does the sockets' and timers' bookkeeping in C,
    which is most of what the clients cost apart from the WebSocket layer."""
    if want_uvloop:
        try:
            import uvloop
        except ImportError:
            pass
        else:
            return uvloop.new_event_loop, "uvloop"
    return asyncio.new_event_loop, "asyncio"


def _run_loop(
    factory: Callable[[], asyncio.AbstractEventLoop], main: Coroutine[Any, Any, None]
) -> None:
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(main)


def play(settings: LoadSettings, bases: tuple[str, ...], start_at: float) -> LoadReport:
    """Play ``settings.tables`` table slots in this process; the report of this share.

    The cyclic collector is made rare for the run (see the module's docstring)
    and what exists before it (modules, the settings) is frozen out of its
    scans; both are put back afterwards, since this may run inside a larger
    program (the tests).
    """
    report = LoadReport(settings.tables, settings.players, settings.think_ms, 0.0)
    report.warmup = min(settings.warmup, settings.seconds / 2)
    report.compression = settings.compression
    factory, report.client_loop = loop_factory(settings.uvloop)
    thresholds = gc.get_threshold()
    # Not if the caller has frozen objects of its own: unfreezing them would
    # be a change to the caller's collector.
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.collect()
        gc.freeze()
    gc.set_threshold(CLIENT_GC_THRESHOLD, *thresholds[1:])
    started = time.monotonic() + max(0.0, start_at - time.time())
    cpu = time.process_time()
    try:
        _run_loop(factory, Run(settings, bases, report).main(start_at))
    finally:
        report.client_cpu_s = time.process_time() - cpu
        gc.set_threshold(*thresholds)
        if freeze:
            gc.unfreeze()
    report.seconds = time.monotonic() - started
    return report


def play_in_processes(settings: LoadSettings, bases: tuple[str, ...], procs: int) -> LoadReport:
    """Share the table slots out among ``procs`` client processes and merge their reports.

    The processes are spawned (not forked: the caller may have threads) and all
    start playing at the same moment, once every one has had time to start.
    """
    import multiprocessing

    start_at = time.time() + PROCS_START
    shares = [
        replace(
            settings,
            tables=settings.tables // procs + (1 if i < settings.tables % procs else 0),
            seed=settings.seed + i,
            client_procs=1,
        )
        for i in range(procs)
    ]
    cpu = time.process_time()
    with ProcessPoolExecutor(procs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(play, share, bases, start_at) for share in shares]
        parts = [f.result() for f in futures]
    report = parts[0]
    report.tables = settings.tables
    for part in parts[1:]:
        report.merge(part)
        report.seconds = max(report.seconds, part.seconds)
    report.client_cpu_s += time.process_time() - cpu
    return report
