"""Load benchmark of the web server: many tables of random bots over real WebSockets.

Each table slot creates a table through the HTTP API, seats one WebSocket
client per seat, starts the game and plays it with uniformly random legal
answers; when the game ends the slot opens a new table, so the number of
concurrent tables stays constant until the time is up.  The run measures

* messages per second (frames received by all clients, and answers sent);
* answer-to-update latency: from sending an answer to receiving the update
  that acknowledges it (the server commits the answer to its database
  before it sends that update, so this includes the commit).

By default the server is started for the run as a separate process (so the
clients and the server do not share one core's event loop), on a fresh
SQLite file, and stopped at the end.  With several server processes on
PostgreSQL there are two ways to share the tables: ``serve --workers N`` on
one port (the kernel spreads connections, so most seats are relayed to their
table's process), or, with ``affinity``, N separate ``serve --affinity``
processes on N ports, the clients playing the part of a proxy that routes
each table to one process: every request naming a table goes to the process
chosen by a hash of its code (creations go round the processes), and the
table moves there once (``web/cluster.py``, "Table affinity").

Only loopback addresses are ever contacted; the run is bounded in time and
stops by itself.

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
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable, Coroutine
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosedOK, WebSocketException

#: How long the started server gets to come up.
START_TIMEOUT = 30.0

#: The clients' young-generation collection threshold (CPython's default is
#: 700): see the module's docstring.
CLIENT_GC_THRESHOLD = 50_000

#: How long client processes get to start (import, spawn) before playing.
PROCS_START = 5.0


class LoadError(RuntimeError):
    """The benchmark cannot run as asked; the message says why."""


@dataclass(slots=True)
class LoadSettings:
    tables: int = 50
    seconds: float = 30.0
    think_ms: float = 0.0
    players: int = 4
    #: A running server (loopback only); None starts one for the run.
    url: str | None = None
    db: str | None = None
    seed: int = 1
    gold_per_player: int = 10
    #: Seconds at the start (tables being created and seated) whose latencies
    #: are reported apart from the steady state.
    warmup: float = 10.0
    #: Processes of the started server (``serve --workers``; >1 needs PostgreSQL).
    server_workers: int = 1
    #: Offer permessage-deflate, as browsers do (the server decides).
    compression: bool = True
    #: Start the server with ``--ws-compression`` (``serve`` declines it by default).
    server_compression: bool = False
    #: Processes playing the clients (the tables are shared out among them).
    client_procs: int = 1
    #: Run the clients' event loop on uvloop when it is installed.
    uvloop: bool = True
    #: With ``server_workers`` N: N ``serve --affinity`` processes on N ports,
    #: each table's requests routed to one of them by its code (PostgreSQL).
    affinity: bool = False


@dataclass(slots=True)
class LoadReport:
    tables: int
    players: int
    think_ms: float
    seconds: float
    games_started: int = 0
    games_finished: int = 0
    answers: int = 0
    frames_received: int = 0
    bytes_received: int = 0
    errors: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    warmup: float = 0.0
    #: Answer-to-update latencies after the warm-up (steady state) ...
    latencies_ms: list[float] = field(default_factory=list)
    #: ... and during it (tables still being created, seated and started).
    warmup_latencies_ms: list[float] = field(default_factory=list)
    #: The server's own figures at the end (``GET /api/stats``), if it has them
    #: (with several processes: of the one that answered).
    server: dict[str, Any] = field(default_factory=dict)
    server_workers: int = 1
    #: CPU seconds the clients used (user + system, every client process).
    client_cpu_s: float = 0.0
    client_procs: int = 1
    #: "uvloop" or "asyncio" (the clients' event loop).
    client_loop: str = "asyncio"
    #: Whether the clients offered permessage-deflate ...
    compression: bool = True
    #: ... the WebSockets opened, and how many of them the server compresses.
    sockets: int = 0
    deflate_sockets: int = 0
    #: The server processes were separate ``serve --affinity`` on their own
    #: ports, each table routed to one of them ...
    affinity: bool = False
    #: ... and the tables that moved to the process their requests reached.
    moved_tables: int = 0
    #: Every process's ``/api/stats`` when there were several ports.
    servers: list[dict[str, Any]] = field(default_factory=list)

    @staticmethod
    def percentiles(samples: list[float]) -> dict[str, float]:
        data = sorted(samples)

        def pct(q: float) -> float:
            if not data:
                return float("nan")
            return data[min(len(data) - 1, max(0, round(q / 100 * (len(data) - 1))))]

        return {
            "p50": pct(50),
            "p90": pct(90),
            "p99": pct(99),
            "max": data[-1] if data else float("nan"),
            "samples": len(data),
        }

    def percentile(self, q: float) -> float:
        return self.percentiles(self.latencies_ms)[f"p{q:g}"]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        del d["latencies_ms"], d["warmup_latencies_ms"]
        d.update(
            answers_per_second=self.answers / self.seconds if self.seconds else 0.0,
            frames_per_second=self.frames_received / self.seconds if self.seconds else 0.0,
            latency_ms=self.percentiles(self.latencies_ms),
            warmup_latency_ms=self.percentiles(self.warmup_latencies_ms),
            client_cpu_s_per_1000_frames=(
                self.client_cpu_s / self.frames_received * 1000 if self.frames_received else 0.0
            ),
        )
        return d

    def merge(self, other: LoadReport) -> None:
        """Add the counts and samples of another client process's share of the run."""
        self.games_started += other.games_started
        self.games_finished += other.games_finished
        self.answers += other.answers
        self.frames_received += other.frames_received
        self.bytes_received += other.bytes_received
        self.errors += other.errors
        for code, n in other.refused.items():
            self.refused[code] = self.refused.get(code, 0) + n
        self.latencies_ms += other.latencies_ms
        self.warmup_latencies_ms += other.warmup_latencies_ms
        self.client_cpu_s += other.client_cpu_s
        self.sockets += other.sockets
        self.deflate_sockets += other.deflate_sockets

    def text(self) -> str:
        d = self.to_dict()
        lat = d["latency_ms"]
        lines = [
            f"tables: {self.tables} concurrent x {self.players} seats, think {self.think_ms:g} ms, "
            f"{self.seconds:.1f} s, {self.server_workers} server process(es)",
            f"games: {self.games_started} started, {self.games_finished} finished",
            *(
                [
                    f"routing: each table's requests to one of {self.server_workers} server "
                    f"processes by its code (--affinity); {self.moved_tables} tables moved to it"
                ]
                if self.affinity
                else []
            ),
            f"answers: {self.answers} ({d['answers_per_second']:.0f}/s)",
            f"frames received: {self.frames_received} ({d['frames_per_second']:.0f}/s, "
            f"{self.bytes_received / 1e6:.1f} MB)",
            f"answer-to-update latency after the {self.warmup:g} s warm-up (ms): "
            f"p50 {lat['p50']:.1f}, p90 {lat['p90']:.1f}, p99 {lat['p99']:.1f}, "
            f"max {lat['max']:.1f} ({lat['samples']} samples)",
            "  during the warm-up: p50 {p50:.1f}, p99 {p99:.1f} ({samples} samples)".format(
                **d["warmup_latency_ms"]
            ),
            f"errors: {self.errors}" + (f" refused: {self.refused}" if self.refused else ""),
            f"clients: {self.client_cpu_s:.1f} CPU s "
            f"({d['client_cpu_s_per_1000_frames']:.3f} per 1,000 frames) in "
            f"{self.client_procs} process(es), {self.client_loop} event loop; "
            f"{self.deflate_sockets} of {self.sockets} sockets compressed",
        ]
        if self.server:
            c, lag = self.server.get("commit_ms", {}), self.server.get("loop_lag_ms", {})
            lines.append(
                f"server: {self.server.get('commits')} commits for "
                f"{self.server.get('jobs_committed')} writes; commit ms p50 {c.get('p50')}, "
                f"p99 {c.get('p99')}, max {c.get('max')}; event-loop lag ms p50 {lag.get('p50')}, "
                f"p99 {lag.get('p99')}, max {lag.get('max')}; "
                f"garbage-collector pauses ms {self.server.get('gc_pause_ms')}"
            )
        return "\n".join(lines)


def _check_loopback(url: str) -> None:
    host = urlsplit(url).hostname
    if not host:
        raise LoadError(f"not a server URL: {url!r}")
    try:
        addrs = {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except socket.gaierror as e:
        raise LoadError(f"cannot resolve {host!r}: {e.strerror}") from None
    for addr in addrs:
        if not ipaddress.ip_address(addr.split("%")[0]).is_loopback:
            raise LoadError(
                f"{host} is not a loopback address: the load test stays on this machine"
            )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _http(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _wait_up(base: str, proc: subprocess.Popen[bytes] | None) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise LoadError(f"the server exited at start-up (code {proc.returncode})")
        try:
            _http(base, "GET", "/api/meta")
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    raise LoadError(f"the server at {base} did not answer within {START_TIMEOUT:.0f} s")


def route(bases: tuple[str, ...], code: str) -> str:
    """The server a request naming table ``code`` goes to: one per table, as
    a proxy hashing the table code would choose (stable across runs)."""
    return bases[zlib.crc32(code.encode()) % len(bases)]


class _Run:
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
            made = _http(create, "POST", "/api/tables", {"config": config})
            code = made["code"]
            base = route(self.bases, code)
            tokens = [
                _http(base, "POST", f"/api/tables/{code}/seats", {"name": f"P{p}"})["token"]
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
                    _http,
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


def _loop_factory(want_uvloop: bool) -> tuple[Callable[[], asyncio.AbstractEventLoop], str]:
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


def _play(settings: LoadSettings, bases: tuple[str, ...], start_at: float) -> LoadReport:
    """Play ``settings.tables`` table slots in this process; the report of this share.

    The cyclic collector is made rare for the run (see the module's docstring)
    and what exists before it (modules, the settings) is frozen out of its
    scans; both are put back afterwards, since this may run inside a larger
    program (the tests).
    """
    report = LoadReport(settings.tables, settings.players, settings.think_ms, 0.0)
    report.warmup = min(settings.warmup, settings.seconds / 2)
    report.compression = settings.compression
    factory, report.client_loop = _loop_factory(settings.uvloop)
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
        _run_loop(factory, _Run(settings, bases, report).main(start_at))
    finally:
        report.client_cpu_s = time.process_time() - cpu
        gc.set_threshold(*thresholds)
        if freeze:
            gc.unfreeze()
    report.seconds = time.monotonic() - started
    return report


def _play_in_processes(settings: LoadSettings, bases: tuple[str, ...], procs: int) -> LoadReport:
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
        futures = [pool.submit(_play, share, bases, start_at) for share in shares]
        parts = [f.result() for f in futures]
    report = parts[0]
    report.tables = settings.tables
    for part in parts[1:]:
        report.merge(part)
        report.seconds = max(report.seconds, part.seconds)
    report.client_cpu_s += time.process_time() - cpu
    return report


def _server_command(settings: LoadSettings, port: int, db: str) -> list[str]:
    """``dragonante serve`` as the run wants it: bots at machine speed, no limits."""
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
        db,
        "--bot-delay",
        "0",
        "--log-level",
        "warning",
        # Bots answering at machine speed exceed a person's message rate.
        "--max-rate",
        "10000",
        # Every table and seat comes from this one address: no per-address limits.
        "--limit-tables",
        "0",
        "--limit-seats",
        "0",
        "--limit-sockets",
        "0",
        "--limit-manage",
        "0",
        "--limit-replays",
        "0",
        "--max-sockets-per-address",
        "0",
        "--max-tables",
        "0",
        "--max-sockets",
        "0",
    ]
    if settings.affinity:
        cmd.append("--affinity")  # one process on this port
    else:
        cmd += ["--workers", str(settings.server_workers)]
    if settings.server_compression:
        cmd.append("--ws-compression")
    return cmd


def run_load(settings: LoadSettings, progress: Callable[[str], Any] | None = None) -> LoadReport:
    """Run the benchmark; starts (and stops) the server unless ``settings.url`` is given."""
    say = progress or (lambda _msg: None)
    procs_started: list[subprocess.Popen[bytes]] = []
    tmp = tempfile.TemporaryDirectory(prefix="dragonante-load-")
    logs: list[str] = []
    if settings.client_procs < 1:
        raise LoadError("--client-procs must be at least 1")
    shared = (settings.db or "").startswith("postgres")
    if settings.url:
        if settings.affinity:
            raise LoadError("--affinity starts its own servers: it cannot be used with --url")
        base = settings.url.rstrip("/")
        if not base.startswith(("http://", "https://")):
            raise LoadError("--url must start with http:// or https://")
        _check_loopback(base)
        bases: tuple[str, ...] = (base,)
    else:
        if settings.server_workers > 1 and not shared:
            raise LoadError("--server-workers above 1 needs --db postgresql://...")
        if settings.affinity and not shared:
            raise LoadError("--affinity needs --db postgresql://...")
        db = settings.db or os.path.join(tmp.name, "load.sqlite3")
        ports = [_free_port() for _ in range(settings.server_workers if settings.affinity else 1)]
        bases = tuple(f"http://127.0.0.1:{port}" for port in ports)
        say(f"starting a server on {', '.join(bases)} ...")
        for port in ports:
            logs.append(os.path.join(tmp.name, f"server-{port}.log"))
            with open(logs[-1], "wb") as out:
                procs_started.append(
                    subprocess.Popen(
                        _server_command(settings, port, db),
                        stdout=subprocess.DEVNULL,
                        stderr=out,
                    )
                )
    try:
        for i, base in enumerate(bases):
            try:
                _wait_up(base, procs_started[i] if procs_started else None)
            except LoadError as e:
                tail = ""
                if logs:
                    with open(logs[i], encoding="utf-8", errors="replace") as f:
                        tail = f.read()[-2000:].strip()
                raise LoadError(f"{e}{': ' + tail if tail else ''}") from None
        procs = min(settings.client_procs, settings.tables)
        say(f"playing {settings.tables} tables for {settings.seconds:g} s ...")
        if procs > 1:
            report = _play_in_processes(settings, bases, procs)
        else:
            report = _play(settings, bases, time.time())
        report.server_workers = settings.server_workers if not settings.url else 1
        report.client_procs = procs
        report.affinity = settings.affinity
        stats = []
        for base in bases:
            try:
                stats.append(_http(base, "GET", "/api/stats"))
            except (urllib.error.URLError, OSError, ValueError):
                stats.append({})
        report.server = stats[0]
        if len(stats) > 1:
            report.servers = stats
        report.moved_tables = sum(int(st.get("cluster", {}).get("moved_in", 0)) for st in stats)
        return report
    finally:
        for proc in procs_started:
            proc.terminate()
        for proc in procs_started:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        tmp.cleanup()
