"""The table options every game command shares: ruleset, deck preset, endings.

Each command (``play``, ``simulate``, ``bench``, ``tournament``) builds its
table with :func:`build_config`; these tests check what each option sets,
that every mistake is one line with exit 2, that ``--help`` lists the deck
presets, and that the optional endings work end to end at the terminal
(a time limit and a series of games included).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO, cast

import pytest

from dragonante.engine.decks import PRESETS
from dragonante.engine.records import loads, replay
from dragonante.interfaces.cli.app import UserError
from dragonante.interfaces.cli.play import PlaySession
from dragonante.interfaces.cli.table_options import TableChoices, build_config, cli_name
from dragonante.interfaces.narrate import Narrator, default_names
from dragonante.interfaces.session import LocalGame
from tests.interfaces.conftest import Cli, assert_one_line_error

ONES = "1\n" * 5000
COMMANDS = ("play", "simulate", "bench", "tournament")


def test_ruleset_and_deck_reach_the_config() -> None:
    config = build_config(TableChoices(players=5, ruleset="emperors-gambit", deck="evil-times"))
    assert config.rules.ruleset == "emperors_gambit"
    assert config.rules.debt_model == "creditors"
    assert config.rules.strength_flight_ante_cards == 3
    assert config.deck.preset == "evil_times"
    # Underscores are accepted too, and the Legendary ruleset with the EG deck.
    mixed = build_config(TableChoices(ruleset="legendary", deck="eg_full"))
    assert (mixed.rules.ruleset, mixed.deck.preset) == ("legendary", "eg_full")


def test_the_original_rules_start_with_50_gold_unless_told_otherwise() -> None:
    assert build_config(TableChoices(ruleset="original")).starting_gold == 50
    assert build_config(TableChoices(ruleset="original", starting_gold=30)).starting_gold == 30
    assert build_config(TableChoices(ruleset="legendary", players=3)).starting_gold == 30
    assert build_config(TableChoices(starting_gold=77)).starting_gold == 77


def test_endings_and_custom_cards_reach_the_config() -> None:
    config = build_config(
        TableChoices(
            players=4,
            deck="custom",
            cards=("EG-brown", "EG-gray", "L-std-red", "L-std-blue", "L-std-black", "EG-io"),
            gambits=3,
            target_gold=60,
            players_remaining=2,
            time_limit_minutes=20,
            series_games=3,
        )
    )
    assert config.deck.custom[-2:] == ("L-std-black", "EG-io")
    e = config.ending
    assert (e.gambits, e.target_gold, e.players_remaining) == (3, 60, 2)
    assert (e.time_limit_minutes, e.series_games) == (20, 3)


@pytest.mark.parametrize(
    ("choices", "fragment"),
    [
        (TableChoices(ruleset="poker"), "unknown ruleset 'poker'"),
        (TableChoices(deck="tarot"), "unknown deck 'tarot'"),
        (TableChoices(deck="custom"), "--deck custom needs the cards"),
        (TableChoices(cards=("EG-brown",)), "--card only applies to --deck custom"),
        (TableChoices(deck="eg-full", include=("L-mor-druid",)), "--include only apply"),
        (TableChoices(deck="evil-times", deck_selection="pick_em"), "--deck-selection"),
        (TableChoices(starting_gold=0), "--starting-gold must be at least 1"),
        (TableChoices(gambits=-1), "--gambits cannot be negative"),
        (TableChoices(players=4, players_remaining=4), "players_remaining"),
        (TableChoices(deck="custom", cards=("EG-brown",)), "need at least"),
        (TableChoices(deck="custom", cards=("nonsense",)), "nonsense"),
    ],
)
def test_bad_table_options_say_why(choices: TableChoices, fragment: str) -> None:
    with pytest.raises(UserError, match=None) as info:
        build_config(choices)
    assert fragment in str(info.value)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_game_command_lists_the_rulesets_and_deck_presets(cli: Cli, command: str) -> None:
    r = cli([command, "--help"])
    assert r.code == 0
    text = " ".join(r.out.replace("│", " ").split())
    for option in ("--ruleset", "--deck", "--starting-gold", "--gambits", "--target-gold"):
        assert option in text, option
    assert "emperors-gambit" in text
    for preset in PRESETS:
        assert cli_name(preset) in text.replace("- ", "-"), preset


@pytest.mark.parametrize("command", COMMANDS)
def test_every_game_command_refuses_an_unknown_deck(cli: Cli, command: str) -> None:
    args = [command, "--deck", "tarot"]
    if command == "tournament":
        args += ["--seats", "random,random"]
    assert_one_line_error(cli(args), "unknown deck 'tarot'")


def test_simulate_plays_emperors_gambit_theme_decks(cli: Cli) -> None:
    r = cli(
        [
            "simulate",
            *("--ruleset", "emperors-gambit", "--deck", "strength-and-greed"),
            *("--players", "3", "--games", "30", "--seed", "4", "--json"),
        ]
    )
    assert r.code == 0, r.err
    report = json.loads(r.out)
    assert report["completed"] == 30
    assert report["errors"] == [] and report["invariant_violations"] == []


def test_simulate_with_a_gambit_limit_stops_after_that_many_gambits(cli: Cli) -> None:
    r = cli(["simulate", "--gambits", "2", "--games", "40", "--seed", "1", "--json"])
    assert r.code == 0, r.err
    report = json.loads(r.out)
    assert report["max_gambits"] <= 2
    assert report["completed"] == 40


def test_bench_runs_the_original_rules(cli: Cli) -> None:
    r = cli(["bench", "--ruleset", "original", "--seconds", "0.3", "--json"])
    assert r.code == 0, r.err
    assert json.loads(r.out)["games"] > 0


def test_tournament_takes_the_table_options(cli: Cli) -> None:
    r = cli(
        [
            "tournament",
            *("--seats", "baseline,random", "--games", "4", "--json"),
            *("--ruleset", "emperors-gambit", "--deck", "eg-full", "--starting-gold", "12"),
        ]
    )
    assert r.code == 0, r.err
    result = json.loads(r.out)
    assert sum(b["wins"] for b in result["bots"].values()) == pytest.approx(4)


def test_play_an_emperors_gambit_theme_deck_to_the_end(cli: Cli) -> None:
    args = ["play", "--players", "3", "--seed", "5", "--ruleset", "emperors-gambit"]
    r = cli([*args, "--deck", "evil-times"], ONES)
    assert r.code == 0, r.err
    assert "Game over" in r.out
    assert "Gold Dragon" not in r.out  # an evil-only deck


def test_play_a_series_adds_up_every_game(cli: Cli, tmp_path: Path) -> None:
    record = tmp_path / "night.json"
    args = ["play", "--players", "2", "--seed", "8", "--series", "2", "--gambits", "2"]
    r = cli([*args, "--record", str(record)], ONES)
    assert r.code == 0, r.err
    assert "=== Game 1 of 2" in r.out and "=== Game 2 of 2" in r.out
    assert "The series is over." in r.out
    finals = []
    for k in (1, 2):
        state = replay(loads((tmp_path / f"night.{k}.json").read_text()))
        assert state.over
        finals.append(state.hoards)
    totals = [finals[0][p] + finals[1][p] for p in range(2)]
    best = max(totals)
    assert f"Most gold in all games combined ({best} gold)" in r.out


class FakeClock:
    """Minutes pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class ClockedInput:
    """Answers "1" forever; after ``after`` answers the clock jumps past the limit."""

    def __init__(self, clock: FakeClock, after: int) -> None:
        self.clock = clock
        self.after = after
        self.count = 0

    def readline(self) -> str:
        self.count += 1
        if self.count == self.after:
            self.clock.now += 3600
        return "1\n"


def test_a_time_limit_plays_one_more_gambit_and_the_record_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = build_config(TableChoices(players=3, gold_per_player=15, time_limit_minutes=30))
    game = LocalGame(config, 21, 0, ["random", "random"])
    narrator = Narrator(default_names(3, "en", me=0), "en", me=0)
    clock = FakeClock()
    record = tmp_path / "timed.json"
    session = PlaySession(game, narrator, record, cast(TextIO, ClockedInput(clock, 8)), 30, clock)
    assert session.run() == 0
    out = capsys.readouterr().out
    state = game.state
    assert state.over
    called_at = game.record.last_gambit_called_after
    assert called_at is not None
    assert "Time is up: gambit" in out
    last = state.last_gambit
    # The game ended with that gambit (or earlier, if a hoard emptied first).
    assert state.gambit <= last
    saved = loads(record.read_text())
    assert saved.last_gambit_called_after == called_at
    again = replay(saved)
    assert again.hoards == state.hoards and again.last_gambit == last


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["simulate", "--games", "abc"], "--games"),
        (["simulate", "--bogus"], "No such option: --bogus"),
        (["frob"], "No such command 'frob'"),
        (["tournament"], "Missing option '--seats'"),
        (["dice", "play", "--players", "x"], "--players"),
    ],
)
def test_usage_mistakes_are_one_line_not_a_box(cli: Cli, args: list[str], fragment: str) -> None:
    r = cli(args)
    assert_one_line_error(r, fragment, "--help")
    assert "╭" not in r.err


def test_no_arguments_prints_the_help_and_succeeds(cli: Cli) -> None:
    r = cli([])
    assert r.code == 0
    assert "simulate" in r.out and "tournament" in r.out
