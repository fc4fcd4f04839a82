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
    (_config, seed, people, bots, lang, _record, _limit) = opened[0]
    assert (seed, people, bots, lang) == (3, (0, 2), {1: "random"}, "en")
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
