"""The full-screen table over the table-source seam: a local source played, a replay stepped."""

from __future__ import annotations

import asyncio
import random

from textual.pilot import Pilot

from dragonante.engine.config import GameConfig
from dragonante.engine.views import events_for
from dragonante.interfaces.events import table_of
from dragonante.interfaces.local_source import LocalSource
from dragonante.interfaces.narrate import Narrator, default_names
from dragonante.interfaces.session import LocalGame
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.question import NUMBER_KEYS, QuestionPanel
from dragonante.interfaces.tui.source_app import ReplayApp, SourceTableApp
from tests.interfaces.test_replay_source import played, source_for
from tests.interfaces.tui.helpers import screen_text

SIZE = (120, 50)


def local_source(seed: int = 4) -> LocalSource:
    config = GameConfig(players=2)
    game = LocalGame(config, seed, 0, ["random"])
    return LocalSource(game, Narrator(default_names(2, "en", me=0), "en", me=0))


async def settled(pilot: Pilot[int]) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_the_full_screen_table_plays_a_local_source_to_the_end() -> None:
    asyncio.run(_the_full_screen_table_plays_a_local_source_to_the_end())


async def _the_full_screen_table_plays_a_local_source_to_the_end() -> None:
    source = local_source()
    app = SourceTableApp(source, table_of(GameConfig(players=2)))
    rng = random.Random(2)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2000):
            await settled(pilot)
            if source.over:
                break
            prompt = app.query_one(QuestionPanel).prompt
            assert prompt is not None and prompt == source.prompt()
            index = rng.randrange(min(len(prompt.options), len(NUMBER_KEYS)))
            await pilot.press(NUMBER_KEYS[index])
        assert source.over
        assert "Winner: " in screen_text(app)
        # the log is the seat's own events, told once each, nothing of the bot's hand
        told = [line for line, _ in app.query_one(LogPanel).entries]
        narrator = source.narrator()
        assert told == narrator.events(events_for(source.game.state.log or [], 0))


def test_the_replay_viewer_steps_forward_and_back_as_the_seat_saw_it() -> None:
    asyncio.run(_the_replay_viewer_steps_forward_and_back_as_the_seat_saw_it())


async def _the_replay_viewer_steps_forward_and_back_as_the_seat_saw_it() -> None:
    record = played(players=2, seed=3)
    source = source_for(record, seat=1)
    app = ReplayApp(source, table_of(GameConfig(players=2)))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert "Answer 0 of " in screen_text(app)
        await pilot.press("right", "right", "right")
        assert source.position == 3
        assert "Answer 3 of " in screen_text(app)
        await pilot.press("left")
        assert source.position == 2
        entries = [line for line, _ in app.query_one(LogPanel).entries]
        assert entries == source.narrator().events(events_for(source.state.log or [], 1))
        assert app.query_one(QuestionPanel).prompt is None  # a replay asks nothing
        await pilot.press("end")
        assert source.over and "Winner: " in screen_text(app)
        entries = [line for line, _ in app.query_one(LogPanel).entries]
        assert entries == source.narrator().events(events_for(source.state.log or [], 1))
        await pilot.press("home")
        assert source.position == 0
