"""The log keeps its newest line in sight when its panel changes height.

RichLog scrolls to its end only when it is written to; the table's log shrinks
a row when the question under it grows (CI caught the newest line, "since your
last turn", hidden that way on a loaded machine), so the log scrolls itself
when it was showing its end and its height changes, and leaves alone a reader
who scrolled back.
"""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult

from dragonante.interfaces.tui.log import LogPanel


class _LogApp(App[None]):
    CSS = "LogPanel { height: 8; }"

    def compose(self) -> ComposeResult:
        yield LogPanel()


def _run(scroll_back: bool) -> tuple[float, float]:
    async def run() -> tuple[float, float]:
        app = _LogApp()
        async with app.run_test(size=(40, 20)) as pilot:
            log = app.query_one(LogPanel)
            log.tell([f"line {i}" for i in range(30)])
            await pilot.pause()
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y > 0
            if scroll_back:
                log.scroll_to(y=3, animate=False, immediate=True)
                await pilot.pause()
            log.styles.height = 5  # the question under it grew
            for _ in range(20):
                await pilot.pause()
            return log.scroll_y, log.max_scroll_y

    return asyncio.run(run())


def test_a_log_at_its_end_stays_there_when_it_shrinks() -> None:
    scroll_y, max_scroll_y = _run(scroll_back=False)
    assert scroll_y == max_scroll_y


def test_a_reader_scrolled_back_is_left_where_they_are() -> None:
    scroll_y, max_scroll_y = _run(scroll_back=True)
    assert scroll_y == 3 < max_scroll_y
