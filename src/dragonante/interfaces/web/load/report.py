"""What a load run is asked to do (:class:`LoadSettings`) and what it measured
(:class:`LoadReport`, which merges the shares of several client processes).

Plain data and arithmetic: the clients fill a report, the command line and
``--json`` read it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


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
