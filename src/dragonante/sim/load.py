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
SQLite file, and stopped at the end.  Only loopback addresses are ever
contacted; the run is bounded in time and stops by itself.
"""

from __future__ import annotations

import asyncio
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
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

#: How long the started server gets to come up.
START_TIMEOUT = 30.0


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
        )
        return d

    def text(self) -> str:
        d = self.to_dict()
        lat = d["latency_ms"]
        lines = [
            f"tables: {self.tables} concurrent x {self.players} seats, think {self.think_ms:g} ms, "
            f"{self.seconds:.1f} s, {self.server_workers} server process(es)",
            f"games: {self.games_started} started, {self.games_finished} finished",
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


class _Run:
    def __init__(self, settings: LoadSettings, base: str, report: LoadReport) -> None:
        self.s = settings
        self.base = base
        self.ws_base = "ws" + base[4:]
        self.report = report
        self.rng = random.Random(settings.seed)
        self.deadline = 0.0
        self.steady = 0.0

    async def new_table(self) -> tuple[str, list[str]]:
        s = self.s
        config = {"players": s.players, "gold_per_player": s.gold_per_player}

        def setup() -> tuple[str, list[str]]:
            made = _http(self.base, "POST", "/api/tables", {"config": config})
            code = made["code"]
            tokens = [
                _http(self.base, "POST", f"/api/tables/{code}/seats", {"name": f"P{p}"})["token"]
                for p in range(s.players)
            ]
            return code, tokens

        return await asyncio.to_thread(setup)

    async def seat(self, code: str, token: str, ready: asyncio.Event, done: asyncio.Event) -> None:
        """One player: answer at random until the game ends or time is up."""
        rep = self.report
        rng = random.Random(self.rng.random())
        sent_at: dict[int, float] = {}
        answered: set[int] = set()
        async with connect(f"{self.ws_base}/ws/{code}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
            ready.set()
            async for frame in ws:
                now = time.perf_counter()
                rep.frames_received += 1
                rep.bytes_received += len(frame)
                # orjson: the clients share this machine's cores with the server
                # they measure, so parsing ~4,000 frames a second must stay cheap.
                msg = orjson.loads(frame)
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
                    if time.monotonic() < self.steady:
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
                if time.monotonic() > self.deadline:
                    return

    async def answer(
        self, ws: ClientConnection, q: dict[str, Any], rng: random.Random, sent: dict[int, float]
    ) -> None:
        if self.s.think_ms:
            await asyncio.sleep(self.s.think_ms / 1000 * (0.5 + rng.random()))
        choice = q["options"][rng.randrange(len(q["options"]))]
        sent[q["id"]] = time.perf_counter()
        await ws.send(json.dumps({"type": "answer", "decision": q["id"], "answer": choice}))
        self.report.answers += 1

    async def slot(self) -> None:
        """One table place: play games back to back until the time is up."""
        while time.monotonic() < self.deadline:
            try:
                code, tokens = await self.new_table()
                ready = [asyncio.Event() for _ in tokens]
                done = asyncio.Event()
                seats = [
                    asyncio.create_task(self.seat(code, tok, ev, done))
                    for tok, ev in zip(tokens, ready, strict=True)
                ]
                await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), 30)
                await asyncio.to_thread(
                    _http, self.base, "POST", f"/api/tables/{code}/start", None, tokens[0]
                )
                self.report.games_started += 1
                await asyncio.gather(*seats)
                if done.is_set():
                    self.report.games_finished += 1
            except (OSError, WebSocketException, TimeoutError, urllib.error.URLError, KeyError):
                self.report.errors += 1
                await asyncio.sleep(0.5)

    async def main(self) -> None:
        self.deadline = time.monotonic() + self.s.seconds
        self.steady = time.monotonic() + min(self.s.warmup, self.s.seconds / 2)
        tasks = [asyncio.create_task(self.slot()) for _ in range(self.s.tables)]
        _done, pending = await asyncio.wait(tasks, timeout=self.s.seconds + 30)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)


def run_load(settings: LoadSettings, progress: Callable[[str], Any] | None = None) -> LoadReport:
    """Run the benchmark; starts (and stops) a server unless ``settings.url`` is given."""
    say = progress or (lambda _msg: None)
    proc: subprocess.Popen[bytes] | None = None
    tmp = tempfile.TemporaryDirectory(prefix="dragonante-load-")
    server_log = os.path.join(tmp.name, "server.log")
    if settings.url:
        base = settings.url.rstrip("/")
        if not base.startswith(("http://", "https://")):
            raise LoadError("--url must start with http:// or https://")
        _check_loopback(base)
    else:
        if settings.server_workers > 1 and not (settings.db or "").startswith("postgres"):
            raise LoadError("--server-workers above 1 needs --db postgresql://...")
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        db = settings.db or os.path.join(tmp.name, "load.sqlite3")
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
            "--max-sockets-per-address",
            "0",
            "--max-tables",
            "0",
            "--max-sockets",
            "0",
            "--workers",
            str(settings.server_workers),
        ]
        say(f"starting a server on {base} ...")
        with open(server_log, "wb") as out:
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=out)
    try:
        try:
            _wait_up(base, proc)
        except LoadError as e:
            with open(server_log, encoding="utf-8", errors="replace") as f:
                tail = f.read()[-2000:].strip()
            raise LoadError(f"{e}{': ' + tail if tail else ''}") from None
        report = LoadReport(settings.tables, settings.players, settings.think_ms, 0.0)
        report.server_workers = settings.server_workers if not settings.url else 1
        report.warmup = min(settings.warmup, settings.seconds / 2)
        say(f"playing {settings.tables} tables for {settings.seconds:g} s ...")
        started = time.monotonic()
        asyncio.run(_Run(settings, base, report).main())
        report.seconds = time.monotonic() - started
        try:
            report.server = _http(base, "GET", "/api/stats")
        except (urllib.error.URLError, OSError, ValueError):
            report.server = {}
        return report
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        tmp.cleanup()
