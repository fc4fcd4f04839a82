"""``play --resume``, the records' seating, hints a player can type, and the
plain command's help (issue 25 §2 and §3), through the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from dragonante.engine.records import loads, replay
from dragonante.interfaces.cli import play as play_module
from dragonante.interfaces.launch import CHECKOUT, command, launcher
from dragonante.interfaces.table_record import read_seating

from .conftest import Cli, assert_one_line_error

SHORT = ["play", "--players", "3", "--gold-per-player", "8", "--seed", "11", "--plain"]


def test_a_plain_game_left_midway_resumes_and_ends_as_the_same_game(
    cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    opponents = ["--opponents", "random,baseline"]
    left = cli([*SHORT, *opponents, "--record", str(path)], "1\n1\n1\nq\n")
    assert left.code == 0, left.err
    assert f"play --resume {path}" in left.out  # the hint names the command to continue
    saved = loads(path.read_text())
    seating = read_seating(path.read_text(), 3)
    assert seating is not None
    assert seating.humans == (0,) and seating.bots == {1: "random", 2: "baseline"}
    # the whole game in one go, for comparison
    whole = tmp_path / "whole.json"
    assert cli([*SHORT, *opponents, "--record", str(whole)], "1\n" * 3000).code == 0
    resumed = cli(["play", "--resume", str(path), "--plain"], "1\n" * 3000)
    assert resumed.code == 0, resumed.err
    assert f"Resuming {path}: {len(saved.answers)} answers replayed." in resumed.out
    final = loads(path.read_text())
    assert final.answers[: len(saved.answers)] == saved.answers
    assert replay(final).over
    assert final.answers == loads(whole.read_text()).answers  # same bots, same choices


def test_resume_refuses_a_finished_game_and_conflicting_options(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert cli([*SHORT, "--record", str(path)], "1\n" * 3000).code == 0
    left = tmp_path / "left.json"
    assert cli([*SHORT, "--record", str(left)], "1\nq\n").code == 0
    assert_one_line_error(
        cli(["play", "--resume", str(path), "--plain"]), "finished game", "replay"
    )
    assert_one_line_error(cli(["play", "--resume", str(path), "--seed", "3"]), "--resume")
    assert_one_line_error(cli(["play", "--resume", str(tmp_path / "none.json")]), "none.json")
    bad = tmp_path / "bad.json"
    data = json.loads(left.read_text())
    data["table"] = {"humans": [0], "bots": {"1": "random"}, "names": []}  # seat 2 missing
    bad.write_text(json.dumps(data))
    assert_one_line_error(cli(["play", "--resume", str(bad), "--plain"]), "does not seat")


def test_a_record_without_seating_resumes_with_seat_and_opponents(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert cli([*SHORT, "--record", str(path)], "1\n1\nq\n").code == 0
    data = json.loads(path.read_text())
    del data["table"]  # as the engine and the web server save them
    path.write_text(json.dumps(data))
    r = cli(["play", "--resume", str(path), "--plain", "--opponents", "random"], "1\n" * 3000)
    assert r.code == 0, r.err
    assert replay(loads(path.read_text())).over


def test_replay_calls_everyone_what_the_table_did(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert cli([*SHORT, "--record", str(path)], "1\n" * 3000).code == 0
    r = cli(["replay", str(path)])
    assert "Player 1 draws 6 cards." in r.out and "Bot 2 draws 6 cards." in r.out
    assert "Player 0" not in r.out
    data = json.loads(path.read_text())
    data["table"]["names"] = ["Ann", "Bot 1", "Bot 2"]  # typed in at a hot-seat table
    path.write_text(json.dumps(data))
    assert "Ann draws 6 cards." in cli(["replay", str(path), "--lang", "it"]).out.replace(
        "Ann pesca 6 carte", "Ann draws 6 cards."
    )


def test_hot_seat_asks_for_names_and_counts_from_1(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[tuple[Any, ...]] = []

    def fake(*args: Any) -> int:
        opened.append(args)
        return 0

    monkeypatch.setattr(play_module, "is_terminal", lambda stream: True)
    monkeypatch.setattr(play_module, "play_full_screen", fake)
    r = cli(["play", "--players", "3", "--humans", "0,2", "--seed", "1"], "Ann\n\n")
    assert r.code == 0, r.err
    assert "[Player 1]" in r.out and "[Player 2]" in r.out
    assert opened[0][-1] == ["Ann", "Bot 1", "Player 2"]
    # nobody typed a name: the table's own names, none kept with the record
    cli(["play", "--players", "3", "--humans", "0,2", "--seed", "1"], "\n\n")
    assert opened[1][-1] is None


def test_the_default_opponents_are_the_medium_bot(cli: Cli) -> None:
    r = cli(["play", "--players", "2", "--seed", "3", "--plain"], "q\n")
    assert "Bot 1: medium" in r.out
    assert "[default: medium]" in cli(["play", "--help"]).out


def test_flags_print_as_flags_in_help(cli: Cli) -> None:
    out = cli(["play", "--help"]).out
    assert "--plain" in out and "<bool>" not in out and "<booleano>" not in out
    assert "<int>" in out  # options with a value still say what it is


@pytest.mark.parametrize("lang", ["en", "it"])
def test_cards_lists_a_header_and_every_power(cli: Cli, lang: str) -> None:
    r = cli(["cards", "--set", "legendary", "--lang", lang])
    lines = r.out.splitlines()
    assert lines[0].startswith("id ") and lines[1].strip() in ("power", "potere")
    steal = "Steal 3 gold from the stakes." if lang == "en" else "Ruba 3 mo dal piatto."
    assert lines[2].startswith("L-std-black-1 ") and lines[3] == "    " + steal


def test_hints_name_the_command_as_the_player_types_it() -> None:
    installed = {"PATH": str(Path(sys.executable).parent)}  # where the script is
    assert launcher(installed) == "dragonante"
    assert launcher({"DRAGONANTE_LAUNCHER": "./dev run"}) == "./dev run"
    if (CHECKOUT / "dev").is_file():
        env = {"UV_RUN_RECURSION_DEPTH": "1", **installed}
        assert launcher(env, cwd=CHECKOUT) == "./dev run"
        assert launcher(env, cwd=CHECKOUT / "docs") == "../dev run"
        # in a checkout with no dragonante on the PATH, only ./dev can start it
        assert launcher({"PATH": "/nonexistent"}, cwd=CHECKOUT) == "./dev run"
    assert (
        command("replay", "my game.json", environ=installed) == "dragonante replay 'my game.json'"
    )
