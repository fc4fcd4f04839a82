"""The parallel backend: seed-order results on every backend, and the same
numbers from simulate, tournament and analyze serially, on 2 local processes
and on a Dask cluster."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from dragonante.engine.config import GameConfig
from dragonante.sim import parallel
from dragonante.sim.analysis.report import build_report
from dragonante.sim.analysis.run import run_analysis
from dragonante.sim.parallel import Backend, BackendError, check_address, run_chunks, split
from dragonante.sim.simulate import merge_reports, simulate, simulate_chunk
from dragonante.sim.tournament import run_tournament
from tests.cluster import closed_port, local_cluster


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with local_cluster(2) as address:
        yield address


def backends(address: str) -> list[Backend]:
    return [Backend(1), Backend(2), Backend(scheduler=address)]


def late_first(first: int, n: int) -> list[int]:
    """A chunk function whose early chunks finish last: results arrive out of order."""
    time.sleep(0.2 if first == 0 else 0.0)
    return list(range(first, first + n))


@pytest.mark.parametrize("total", [1, 7, 100, 1001])
@pytest.mark.parametrize("parallelism", [1, 2, 8])
def test_split_covers_every_seed_once_in_order(total: int, parallelism: int) -> None:
    pieces = split(5, total, parallelism, 3, 50)
    seeds = [s for first, n in pieces for s in range(first, first + n)]
    assert seeds == list(range(5, 5 + total))
    assert all(n <= 50 for _, n in pieces)
    assert all(n >= 3 for _, n in pieces[:-1])


def test_results_come_back_in_seed_order_on_every_backend(scheduler: str) -> None:
    pieces = [(0, 10), (10, 10), (20, 10), (30, 10)]
    for backend in backends(scheduler):
        told: list[int] = []
        parts = list(run_chunks(late_first, (), pieces, backend, told.append))
        assert [s for part in parts for s in part] == list(range(40)), backend
        assert sorted(told) == [10, 10, 10, 10]


def test_simulate_is_the_same_on_every_backend(scheduler: str) -> None:
    cfg = GameConfig(players=4)
    reports = [
        simulate(cfg, 450, seed=11, workers=b).to_dict() | {"seconds": 0, "games_per_second": 0}
        for b in backends(scheduler)
    ]
    assert reports[0]["games"] == 450 and reports[0]["ok"]
    assert reports[0] == reports[1] == reports[2]


def test_simulate_with_bots_is_the_same_on_every_backend(scheduler: str) -> None:
    cfg = GameConfig(players=3)
    bots = ["baseline", "random", "heuristic"]
    reports = [
        simulate(cfg, 12, seed=4, bots=bots, workers=b).to_dict()
        | {"seconds": 0, "games_per_second": 0}
        for b in backends(scheduler)
    ]
    assert reports[0]["completed"] == 12
    assert reports[0] == reports[1] == reports[2]


def test_merged_simulate_chunks_match_one_chunk() -> None:
    """Merging chunk reports is exact: min/max gambits, wins, totals, problems."""
    cfg = GameConfig(players=5)
    whole = simulate_chunk(cfg, False, None, 2, 300)
    merged = simulate_chunk(cfg, False, None, 2, 17)
    for first, n in split(19, 283, 1, 40, 40):
        merge_reports(merged, simulate_chunk(cfg, False, None, first, n))
    timeless = {"seconds": 0, "games_per_second": 0}
    assert merged.to_dict() | timeless == whole.to_dict() | timeless
    assert simulate(cfg, 300, seed=2).to_dict() | timeless == whole.to_dict() | timeless


def test_tournament_is_the_same_on_every_backend(scheduler: str) -> None:
    seats = ["heuristic", "baseline", "random"]
    results = []
    for b in backends(scheduler):
        d = run_tournament(seats, 9, seed=3, workers=b).to_dict()
        for bot in d["bots"].values():
            del bot["decision_ms"]  # timings are the only thing a backend changes
        results.append(d)
    assert results[0]["games"] == 9
    assert results[0] == results[1] == results[2]


def test_analysis_is_the_same_on_every_backend(scheduler: str) -> None:
    cfg = GameConfig(players=4)
    reports = [
        json.dumps(build_report(run_analysis(cfg, ["random"] * 4, 450, seed=5, workers=b), {}))
        for b in backends(scheduler)
    ]
    assert reports[0] == reports[1] == reports[2]


@pytest.mark.parametrize(
    "address",
    ["localhost:8786", "tcp://", "tcp://host", "tcp://host:0", "tcp://host:99999", "http://h:1"],
)
def test_malformed_addresses_are_refused_before_connecting(address: str) -> None:
    with pytest.raises(BackendError) as e:
        Backend(scheduler=address)
    assert e.value.reason == "address"


@pytest.mark.parametrize(
    "address", ["tcp://127.0.0.1:8786", "tcp://node-3.lan:8786", "tcp://[::1]:1"]
)
def test_good_addresses_pass(address: str) -> None:
    assert check_address(address) == address


def test_an_unreachable_scheduler_fails_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 0.5)
    backend = Backend(scheduler=f"tcp://127.0.0.1:{closed_port()}")
    t0 = time.perf_counter()
    with pytest.raises(BackendError) as e:
        list(run_chunks(late_first, (), [(1, 1)], backend))
    assert e.value.reason == "unreachable"
    assert time.perf_counter() - t0 < 5


def test_a_scheduler_without_workers_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 0.5)
    with local_cluster(0) as address, pytest.raises(BackendError) as e:
        list(run_chunks(late_first, (), [(1, 1)], Backend(scheduler=address)))
    assert e.value.reason == "no_workers"


def test_workers_below_one_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Backend(0)
