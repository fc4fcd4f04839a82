"""``dragonante skill-check``: Gamblers Unleashed, one d20 check instead of a game.

The rules (:mod:`dragonante.engine.skill_check`) are a pure function from
the d20 rolls to the outcome; the command reads the options, rolls from a
seed or takes the game-master's roll, and tells the result in English,
Italian or JSON.
"""

from __future__ import annotations

import json

import pytest

from dragonante.engine.skill_check import (
    DIFFICULTIES,
    SkillCheckError,
    resolve,
    roll_d20s,
)
from dragonante.i18n import t
from tests.interfaces.conftest import Cli, assert_one_line_error


def check_json(cli: Cli, *args: str) -> dict[str, object]:
    r = cli(["skill-check", *args, "--json"])
    assert r.code == 0, r.err
    data: dict[str, object] = json.loads(r.out)
    return data


@pytest.mark.parametrize(
    ("difficulty", "dc"), [("easy", 10), ("medium", 15), ("hard", 20), ("harder", 25)]
)
def test_each_difficulty_has_the_5e_dc(cli: Cli, difficulty: str, dc: int) -> None:
    assert DIFFICULTIES[difficulty] == dc
    data = check_json(cli, "--difficulty", difficulty, "--roll", "10")
    assert (data["difficulty"], data["dc"]) == (difficulty, dc)


def test_the_default_is_a_medium_sleight_of_hand_check(cli: Cli) -> None:
    data = check_json(cli, "--roll", "10")
    assert (data["skill"], data["difficulty"], data["dc"]) == ("sleight_of_hand", "medium", 15)


def test_dc_overrides_the_difficulty(cli: Cli) -> None:
    data = check_json(cli, "--difficulty", "easy", "--dc", "18", "--roll", "10")
    assert (data["dc"], data["difficulty"]) == (18, None)


@pytest.mark.parametrize(
    ("roll", "success"), [("12", True), ("11", False), ("20", True), ("1", False)]
)
def test_the_total_meeting_the_dc_succeeds(cli: Cli, roll: str, success: bool) -> None:
    # Modifiers add up: 12 + 5 - 2 = 15 = DC 15.
    data = check_json(cli, "--roll", roll, "--modifier", "5", "--modifier", "-2")
    assert data["modifier"] == 3 and data["modifiers"] == [5, -2]
    assert data["total"] == int(roll) + 3
    assert data["success"] is success
    assert data["rolled_by"] == "game_master" and data["seed"] is None


def test_a_natural_20_or_1_is_only_its_total() -> None:
    # 5e skill checks have no automatic success or failure.
    assert not resolve("persuasion", 25, 4, (20,)).success
    assert resolve("persuasion", 5, 4, (1,)).success


def test_the_text_tells_the_roll_the_total_and_the_outcome(cli: Cli) -> None:
    args = ["--skill", "persuasion", "--difficulty", "hard", "--roll", "15", "--modifier", "5"]
    r = cli(["skill-check", *args])
    assert r.code == 0, r.err
    assert r.out.splitlines() == [
        "Persuasion check against DC 20 (hard).",
        "d20: 15.",
        "Rolled by the game-master.",
        "Total: 15 + 5 = 20 against DC 20.",
        "Success: the total meets the DC.",
        "The character manipulates their way to victory: they win this game of Three-Dragon Ante"
        " and the gold at stake, however the cards would have fallen.",
    ]


def test_italian(cli: Cli) -> None:
    args = ["--skill", "persuasione", "--difficulty", "difficilissima", "--modifier", "-1"]
    r = cli(["skill-check", *args, "--roll", "7", "--lang", "it"])
    assert r.code == 0, r.err
    assert r.out.splitlines() == [
        "Prova di Persuasione contro CD 25 (difficilissima).",
        "d20: 7.",
        "Tirato dal DM.",
        "Totale: 7 - 1 = 6 contro CD 25.",
        "Fallimento: il totale è inferiore alla CD.",
        "Il personaggio non riesce a pilotare la vittoria: perde questa partita e quanto ha"
        " puntato (il DM decide chi prende il piatto).",
    ]
    r = cli(["skill-check", "--roll", "15", "--lang", "it"])
    assert "Prova di Rapidità di Mano contro CD 15 (media)." in r.out
    assert "Successo: il totale raggiunge la CD." in r.out


def test_a_seeded_roll_is_reproducible(cli: Cli) -> None:
    first = check_json(cli, "--seed", "42", "--modifier", "2")
    again = check_json(cli, "--seed", "42", "--modifier", "2")
    assert first == again
    assert first["rolls"] == list(roll_d20s(42))
    assert first["rolled_by"] == "program" and first["seed"] == 42
    # Without a seed one is chosen and printed, so the roll can be repeated.
    r = cli(["skill-check"])
    assert r.code == 0, r.err
    assert "Rolled by the program (seed " in r.out
    rolls = {tuple(roll_d20s(seed)) for seed in range(200)}
    assert {r[0] for r in rolls} == set(range(1, 21))


def test_advantage_and_disadvantage(cli: Cli) -> None:
    data = check_json(cli, "--advantage", "--roll", "4", "--roll", "17")
    assert (data["mode"], data["rolls"], data["roll"]) == ("advantage", [4, 17], 17)
    data = check_json(cli, "--disadvantage", "--roll", "4", "--roll", "17")
    assert (data["mode"], data["roll"]) == ("disadvantage", 4)
    # Both together cancel out (5e): one d20.
    data = check_json(cli, "--advantage", "--disadvantage", "--roll", "9")
    assert (data["mode"], data["rolls"]) == ("normal", [9])
    seeded = check_json(cli, "--advantage", "--seed", "3")
    assert seeded["rolls"] == list(roll_d20s(3, "advantage"))
    assert seeded["roll"] == max(roll_d20s(3, "advantage"))
    r = cli(["skill-check", "--disadvantage", "--roll", "4", "--roll", "17"])
    assert "d20 with disadvantage: 4 and 17; the lower, 4, counts." in r.out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--roll", "0"], "--roll 0 is not a d20 roll"),
        (["--roll", "21"], "--roll 21 is not a d20 roll: it must be 1-20"),
        (["--roll", "x"], "--roll"),
        (["--roll", "3", "--roll", "4"], "give --roll once"),
        (["--advantage", "--roll", "3"], "give --roll twice"),
        (["--roll", "3", "--seed", "1"], "--seed is for the program's roll"),
        (["--difficulty", "trivial"], "unknown --difficulty 'trivial'"),
        (["--dc", "0"], "--dc must be at least 1"),
        (["--skill", "stealth"], "unknown --skill 'stealth'; choose from sleight-of-hand"),
        (["--lang", "fr"], "unknown language 'fr'"),
    ],
)
def test_mistakes_are_one_line(cli: Cli, args: list[str], fragment: str) -> None:
    assert_one_line_error(cli(["skill-check", *args]), fragment)


def test_the_rules_refuse_impossible_checks() -> None:
    with pytest.raises(SkillCheckError):
        resolve("sleight_of_hand", 15, 0, (21,))
    with pytest.raises(SkillCheckError):
        resolve("sleight_of_hand", 15, 0, (3,), "advantage")
    with pytest.raises(SkillCheckError):
        resolve("stealth", 15, 0, (3,))


def test_the_json_says_the_rule_behind_the_check(cli: Cli) -> None:
    data = check_json(cli, "--roll", "12", "--lang", "it")
    assert data["why"] == {
        "rule": t("why.skill_check", "it"),
        "book": "Legendary",
        "section": "Gamblers Unleashed: D20 Skill Checks",
        "text": "",
    }
