"""Driving the Dice Gambit's full-screen table in tests: a game in one call, keys to the end."""

from __future__ import annotations

import random
from pathlib import Path

from textual.pilot import Pilot

from dragonante.bots.dice import DiceBot, make_bot
from dragonante.dice import PHYSICAL, SEEDED, DiceConfig
from dragonante.dice.records import Recorder
from dragonante.interfaces.dice_render import default_names
from dragonante.interfaces.narrate import table_names
from dragonante.interfaces.tui.dice import DiceApp, DiceTableGame
from dragonante.interfaces.tui.dice.question import NUMBER_KEYS, DiceQuestionPanel
from dragonante.interfaces.tui.screens import TextScreen


def make_dice_app(
    players: int = 4,
    seed: int = 7,
    humans: int = 1,
    lang: str = "en",
    bot: str = "basic",
    gambits: int = 1,
) -> DiceApp:
    """``dice play``: people in the first ``humans`` seats, bots after them."""
    config = DiceConfig(players=players, gambits=gambits)
    names = table_names(players, range(humans), lang)  # as dice play names them
    bots: list[DiceBot | None] = [
        None if p < humans else make_bot(bot, seed * 7 + p) for p in range(players)
    ]
    rec = Recorder.start(config, seed, SEEDED, names)
    return DiceApp(DiceTableGame(rec, names, bots), lang)


def make_tracker_app(
    players: int = 3, lang: str = "en", save: Path | None = None, gambits: int = 1
) -> DiceApp:
    """``dice track``: real dice, everyone at the keyboard."""
    config = DiceConfig(players=players, gambits=gambits)
    names = default_names(players, lang)
    rec = Recorder.start(config, 0, PHYSICAL, names)
    return DiceApp(DiceTableGame(rec, names, [None] * players, save), lang)


async def settle(pilot: Pilot[int]) -> None:
    """Until no bot is thinking and the screen has caught up (one worker per bot answer)."""
    app = pilot.app
    assert isinstance(app, DiceApp)
    for _ in range(10_000):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.thinking is None and not app.workers:
            await pilot.pause()
            return
    raise AssertionError("the bots never stopped thinking")


def screen_text(app: DiceApp) -> str:
    """Every character on the screen now (the table, or a page over it)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def play_to_end(pilot: Pilot[int], rng: random.Random, limit: int = 5000) -> int:
    """Answer every question with random legal keys until the game is over.

    A roll's face is typed as its digits (and Enter when a longer face could
    follow), a choice by its number key or by arrows and Enter; summaries are
    closed.  Returns the answers given.
    """
    app = pilot.app
    assert isinstance(app, DiceApp)
    given = 0
    for _ in range(limit):
        await settle(pilot)
        if app.game.over:
            return given
        if isinstance(app.screen, TextScreen):
            await pilot.press("escape")
            continue
        q = app.query_one(DiceQuestionPanel).question
        assert q is not None, "a person's turn shows the question"
        index = rng.randrange(len(q.answers))
        if q.letters and rng.random() < 0.9:
            # mostly roll (random withdrawals end games at once), by the prompt's letters
            letter = next(k for k, a in q.letters.items() if a == q.answers[0].answer)
            if rng.random() < 0.1:
                letter = rng.choice(sorted(q.letters))
            await pilot.press(letter)
        elif q.sides:
            face = q.answers[index].answer
            keys = list(str(face))
            if face * 10 <= q.sides:
                keys.append("enter")  # "1" on a d12 waits for a second digit
            await pilot.press(*keys)
        elif index < len(NUMBER_KEYS) and rng.random() < 0.7:
            await pilot.press(NUMBER_KEYS[index])
        else:
            await pilot.press("home", *["down"] * index, "enter")
        given += 1
    raise AssertionError("the game did not end")
