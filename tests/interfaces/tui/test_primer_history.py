"""The full-screen table: the rules primer from the help page, the gambit history beside the log."""

from __future__ import annotations

import asyncio

from dragonante.i18n import t
from dragonante.interfaces import primer
from dragonante.interfaces.gambit_history import gambit_history, history_lines
from dragonante.interfaces.tui.history import HistoryPanel
from dragonante.interfaces.tui.primer import PrimerScreen, TableHelpScreen
from dragonante.interfaces.tui.question import QuestionPanel

from .helpers import make_app, screen_text, settle


def test_the_help_page_opens_the_primer_with_r_and_it_scrolls() -> None:
    async def go() -> None:
        app = make_app(2, 7, lang="it")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, TableHelpScreen)
            assert t("tui.help_primer", "it") in app.screen.lines  # the last key of the page
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, PrimerScreen) and app.screen.section is None
            assert app.screen.lines == primer.text_lines("it")
            assert app.screen.scrolls  # taller than 24 lines: it says so and scrolls
            assert "Le regole in breve" in screen_text(app)
            await pilot.press("pagedown")
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TableHelpScreen)
            await pilot.press("escape")
            await pilot.pause()
            # and a link by section id opens that section alone
            app.action_primer("primer.flights")
            await pilot.pause()
            assert isinstance(app.screen, PrimerScreen) and app.screen.section == "flights"
            assert "GLI STORMI SPECIALI" in screen_text(app)

    asyncio.run(go())


def test_the_history_beside_the_log_follows_the_gambit_as_the_seat_sees_it() -> None:
    async def go() -> None:
        app = make_app(3, 21, lang="en")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            panel = app.query_one(HistoryPanel)
            for _ in range(2):  # the ante, then a play
                prompt = app.query_one(QuestionPanel).prompt
                assert prompt is not None
                await pilot.press("1")
                await settle(pilot)
            state = app.game.state
            assert state.log is not None
            expected = history_lines(gambit_history(state.log, 0), app.narrator)
            assert panel.lines == expected
            assert expected[0] == f"Gambit {state.gambit}" and expected[1].startswith("Ante: ")
            assert any(line.startswith("Round 1, led by") for line in expected)
            assert any(line.startswith("  You: ") for line in expected)
            text = screen_text(app)
            assert "This gambit" in text and "Round 1, led by" in text

    asyncio.run(go())
