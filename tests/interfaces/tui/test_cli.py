"""``dragonante play`` chooses between the full-screen table and the numbered prompts."""

from __future__ import annotations

from typing import Any

import pytest

from dragonante.interfaces.cli import play as play_module

from ..conftest import Cli, assert_one_line_error


class FakeTty:
    """A stdin that says it is a terminal but has no more input."""

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return ""


def test_piped_input_keeps_the_numbered_prompts(cli: Cli) -> None:
    r = cli(["play", "--players", "2", "--seed", "3"], "q\n")
    assert r.code == 0
    assert "Your choice" in r.out


def test_a_terminal_opens_the_full_screen_table(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[tuple[Any, ...]] = []

    def fake(*args: Any) -> int:
        opened.append(args)
        return 0

    monkeypatch.setattr(play_module, "is_terminal", lambda stream: True)
    monkeypatch.setattr(play_module, "play_full_screen", fake)
    r = cli(["play", "--players", "3", "--seed", "3", "--humans", "0,2"], FakeTty())
    assert r.code == 0
    (_config, seed, people, bots, lang, _record, _limit, _names) = opened[0]
    assert (seed, people, bots, lang) == (3, (0, 2), {1: "medium"}, "en")  # the default bot
    # --plain keeps the prompts even in a terminal
    r = cli(["play", "--players", "2", "--seed", "3", "--plain"], "q\n")
    assert "Your choice" in r.out and len(opened) == 1


def test_hot_seat_needs_the_full_screen_table(cli: Cli) -> None:
    r = cli(["play", "--players", "3", "--humans", "0,1"], "q\n")
    assert_one_line_error(r, "--humans")


@pytest.mark.parametrize("humans", ["0,0", "0,5", "a", ","])
def test_bad_humans_are_one_line_errors(cli: Cli, humans: str) -> None:
    r = cli(["play", "--players", "3", "--humans", humans], "q\n")
    assert_one_line_error(r, "--humans")


def test_a_series_runs_game_after_game_at_the_full_screen_table(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--series 3`` in a terminal: one full-screen game per series seed, each
    game-over screen showing the series so far, then the series result."""
    from dragonante.engine.series import game_seed
    from dragonante.sim.selfplay import play_random

    games: list[tuple[int, list[str]]] = []

    def fake(config: Any, seed: int, people: Any, bots: Any, lang: str, record: Any,
             limit: int, series_lines: Any = None, names: Any = None,
             ) -> tuple[int, list[int]]:  # fmt: skip
        state, _ = play_random(config, seed)  # the person answers at random here
        games.append((seed, series_lines(state)))
        return 0, list(state.hoards)

    monkeypatch.setattr(play_module, "is_terminal", lambda stream: True)
    monkeypatch.setattr(play_module, "run_full_screen", fake)
    r = cli(["play", "--players", "3", "--seed", "9", "--series", "3"], FakeTty())
    assert r.code == 0, r.out
    assert [seed for seed, _ in games] == [game_seed(9, i) for i in range(3)]
    assert "Game 2 of 3" in games[1][1][0]
    totals = [0, 0, 0]
    from dragonante.engine.config import GameConfig

    for seed, _ in games:
        state, _ = play_random(GameConfig(players=3), seed)
        totals = [a + b for a, b in zip(totals, state.hoards, strict=True)]
    best = max(totals)
    assert f"{best}" in r.out.splitlines()[-1]  # the series winner's gold
    assert str(totals[0]) in games[2][1][1]  # the last screen's running totals


def test_leaving_a_game_ends_the_series(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def fake(*args: Any, **kwargs: Any) -> tuple[int, None]:
        calls.append(args[1])
        return 0, None  # left before the end

    monkeypatch.setattr(play_module, "is_terminal", lambda stream: True)
    monkeypatch.setattr(play_module, "run_full_screen", fake)
    r = cli(["play", "--players", "2", "--seed", "4", "--series", "5"], FakeTty())
    assert r.code == 0 and len(calls) == 1
    assert "series" not in r.out.lower()
