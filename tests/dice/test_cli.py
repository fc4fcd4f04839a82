"""``dragonante dice``: the terminal table, the game-master's tracker and the simulator.

Every mistake a person can make - an impossible roll, a word that is not an
answer, a broken save file, bad options - gets one line and, for command
errors, exit code 2; never a traceback.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from dragonante.interfaces.cli import main
from dragonante.interfaces.narrate import table_names


def run(
    args: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 0), out, err


def test_simulate_reports_the_card_games_keys(monkeypatch, capsys) -> None:
    code, out, _ = run(
        ["dice", "simulate", "--players", "3", "--games", "20", "--seed", "5", "--json"],
        monkeypatch,
        capsys,
    )
    assert code == 0
    data = json.loads(out)
    for key in ("games", "completed", "errors", "invariant_violations", "mean_gambits"):
        assert key in data
    assert data["games"] == data["completed"] == 20
    assert data["errors"] == data["invariant_violations"] == data["stuck"] == []
    assert data["ok"] is True
    assert len(data["wins_by_seat"]) == 3 and sum(data["wins_by_seat"]) == 20


def test_simulate_json_has_the_card_games_shapes(monkeypatch, capsys) -> None:
    """One script reads both simulations: shared keys have the same JSON types."""
    _, dice_out, _ = run(
        ["dice", "simulate", "-p", "4", "-n", "5", "--seed", "1", "--json"], monkeypatch, capsys
    )
    _, card_out, _ = run(
        ["simulate", "--players", "4", "--games", "5", "--seed", "1", "--json"],
        monkeypatch,
        capsys,
    )
    dice, card = json.loads(dice_out), json.loads(card_out)
    shared = ("games", "completed", "errors", "invariant_violations", "stuck", "mean_gambits")
    for key in (*shared, "wins_by_seat", "ok"):
        assert type(dice[key]) is type(card[key]) or {type(dice[key]), type(card[key])} == {
            int,
            float,
        }, key


def test_simulate_reports_a_crash_with_its_seed_and_exits_1(monkeypatch, capsys) -> None:
    import dragonante.sim.dice_selfplay as selfplay

    real = selfplay.play

    def crash_on_seed_3(config, seed, bots=("random",), check=False, chooser=None):
        if seed == 3:
            raise RuntimeError("dice fell off the table")
        return real(config, seed, bots, check, chooser)

    monkeypatch.setattr(selfplay, "play", crash_on_seed_3)
    code, out, _ = run(
        ["dice", "simulate", "-p", "3", "-n", "4", "--seed", "1", "--json"], monkeypatch, capsys
    )
    data = json.loads(out)
    assert code == 1
    assert [e["seed"] for e in data["errors"]] == [3]
    assert "dice fell off the table" in data["errors"][0]["error"]
    assert data["completed"] == 3 and data["ok"] is False
    assert data["first_problem"].startswith("seed 3: RuntimeError")


def test_simulate_text_summary(monkeypatch, capsys) -> None:
    code, out, _ = run(
        ["dice", "simulate", "-p", "2", "-n", "5", "--bots", "basic,random", "--gambits", "2"],
        monkeypatch,
        capsys,
    )
    assert code == 0
    assert "5 games, 2 players" in out and "wins by seat" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["dice", "simulate", "--players", "9"], "players must be 2-6"),
        (["dice", "simulate", "--bots", "genius"], "unknown bot 'genius'"),
        (["dice", "simulate", "--games", "0"], "--games must be positive"),
        (["dice", "simulate", "--set", "flight_order=sideways"], "flight_order must be one of"),
        (["dice", "simulate", "--set", "nonsense"], "expected KEY=VALUE"),
        (["dice", "play", "--seats", "human,wizard"], "unknown seat 'wizard'"),
        (["dice", "play", "--humans", "5", "--players", "3"], "--humans must be 0-3"),
        (["dice", "play", "--seats", "human,basic", "--humans", "1"], "not both"),
        (["dice", "play", "--gaming-set", "0"], "seats are numbered from 1"),
        (["dice", "track", "--names", "Ann,Bo"], "--names needs 4"),
        (["dice", "track", "--resume", "x.json", "--players", "3"], "--resume takes"),
    ],
)
def test_bad_options_are_one_line_errors_with_exit_code_2(
    args: list[str], message: str, monkeypatch, capsys
) -> None:
    code, out, err = run(args, monkeypatch, capsys)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in out + err


def test_play_with_bots_shows_every_roll_and_every_sheet_and_is_reproducible(
    monkeypatch, capsys
) -> None:
    args = ["dice", "play", "--humans", "0", "--players", "3", "--seed", "11"]
    code, out, _ = run(args, monkeypatch, capsys)
    assert code == 0
    assert "rolls a d12 for turn order" in out
    assert "rolls a d12 for dragon type" in out
    assert "Total strength:" in out and "[ ] God" in out and "debts owed" in out
    assert "wins the game!" in out
    for seat in (1, 2, 3):
        assert f"Bot {seat}: hoard" in out or f"Bot {seat} (first): hoard" in out
    assert run(args, monkeypatch, capsys)[1] == out


def test_a_person_at_the_table_is_asked_again_after_a_bad_answer(monkeypatch, capsys) -> None:
    answers = "maybe\n" + "1\n" * 200
    code, out, _ = run(
        ["dice", "play", "--seats", "human,basic", "--seed", "4", "--names", "Ann,Bot"],
        monkeypatch,
        capsys,
        answers,
    )
    assert code == 0
    assert "[R]oll a dragon or [w]ithdraw?" in out  # the one person is "you", as at the card table
    assert "type r to roll a dragon or w to withdraw" in out
    assert "wins the game!" in out


def test_play_input_ending_early_is_a_one_line_error(monkeypatch, capsys) -> None:
    code, _, err = run(
        ["dice", "play", "--seats", "human,basic", "--seed", "4"], monkeypatch, capsys
    )
    assert code == 2
    assert err.strip() == "error: input ended before the game finished"


# The tracker ------------------------------------------------------------------


def test_the_tracker_asks_again_for_impossible_rolls(monkeypatch, capsys, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    typed = "13\n0\nsix\n5\n3\nquit\n"
    code, out, _ = run(
        ["dice", "track", "--players", "2", "--names", "Ann,Bo", "--save", str(save)],
        monkeypatch,
        capsys,
        typed,
    )
    assert code == 0
    assert "a d12 shows 1 to 12; 13 is impossible - roll again" in out
    assert "a d12 shows 1 to 12; 0 is impossible - roll again" in out
    assert "type the number the d12 shows (1 to 12)" in out
    assert "Ann goes first (rolled 5)" in out
    assert f"dragonante dice track --resume {save}" in out
    data = json.loads(save.read_text())
    assert data["answers"] == [5, 3]
    assert data["names"] == ["Ann", "Bo"]


def test_the_tracker_saves_after_every_step_and_resumes(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    # Turn order 5, 3; Ann plays a Green dragon (d12: 7) of strength 6 (d8).
    code, _, err = run(
        ["dice", "track", "-p", "2", "--names", "Ann,Bo", "--save", str(save)],
        monkeypatch,
        capsys,
        "5\n3\nr\n7\n6\n",
    )
    assert code == 2 and "input ended" in err and "--resume" in err
    assert json.loads(save.read_text())["answers"] == [5, 3, 0, 7, 6]
    # Bo withdraws; Ann, alone, still rolls rounds 2 and 3 (Green 6 each time).
    code, out, _ = run(
        ["dice", "track", "--resume", str(save)], monkeypatch, capsys, "w\n7\n6\n7\n6\n"
    )
    assert code == 0
    assert "Resuming the game" in out and "5 answers so far" in out
    assert "Bo withdraws" in out and "wins the game!" in out
    assert "Green" in out


def test_the_tracker_undo_takes_back_a_typed_roll(monkeypatch, capsys, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out, _ = run(
        ["dice", "track", "-p", "2", "--save", str(save)],
        monkeypatch,
        capsys,
        "5\nundo\n9\n3\nquit\n",
    )
    assert code == 0
    assert "Undone" in out
    assert json.loads(save.read_text())["answers"] == [9, 3]


def test_the_tracker_with_a_gaming_set_asks_for_two_dice(monkeypatch, capsys) -> None:
    code, out, _ = run(
        ["dice", "track", "-p", "2", "--gaming-set", "2"], monkeypatch, capsys, "5\n2\n8\nquit\n"
    )
    assert code == 0
    assert "(die 1 of 2, advantage)" in out and "(die 2 of 2, advantage)" in out
    assert "2, 8 -> 8" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("this is not json", "not valid JSON"),
        ('{"format": "dragonante-record"}', "not a Dice Gambit save file"),
        ("[]", "not a Dice Gambit save file"),
        (None, "cannot read"),
        (b"\xff\xfe\x00binary", "not a Dice Gambit save file (not text)"),
    ],
)
def test_broken_save_files_are_one_line_errors(
    content: str | bytes | None, message: str, monkeypatch, capsys, tmp_path: Path
) -> None:
    path = tmp_path / "save.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    code, out, err = run(["dice", "track", "--resume", str(path)], monkeypatch, capsys)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in out + err


def test_a_save_file_whose_answers_do_not_replay_is_refused(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    path = tmp_path / "save.json"
    run(["dice", "track", "-p", "2", "--save", str(path)], monkeypatch, capsys, "5\n3\nquit\n")
    data = json.loads(path.read_text())
    data["answers"] = [5, 3, 0, 13]
    path.write_text(json.dumps(data))
    code, _, err = run(["dice", "track", "--resume", str(path)], monkeypatch, capsys)
    assert code == 2
    assert "answer 4 does not replay: a d12 shows 1 to 12; 13 is impossible" in err


def test_settings_lists_every_setting_with_its_default(monkeypatch, capsys) -> None:
    code, out, _ = run(["dice", "settings"], monkeypatch, capsys)
    assert code == 0
    assert "starting_hoard = 50" in out and "multi_gambit_hoard = reset" in out
    code, out, _ = run(["dice", "settings", "--json"], monkeypatch, capsys)
    assert json.loads(out)["replacement_is_full_play"] is True


def test_seats_are_named_and_numbered_as_at_the_card_table(monkeypatch, capsys) -> None:
    """One person against bots is "You" and the bots count from 1 among the bots,
    as ``play`` names them; people at one keyboard are "Player 1", "Player 2"...
    (issue 32 §6: the Dice Gambit said "Player 1" and "Bot 2" for the same table)."""
    code, out, _ = run(
        ["dice", "play", "--players", "3", "--seed", "4"], monkeypatch, capsys, "1\n" * 200
    )
    assert code == 0
    assert table_names(3, (0,), "en")[1:] == ["Bot 1", "Bot 2"]
    assert "=== Gambit 1 === hoards: You 50, Bot 1 50, Bot 2 50" in out
    assert "You roll a d12 for turn order: " in out and "> Your turn." in out
    assert "Player 1" not in out and "Bot 3" not in out
    assert re.search(r"^You( \(first\))?: hoard \d+", out, re.M)  # the sheet's heading
    code, out, _ = run(
        ["dice", "play", "--players", "3", "--humans", "2", "--seed", "4"],
        monkeypatch,
        capsys,
        "1\n" * 400,
    )
    assert code == 0
    assert "hoards: Player 1 50, Player 2 50, Bot 1 50" in out
    assert "Player 1: [r]oll a dragon or [w]ithdraw?" in out and "You " not in out
