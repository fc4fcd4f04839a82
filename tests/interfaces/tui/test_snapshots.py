"""Snapshots of the full-screen table and its help page, at 80x24 and 120x40, English
and Italian (``pytest --snapshot-update`` rewrites them after a deliberate change)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from dragonante.interfaces.tui.log import LogPanel

from .helpers import make_app, settle

SIZES = [(80, 24), (120, 40)]


async def _ready(pilot: Pilot[int]) -> None:
    await settle(pilot)


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_table(snap_compare: Any, lang: str, size: tuple[int, int]) -> None:
    # a 4-player table in round 1: ante paid, flights under way, a play question
    app = make_app(4, 21, lang=lang)
    assert snap_compare(app, terminal_size=size, run_before=_play_the_ante)


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_help(snap_compare: Any, lang: str, size: tuple[int, int]) -> None:
    app = make_app(4, 21, lang=lang)
    assert snap_compare(app, terminal_size=size, press=["question_mark"], run_before=_ready)


async def _play_the_ante(pilot: Pilot[int]) -> None:
    await settle(pilot)
    await pilot.press("3")
    await settle(pilot)
    # The log's last lines (what changed since your turn) and its scroll follow
    # the question; on a loaded machine they came late (CI, twice): wait until
    # every line is written and the log is scrolled to its end, not a fixed time.
    await pilot.pause(0.3)
    await settle(pilot)
    log = pilot.app.query_one(LogPanel)
    for _ in range(500):
        written = not log._deferred_renders and len(log.lines) >= len(log.entries)
        if written and log.scroll_y >= log.max_scroll_y:
            break
        await pilot.pause(0.02)
    else:
        raise AssertionError("the log never showed its newest line")
    await pilot.pause()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_leave_asks_first(snap_compare: Any, lang: str, tmp_path: Any, monkeypatch: Any) -> None:
    # q in a game in progress: the question over the table, saying where the game goes
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DRAGONANTE_LAUNCHER", "dragonante")  # as an installed package
    app = make_app(4, 21, lang=lang)
    assert snap_compare(app, terminal_size=(80, 24), press=["q"], run_before=_ready)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_abilities_page(snap_compare: Any, lang: str) -> None:
    # a: the ability rows, then every known ability (yours, the bot's) with its text
    app = make_app(2, 4, lang=lang, abilities="disks")
    assert snap_compare(app, terminal_size=(80, 24), press=["a"], run_before=_ready)
