"""``dragonante analyze``: the files, the JSON, Italian headings and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.interfaces.conftest import Cli, assert_one_line_error


def test_analyze_writes_the_report_and_links_the_plots(cli: Cli, tmp_path: Path) -> None:
    r = cli(["analyze", "--games", "30", "--players", "3", "--seed", "2", "--out", str(tmp_path)])
    assert r.code == 0, r.err
    assert "30 games, 3 players" in r.out
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    for name in ("card_lift.png", "seats.png", "ante.png", "lengths.png", "flights.png"):
        assert (tmp_path / name).stat().st_size > 1000
        assert f'src="{name}"' in page or f'href="{name}"' in page
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["games"] == 30 and len(data["seats"]) == 3


def test_analyze_json_prints_the_report(cli: Cli, tmp_path: Path) -> None:
    args = ["analyze", "-n", "20", "-p", "2", "--json", "--out", str(tmp_path)]
    r = cli(args)
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data == json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert {"cards", "types", "powers", "ante", "lengths", "flights"} <= set(data)


def test_analyze_in_italian(cli: Cli, tmp_path: Path) -> None:
    r = cli(["analyze", "-n", "20", "-p", "2", "--lang", "it", "--out", str(tmp_path)])
    assert r.code == 0, r.err
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Rapporto di bilanciamento" in page and "Vantaggio del posto" in page
    assert "Stormi speciali" in page and "partite" in r.out


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "0"],
        ["--workers", "0"],
        ["--bots", "nosuchbot"],
        ["--bots", "random,random,random"],
        ["--deck", "nosuchdeck"],
        ["--games", "abc"],
    ],
)
def test_bad_options_are_one_line_errors(cli: Cli, tmp_path: Path, args: list[str]) -> None:
    r = cli(["analyze", "-p", "4", "--out", str(tmp_path), *args])
    assert r.code == 2
    assert_one_line_error(r)
