"""Whole Dice Gambit games and tracker sessions at the full-screen table, driven by keys."""

from __future__ import annotations

import asyncio
import random
import re
import threading
from pathlib import Path

import pytest

from dragonante.bots.dice import DiceSeatView
from dragonante.dice.decisions import PLAY, ROLL, TURN, WITHDRAW
from dragonante.dice.records import loads, replay
from dragonante.dice.state import FLIGHTS
from dragonante.i18n import t
from dragonante.interfaces.tui.dice.question import DiceQuestionPanel, type_face
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.screens import HelpScreen, SummaryScreen

from .dice_helpers import make_dice_app, make_tracker_app, play_to_end, screen_text, settle


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2)])
def test_a_whole_dice_game_against_bots_ends_with_its_summary(players: int, seed: int) -> None:
    async def run() -> None:
        app = make_dice_app(players, seed)
        async with app.run_test(size=(80, 24)) as pilot:
            given = await play_to_end(pilot, random.Random(seed))
            assert given >= 1
            assert app.game.over
            assert isinstance(app.screen, SummaryScreen)
            text = screen_text(app)
            assert "The game is over" in text
            assert "wins the game" in text or "You win the game" in text
            await pilot.press("escape")  # back to the table, the final sheets
            await pilot.pause()
            assert "Game over" in screen_text(app)
            await pilot.press("q")
        assert app.return_code == 0

    asyncio.run(run())


def test_two_gambits_show_a_gambit_summary_between_them() -> None:
    async def run() -> None:
        app = make_dice_app(3, 5, gambits=2)
        async with app.run_test(size=(120, 40)) as pilot:
            seen: list[str] = []
            rng = random.Random(5)
            for _ in range(200):
                await settle(pilot)
                if app.game.over:
                    break
                if isinstance(app.screen, SummaryScreen):
                    seen.append(screen_text(app))
                    await pilot.press("enter")
                    continue
                q = app.query_one(DiceQuestionPanel).question
                assert q is not None
                await pilot.press(str(rng.randrange(len(q.answers)) + 1))
            assert app.game.over
            assert any("Gambit 1 is over" in s and "wins gambit 1" in s for s in seen)

    asyncio.run(run())


def test_two_people_take_turns_and_the_question_names_each() -> None:
    """No cover (nothing is hidden in the Dice Gambit): the question says whose it is."""

    async def run() -> None:
        app = make_dice_app(3, 4, humans=2)
        async with app.run_test(size=(80, 24)) as pilot:
            askers: set[int] = set()
            for _ in range(40):
                await settle(pilot)
                if app.game.over or isinstance(app.screen, SummaryScreen):
                    break
                q = app.query_one(DiceQuestionPanel).question
                assert q is not None
                askers.add(q.seat)
                name = app.game.names[q.seat]
                assert f"{name}'s move" in screen_text(app)
                await pilot.press("1")
            assert askers == {0, 1}

    asyncio.run(run())


def test_a_table_of_bots_plays_itself_to_the_end() -> None:
    async def run() -> None:
        app = make_dice_app(4, 9, humans=0, bot="random")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert app.game.over and isinstance(app.screen, SummaryScreen)

    asyncio.run(run())


def test_a_whole_tracker_session_ends_and_its_save_file_replays(tmp_path: Path) -> None:
    path = tmp_path / "table.json"

    async def run() -> None:
        app = make_tracker_app(3, save=path)
        async with app.run_test(size=(80, 24)) as pilot:
            given = await play_to_end(pilot, random.Random(3))
            assert given > 10
            assert isinstance(app.screen, SummaryScreen)
            assert "wins the game" in screen_text(app)
            await pilot.press("q", "q")
        assert app.return_code == 0
        record = loads(path.read_text())
        assert record.answers == app.game.rec.record.answers
        assert replay(record).over

    asyncio.run(run())


def test_tracker_undo_takes_back_the_last_face_and_retells_the_log() -> None:
    async def run() -> None:
        app = make_tracker_app(2)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("u")  # nothing to undo yet: a notice
            await pilot.pause()
            assert app.game.rec.record.answers == []
            await pilot.press("7")  # player 1's turn-order d12: 7, at once
            await settle(pilot)
            assert app.game.rec.record.answers == [7]
            await pilot.press("1", "2")  # player 2: 12 (two digits)
            await settle(pilot)
            assert app.game.rec.record.answers == [7, 12]
            log_lines = len(app.query_one(LogPanel).lines)
            await pilot.press("u")
            await settle(pilot)
            assert app.game.rec.record.answers == [7]
            assert len(app.query_one(LogPanel).lines) < log_lines
            q = app.query_one(DiceQuestionPanel).question
            assert q is not None and q.kind == ROLL and q.seat == 1
            notices = [n.message for n in app._notifications]
            assert "Undone: the last answer is taken back." in notices

    asyncio.run(run())


def test_a_roll_waits_for_a_second_digit_or_enter() -> None:
    async def run() -> None:
        app = make_tracker_app(2)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("1")
            await pilot.pause()
            assert app.game.rec.record.answers == []
            assert "Typed: 1" in screen_text(app)
            await pilot.press("backspace", "1", "enter")  # forgotten, then 1 and Enter
            await settle(pilot)
            assert app.game.rec.record.answers == [1]

    asyncio.run(run())


def test_type_face_gathers_digits_only_into_faces() -> None:
    assert type_face("", "7", 12) == ("7", True)
    assert type_face("", "1", 12) == ("1", False)
    assert type_face("1", "2", 12) == ("12", True)
    assert type_face("1", "3", 12) == ("3", True)  # no 13 on a d12: a new number
    assert type_face("", "2", 20) == ("2", False)
    assert type_face("2", "0", 20) == ("20", True)
    assert type_face("", "0", 10) == ("10", True)  # the d10's 0
    assert type_face("", "0", 12) == ("", False)
    assert type_face("", "5", 4) == ("", False)
    assert type_face("", "4", 4) == ("4", True)


def test_bad_keys_do_nothing_harmful() -> None:
    async def run() -> None:
        app = make_dice_app(2, 11)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            q = app.query_one(DiceQuestionPanel).question
            assert q is not None and q.kind == TURN
            before = list(app.game.rec.record.answers)
            await pilot.press("x", "z", "t", "g", "left", "right", "tab", "f5", "escape", "9")
            await pilot.press("backspace", "u", "ctrl+p")
            await settle(pilot)
            assert app.game.rec.record.answers == before
            assert app.query_one(DiceQuestionPanel).question is not None
            notices = [n.message for n in app._notifications]
            assert "choose a number from 1 to 2" in notices
            assert app.is_running
        app = make_tracker_app(2)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("0")  # no 0 on a d12
            await pilot.pause()
            assert app.game.rec.record.answers == []
            assert "0 is impossible" in screen_text(app)

    asyncio.run(run())


def test_the_italian_letters_roll_and_withdraw() -> None:
    async def run() -> None:
        app = make_dice_app(3, 6, lang="it")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            q = app.query_one(DiceQuestionPanel).question
            assert q is not None and q.letters == {"t": PLAY, "g": PLAY, "r": WITHDRAW}
            assert "[T]iri un drago o ti [r]itiri" in screen_text(app)  # "tu", as at the card table
            await pilot.press("t")
            await settle(pilot)
            assert app.game.rec.record.answers[-1:] == [PLAY] or app.game.state.turns_taken[0]
            q = app.query_one(DiceQuestionPanel).question
            if q is not None and q.kind == TURN:
                await pilot.press("r")
                await settle(pilot)
                assert app.game.state.withdrawn[0]

    asyncio.run(run())


def test_help_and_dragon_pages_open_and_close_and_block_the_answers() -> None:
    async def run() -> None:
        app = make_tracker_app(3, lang="it")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert "annulla" in screen_text(app)
            await pilot.press("7")  # under a page the digits answer nothing
            await pilot.pause()
            assert app.game.rec.record.answers == []
            await pilot.press("escape", "d")
            await pilot.pause()
            text = screen_text(app)
            assert "tabella dei draghi" in text and "Bahamut" in text and "Verde" in text
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert app.theme == "textual-light"

    asyncio.run(run())


def test_resize_to_120x40_and_back_keeps_playing() -> None:
    async def run() -> None:
        app = make_dice_app(6, 8)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.resize_terminal(120, 40)
            await settle(pilot)
            assert app.size == (120, 40)
            assert "Bot 5" in screen_text(app)  # the last of six seats: you and five bots
            await pilot.press("1")
            await pilot.resize_terminal(80, 24)
            await settle(pilot)
            assert app.size == (80, 24)
            text = screen_text(app)
            assert all(f"Bot {p}" in text for p in range(1, 6))
            assert app.game.state.turns_taken[0] == 1

    asyncio.run(run())


class SlowBot:
    """A bot that answers only when the test lets it (to see the screen meanwhile)."""

    name = "slow"

    def __init__(self) -> None:
        self.go = threading.Event()

    def choose(self, view: DiceSeatView) -> int:
        assert self.go.wait(10)
        return view.decision.options[0]


def test_a_thinking_bot_is_shown_and_the_screen_stays_responsive() -> None:
    async def run() -> None:
        slow = SlowBot()
        app = make_dice_app(2, 3, humans=0)
        app.game.bots[0] = slow
        app.game.bots[1] = slow
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.thinking is not None
            assert f"{app.game.names[app.thinking]} is thinking…" in screen_text(app)
            await pilot.press("question_mark")  # the keys work while the bot thinks
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            slow.go.set()
            await settle(pilot)
            assert app.game.over

    asyncio.run(run())


def test_a_click_chooses_an_answer() -> None:
    async def run() -> None:
        app = make_dice_app(2, 11)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            q = app.query_one(DiceQuestionPanel).question
            assert q is not None and q.kind == TURN
            turns = app.game.state.turns_taken[0]
            await pilot.click("#dice-answers", offset=(3, 0))  # "1 roll"
            await settle(pilot)
            assert app.game.state.turns_taken[0] == turns + 1

    asyncio.run(run())


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_end_box_wraps_a_sheets_checkboxes_between_items_never_inside_one(
    lang: str,
) -> None:
    """At 80x24 a sheet's total and its four boxes are wider than the box: the line
    breaks between two boxes, a box and its name stay together (issue 32 §6)."""

    async def run() -> None:
        app = make_dice_app(4, 2, lang=lang)
        names = "|".join(t(f"dice.flight_box.{f}", lang) for f in FLIGHTS)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_end(pilot, random.Random(2))
            assert isinstance(app.screen, SummaryScreen)
            for _ in range(40):  # every sheet, a page at a time
                rows = [re.sub(r"^.*?│ ?|│.*$", "", line) for line in screen_text(app).split("\n")]
                for row in rows:
                    assert not re.search(r"\[[x ]\]\s*$", row), row  # a box without its name
                    assert not re.match(rf"\s*({names})\b", row), row  # a name without its box
                await pilot.press("pagedown")
                await pilot.pause()
            text = screen_text(app)
            assert "[x]" in text or "[ ]" in text

    asyncio.run(run())


def test_the_person_is_you_and_the_bots_count_from_1_as_at_the_card_table() -> None:
    """The sheets, the log and the question say "You"; the record keeps "Player 1"."""

    async def run() -> None:
        app = make_dice_app(4, 21)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            text = screen_text(app)
            assert re.search(r"^\s+(▶\s+)?You\s+\d+\s", text, re.M)  # its sheet's row
            assert "Your move" in text
            assert "Bot 1" in text and "Bot 3" in text and "Bot 4" not in text
            assert "Player 1" not in text
            assert any(
                line.startswith("You roll a d12") for line, _ in app.query_one(LogPanel).entries
            )
        assert app.game.names[0] == "Player 1"  # what the record says

    asyncio.run(run())
