"""The ``w`` key: the log's lines with the rule behind each (issue 31 §2)."""

from __future__ import annotations

import asyncio

from textual.widgets import OptionList, Static

from dragonante.engine.views import events_for
from dragonante.i18n import t
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.question import QuestionPanel
from dragonante.interfaces.tui.screens import HelpScreen
from dragonante.interfaces.tui.why import WhyScreen

from .helpers import make_app, screen_text, settle


def _rule_text(app: object) -> str:
    screen = app.screen  # type: ignore[attr-defined]
    return str(screen.query_one("#why-rule", Static).render())


def test_w_opens_the_rule_of_the_selected_log_line_and_keeps_the_other_keys() -> None:
    async def run() -> None:
        app = make_app(2, 3)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            await pilot.press("1")  # the ante
            await settle(pilot)
            entries = app.query_one(LogPanel).entries
            # every line told from an event has its rule; only the table's own
            # notes (what changed since your last turn) have none
            told = [line for line, why in entries if why is not None]
            assert told == app.narrator.events(events_for(app.game.log(), 0))
            await pilot.press("w")
            await pilot.pause()
            assert isinstance(app.screen, WhyScreen)
            lines = app.screen.query_one(OptionList)
            assert lines.option_count == len(entries)
            # the latest line told from an event (the notes of what changed since
            # your last turn come after it)
            latest = max(i for i, (_, why) in enumerate(entries) if why is not None)
            assert lines.highlighted == latest
            last_line, last_why = entries[latest]
            assert last_why is not None
            shown = _rule_text(app)
            assert last_line in shown and last_why.rule in shown and last_why.section in shown
            # the arrows choose another line: the first one, the game's setup
            await pilot.press("home")
            await pilot.pause()
            first = _rule_text(app)
            assert t("why.setup", "en") in first and '"SETUP"' in first
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, WhyScreen)
            # the other keys still work, and the help names the new one
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert "why? the log's lines" in screen_text(app)

    asyncio.run(run())


def test_a_triggered_powers_line_shows_the_cards_text_in_italian() -> None:
    async def run() -> None:
        app = make_app(2, 3, lang="it")
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            for _ in range(8):  # play on until a power has been told
                entries = app.query_one(LogPanel).entries
                if any(w is not None and w.text for _, w in entries) or app.game.over:
                    break
                await pilot.press("1")
                await settle(pilot)
            entries = app.query_one(LogPanel).entries
            index = next(i for i, (_, w) in enumerate(entries) if w is not None and w.text)
            await pilot.press("w")
            await pilot.pause()
            await pilot.press("home", *["down"] * index)
            await pilot.pause()
            why = entries[index][1]
            assert why is not None
            shown = _rule_text(app)
            assert t("why.text", "it", text=why.text) in shown
            assert "Tre Draghi al Buio: Edizione Leggendaria" in shown

    asyncio.run(run())


def test_the_trigger_hint_under_the_answers_says_why_for_the_highlighted_card() -> None:
    async def run() -> None:
        app = make_app(3, 5)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("1")  # the ante; then a play question with cards on the table
            await settle(pilot)
            prompt = app.query_one(QuestionPanel).prompt
            assert prompt is not None and prompt.kind == "play"
            for index, option in enumerate(prompt.options[:3]):
                await pilot.press("home", *["down"] * index)
                await pilot.pause()
                shown = str(app.query_one("#question-why", Static).render())
                assert option.why and shown == option.why
                assert shown.startswith("triggers: " if option.triggers else "does not trigger: ")

    asyncio.run(run())


def test_the_dice_tables_y_key_shows_the_dice_gambits_rules() -> None:
    """The Dice Gambit's log has its own rows (``w`` withdraws there: ``y`` asks why)."""
    from dragonante.interfaces.events import section_name

    from .dice_helpers import make_dice_app

    async def run() -> None:
        app = make_dice_app(players=2, lang="it")
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            entries = app.query_one(LogPanel).entries
            assert entries and all(why is not None for _, why in entries)
            await pilot.press("y")
            await pilot.pause()
            assert isinstance(app.screen, WhyScreen)
            shown = _rule_text(app)
            last = entries[-1][1]
            assert last is not None and last.rule in shown and last.book == "Dice Gambit"
            assert section_name(last.book, last.section, "it") in shown
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, WhyScreen)

    asyncio.run(run())
