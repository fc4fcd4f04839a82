"""``dragonante simulate --bots``: simulations with bots instead of random players."""

from __future__ import annotations

import json

import pytest

from dragonante.interfaces.cli import main


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 0), out, err


def test_simulate_with_one_bot_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "-p", "3", "-n", "4", "--bots", "heuristic,baseline,ismcts:iters=5"]
    code, out, _ = run_cli([*args, "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["bots"] == ["heuristic", "baseline", "ismcts:iters=5"]
    assert data["completed"] == 4 and not data["invariant_violations"]


def test_simulate_one_bot_fills_every_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["simulate", "-p", "2", "-n", "2", "--bots", "easy", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["bots"] == ["easy", "easy"]


@pytest.mark.parametrize(
    ("bots", "message"),
    [("heuristic,random", "one per seat"), ("wizard", "unknown bot"), ("ismcts:x=1", "no setting")],
)
def test_simulate_bad_bots(bots: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_cli(["simulate", "-p", "3", "-n", "2", "--bots", bots], capsys)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
