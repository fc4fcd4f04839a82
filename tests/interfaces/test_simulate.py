"""``dragonante simulate`` and ``dragonante bench``: checked random games, and speed."""

from __future__ import annotations

import json

import pytest

from dragonante.engine.config import GameConfig
from dragonante.engine.state import GameState
from dragonante.sim import simulate as sim_module
from dragonante.sim.bench import bench, clone_timing
from dragonante.sim.selfplay import GameResult, play_random
from dragonante.sim.simulate import simulate
from tests.interfaces.conftest import Cli, assert_one_line_error

SIM_KEYS = {
    "games",
    "completed",
    "errors",
    "invariant_violations",
    "mean_gambits",
    "wins_by_seat",
    "mean_decisions",
    "seconds",
    "games_per_second",
}
BENCH_KEYS = {
    "games_per_second",
    "decisions_per_second",
    "players",
    "games",
    "decisions",
    "seconds",
    "mean_decisions_per_game",
    "clone_microseconds",
    "python",
    "cpu_seconds",
    "games_per_cpu_second",
    "engine_build",
}


def test_simulate_json_reports_every_game(cli: Cli) -> None:
    r = cli(["simulate", "--players", "3", "--games", "30", "--seed", "7", "--json"])
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert set(data) >= SIM_KEYS
    assert data["games"] == data["completed"] == 30
    assert data["errors"] == [] and data["invariant_violations"] == []
    assert len(data["wins_by_seat"]) == 3
    # every game has at least one winner; a tie counts for each winner
    assert sum(data["wins_by_seat"]) >= 30
    assert data["mean_gambits"] >= 1 and data["mean_decisions"] > 10
    assert data["seeds"] == [7, 36] and data["ok"] is True


def test_simulate_is_reproducible_and_checks_every_step_on_request(cli: Cli) -> None:
    args = ["simulate", "-p", "4", "-n", "10", "--seed", "3", "--json", "--check-every-step"]
    a = json.loads(cli(args).out)
    b = json.loads(cli(args).out)
    assert a["check_every_step"] is True
    for key in ("wins_by_seat", "mean_gambits", "mean_decisions", "completed"):
        assert a[key] == b[key]


def test_simulate_text_summary_and_deck_options(cli: Cli) -> None:
    r = cli(
        [
            "simulate",
            "-n",
            "12",
            "--deck-selection",
            "druids_party",
            "--show-specials",
            "--include",
            "L-mor-priest",
            "--gold-per-player",
            "12",
        ]
    )
    assert r.code == 0, r.err
    assert r.out.startswith("12 games of 4 players (seeds 0-11): 12 completed.")
    assert "No errors; every invariant held at the end of every game." in r.out
    assert "Games won by seat" in r.out


def test_errors_are_caught_and_reported_with_their_seed(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = play_random

    def flaky(config: GameConfig, seed: int, check: bool = False) -> tuple[GameState, GameResult]:
        if seed == 4:
            raise RuntimeError("the dragon ate the deck")
        return real(config, seed, check=check)

    monkeypatch.setattr(sim_module, "play_random", flaky)
    r = cli(["simulate", "-n", "6", "--json"])
    assert r.code == 1
    data = json.loads(r.out)
    assert data["completed"] == 5 and data["ok"] is False
    assert data["errors"][0]["seed"] == 4
    assert data["errors"][0]["error"] == "RuntimeError: the dragon ate the deck"
    text = cli(["simulate", "-n", "6"])
    assert "Seed 4: error RuntimeError: the dragon ate the deck" in text.out


def test_invariant_violations_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        sim_module, "violations", lambda s: ["gold not conserved"] if s.seed == 2 else []
    )
    report = simulate(GameConfig(players=2), 4, seed=0)
    assert [(v.seed, v.violations) for v in report.invariant_violations] == [
        (2, ["gold not conserved"])
    ]
    assert not report.ok


def test_simulate_can_seat_bots_for_a_later_bots_option() -> None:
    report = simulate(GameConfig(players=3), 3, seed=1, bots=["baseline", "random", "random"])
    assert report.completed == 3 and report.ok
    assert report.to_dict()["bots"] == ["baseline", "random", "random"]
    with pytest.raises(ValueError, match="one bot per seat"):
        simulate(GameConfig(players=3), 1, bots=["random"])


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--games", "0"], "--games must be at least 1, got 0"),
        (["--players", "1"], "--players must be 2-6, got 1"),
        (["--gold-per-player", "11"], "--gold-per-player must be one of"),
        (["--deck-selection", "x"], "unknown --deck-selection"),
        (["--include", "nope"], "'nope' is not a special card key"),
    ],
)
def test_simulate_bad_options(cli: Cli, args: list[str], fragment: str) -> None:
    assert_one_line_error(cli(["simulate", *args]), fragment)


def test_bench_json_keys(cli: Cli) -> None:
    r = cli(["bench", "--players", "3", "--seconds", "0.2", "--json"])
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert set(data) >= BENCH_KEYS
    assert data["players"] == 3 and data["games"] >= 1
    assert data["games_per_second"] > 0 and data["decisions_per_second"] > 0
    assert 0 < data["cpu_seconds"] <= data["seconds"] * 1.05
    assert data["games_per_cpu_second"] >= data["games_per_second"] * 0.95
    assert data["engine_build"] in ("compiled", "partly compiled", "pure")
    clone = data["clone_microseconds"]
    assert clone["late_gambit"] > clone["early_gambit"] == 1
    assert clone["late_log_events"] > clone["early_log_events"]
    assert clone["early"] > 0 and clone["late"] > 0


def test_bench_text(cli: Cli) -> None:
    r = cli(["bench", "-p", "2", "-s", "0.1"])
    assert r.code == 0
    assert "random games in" in r.out and "games/s" in r.out and "state.clone()" in r.out
    assert "games per CPU second" in r.out


def test_clones_do_not_grow_with_history() -> None:
    timing = clone_timing(GameConfig(players=4), seed=0)
    assert timing is not None
    # a late-game clone costs about what an early one does (generous bound: timing noise)
    assert timing.late_microseconds < 3 * timing.early_microseconds + 5
    report = bench(GameConfig(players=2), 0.05, clones=False)
    assert report.clone is None and report.games >= 1


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf"])
def test_bench_bad_seconds(cli: Cli, seconds: str) -> None:
    assert_one_line_error(cli(["bench", "--seconds", seconds]), "--seconds must be positive")
