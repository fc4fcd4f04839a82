"""The table options every game command shares: ruleset, deck preset, endings, abilities.

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

from dragonante.engine.abilities.options import AbilityOptions
from dragonante.engine.config import GOLD_CHOICES
from dragonante.engine.decks import PRESETS
from dragonante.engine.records import loads, replay
from dragonante.interfaces.cli.app import UserError
from dragonante.interfaces.cli.local_plain import PlaySession
from dragonante.interfaces.cli.table_options import (
    TableChoices,
    ability_options,
    build_config,
    cli_name,
)
from dragonante.interfaces.narrate import Narrator, default_names
from dragonante.interfaces.session import LocalGame
from dragonante.interfaces.web.hub import Settings
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
        (["simulate", "--bogus"], "no such option: --bogus"),
        (["frob"], "no such command 'frob'"),
        (["tournament"], "missing option '--seats'"),
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


# --- D&D abilities and Play for fun -------------------------------------------------------


@pytest.mark.parametrize(
    ("choices", "expected"),
    [
        (TableChoices(), AbilityOptions()),
        (TableChoices(abilities="none"), AbilityOptions()),
        (TableChoices(abilities="disks"), AbilityOptions(system="disks")),
        (
            TableChoices(
                abilities="skills",
                ruleset="emperors-gambit",
                deck="eg-full",
                ability_assign="draft",
                abilities_per_character=2,
                ability_visibility="hidden",
                insight=("0=3", "2=-1"),
                qualified=("1=arcana,bluff,thievery",),
                dungeoneering="choose",
                streetwise="flight-strength",
            ),
            AbilityOptions(
                system="skills",
                per_character=2,
                assign="draft",
                visibility="hidden",
                insight=(3, 0, -1, 0),
                qualified=((), ("arcana", "bluff", "thievery"), (), ()),
                dungeoneering="choose",
                streetwise="flight_strength",
            ),
        ),
        (
            TableChoices(
                players=3,
                abilities="DISKS",
                ability=("0=fast-hands,cutting_words", "2=random"),
                ancestry=("1=red",),
                ability_visibility="public",
                ancestry_trigger="each-after",
            ),
            AbilityOptions(
                system="disks",
                assign="fixed",
                visibility="public",
                seats=(("fast_hands", "cutting_words"), (), ("random",)),
                ancestry=("", "red", ""),
                ancestry_trigger="each_after",
            ),
        ),
        (
            TableChoices(abilities="disks", ability=("1=random,random",), ability_assign="fixed"),
            AbilityOptions(
                system="disks", assign="fixed", seats=((), ("random", "random"), (), ())
            ),
        ),
        (
            TableChoices(abilities="disks", ability_assign="random", abilities_per_character=4),
            AbilityOptions(system="disks", per_character=4),
        ),
    ],
)
def test_ability_options_reach_the_config(choices: TableChoices, expected: AbilityOptions) -> None:
    assert ability_options(choices) == expected
    assert build_config(choices).abilities == expected


@pytest.mark.parametrize(
    ("choices", "fragment"),
    [
        (TableChoices(abilities="cards"), "unknown --abilities 'cards'; choose from disks, skills"),
        (TableChoices(ability=("0=fast-hands",)), "without --abilities disks or --abilities"),
        (TableChoices(streetwise="any-card"), "no abilities to set: --streetwise"),
        (TableChoices(abilities="disks", ability=("0",)), "--ability '0' should be SEAT=KEY,KEY"),
        (TableChoices(abilities="disks", ability=("x=random",)), "should be SEAT=KEY,KEY"),
        (TableChoices(abilities="disks", ability=("4=random",)), "no seat 4 at this table"),
        (
            TableChoices(abilities="disks", ability=("0=random", "0=desperation")),
            "--ability names seat 0 twice",
        ),
        (TableChoices(abilities="disks", ability=("0=fireball",)), "'fireball' is not one"),
        (TableChoices(abilities="disks", ability=("0=arcana",)), "of --abilities skills"),
        (TableChoices(abilities="skills", ability=("0=fast-hands",)), "of --abilities disks"),
        (
            TableChoices(abilities="disks", ability=("0=desperation,desperation",)),
            "lists an ability twice for seat 0",
        ),
        (
            TableChoices(abilities="disks", ability=("0=" + ",".join(["random"] * 5),)),
            "more than 4 abilities",
        ),
        (
            TableChoices(abilities="skills", ability=("0=arcana", "2=arcana")),
            "belongs to one character only",
        ),
        (TableChoices(abilities="disks", ability_assign="fixed"), "needs the abilities"),
        (
            TableChoices(abilities="disks", ability=("0=random",), ability_assign="draft"),
            "cannot be used with --ability-assign draft",
        ),
        (TableChoices(abilities="disks", ability_assign="auction"), "--ability-assign 'auction'"),
        (TableChoices(abilities="disks", abilities_per_character=5), "must be 1-4"),
        (TableChoices(abilities="skills", abilities_per_character=-1), "must be 1-3"),
        (TableChoices(abilities="disks", ability_visibility="secret"), "'secret'"),
        (TableChoices(abilities="disks", ancestry=("0=pink",)), "--ancestry 'pink'"),
        (
            TableChoices(abilities="skills", ancestry=("0=red",)),
            "only applies to --abilities disks",
        ),
        (TableChoices(abilities="skills", ancestry_trigger="second"), "--ancestry-trigger only"),
        (TableChoices(abilities="disks", dungeoneering="choose"), "--dungeoneering only"),
        (TableChoices(abilities="disks", insight=("0=3",)), "--insight only applies"),
        (TableChoices(abilities="skills", insight=("0=3",)), "with --ability-assign draft"),
        (
            TableChoices(abilities="skills", ability_assign="draft", insight=("0=three",)),
            "--insight 0=three",
        ),
        (
            TableChoices(abilities="skills", ability_assign="draft", insight=("1=40",)),
            "from -10 to 30",
        ),
        (TableChoices(abilities="skills", streetwise="all"), "choose from any-card, flight-str"),
        (TableChoices(abilities="disks", qualified=("0=random",)), "'random' is not one"),
        # AbilityOptions.validate's own reasons are one line too.
        (
            TableChoices(players=6, abilities="skills", abilities_per_character=3),
            "cannot use these abilities: 18 special abilities are needed",
        ),
        (TableChoices(play_for_fun=True, gold_per_player=10), "--gold-per-player 10"),
        (TableChoices(play_for_fun=True, starting_gold=30), "--starting-gold 30"),
    ],
)
def test_bad_ability_options_say_why(choices: TableChoices, fragment: str) -> None:
    with pytest.raises(UserError) as info:
        build_config(choices)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_play_for_fun_is_8_gold_per_player() -> None:
    assert 8 in GOLD_CHOICES
    assert build_config(TableChoices(players=3, play_for_fun=True)).starting_gold == 24
    same = build_config(TableChoices(players=3, play_for_fun=True, gold_per_player=8))
    assert same.starting_gold == 24
    # Whatever the ruleset (the original rules would start every hoard with 50).
    original = build_config(TableChoices(players=5, ruleset="original", play_for_fun=True))
    assert original.starting_gold == 40
    assert build_config(TableChoices(players=3)).gold_per_player == 10


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--abilities", "cards"], "unknown --abilities 'cards'"),
        (["--ability", "0=fast-hands"], "without --abilities"),
        (["--abilities", "disks", "--ability", "9=random"], "no seat 9"),
        (["--abilities", "skills", "--ability", "0=cutting-words"], "of --abilities disks"),
        (["--abilities", "disks", "--ability-visibility", "secret"], "'secret'"),
        (["--abilities", "disks", "--abilities-per-character", "9"], "must be 1-4"),
        (["--abilities", "skills", "--ability-assign", "draft", "--insight", "0=x"], "0=x"),
        (["--play-for-fun", "--gold-per-player", "12"], "--gold-per-player 12"),
        (["--abilities", "disks", "--abilities-per-character", "many"], "--abilities-per-char"),
    ],
)
@pytest.mark.parametrize("command", COMMANDS)
def test_bad_ability_options_are_one_line_on_every_command(
    cli: Cli, command: str, args: list[str], fragment: str
) -> None:
    full = [command, *args]
    if command == "tournament":
        full += ["--seats", "random,random,random,random"]
    assert_one_line_error(cli(full), fragment)


@pytest.mark.parametrize(
    "args",
    [
        ["--abilities", "disks"],
        ["--abilities", "skills", "--ability-assign", "draft"],
        ["--abilities", "skills", "--ability-assign", "draft", "--abilities-per-character", "2"],
        ["--abilities", "disks", "--ability", "0=random,random", "--ability", "2=fast-hands"],
    ],
)
def test_simulate_plays_with_abilities(cli: Cli, args: list[str]) -> None:
    r = cli(["simulate", *args, "--games", "20", "--seed", "2", "--json"])
    assert r.code == 0, r.err
    report = json.loads(r.out)
    assert report["completed"] == 20
    assert report["errors"] == [] and report["invariant_violations"] == []


def test_tournament_moves_abilities_with_the_entry(cli: Cli) -> None:
    args = ["tournament", "--seats", "heuristic@random,heuristic", "--games", "4", "--json"]
    r = cli([*args, "--abilities", "disks"])
    assert r.code == 0, r.err
    result = json.loads(r.out)
    assert set(result["bots"]) == {"heuristic@random", "heuristic"}
    assert sum(b["wins"] for b in result["bots"].values()) == pytest.approx(4)
    # Abilities after @ need a table that plays with them, and of its system.
    assert_one_line_error(cli(args), "the table plays without them")
    bad = ["tournament", "--seats", "heuristic@arcana,heuristic", "--abilities", "disks"]
    assert_one_line_error(cli(bad), "arcana")


def test_bench_plays_with_abilities(cli: Cli) -> None:
    r = cli(["bench", "--abilities", "skills", "--seconds", "1", "--json"])
    assert r.code == 0, r.err
    assert json.loads(r.out)["games"] > 0


def test_play_starts_with_abilities(cli: Cli) -> None:
    args = ["play", "--players", "3", "--seed", "5", "--abilities", "disks"]
    r = cli([*args, "--ability", "0=fast-hands,desperation", "--ability", "1=random"], "")
    assert r.code == 0, r.err
    assert "Your abilities: Fast Hands, Desperation." in r.out
    r = cli(["play", "--players", "3", "--seed", "5", "--abilities", "skills", "--play-for-fun"])
    assert r.code == 0, r.err
    assert "(special abilities)" in r.out


def test_play_with_drafted_special_abilities_to_the_end(cli: Cli) -> None:
    args = ["play", "--players", "3", "--seed", "5", "--ruleset", "emperors-gambit"]
    args += ["--abilities", "skills", "--ability-assign", "draft", "--insight", "0=3"]
    r = cli(args, ONES)
    assert r.code == 0, r.err
    assert "You make an Insight check" in r.out
    assert "Game over" in r.out


def test_every_game_command_lists_the_ability_options(cli: Cli) -> None:
    for command in COMMANDS:
        r = cli([command, "--help"])
        text = " ".join(r.out.replace("│", " ").split())
        for option in ("--abilities", "--ability-assign", "--insight", "--play-for-fun"):
            assert option in text, (command, option)


class ServeCalled(Exception):
    """Raised by the fake uvicorn.run: the server would start here."""


def test_serve_passes_the_lobby_default_abilities(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[Settings] = []

    def fake_create_app(settings: Settings, engine: object, cluster: object = None) -> Settings:
        seen.append(settings)
        return settings

    def fake_run(app: object, **kwargs: object) -> None:
        raise ServeCalled

    monkeypatch.setattr("dragonante.interfaces.cli.serve._check_port", lambda h, p, lang: None)
    monkeypatch.setattr("dragonante.interfaces.web.http.app.create_app", fake_create_app)
    monkeypatch.setattr("uvicorn.run", fake_run)
    db = str(tmp_path / "t.sqlite")
    with pytest.raises(ServeCalled):
        cli(["serve", "--db", db, "--abilities", "skills", "--ability-visibility", "hidden"])
    assert (seen[0].default_abilities, seen[0].default_ability_visibility) == ("skills", "hidden")
    with pytest.raises(ServeCalled):
        cli(["serve", "--db", db])
    assert (seen[1].default_abilities, seen[1].default_ability_visibility) == ("", "")
    assert_one_line_error(cli(["serve", "--abilities", "cards"]), "unknown --abilities")
    assert_one_line_error(cli(["serve", "--ability-visibility", "public"]), "needs --abilities")
    # several processes share tables through PostgreSQL only
    assert_one_line_error(cli(["serve", "--db", db, "--workers", "2"]), "needs PostgreSQL")
    # a table moving to its requests needs shared storage, and one process per port
    assert_one_line_error(cli(["serve", "--db", db, "--affinity"]), "--affinity needs PostgreSQL")
    refused = cli(["serve", "--db", db, "--affinity", "--workers", "2"])
    assert_one_line_error(refused, "one process per port")


def test_serve_compresses_frames_only_when_asked(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[dict[str, object]] = []

    def fake_run(app: object, **kwargs: object) -> None:
        seen.append(kwargs)
        raise ServeCalled

    monkeypatch.setattr("dragonante.interfaces.cli.serve._check_port", lambda h, p, lang: None)
    monkeypatch.setattr("uvicorn.run", fake_run)
    db = str(tmp_path / "t.sqlite")
    with pytest.raises(ServeCalled):
        cli(["serve", "--db", db])
    with pytest.raises(ServeCalled):
        cli(["serve", "--db", db, "--ws-compression"])
    assert [k["ws_per_message_deflate"] for k in seen] == [False, True]
    assert all(k["proxy_headers"] is False for k in seen)


# --- issue 21, deviation 15: every optional rule is settable where games are set up ---------


def test_hole_in_the_house_special_count_and_any_rule_switch_reach_the_config() -> None:
    """Legendary Appendix 2: 'Any gold paid into the hole goes to the house'."""
    config = build_config(
        TableChoices(
            ruleset="emperors-gambit",
            hole_in_the_house=True,
            rules=(
                "ante-tied-leader=first-strongest",
                "min_rounds=4",
                "mortals-in-strength-flights=no",
            ),
        )
    )
    assert config.rules.hole_recipient == "house"
    assert config.rules.ante_tied_leader == "first_strongest"
    assert config.rules.min_rounds == 4
    assert config.rules.mortals_in_strength_flights is False
    # The ruleset's own defaults stay where no switch is given.
    assert config.rules.ante_redo == "all_tied_for_strongest"
    assert build_config(TableChoices(special_count=12)).deck.special_count == 12
    six = build_config(TableChoices(deck="oddshuffle", original_six_cards=True))
    assert six.deck.original_colors_six_cards


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--rule", "nope=1"], "unknown rule 'nope'"),
        (["--rule", "min-rounds"], "is not KEY=VALUE"),
        (["--rule", "min-rounds=x"], "not a whole number"),
        (["--rule", "archmage-forces-optional-triggers=maybe"], "not true or false"),
        (["--rule", "min-rounds=4", "--rule", "min_rounds=5"], "given twice"),
        (["--rule", "ante-redo=sometimes"], "ante_redo is one of"),
        (["--rule", "ruleset=original"], "unknown rule 'ruleset'"),
        # Deviation 4: a deck that is not 70 + exactly the special count is refused.
        (["--deck-selection", "traditional", "--special-count", "8"], "special_count must be 10"),
        (["--deck-selection", "traditional", "--include", "L-mor-kobold"], "cannot be added"),
        (
            ["--deck-selection", "druids-party", "--special-count", "1", "--include", "L-mor-fool"],
            "2 specials are forced in",
        ),
        (["--deck", "eg-full", "--special-count", "8"], "--special-count"),
        (["--deck", "eg-full", "--original-six-cards"], "needs a theme deck"),
    ],
)
def test_bad_rule_and_deck_options_are_one_line(cli: Cli, args: list[str], fragment: str) -> None:
    assert_one_line_error(cli(["simulate", "--games", "1", *args]), fragment)


def test_simulate_plays_with_the_hole_in_the_house(cli: Cli) -> None:
    result = cli(["simulate", "--games", "3", "--hole-in-the-house", "--check-every-step"])
    assert result.code == 0, result.err
