"""``dragonante dice play`` and ``dice track`` open the full-screen table only on a terminal."""

from __future__ import annotations

import pytest

from dragonante.interfaces.cli import dice as dice_module

from ..conftest import Cli


class FakeTty:
    """A stdin that says it is a terminal but has no more input."""

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return ""


def test_piped_input_keeps_the_prompts(cli: Cli) -> None:
    r = cli(["dice", "play", "--players", "2", "--seed", "3"], "quit\n")
    assert r.code == 0
    assert "Dice Gambit, 2 players, seed 3." in r.out and "[R]oll" in r.out
    r = cli(["dice", "track", "--players", "2"], "quit\n")
    assert r.code == 0 and "Dice Gambit tracker" in r.out


@pytest.mark.parametrize("command", ["play", "track"])
def test_a_terminal_opens_the_full_screen_table(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    opened: list[dice_module.Table] = []
    monkeypatch.setattr(dice_module, "is_terminal", lambda stream: True)
    monkeypatch.setattr(dice_module, "run_full_screen", opened.append)
    r = cli(["dice", command, "--players", "3", "--lang", "it"], FakeTty())
    assert r.code == 0, r.out
    (table,) = opened
    assert table.lang == "it" and table.rec.state.n == 3
    assert (table.rec.state.dice == "physical") == (command == "track")
    assert r.out == ""  # no prompt, no intro: the screen says it all
    # --plain keeps the prompts even in a terminal
    r = cli(["dice", command, "--players", "3", "--plain"], "quit\n")
    assert r.code == 0 and len(opened) == 1
    assert "Stopped." in r.out


def test_the_full_screen_table_runs_from_the_command(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real launcher: the app runs (headless here) and a quit says the game stopped."""
    from dragonante.interfaces.tui.dice import DiceApp

    def run_quits(self: DiceApp, **_: object) -> int:
        return 0  # the person pressed q before the first answer

    monkeypatch.setattr(dice_module, "is_terminal", lambda stream: True)
    monkeypatch.setattr(DiceApp, "run", run_quits)
    r = cli(["dice", "play", "--players", "2", "--seed", "1"], FakeTty())
    assert r.code == 0
    assert "Stopped." in r.out
