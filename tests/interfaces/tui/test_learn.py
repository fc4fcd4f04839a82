"""``dragonante learn`` full screen: the table app with the coach's panel, driven by the pilot."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from dragonante.interfaces.tui.learn import CoachPanel, LearnApp
from dragonante.interfaces.tui.question import NUMBER_KEYS, QuestionPanel
from dragonante.interfaces.tui.screens import GameOverScreen, TextScreen
from dragonante.tutorial import STEPS, Tutorial, progress

from .helpers import screen_text

SIZE = (120, 40)


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    return tmp_path


def coach(app: LearnApp) -> str:
    panel = app.query_one(CoachPanel)
    return f"{panel.border_title}\n{panel.body.render()}"


async def answer(pilot: Pilot[int], app: LearnApp, suggested: bool) -> None:
    prompt = app.query_one(QuestionPanel).prompt
    assert prompt is not None
    answers = [o.answer for o in prompt.options]
    index = answers.index(app.tut.suggestion) if suggested and app.tut.suggestion in answers else -1
    index %= len(answers)
    await pilot.press(NUMBER_KEYS[index] if index < len(NUMBER_KEYS) else "1")
    await pilot.pause()


@pytest.mark.parametrize(("lang", "suggested"), [("en", True), ("it", False)])
def test_the_whole_tutorial_plays_through_full_screen(lang: str, suggested: bool) -> None:
    async def run() -> None:
        app = LearnApp(Tutorial(lang), lang)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            first = coach(app)
            word = "Step 1 of 11" if lang == "en" else "Passo 1 di 11"
            assert word in first and ("Ante" in first or "Apri" in first)
            titles = set()
            for _ in range(200):
                await pilot.pause()
                if isinstance(app.screen, GameOverScreen):
                    break
                if isinstance(app.screen, TextScreen):
                    await pilot.press("escape")
                    continue
                titles.add(app.query_one(CoachPanel).border_title)
                await answer(pilot, app, suggested)
            assert app.tut.over and app.tut.index == len(STEPS)
            text = screen_text(app)
            assert ("n: a normal game" in text) or ("n: una partita normale" in text)
            assert len(titles) >= (8 if suggested else 4)  # wrong answers skip some asks
            saved = progress.load()
            assert saved is not None and saved.finished

    asyncio.run(run())


def test_b_replays_the_step_and_n_leaves_for_a_normal_game() -> None:
    async def run() -> None:
        app = LearnApp(Tutorial("en"), "en")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("b")  # nothing asked yet but the ante: back to its start
            await pilot.pause()
            for _ in range(3):
                await answer(pilot, app, True)
            step = app.tut.step
            assert step is not None and step.id == "trigger"
            before = len(app.tut.answers)
            await answer(pilot, app, False)
            await pilot.press("b")
            await pilot.pause()
            assert len(app.tut.answers) == before and app.tut.step is not None
            assert app.tut.step.id == "trigger" and "A card that triggers" in coach(app)
            assert "b again" in screen_text(app)
            await pilot.press("n")
            await pilot.pause()
        assert app.next == "normal"
        saved = progress.load()
        assert saved is not None and list(saved.answers) == app.tut.answers

    asyncio.run(run())


def test_a_resumed_tutorial_says_where_it_goes_on_and_h_gives_a_hint() -> None:
    from dragonante.interfaces.cli.learn import start_tutorial
    from dragonante.interfaces.tui.screens import CardScreen

    tut = Tutorial("en")
    for _ in range(3):
        tut.advance()
        assert tut.suggestion is not None
        tut.answer(tut.suggestion)
    progress.save(tut.progress())
    again, lines = start_tutorial("en", restart=False)
    assert again.answers == tut.answers and lines and "Going on from step 3 of 11" in lines[0]

    async def run() -> None:
        app = LearnApp(again, "en", lines)
        app.hint_iters = 20
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "Going on from step 3 of 11" in coach(app)
            assert "A card that triggers" in coach(app)
            await pilot.press("h")
            for _ in range(200):
                await app.workers.wait_for_complete()
                await pilot.pause()
                if isinstance(app.screen, CardScreen):
                    break
            assert isinstance(app.screen, CardScreen)
            assert "Hint: the hard bot would choose" in " ".join(screen_text(app).split())

    asyncio.run(run())


def test_the_normal_game_after_it_has_tips_in_the_log() -> None:
    from dragonante.interfaces.tui.learn import TipsTableApp, normal_table
    from dragonante.interfaces.tui.log import LogPanel

    async def run() -> None:
        app = TipsTableApp(normal_table(), "it")
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(100):
                await app.workers.wait_for_complete()
                await pilot.pause()
                if app.thinking is None and app.game.deciding == 0:
                    break
            lines = [line for line, _ in app.query_one(LogPanel).entries]
            tips = [line for line in lines if line.startswith("Suggerimento: ")]
            assert tips and len(tips) == len(set(tips))
            assert set(app.game.bot_specs.values()) == {"easy"}

    asyncio.run(run())


def test_b_at_the_end_goes_back_and_under_the_help_does_nothing() -> None:
    async def run() -> None:
        app = LearnApp(Tutorial("en"), "en")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            await pilot.press("b", "n")
            await pilot.pause()
            assert app.next is None and isinstance(app.screen, TextScreen)
            await pilot.press("escape")
            for _ in range(40):
                await pilot.pause()
                if isinstance(app.screen, GameOverScreen):
                    break
                await answer(pilot, app, True)
            assert isinstance(app.screen, GameOverScreen) and app.tut.over
            await pilot.press("b")
            await pilot.pause()
            assert not isinstance(app.screen, GameOverScreen) and not app.tut.over
            assert app.tut.step is not None and app.tut.step.id == "next_gambit"
            assert "The next gambit" in coach(app)

    asyncio.run(run())


def test_r_opens_the_primer_at_the_steps_section() -> None:
    from dragonante.interfaces.tui.primer import PrimerScreen

    async def run() -> None:
        app = LearnApp(Tutorial("it"), "it")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, PrimerScreen)
            assert "L'apertura" in screen_text(app)  # the ante step's section
            assert len(app.keys_line()) <= 78

    asyncio.run(run())
