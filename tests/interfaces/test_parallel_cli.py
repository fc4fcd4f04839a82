"""``--workers`` and ``--scheduler`` on simulate, tournament and analyze:
the same JSON on a Dask cluster as in one process, and one-line errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dragonante.sim import parallel
from tests.cluster import closed_port, local_cluster
from tests.interfaces.conftest import Cli, assert_one_line_error

COMMANDS = {
    "simulate": ["simulate", "-p", "3", "-n", "250", "--seed", "7", "--json"],
    "tournament": ["tournament", "--seats", "baseline,random,heuristic", "--games", "6", "--json"],
    "analyze": ["analyze", "-p", "3", "-n", "250", "--seed", "7", "--json"],
}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with local_cluster(2) as address:
        yield address


def without_timings(data: dict[str, Any]) -> dict[str, Any]:
    """The JSON minus the wall-clock numbers, the only ones a backend may change."""
    data = {k: v for k, v in data.items() if k not in ("seconds", "games_per_second")}
    if "bots" in data and isinstance(data["bots"], dict):
        data["bots"] = {
            name: {k: v for k, v in bot.items() if k != "decision_ms"}
            for name, bot in data["bots"].items()
        }
    return data


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_cluster_and_two_workers_give_the_one_process_json(
    cli: Cli, tmp_path: Path, scheduler: str, command: str
) -> None:
    args = COMMANDS[command]
    if command == "analyze":
        args = [*args, "--out", str(tmp_path)]
    runs = {}
    for name, extra in {
        "serial": [],
        "workers": ["--workers", "2"],
        "cluster": ["--scheduler", scheduler],
    }.items():
        r = cli([*args, *extra])
        assert r.code == 0, (name, r.err)
        runs[name] = without_timings(json.loads(r.out))
    assert runs["serial"] == runs["workers"] == runs["cluster"]


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--scheduler", "localhost:8786"], "tcp://HOST:PORT"),
        (["--scheduler", "tcp://127.0.0.1:99999"], "tcp://HOST:PORT"),
        (["--scheduler", "tcp://127.0.0.1:8786", "--workers", "2"], "not both"),
        (["--workers", "0"], "--workers"),
    ],
)
def test_bad_backend_options_are_one_line_errors(
    cli: Cli, tmp_path: Path, command: str, extra: list[str], fragment: str
) -> None:
    out = ["--out", str(tmp_path)] if command == "analyze" else []
    r = cli([*COMMANDS[command], *out, *extra])
    assert_one_line_error(r, fragment)
    assert not list(tmp_path.iterdir())  # refused before any game was played


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_unreachable_scheduler_is_a_one_line_error(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 0.3)
    address = f"tcp://127.0.0.1:{closed_port()}"
    args = [*COMMANDS[command], "--scheduler", address]
    if command == "analyze":
        args += ["--out", str(tmp_path)]
    r = cli(args)
    assert_one_line_error(r, "cannot reach a Dask scheduler", address)


def test_scheduler_errors_speak_italian(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 0.3)
    r = cli(
        [*COMMANDS["simulate"], "--lang", "it", "--scheduler", f"tcp://127.0.0.1:{closed_port()}"]
    )
    assert_one_line_error(r, "nessuno scheduler Dask raggiungibile")
    r = cli([*COMMANDS["simulate"], "--lang", "it", "--scheduler", "nowhere"])
    assert_one_line_error(r, "tcp://HOST:PORTA")
