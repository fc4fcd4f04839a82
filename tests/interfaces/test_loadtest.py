"""``dragonante loadtest``: the clients' options reach the sockets and the report.

Each real run starts a server on loopback and plays a couple of tables for a
few seconds at machine speed, so these stay short.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import threading

import pytest

from dragonante.interfaces.web import load
from dragonante.interfaces.web.load import LoadError, LoadReport, LoadSettings, clients, run_load
from dragonante.interfaces.web.load import run as one_run
from dragonante.interfaces.web.shared.stats import GcWatch
from tests.interfaces.conftest import Cli
from tests.web.pg import PG_URL, fresh_schema


def port() -> int:
    """A loopback port nothing listens on."""
    return one_run._free_port()


def quick(**changes: object) -> LoadSettings:
    settings = LoadSettings(tables=2, seconds=3, think_ms=0, warmup=1)
    for name, value in changes.items():
        setattr(settings, name, value)
    return settings


def assert_played(report: LoadReport) -> None:
    assert report.errors == 0 and not report.refused, (report.errors, report.refused)
    assert report.games_started >= report.tables
    assert report.answers > 0 and report.frames_received > report.answers
    assert report.latencies_ms, "no answer was acknowledged after the warm-up"
    # Four seats a table, every table at least once.
    assert report.sockets >= report.tables * report.players
    assert report.client_cpu_s > 0
    per = report.to_dict()["client_cpu_s_per_1000_frames"]
    assert per == pytest.approx(report.client_cpu_s / report.frames_received * 1000)


def test_default_run_offers_compression_the_server_declines() -> None:
    pytest.importorskip("uvloop")
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    report = run_load(quick())
    # The client's collector settings are the run's own: put back after it.
    alone = threading.active_count() == 1 and not any(
        isinstance(getattr(cb, "__self__", None), GcWatch) for cb in gc.callbacks
    )
    if alone:  # (a live test server elsewhere in this worker sets its own)
        assert (gc.get_threshold(), gc.get_freeze_count()) == (thresholds, frozen)
    assert_played(report)
    assert report.client_loop == "uvloop" and report.client_procs == 1
    # The clients offer permessage-deflate as browsers do; ``serve`` declines it by default.
    assert report.compression and report.sockets > 0 and report.deflate_sockets == 0
    assert "clients: " in report.text()


def test_a_server_started_with_compression_compresses_every_socket() -> None:
    report = run_load(quick(server_compression=True))
    assert_played(report)
    assert report.sockets > 0 and report.deflate_sockets == report.sockets


def test_no_compression_on_the_asyncio_loop() -> None:
    report = run_load(quick(compression=False, uvloop=False))
    assert_played(report)
    assert report.client_loop == "asyncio"
    assert not report.compression and report.deflate_sockets == 0


def test_client_processes_share_the_tables_and_add_up() -> None:
    report = run_load(quick(tables=3, client_procs=2))
    assert_played(report)
    assert report.client_procs == 2 and report.tables == 3
    assert report.client_loop in ("uvloop", "asyncio")


def test_no_more_client_processes_than_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    def fake(settings: LoadSettings, bases: tuple[str, ...], procs: int) -> LoadReport:
        seen.append(procs)
        return LoadReport(settings.tables, settings.players, settings.think_ms, 1.0)

    monkeypatch.setattr(one_run, "play_in_processes", fake)
    monkeypatch.setattr(one_run, "_wait_up", lambda base, proc: None)
    # No server at all: the port is closed, so the final /api/stats is skipped.
    report = run_load(quick(tables=2, client_procs=5, seconds=1, url=f"http://127.0.0.1:{port()}"))
    assert seen == [2] and report.client_procs == 2


def test_fewer_than_one_client_process_is_refused() -> None:
    with pytest.raises(LoadError, match="--client-procs"):
        run_load(quick(client_procs=0))


def test_the_loop_falls_back_to_asyncio_without_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop -> ImportError
    factory, name = clients.loop_factory(True)
    assert name == "asyncio" and factory is asyncio.new_event_loop
    assert clients.loop_factory(False)[1] == "asyncio"


def test_merge_adds_a_process_share() -> None:
    a = LoadReport(2, 4, 0, 5.0, answers=3, frames_received=10, latencies_ms=[1.0])
    a.refused, a.client_cpu_s, a.sockets, a.deflate_sockets = {"late": 1}, 0.5, 8, 8
    b = LoadReport(1, 4, 0, 6.0, answers=2, frames_received=7, latencies_ms=[2.0, 3.0])
    b.refused, b.client_cpu_s, b.sockets, b.deflate_sockets = {"late": 2, "x": 1}, 0.25, 4, 0
    a.merge(b)
    assert (a.answers, a.frames_received, a.latencies_ms) == (5, 17, [1.0, 2.0, 3.0])
    assert a.refused == {"late": 3, "x": 1}
    assert (a.client_cpu_s, a.sockets, a.deflate_sockets) == (0.75, 12, 8)


def test_cli_passes_the_client_options(monkeypatch: pytest.MonkeyPatch, cli: Cli) -> None:
    got: list[LoadSettings] = []

    def fake(settings: LoadSettings, progress: object = None) -> LoadReport:
        got.append(settings)
        report = LoadReport(settings.tables, settings.players, settings.think_ms, 2.0)
        report.frames_received, report.client_cpu_s = 2000, 0.5
        report.client_procs, report.client_loop = settings.client_procs, "uvloop"
        report.sockets, report.deflate_sockets = 12, 0
        return report

    monkeypatch.setattr(load, "run_load", fake)
    result = cli(["loadtest", "--tables", "3", "--no-compression", "--client-procs", "3"])
    assert result.code == 0, result.err
    assert not got[0].compression and got[0].client_procs == 3
    assert "clients: 0.5 CPU s (0.250 per 1,000 frames) in 3 process(es)" in result.out
    assert "0 of 12 sockets compressed" in result.out

    result = cli(["loadtest", "--json"])
    assert result.code == 0 and got[1].compression and got[1].client_procs == 1
    assert not got[1].server_compression

    result = cli(["loadtest", "--server-compression", "--json"])
    assert result.code == 0 and got[2].server_compression


def test_cli_refuses_zero_client_processes(cli: Cli) -> None:
    result = cli(["loadtest", "--client-procs", "0"])
    assert result.code == 2 and "Traceback" not in result.err + result.out
    assert "--client-procs" in result.err


def test_route_sends_every_request_of_a_table_to_one_server() -> None:
    """As a proxy hashing the table code would: stable, and spread over the servers."""
    bases = ("http://127.0.0.1:1", "http://127.0.0.1:2")
    codes = [f"T{i:05d}" for i in range(400)]
    first = [clients.route(bases, c) for c in codes]
    assert first == [clients.route(bases, c) for c in codes]
    assert 150 < first.count(bases[0]) < 250
    assert {clients.route(bases[:1], c) for c in codes} == {bases[0]}


def test_affinity_needs_its_own_servers_on_postgresql(cli: Cli) -> None:
    with pytest.raises(LoadError, match="--affinity needs --db postgresql"):
        run_load(quick(affinity=True))
    with pytest.raises(LoadError, match="--url"):
        run_load(quick(affinity=True, url=f"http://127.0.0.1:{port()}"))
    for args in (["--affinity"], ["--affinity", "--url", f"http://127.0.0.1:{port()}"]):
        result = cli(["loadtest", *args])
        assert result.code != 0 and "Traceback" not in result.err + result.out
        assert "--affinity" in result.err and len(result.err.strip().splitlines()) == 1


@pytest.mark.skipif(not PG_URL, reason="set DRAGONANTE_TEST_PG_URL=postgresql://... to test")
def test_affinity_runs_separate_servers_and_each_table_moves_to_its_own() -> None:
    with fresh_schema("loadaff") as db:
        report = run_load(quick(tables=4, seconds=5, db=db, server_workers=2, affinity=True))
    assert_played(report)
    assert report.affinity and report.server_workers == 2
    assert len(report.servers) == 2
    ids = {s["cluster"]["process"] for s in report.servers}
    assert len(ids) == 2 and all(s["cluster"]["affinity"] for s in report.servers)
    # Tables created on one process and routed to the other moved there once:
    # no socket was relayed.
    assert report.moved_tables >= 1
    assert report.moved_tables == sum(s["cluster"]["moved_out"] for s in report.servers)
    assert all(s["cluster"]["relayed_frames"] == 0 for s in report.servers)
    assert "routing: each table's requests to one of 2 server processes" in report.text()
