"""Tournaments: seat rotation, pooled statistics, Wilson intervals, the CLI."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from dragonante.interfaces.cli import main
from dragonante.sim.tournament import (
    GameOutcome,
    run_tournament,
    seating,
    summarize,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 10, 0.0179, 0.4042),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_known_values(wins: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(wins, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_seats_rotate_so_every_entry_sits_everywhere() -> None:
    entries = ["ismcts", "heuristic", "baseline", "random"]
    where: Counter[tuple[str, int]] = Counter()
    for g in range(8):
        seats = seating(entries, g)
        assert sorted(seats) == sorted(entries)
        for p, name in enumerate(seats):
            where[(name, p)] += 1
    assert set(where.values()) == {2}  # 8 games: each entry twice in each seat
    assert seating(entries, 0) == entries
    assert seating(entries, 1) == ["random", "ismcts", "heuristic", "baseline"]


def _outcome(index: int, seats: list[str], winners: list[int], hoards: list[int]) -> GameOutcome:
    n = len(seats)
    return GameOutcome(index, seats, winners, hoards, 10, [[0.001]] * n, [0] * n)


def test_pooling_and_shared_wins() -> None:
    entries = ["a", "b", "b"]
    outcomes = [
        _outcome(0, ["a", "b", "b"], [0], [30, 0, 5]),
        _outcome(1, ["b", "a", "b"], [0, 1], [20, 20, 0]),  # a and b share: 1/2 each
        _outcome(2, ["b", "b", "a"], [1], [3, 40, 0]),
    ]
    r = summarize(entries, outcomes, seed=0, players=3).to_dict()["bots"]
    assert r["a"]["games"] == 3 and r["b"]["games"] == 6
    assert r["a"]["wins"] == pytest.approx(1.5)
    assert r["b"]["wins"] == pytest.approx(1.5)
    assert r["a"]["win_rate"] == pytest.approx(0.5)
    assert r["b"]["win_rate"] == pytest.approx(0.25)
    assert r["a"]["mean_gold"] == pytest.approx(50 / 3)
    assert r["b"]["mean_gold"] == pytest.approx(68 / 6)
    lo, hi = wilson_interval(1.5, 6)
    assert (r["b"]["ci_low"], r["b"]["ci_high"]) == (lo, hi)


def test_tournament_totals_and_worker_independence() -> None:
    seats = ["baseline", "random", "random"]
    one = run_tournament(seats, 9, seed=3, workers=1).to_dict()
    two = run_tournament(seats, 9, seed=3, workers=2).to_dict()
    for d in (one, two):
        bots = d["bots"]
        assert bots["baseline"]["games"] == 9 and bots["random"]["games"] == 18
        assert bots["baseline"]["wins"] + bots["random"]["wins"] == pytest.approx(9)
    for name in ("baseline", "random"):
        for key in ("games", "wins", "mean_gold", "rating"):
            assert one["bots"][name][key] == two["bots"][name][key]
    # The baseline beats random players clearly (a sanity check of the whole loop).
    assert one["bots"]["baseline"]["rating"]["mu"] > one["bots"]["random"]["rating"]["mu"]


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 0), out, err


def test_cli_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        ["tournament", "--seats", "baseline,random,ismcts:iters=5", "--games", "3", "--json"],
        capsys,
    )
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 3 and data["players"] == 3
    for name in ("baseline", "random", "ismcts:iters=5"):
        row = data["bots"][name]
        for key in ("games", "wins", "win_rate", "ci_low", "ci_high", "mean_gold"):
            assert key in row
        assert set(row["rating"]) == {"mu", "sigma", "ordinal"}
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
    assert data["bots"]["ismcts:iters=5"]["iterations_per_second"] > 0


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["tournament", "--seats", "baseline,random", "--games", "2"], capsys)
    assert code == 0
    assert "baseline" in out and "95% CI" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "baseline,wizard"], "unknown bot 'wizard'"),
        (["--seats", "baseline"], "2-6 seats"),
        (["--seats", ",".join(["random"] * 7)], "2-6 seats"),
        (["--seats", "ismcts:depth=3,random"], "no setting"),
        (["--seats", "random,random", "--games", "0"], "--games"),
        (["--seats", "random,random", "--workers", "0"], "--workers"),
        (["--seats", "random,random", "--gold-per-player", "0"], "gold"),
    ],
)
def test_cli_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_cli(["tournament", *args], capsys)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_the_report_says_each_bots_search_budget() -> None:
    from dragonante.sim.tournament import run_tournament

    result = run_tournament(["ismcts:iters=5", "ismcts:iters=5:seconds=2", "heuristic"], 3, seed=1)
    bots = {name: r.to_dict() for name, r in result.bots.items()}
    assert bots["ismcts:iters=5"]["budget"] == {"iters": 5, "seconds": None, "reproducible": True}
    assert bots["ismcts:iters=5:seconds=2"]["budget"]["reproducible"] is False
    assert bots["heuristic"]["budget"] is None
