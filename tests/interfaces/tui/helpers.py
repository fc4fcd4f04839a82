"""Driving the full-screen table in tests: a game set up in one call, keys until the end."""

from __future__ import annotations

import random
from dataclasses import replace

from textual.pilot import Pilot

from dragonante.interfaces.cli.table_options import DEFAULT_TABLE, build_config
from dragonante.interfaces.tui import TableApp, TableGame
from dragonante.interfaces.tui.base import TableBase
from dragonante.interfaces.tui.question import NUMBER_KEYS, QuestionPanel
from dragonante.interfaces.tui.screens import CoverScreen, TextScreen


def make_app(
    players: int = 2,
    seed: int = 7,
    humans: tuple[int, ...] = (0,),
    lang: str = "en",
    bot: str = "random",
    abilities: str | None = None,
    **kwargs: object,
) -> TableApp:
    table = replace(DEFAULT_TABLE, players=players)
    if abilities is not None:
        table = replace(table, abilities=abilities)
    config = build_config(table, lang)
    bots = {p: bot for p in range(players) if p not in humans}
    return TableApp(TableGame(config, seed, humans, bots), lang, **kwargs)  # type: ignore[arg-type]


async def settle(pilot: Pilot[int]) -> None:
    """Until no bot is thinking and the screen has caught up.

    Each bot answer is a worker whose end starts the next bot's, so one wait is
    not enough: wait until no worker runs and no bot is marked as thinking.
    """
    app = pilot.app
    assert isinstance(app, TableApp)
    for _ in range(10_000):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.thinking is None and not app.workers:
            await pilot.pause()
            return
    raise AssertionError("the bots never stopped thinking")


def screen_text(app: TableBase) -> str:
    """Every character on the screen now (the table, or a page over it)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def play_to_end(pilot: Pilot[int], rng: random.Random, limit: int = 5000) -> int:
    """Answer with random legal choices (number keys, or arrows and Enter past the
    tenth answer), passing covers and closing summaries; returns the keys pressed."""
    app = pilot.app
    assert isinstance(app, TableApp)
    presses = 0
    for _ in range(limit):
        await settle(pilot)
        if isinstance(app.screen, CoverScreen):
            await pilot.press("space")
            continue
        if app.game.over:
            return presses
        if isinstance(app.screen, TextScreen):
            await pilot.press("escape")
            continue
        prompt = app.query_one(QuestionPanel).prompt
        assert prompt is not None, "a person's turn shows the question"
        index = rng.randrange(len(prompt.options))
        if index < len(NUMBER_KEYS):
            await pilot.press(NUMBER_KEYS[index])
        else:
            await pilot.press("home", *["down"] * index, "enter")
        presses += 1
    raise AssertionError("the game did not end")
