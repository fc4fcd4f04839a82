"""``h`` at the full-screen table: the hard bot's hint, off the screen's thread.

Against bots the key line names the key, ``h`` opens a page with the hint
:func:`dragonante.bots.hint.hint` gives for the viewer's question (in the
table's language) and the question is still there to answer when the page
closes; in hot-seat there is no hint.
"""

from __future__ import annotations

import asyncio

from dragonante.bots import SeatView
from dragonante.bots.hint import hint, hint_seed
from dragonante.interfaces.hint_words import hint_words
from dragonante.interfaces.tui.question import QuestionPanel
from dragonante.interfaces.tui.screens import CardScreen

from .helpers import make_app, screen_text, settle

ITERS = 40


def test_h_shows_the_hard_bots_hint_and_the_question_stays() -> None:
    async def run() -> None:
        app = make_app(3, 5, bot="random")
        app.hint_iters = ITERS
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            assert "h hint" in app.keys_line()
            d = app.game.state.pending
            assert d is not None and d.seat == 0
            view = SeatView(app.game.state, 0)
            expected = hint(view, hint_seed(app.game.seed, d.id), ITERS)
            words = hint_words(expected, app.narrator, view.observation())
            await pilot.press("h")
            await settle(pilot)
            assert isinstance(app.screen, CardScreen)
            text = " ".join(screen_text(app).split())
            assert "Hint: the hard bot would choose" in text
            assert " ".join(words.lines[0].split()) in text
            assert words.choice in text
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, CardScreen)
            assert app.game.state.pending is d  # asking changed nothing
            prompt = app.query_one(QuestionPanel).prompt
            assert prompt is not None and words.choice in [o.label for o in prompt.options]

    asyncio.run(run())


def test_italian_hint_and_none_in_hot_seat() -> None:
    async def run() -> None:
        app = make_app(2, 3, lang="it", bot="random")
        app.hint_iters = ITERS
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            assert "h consiglio" in app.keys_line()
            await pilot.press("h")
            await settle(pilot)
            assert isinstance(app.screen, CardScreen)
            assert "Consiglio: il bot difficile sceglierebbe" in screen_text(app)
        seated = make_app(2, 3, humans=(0, 1))
        async with seated.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press("space")  # the cover
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            assert not isinstance(seated.screen, CardScreen)
            notices = [n.message for n in seated._notifications]
            assert "No hints here: several people play at this screen." in notices
            assert "h hint" not in seated.keys_line()

    asyncio.run(run())
