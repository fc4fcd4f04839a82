"""``hint`` in ``play --plain``: the hard bot's answer and why, then the question again.

The hint printed must be the one :func:`dragonante.bots.hint.hint` gives for
the seat's view of that question (same seed, same budget), its answers
named as the numbered choices name them; the question is then asked again
and the game goes on; Italian says it in Italian (``consiglio`` too).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from dragonante.bots import SeatView
from dragonante.bots.hint import hint, hint_seed
from dragonante.interfaces.cli.local_plain import PlaySession
from dragonante.interfaces.cli.table_options import DEFAULT_TABLE, build_config
from dragonante.interfaces.hint_words import hint_words
from dragonante.interfaces.narrate import Narrator, table_names
from dragonante.interfaces.session import LocalGame
from tests.interfaces.conftest import Cli

ITERS = 60
GAME = ["play", "--plain", "--players", "3", "--seed", "11"]
PROMPT = "Your choice (1-6, h for help): "


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PlaySession, "hint_iters", ITERS)


def expected_lines(lang: str) -> list[str]:
    """The hint for the first question of GAME, worked out apart from the command."""
    config = build_config(replace(DEFAULT_TABLE, players=3), lang)
    game = LocalGame(config, 11, 0, ["medium", "medium"])
    game.run_bots()
    d = game.question()
    assert d is not None
    view = SeatView(game.state, 0)
    found = hint(view, hint_seed(11, d.id), ITERS)
    narrator = Narrator(table_names(3, (0,), lang), lang, me=0)
    return hint_words(found, narrator, view.observation()).lines


def test_hint_prints_the_hard_bots_answer_then_asks_again(cli: Cli) -> None:
    r = cli(GAME, "hint\n1\nq\n")
    assert r.code == 0, r.err
    out = r.out
    lines = expected_lines("en")
    assert lines[0].startswith("Hint: the hard bot would choose ")
    assert len(lines) == 5  # the choice, the search, its three best answers
    at = out.index(lines[0])
    for line in lines:
        assert line in out[at:]
    assert "wins the game " in out and "the stakes " in out and " gold by the end" in out
    # the chosen answer is named as one of the numbered choices reads
    choice = lines[0].removeprefix("Hint: the hard bot would choose ").removesuffix(".")
    question = out[: out.index(PROMPT)]
    assert any(line.strip().endswith(f") {choice}") for line in question.splitlines())
    # then the same question again, answered with 1
    assert out.count(PROMPT, at) >= 1
    assert "You ante " in out[at:]


def test_the_help_lists_hint_and_italian_says_consiglio(cli: Cli) -> None:
    r = cli([*GAME, "--lang", "it"], "h\nconsiglio\nq\n")
    assert r.code == 0, r.err
    assert "hint, consiglio" in r.out  # the help
    lines = expected_lines("it")
    assert lines[0].startswith("Consiglio: il bot difficile sceglierebbe ")
    for line in lines:
        assert line in r.out
    assert "vince la partita " in r.out and " mo a fine sfida" in r.out
    assert "Hint" not in r.out
