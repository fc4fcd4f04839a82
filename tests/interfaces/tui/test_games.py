"""Whole games at the full-screen table, driven by keys as a person would."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from dragonante.engine.records import loads, replay
from dragonante.engine.state import GameState
from dragonante.interfaces.narrate import card_label
from dragonante.interfaces.tui.question import QuestionPanel
from dragonante.interfaces.tui.screens import CardScreen, CoverScreen, HelpScreen, SummaryScreen

from .helpers import make_app, play_to_end, screen_text, settle


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 4), (4, 2), (5, 5), (6, 3)])
def test_a_whole_game_against_bots_ends_and_its_record_replays(
    players: int, seed: int, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"

    async def run() -> None:
        app = make_app(players, seed, record=path)
        async with app.run_test(size=(80, 24)) as pilot:
            presses = await play_to_end(pilot, random.Random(seed))
            assert presses > 0
            assert isinstance(app.screen, SummaryScreen)
            text = screen_text(app)
            assert "The game is over" in text and "Hoards:" in text
            await pilot.press("s")
            await pilot.press("q")  # closes the summary
            await pilot.press("q")  # leaves
        assert app.return_code == 0

    asyncio.run(run())
    record = loads(path.read_text())
    assert record.config.players == players
    assert replay(record).over  # the digest matches: the same game


def test_hot_seat_covers_the_table_between_two_people() -> None:
    async def run() -> None:
        app = make_app(3, 5, humans=(0, 1))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            covers = 0
            rng = random.Random(5)
            while not app.game.over and covers < 6:
                await settle(pilot)
                if isinstance(app.screen, CoverScreen):
                    covers += 1
                    text = screen_text(app)
                    seat = app.game.deciding
                    assert seat in (0, 1)
                    assert f"Player {seat + 1}" in text  # counted from 1
                    # behind the cover no hand at all is drawn, nor is any card named
                    assert app.snapshot is not None and app.snapshot.view.seat is None
                    for p in (0, 1):
                        for c in app.game.state.hands[p]:
                            assert card_label(c, "en") not in text
                    assert "Your hand" not in text
                    await pilot.press("space")
                    await settle(pilot)
                    assert app.viewer == seat
                    assert app.snapshot is not None and app.snapshot.view.seat == seat
                    continue
                if isinstance(app.screen, SummaryScreen):
                    await pilot.press("escape")
                    continue
                prompt = app.query_one(QuestionPanel).prompt
                assert prompt is not None
                await pilot.press(str(rng.randrange(min(9, len(prompt.options))) + 1))
            assert covers >= 2
            await pilot.press("u")  # no take-back in hot-seat: a notice, no change
            await settle(pilot)

    asyncio.run(run())


def test_bad_keys_do_nothing_harmful() -> None:
    async def run() -> None:
        app = make_app(2, 11)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            prompt = app.query_one(QuestionPanel).prompt
            assert prompt is not None
            before = list(app.game.record.answers)
            await pilot.press("x", "z", "left", "right", "tab", "f5", "ctrl+p", "escape")
            over = str(len(prompt.options) + 1)
            if len(prompt.options) < 9:
                await pilot.press(over)  # a number with no answer
            await settle(pilot)
            assert app.game.record.answers == before
            assert app.query_one(QuestionPanel).prompt is prompt
            # take-back with nothing to take back is a notice
            await pilot.press("u")
            await settle(pilot)
            assert app.game.record.answers == before
            assert app.is_running

    asyncio.run(run())


def test_take_back_replays_the_game_without_the_last_answer() -> None:
    async def run() -> None:
        app = make_app(3, 4)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            first = app.query_one(QuestionPanel).prompt
            assert first is not None
            hand_before = sorted(app.game.state.hands[0])
            await pilot.press("1")
            await settle(pilot)
            assert 0 in app.game.answered_by
            await pilot.press("u")
            await settle(pilot)
            assert 0 not in app.game.answered_by
            assert sorted(app.game.state.hands[0]) == hand_before
            again = app.query_one(QuestionPanel).prompt
            assert again is not None and again.decision_id == first.decision_id
            notices = [n.message for n in app._notifications]
            assert "Your last answer is taken back." in notices

    asyncio.run(run())


def test_resize_to_120x40_and_back_keeps_playing() -> None:
    async def run() -> None:
        app = make_app(6, 8)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.resize_terminal(120, 40)
            await settle(pilot)
            assert app.size == (120, 40)
            assert "Your hand" in screen_text(app)
            await pilot.press("1")
            await pilot.resize_terminal(80, 24)
            await settle(pilot)
            assert app.size == (80, 24)
            assert "Your hand" in screen_text(app)
            assert len(app.game.answered_by) > 0

    asyncio.run(run())


def test_help_and_card_pages_open_and_close() -> None:
    async def run() -> None:
        app = make_app(2, 3, lang="it")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert "Aiuto" in screen_text(app)
            await pilot.press("escape")
            await pilot.press("c")
            await pilot.pause()
            assert isinstance(app.screen, CardScreen)
            option = app.query_one(QuestionPanel).highlighted_option()
            assert option is not None and option.card >= 0
            text = screen_text(app)
            assert card_label(option.card, "it") in text  # the highlighted card, in Italian
            assert "Potere" in text or "potere" in text
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, CardScreen)

    asyncio.run(run())


def test_bot_turns_run_in_a_worker_and_show_who_is_thinking() -> None:
    async def run() -> None:
        app = make_app(2, 9, humans=(1,))
        async with app.run_test(size=(80, 24)) as pilot:
            # seat 0 (a bot) may well be first: the screen is up while it thinks
            assert app.is_running
            await settle(pilot)
            assert app.thinking is None
            assert app.game.deciding == 1 or app.game.over

    asyncio.run(run())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_hidden_card_of_another_seat_reaches_the_screen(seed: int) -> None:
    """The five bots' hands (30 cards the person cannot see) appear nowhere on the
    screen, in the table, the question, the log or the card page (``c``), unless a
    card of the same name and strength is in the person's own hand."""

    async def run() -> None:
        app = make_app(6, seed)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            state = app.game.state
            mine = {card_label(c, "en") for c in state.hands[0]}
            hidden = {card_label(c, "en") for p in range(1, 6) for c in state.hands[p]} - mine
            assert len(hidden) >= 10  # the scenario really has hidden cards to leak
            pages = [screen_text(app)]
            await pilot.press("c")
            await pilot.pause()
            pages.append(screen_text(app))
            for text in pages:
                assert "Your hand" in pages[0]
                leaked = sorted(label for label in hidden if label in text)
                assert leaked == []

    asyncio.run(run())


def test_the_game_over_screen_adds_the_series_so_far() -> None:
    seen: list[int] = []

    def series_lines(state: GameState) -> list[str]:
        seen.append(sum(state.hoards))
        return [f"Series so far: {sum(state.hoards)} gold"]

    async def run() -> None:
        app = make_app(2, 3, series_lines=series_lines)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_end(pilot, random.Random(3))
            assert isinstance(app.screen, SummaryScreen)
            assert f"Series so far: {seen[-1]} gold" in screen_text(app)

    asyncio.run(run())
