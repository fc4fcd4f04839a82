"""The full-screen table never loses a game (issue 25 §2), driven by keys at 80x24.

The game-over box's keys do what it says, leaving a game in progress asks
and saves it, a saved game continues (``TableGame.resume``), a take-back
restores the game exactly (bots included), and a second save never
replaces the first.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot

from dragonante.engine.records import digest, loads, replay
from dragonante.interfaces.cli.table_options import DEFAULT_TABLE, build_config
from dragonante.interfaces.narrate import Prompt
from dragonante.interfaces.table_record import read_seating
from dragonante.interfaces.tui import TableApp, TableGame
from dragonante.interfaces.tui.question import QuestionPanel
from dragonante.interfaces.tui.screens import (
    ConfirmScreen,
    GameOverScreen,
    SummaryScreen,
    TextScreen,
)

from .helpers import make_app, play_to_end, screen_text, settle


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves land in the current directory: a fresh one per test."""
    monkeypatch.chdir(tmp_path)
    # as an installed package is started (launch.py's detection has its own test)
    monkeypatch.setenv("DRAGONANTE_LAUNCHER", "dragonante")


def notices(app: TableApp) -> list[str]:
    return [n.message for n in app._notifications]


async def next_prompt(pilot: Pilot[int]) -> Prompt:
    """Settle, closing any gambit summary, until the person has a question."""
    app = pilot.app
    for _ in range(20):
        await settle(pilot)
        if isinstance(app.screen, TextScreen):
            await pilot.press("escape")
            continue
        prompt = app.query_one(QuestionPanel).prompt
        if prompt is not None:
            return prompt
    raise AssertionError("no question came")


def test_the_game_over_box_saves_with_s_and_leaves_with_q(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(2, 3)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_end(pilot, random.Random(3))
            assert isinstance(app.screen, GameOverScreen)
            await pilot.press("s")
            await pilot.pause()
            assert isinstance(app.screen, GameOverScreen)  # saving stays on the box
            assert any("dragonante replay dragonante-3.json" in n for n in notices(app))
            await pilot.press("q")
            await pilot.pause()
        assert app.return_code == 0

    asyncio.run(run())
    record = loads((tmp_path / "dragonante-3.json").read_text())
    assert replay(record).over


def test_a_second_save_never_replaces_the_first(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(2, 5)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("s")
            await pilot.pause()
            first = (tmp_path / "dragonante-5.json").read_text()
            await pilot.press("1")
            await settle(pilot)
            await pilot.press("s")
            await pilot.pause()
            assert (tmp_path / "dragonante-5.json").read_text() == first
            second = loads((tmp_path / "dragonante-5-2.json").read_text())
            assert len(second.answers) > len(loads(first).answers)
            assert any("dragonante-5-2.json" in n for n in notices(app))

    asyncio.run(run())


def test_the_save_notice_names_the_command_as_the_player_types_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DRAGONANTE_LAUNCHER", "./dev run")

    async def run() -> None:
        app = make_app(2, 5)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("s")
            await pilot.pause()
            assert any("./dev run replay dragonante-5.json" in n for n in notices(app))

    asyncio.run(run())


@pytest.mark.parametrize("lang", ["en", "it"])
def test_q_mid_game_asks_then_saves_and_the_game_resumes_where_it_was(
    lang: str, tmp_path: Path
) -> None:
    left: dict[str, object] = {}

    async def run() -> None:
        app = make_app(3, 4, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("1")
            await settle(pilot)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            text = screen_text(app)
            assert "play --resume dragonante-4.json" in text
            await pilot.press("n")  # keep playing: nothing saved
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmScreen) and app.is_running
            assert not (tmp_path / "dragonante-4.json").exists()
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("s" if lang == "it" else "y")
            await pilot.pause()
            left["digest"] = digest(app.game.state)
            left["answers"] = list(app.game.record.answers)
        assert app.return_code == 0

    asyncio.run(run())
    text = (tmp_path / "dragonante-4.json").read_text()
    record = loads(text)
    assert record.answers == left["answers"]
    seating = read_seating(text, 3)
    assert seating is not None and seating.humans == (0,) and set(seating.bots) == {1, 2}
    game = TableGame.resume(record, seating.humans, seating.bots)
    assert digest(game.state) == left["digest"]
    assert game.deciding == 0  # the person's question, as when they left


def test_ctrl_c_asks_and_a_second_ctrl_c_leaves_with_130(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(2, 9)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("ctrl+c")
            await pilot.pause()
        assert app.return_value == 130  # what run() returns: the exit code

    asyncio.run(run())
    assert replay(loads((tmp_path / "dragonante-9.json").read_text()), verify=False)


def test_take_back_restores_the_bots_exactly() -> None:
    """The same answer after a take-back meets the same bot choices and draws."""

    async def run() -> None:
        app = make_app(4, 12, bot="random")
        async with app.run_test(size=(80, 24)) as pilot:
            rng = random.Random(1)
            for _ in range(4):  # a few answers, so the bots' generators have moved on
                prompt = await next_prompt(pilot)
                await pilot.press(str(rng.randrange(min(9, len(prompt.options))) + 1))
            prompt = await next_prompt(pilot)
            before = list(app.game.record.answers)
            await pilot.press("2" if len(prompt.options) > 1 else "1")
            await settle(pilot)
            after = list(app.game.record.answers)
            state = digest(app.game.state)
            assert len(after) > len(before) + 1  # the bots answered after the person
            await pilot.press("u")
            await settle(pilot)
            assert app.game.record.answers == before
            await pilot.press("2" if len(prompt.options) > 1 else "1")
            await settle(pilot)
            assert app.game.record.answers == after
            assert digest(app.game.state) == state

    asyncio.run(run())


def test_resume_refuses_an_answer_that_does_not_replay() -> None:
    config = build_config(replace(DEFAULT_TABLE, players=2), "en")
    game = TableGame(config, 3, (0,), {1: "random"})
    record = game.record
    record.answers = [10_000]
    with pytest.raises(ValueError, match="answer #1"):
        TableGame.resume(record, (0,), {1: "random"})


def test_hot_seat_shows_names_and_only_keys_that_work() -> None:
    config = build_config(replace(DEFAULT_TABLE, players=2, gold_per_player=10), "en")
    game = TableGame(config, 5, (0, 1), {}, names=("Ann", "Bea"))

    async def run() -> None:
        app = TableApp(game, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_end(pilot, random.Random(5))
            await settle(pilot)
            assert isinstance(app.screen, GameOverScreen)
            text = screen_text(app)
            winner = next(line for line in text.splitlines() if "Winner: " in line)
            assert "You" not in winner  # two people at the screen: names, never "You"
            hoards = next(line for line in text.splitlines() if "Hoards: " in line)
            assert "Ann" in hoards and "Bea" in hoards and "You" not in hoards
            await pilot.press("escape")
            await pilot.pause()
            keys = str(app.query_one("#keys").render())
            assert "u undo" not in keys and "s save" in keys

    asyncio.run(run())
    saved = json.loads(game.record_text())
    assert saved["table"]["names"] == ["Ann", "Bea"]


def test_a_resumed_game_does_not_show_the_last_gambits_box_again() -> None:
    """The box of a gambit that ended before the game was left is not shown on
    resuming (it would pair that gambit's end with today's hoards)."""

    async def left_in_the_second_gambit() -> TableGame:
        app = make_app(2, 5)
        async with app.run_test(size=(80, 24)) as pilot:
            rng = random.Random(2)
            while True:
                await settle(pilot)
                if isinstance(app.screen, SummaryScreen):
                    await pilot.press("escape")
                    await settle(pilot)
                    return app.game  # the next gambit's first question is the person's
                prompt = app.query_one(QuestionPanel).prompt
                assert prompt is not None and not app.game.over
                await pilot.press(str(rng.randrange(min(9, len(prompt.options))) + 1))

    async def resumed(game: TableGame) -> None:
        again = TableGame.resume(game.record, game.humans, game.bot_specs)
        app = TableApp(again, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert not isinstance(app.screen, SummaryScreen)
            assert app.query_one(QuestionPanel).prompt is not None

    game = asyncio.run(left_in_the_second_gambit())
    assert any(kind == "gambit_won" or kind == "no_winner" for _, kind, _ in game.log())
    asyncio.run(resumed(game))
