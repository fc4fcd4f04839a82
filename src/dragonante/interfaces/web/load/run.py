"""One load run: start the servers (or check the one given), play, collect.

By default the server is started for the run as a separate process (so the
clients and the server do not share one core's event loop), on a fresh
SQLite file, and stopped at the end.  With several server processes on
PostgreSQL there are two ways to share the tables: ``serve --workers N`` on
one port (the kernel spreads connections, so most seats are relayed to their
table's process), or, with ``affinity``, N separate ``serve --affinity``
processes on N ports, each table's requests routed to one of them by the
clients (:func:`~dragonante.interfaces.web.load.clients.route`).

A given ``url`` must resolve to loopback addresses only: the load test
stays on this machine.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from dragonante.interfaces.web.load.clients import http, play, play_in_processes
from dragonante.interfaces.web.load.report import LoadError, LoadReport, LoadSettings

#: How long the started server gets to come up.
START_TIMEOUT = 30.0


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


def _wait_up(base: str, proc: subprocess.Popen[bytes] | None) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise LoadError(f"the server exited at start-up (code {proc.returncode})")
        try:
            http(base, "GET", "/api/meta")
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    raise LoadError(f"the server at {base} did not answer within {START_TIMEOUT:.0f} s")


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
        # Each socket names its table: a lookup by code (4,000 in the first seconds).
        "--limit-lookups",
        "0",
        "--limit-codes",
        "0",
        "--max-sockets-per-address",
        "0",
        # The connection guard's cap at accept (64 an address): 4 sockets a table.
        "--max-connections-per-address",
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
            report = play_in_processes(settings, bases, procs)
        else:
            report = play(settings, bases, time.time())
        report.server_workers = settings.server_workers if not settings.url else 1
        report.client_procs = procs
        report.affinity = settings.affinity
        stats = []
        for base in bases:
            try:
                stats.append(http(base, "GET", "/api/stats"))
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
