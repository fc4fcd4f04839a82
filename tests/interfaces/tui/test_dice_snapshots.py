"""Snapshots of the Dice Gambit table and the game-master's tracker, at 80x24 and 120x40,
English and Italian (``pytest --snapshot-update`` rewrites them after a deliberate change)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from .dice_helpers import make_dice_app, make_tracker_app, settle

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_dice_table(snap_compare: Any, lang: str, size: tuple[int, int]) -> None:
    # four players in round 1: a dragon in every flight; the person's good dragon
    # asks who returns gold to the stakes (each answer says what it does)
    app = make_dice_app(4, 21, lang=lang)
    assert snap_compare(app, terminal_size=size, run_before=_roll_once)


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_dice_tracker(snap_compare: Any, lang: str, size: tuple[int, int]) -> None:
    # three players, turn order rolled (7, 5, 3), the first player's dragon-type d12 asked
    app = make_tracker_app(3, lang=lang)
    assert snap_compare(app, terminal_size=size, run_before=_order_and_roll)


async def _roll_once(pilot: Pilot[int]) -> None:
    await settle(pilot)
    await pilot.press("1")
    await settle(pilot)


async def _order_and_roll(pilot: Pilot[int]) -> None:
    await settle(pilot)
    await pilot.press("7", "5", "3")
    await settle(pilot)
    await pilot.press("1")  # roll a dragon
    await settle(pilot)
