"""The scenario runner is strict: unscripted questions, unused or illegal answers and
wrong expectations all fail, and malformed files give clear errors."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from dragonante.interfaces.cli import app
from dragonante.scenarios import ScenarioError, parse, run

BASE = """
title = "Red Dragon takes from the strongest opponent"
[config]
players = 3
[table]
hoards = [10, 10, 10]
stakes = 5
flights = [[], ["L-std-gold-13"], ["L-std-white-1"]]
hands = [["L-std-red-2", "L-std-black-1"], ["L-std-blue-1"], ["L-std-green-1"]]
deck_top = ["L-std-white-2", "L-std-white-4", "L-std-white-5", "L-std-white-6", "L-std-white-8"]
"""


def test_a_correct_script_passes() -> None:
    text = (
        BASE
        + """
[[step]]
seat = 0
ask = "play"
answer = "L-std-red-2"
# Seat 1 lost its only card, so it buys: reveals the White 2, pays 2, draws 4.
[expect]
hoards = [11, 7, 10]
stakes = 7
discard = ["L-std-white-2"]
pending = { seat = 1, kind = "play" }
[expect.hands]
0 = ["L-std-black-1", "L-std-blue-1"]
1 = ["L-std-white-4", "L-std-white-5", "L-std-white-6", "L-std-white-8"]
"""
    )
    result = run(parse(text))
    assert result.passed, result.failures


def test_wrong_expectation_fails_with_the_values() -> None:
    text = (
        BASE
        + """
[[step]]
seat = 0
ask = "play"
answer = "L-std-red-2"
[expect]
hoards = [10, 10, 10]
"""
    )
    result = run(parse(text))
    assert result.failures == ["expect: hoards is [11, 7, 10], expected [10, 10, 10]"]


def test_unscripted_question_fails() -> None:
    # Seat 0 plays the Blue-free hand; next seat 1 must play, but the script
    # claims seat 2 is asked.
    text = (
        BASE
        + """
[[step]]
seat = 0
ask = "play"
answer = "L-std-black-1"
[[step]]
seat = 2
ask = "play"
answer = "L-std-green-1"
"""
    )
    result = run(parse(text))
    assert len(result.failures) == 1
    assert "unscripted question: seat 1 is asked 'play'" in result.failures[0]


def test_script_ending_inside_a_power_fails() -> None:
    text = (
        BASE.replace('"L-std-red-2", "L-std-black-1"', '"L-std-blue-2", "L-std-black-1"')
        + """
[[step]]
seat = 0
ask = "play"
answer = "L-std-blue-2"
"""
    )
    result = run(parse(text))
    assert any(
        "end of script: unscripted question" in f and "blue_mode" in f for f in result.failures
    )


def test_illegal_answer_fails() -> None:
    text = (
        BASE
        + """
[[step]]
seat = 0
ask = "play"
answer = "L-std-gold-2"
"""
    )
    result = run(parse(text))
    assert "not a legal answer" in result.failures[0]


def test_answers_after_game_over_fail() -> None:
    text = """
title = "answers past the end"
[config]
players = 2
[table]
hoards = [1, 5]
hole_owed = [1, 0]
stakes = 2
round = 3
turn = 1
leader = 0
flights = [["L-std-gold-13", "L-std-gold-11", "L-std-gold-9"], ["L-std-white-1", "L-std-white-2"]]
round_cards = ["L-std-gold-9", ""]
hands = [["L-std-red-2", "L-std-red-3"], ["L-std-white-3", "L-std-black-1"]]
[[step]]
seat = 1
ask = "play"
answer = "L-std-black-1"
[[step]]
seat = 0
ask = "ante"
answer = "L-std-red-2"
"""
    result = run(parse(text))
    assert result.failures, "a step after the game ended must fail"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("title = 'x'\n[table]\nhands = [['L-std-nope']]", "unknown card id 'L-std-nope'"),
        ("title = 'x'\n[table]\nhnads = []", "unknown table key"),
        ("[table]\nhands = []", "needs a title"),
        ("title = 'x'\n[table\n", "not valid TOML"),
        ("title = 'x'\n[config]\nplayers = 9\n[table]\nhands = []", "players must be 2-6"),
        (
            "title = 'x'\n[table]\nhands = []\n[[step]]\nseat = 0\nask = 'dance'\nanswer = 1",
            "unknown question 'dance'",
        ),
        ("title = 'x'\n[table]\nhands = []\n[expect]\nhoard = [1]", "unknown expectation"),
    ],
)
def test_malformed_files_are_clear_errors(text: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        parse(text, "bad.toml")


def test_cli_exit_codes(tmp_path) -> None:
    runner = CliRunner()
    good = tmp_path / "good.toml"
    good.write_text(BASE + '[[step]]\nseat = 0\nask = "play"\nanswer = "L-std-red-2"\n')
    bad = tmp_path / "bad.toml"
    bad.write_text(BASE + "[expect]\nstakes = 99\n")
    broken = tmp_path / "broken.toml"
    broken.write_text("title = [")
    assert runner.invoke(app, ["scenario", "run", str(good)]).exit_code == 0
    res = runner.invoke(app, ["scenario", "run", str(good), str(bad)])
    assert res.exit_code == 1
    assert "PASS" in res.output and "FAIL" in res.output
    res = runner.invoke(app, ["scenario", "run", str(broken)])
    assert res.exit_code == 2
    assert "Traceback" not in res.output


SHOWN = (
    BASE
    + """
[[step]]
seat = 0
ask = "play"
answer = "L-std-red-2"
# The Red takes a random card of seat 1's hand, its only card: the Blue 1.
"""
)


def test_shown_states_what_each_seat_knows() -> None:
    # The Red's taker and its victim both know where the Blue 1 went; seat 2 does not.
    text = (
        SHOWN
        + """
[expect.shown.1]
known_in_hands = { 0 = ["L-std-blue-1"] }
hand = ["L-std-white-4", "L-std-white-5", "L-std-white-6", "L-std-white-8"]
question = { kind = "play", seat = 1, source = "" }
[expect.shown.2]
known_in_hands = {}
hand = ["L-std-green-1"]
"""
    )
    result = run(parse(text))
    assert result.passed, result.failures


def test_shown_fails_on_what_a_seat_is_not_shown() -> None:
    text = (
        SHOWN
        + """
[expect.shown.2]
known_in_hands = { 0 = ["L-std-blue-1"] }
"""
    )
    result = run(parse(text))
    assert not result.passed
    assert "seat 2 is shown {}" in result.failures[0]


def test_shown_names_an_unknown_view_field() -> None:
    text = SHOWN + '[expect.shown.1]\nknown_cards = { 0 = ["L-std-blue-1"] }\n'
    with pytest.raises(ScenarioError, match="not a field of the view"):
        run(parse(text))


def test_pending_source_is_the_card_that_asks() -> None:
    good = SHOWN + '[expect]\npending = { seat = 1, kind = "play", source = "" }\n'
    assert run(parse(good)).passed
    bad = SHOWN + '[expect]\npending = { seat = 1, kind = "play", source = "L-std-red-2" }\n'
    result = run(parse(bad))
    assert result.failures == [
        "expect.pending: the question comes from no card, expected 'L-std-red-2'"
    ]


REFUSED = """
title = "Five ability disks are more than a character may have"
refused = "at most 4 abilities per character"
[config]
players = 2
abilities = { system = "disks", assign = "fixed", seats = [["desperation", "fast_hands", \
"practice_counts", "cutting_words", "gambling_background"], []] }
"""


def test_refused_passes_when_the_table_is_refused_with_that_text() -> None:
    result = run(parse(REFUSED))
    assert result.passed, result.failures
    assert result.state is None and result.events == []


def test_refused_fails_when_the_table_is_accepted() -> None:
    text = REFUSED.replace(', "gambling_background"', "")
    result = run(parse(text))
    assert result.failures == [
        "refused: the table was accepted, expected a refusal: 'at most 4 abilities per character'"
    ]


def test_refused_fails_when_the_message_says_something_else() -> None:
    text = REFUSED.replace("at most 4 abilities", "at most 3 abilities")
    result = run(parse(text))
    assert len(result.failures) == 1
    assert "at most 4 abilities per character" in result.failures[0]
    assert "does not contain 'at most 3 abilities per character'" in result.failures[0]


def test_refused_builds_the_config_at_every_run() -> None:
    # Parsed once, run twice: the config is built by each run (the mutation
    # runners parse the files once and change the engine between runs).
    scenario = parse(REFUSED)
    assert run(scenario).passed and run(scenario).passed
    assert scenario.raw_config["abilities"]["system"] == "disks"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('[table]\nstart = "new"\n', "never played; remove \\['table'\\]"),
        ('[[step]]\nseat = 0\nask = "play"\nanswer = "pass"\n', "remove \\['step'\\]"),
        ("[expect]\nstakes = 0\n", "remove \\['expect'\\]"),
    ],
)
def test_a_refused_table_is_never_played(extra: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        parse(REFUSED + extra)


def test_refused_needs_the_text() -> None:
    with pytest.raises(ScenarioError, match="refused must be the text"):
        parse(REFUSED.replace('refused = "at most 4 abilities per character"', 'refused = ""'))
    with pytest.raises(ScenarioError, match="refused must be the text"):
        parse(REFUSED.replace('refused = "at most 4 abilities per character"', "refused = 1"))


ABILITIES_SHOWN = """
title = "Seat 1's hidden Fast Hands is shown to its owner only"
[config]
players = 2
abilities = { system = "disks", assign = "fixed", seats = [["draconic_ancestry"], ["fast_hands"]], \
ancestry = ["red", ""], visibility = "hidden" }
[table]
hands = [["L-std-white-4"], ["L-std-white-6"]]
[expect.shown.0]
abilities = { held = [[2], []], ancestry = ["red", "none"] }
"""


def test_shown_abilities_compares_the_sub_keys_given() -> None:
    assert run(parse(ABILITIES_SHOWN)).passed
    wrong = ABILITIES_SHOWN.replace("held = [[2], []]", "held = [[2], [3]]")
    result = run(parse(wrong))
    assert result.failures == [
        "expect.shown.0.abilities: seat 0 is shown {'held': [[2], []], 'ancestry': ['red', None]}, "
        "expected {'held': [[2], [3]], 'ancestry': ['red', None]}"
    ]
    with pytest.raises(ScenarioError, match=r"unknown keys \['colors'\]"):
        run(parse(ABILITIES_SHOWN.replace('ancestry = ["red", "none"]', "colors = []")))


def test_refused_checks_the_message_a_player_reads_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # An interface shows the catalog's message for the error's code: a wrong code
    # (another message) fails the scenario even when the English text is right.
    import dragonante.scenarios.runner as runner

    monkeypatch.setattr(runner, "error_reason", lambda e: "abilities.seats[0]: too many")
    result = run(parse(REFUSED))
    assert result.failures == [
        "refused: 'abilities.seats[0]: too many' does not contain "
        "'at most 4 abilities per character'"
    ]


def test_shown_config_is_what_the_seat_is_told_of_the_settings() -> None:
    # Hidden abilities: seat 0 is told seat 1 has one ability, not which.
    good = ABILITIES_SHOWN + (
        '[expect.shown.0.config.abilities]\nseats = [["draconic_ancestry"], ["random"]]\n'
        'ancestry = ["red", ""]\n'
    )
    assert run(parse(good)).passed
    leak = good.replace('["random"]]', '["fast_hands"]]')
    result = run(parse(leak))
    assert len(result.failures) == 1
    assert (
        "seat 0 is shown {'abilities': {'seats': [['draconic_ancestry'], ['random']]"
        in (result.failures[0])
    )


def test_time_up_must_be_true_or_false() -> None:
    text = BASE + '[[step]]\nseat = 0\nask = "play"\nanswer = "L-std-red-2"\ntime_up = "yes"\n'
    with pytest.raises(ScenarioError, match="time_up: expected true or false"):
        parse(text)


def test_shown_question_compares_its_number_and_context() -> None:
    played = run(parse(SHOWN))
    assert played.state is not None and played.state.pending is not None
    n, ctx = played.state.pending.id, list(played.state.pending.ctx or ())
    good = SHOWN + f"[expect.shown.1]\nquestion = {{ id = {n}, ctx = {ctx} }}\n"
    assert run(parse(good)).passed
    bad = run(parse(SHOWN + f"[expect.shown.1]\nquestion = {{ id = {n + 1} }}\n"))
    assert bad.failures == [
        f"expect.shown.1.question: seat 1 is shown {{'id': {n}}}, expected {{'id': {n + 1}}}"
    ]


DETERMINIZED = """
title = "t"
[config]
players = 3
[config.abilities]
system = "disks"
assign = "fixed"
seats = [["fast_hands"], ["gambling_background"], ["draconic_ancestry"]]
ancestry = ["", "", "red"]
visibility = "hidden"
[table]
leader = 0
stakes = 10
hands = [["L-std-white-4"], ["L-std-black-2"], ["L-std-green-5"]]
[expect]
determinized = { seat = 0, seeds = [1, 2] }
"""


def test_determinized_checks_the_imagined_worlds_of_a_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert run(parse(DETERMINIZED)).passed
    from dragonante.engine.abilities.table import AbilityTable
    from dragonante.engine.determinize import determinize
    from dragonante.scenarios import determinized as module

    def leaky(s: Any, seat: int, seed: int) -> Any:
        c = determinize(s, seat, seed)
        tbl = c.abilities
        assert isinstance(tbl, AbilityTable)
        tbl.held[1] = (*tbl.held[1], 3)  # an ability too many
        return c

    monkeypatch.setattr(module, "determinize", leaky)
    failures = run(parse(DETERMINIZED)).failures
    assert "expect.determinized (seat 0, seed 1): seat 1 holds 2 abilities, really 1" in failures
    assert any("shows the seat other abilities" in f for f in failures)


def test_determinized_names_a_bad_seat() -> None:
    with pytest.raises(ScenarioError, match=r"determinized\.seat: no seat 5"):
        run(parse(DETERMINIZED.replace("seat = 0, seeds", "seat = 5, seeds")))
