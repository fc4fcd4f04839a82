"""The full-screen table read at 80x24 (issue 25 §3): help that fits and scrolls,
what changed since your last turn, a log the keys scroll, your abilities on a
key, and one order for cards of equal strength."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import replace

import pytest
from rich.console import Console
from textual.app import App
from textual.containers import VerticalScroll

from dragonante.cards import ALL_CARDS
from dragonante.engine import decisions as D
from dragonante.engine.abilities import ID
from dragonante.engine.game import apply, new_game
from dragonante.interfaces.cli.table_options import DEFAULT_TABLE, build_config
from dragonante.interfaces.narrate import (
    Narrator,
    Option,
    ability_name,
    ability_text,
    hand_order,
    table_names,
)
from dragonante.interfaces.render import hand_line, table_view
from dragonante.interfaces.tui import TableApp, TableGame
from dragonante.interfaces.tui.hand import hand_text
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.question import option_renderable
from dragonante.interfaces.tui.screens import CardScreen, HelpScreen, hanging, page_renderable
from dragonante.interfaces.tui.snapshot import Snapshot

from .dice_helpers import make_dice_app
from .helpers import make_app, settle


def screen_text(app: App[int]) -> str:
    """Every character on the screen now (the card table's or the Dice Gambit's)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def log_text(app: TableApp) -> str:
    return "\n".join(strip.text for strip in app.query_one(LogPanel).lines)


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("dice", [False, True], ids=["cards", "dice"])
def test_help_fits_80x24_wraps_to_the_box_and_says_it_scrolls(lang: str, dice: bool) -> None:
    async def run() -> None:
        app = make_dice_app(lang=lang) if dice else make_app(4, 21, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, HelpScreen)
            text = screen_text(app)
            lines = text.splitlines()
            assert len(lines) == 24
            scroll_word = "scroll" if lang == "en" else "scorri"
            # every key line starts in the key column: none is broken in two
            assert any("│ q, Ctrl+C " in line for line in lines) or "q, Ctrl+C" not in text
            if not screen.scrolls:  # the whole page is in view, and no word of scrolling
                assert "(▶)" in text and scroll_word not in text
                return
            assert scroll_word in text  # taller than 24 rows: the footer says it scrolls
            scroller = screen.query_one(VerticalScroll)
            await pilot.press("pagedown", "pagedown", "pagedown")
            await pilot.pause()
            assert scroller.scroll_y > 0
            assert scroll_word in screen_text(app)  # the footer stays in view
            await pilot.press("end")
            await pilot.pause()
            assert "(▶)" in screen_text(app)  # the last words can be reached

    asyncio.run(run())


def test_help_key_lines_become_a_table_that_wraps_under_itself() -> None:
    from rich.console import Console

    console = Console(width=40, record=True)
    console.print(page_renderable(["Intro", "  x  a long description " * 1 + "that wraps"]))
    out = console.export_text().splitlines()
    assert out[0] == "Intro"
    assert out[1].startswith("x  a long description")
    assert all(not line or line.startswith(("x  ", "   ")) for line in out[1:])


@pytest.mark.parametrize("lang", ["en", "it"])
def test_your_turn_tells_what_changed_for_you_since_your_last(lang: str) -> None:
    async def run() -> None:
        app = make_app(4, 21, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert "→" not in log_text(app)  # no last turn yet
            hoard = app.game.state.hoards[0]
            await pilot.press("3")  # the ante; then three bots, then you again
            await settle(pilot)
            text = log_text(app)
            now = app.game.state.hoards[0]
            since = "Since your last turn" if lang == "en" else "Dal tuo ultimo turno"
            assert since in text
            assert f"{hoard} " in text and f"→ {now} " in text
            assert "−" in text  # the ante you paid, with why

    asyncio.run(run())


def test_page_keys_scroll_the_log() -> None:
    async def run() -> None:
        app = make_app(6, 8)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("1")
            await settle(pilot)
            log = app.query_one(LogPanel)
            assert log.max_scroll_y > 0
            bottom = log.scroll_y
            await pilot.press("pageup")
            await pilot.pause()
            assert log.scroll_y < bottom
            await pilot.press("pagedown", "pagedown", "pagedown")
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y

    asyncio.run(run())


def test_a_shows_every_known_ability_with_its_text_and_the_key_line_offers_it() -> None:
    config = build_config(replace(DEFAULT_TABLE, players=2, abilities="disks"), "en")

    async def run() -> None:
        app = TableApp(TableGame(config, 4, (0,), {1: "random"}), "en")
        async with app.run_test(size=(80, 40)) as pilot:
            await settle(pilot)
            keys = str(app.query_one("#keys").render())
            assert "a abilities" in keys and "u undo" in keys
            await pilot.press("a")
            await pilot.pause()
            assert isinstance(app.screen, CardScreen)
            text = screen_text(app)
            assert "Abilities at the table" in text
            held = app.game.state.abilities
            assert held is not None
            # the opponent's abilities (known: no game-master) with their text too
            snap = app.snapshot
            assert snap is not None and snap.view.obs.abilities is not None
            theirs = snap.view.obs.abilities["held"][1]
            assert theirs
            for ability in theirs:  # its name heads its text, as your own do
                heading = rf"│ {re.escape(ability_name(ability, 'en'))} +│[^\n]*\n[^\n]*│   \w"
                assert re.search(heading, text), ability_name(ability, "en")

    asyncio.run(run())


def test_without_abilities_a_says_so_and_is_not_offered() -> None:
    async def run() -> None:
        app = make_app(2, 4)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert "a abilities" not in str(app.query_one("#keys").render())
            await pilot.press("a")
            await pilot.pause()
            assert not isinstance(app.screen, CardScreen)
            assert any("without D&D abilities" in n.message for n in app._notifications)

    asyncio.run(run())


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_hand_line_and_the_answers_list_equal_cards_in_one_order(lang: str) -> None:
    """ "The third card" in the hand is answer 3, in both languages, plain or full screen."""
    checked = 0
    narrator = Narrator(table_names(4, (0,), lang), lang, me=0)
    for seed in range(40):
        s = new_game(build_config(replace(DEFAULT_TABLE, players=4), lang), seed)
        rng = random.Random(seed)
        while not s.over:
            d = s.pending
            assert d is not None
            if d.seat == 0 and d.kind == D.PLAY:
                strengths = [ALL_CARDS[c].strength for c in s.hands[0]]
                if len(set(strengths)) < len(strengths):  # two cards of equal strength
                    prompt = narrator.prompt(s)
                    assert prompt is not None
                    answers = [o.card for o in prompt.options if o.card >= 0]
                    assert answers == hand_order(s.hands[0])
                    view = table_view(s, 0)
                    # the full-screen hand draws the cards in that order...
                    flow = hand_text(Snapshot(view, narrator, None, None))
                    drawn = [item.plain for item in flow.items[1:]]  # type: ignore[union-attr]
                    labels = [o.label for o in prompt.options if o.card >= 0]
                    assert [x.strip().rstrip("*").strip() for x in drawn[: len(labels)]] == labels
                    # ...and so does the plain hand line
                    line = hand_line(view, narrator)
                    places = [line.index(label) for label in labels]
                    assert places == sorted(places)
                    checked += 1
            apply(s, rng.choice(d.options))
    assert checked >= 5


def test_a_long_answer_hangs_its_wrapped_lines_under_its_own_text() -> None:
    """A wrapped label or detail goes on under its own first word, never under the
    number key (issue 32 §6: the D&D table's long answers)."""
    option = Option(
        answer=0,
        label="Use Fast Hands now, before the next player plays a card",
        detail="Card Draw. Trigger: you steal gold from the stakes. Twist: draw only 1 card.",
    )
    console = Console(width=30, record=True, color_system=None)
    console.print(option_renderable(2, option, "en"))
    lines = console.export_text().rstrip("\n").splitlines()
    assert lines[0].startswith("3 Use Fast Hands")
    detail = next(i for i, line in enumerate(lines) if line.startswith("  Card Draw."))
    assert detail > 1 and len(lines) > detail + 1  # the label wraps, and the detail
    assert all(line.startswith("  ") and line[2] != " " for line in lines[1:])


def test_a_page_hangs_an_indented_lines_wrapped_part_under_its_first_word() -> None:
    """A card's or an ability's text on a page (``a``, ``c``) goes on under itself."""
    console = Console(width=30, record=True, color_system=None)
    console.print(hanging(["Fast Hands", "  " + ability_text(ID["fast_hands"], "en"), ""]))
    lines = console.export_text().splitlines()
    assert lines[0] == "Fast Hands" and lines[1].startswith("  Card Draw.")
    assert len(lines) > 4 and lines[-1] == ""
    assert all(line.startswith("  ") and line[2] != " " for line in lines[1:-1])
