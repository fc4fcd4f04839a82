"""The bots and the D&D abilities: every question answered legally, and judgement.

The heuristic weighs a use against keeping the disk (or a recharge ability)
ready for a better moment: it draws two cards when it can, does not spend a
disk that can draw two cards on denying an opponent one card, never pays an
opponent gold with Heal, and takes Streetwise's payments when they beat the
steal.
"""

from __future__ import annotations

import random

import pytest

from dragonante.bots import make_bot
from dragonante.bots.abilities import DRAFT, USE, quick_answer, readiness
from dragonante.bots.base import SeatView
from dragonante.bots.heuristic import HeuristicBot
from dragonante.cards import card_number
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.abilities import ID, AbilityOptions
from dragonante.engine.abilities.catalog import ABILITIES, RECHARGE, SKILLS
from dragonante.engine.abilities.disks import DiskTable
from dragonante.engine.decisions import ABILITY_CARD, ABILITY_KINDS, PASS, USE_ABILITY
from dragonante.engine.position import Position, build_position
from dragonante.engine.state import GameState
from tests.bots.conftest import BOT_SPECS


def ids(*names: str) -> list[int]:
    return [card_number(n) for n in names]


def keys(*names: str) -> list[int]:
    return [ID[k] for k in names]


def choose(s: GameState) -> int:
    d = s.pending
    assert d is not None
    return HeuristicBot(seed=1).choose(SeatView(s, d.seat))


def test_the_worth_tables_cover_every_ability() -> None:
    assert set(DRAFT) == {a.id for a in ABILITIES}
    usable = {a.id for a in ABILITIES if a.system != SKILLS or a.kind == RECHARGE}
    assert set(USE) == usable


@pytest.mark.parametrize("system", ["disks", "skills"])
def test_quick_answers_and_every_bot_are_legal_on_every_ability_question(system: str) -> None:
    bots = [make_bot(spec, 2) for spec in BOT_SPECS]
    asked = 0
    for seed in range(12):
        opts = AbilityOptions(system=system, assign="draft", per_character=2)
        s = new_game(GameConfig(players=2 + seed % 5, abilities=opts), seed)
        pick = random.Random(seed)
        while not s.over:
            d = s.pending
            assert d is not None
            if d.kind in ABILITY_KINDS:
                asked += 1
                assert quick_answer(s, d) in d.options
                if asked % 5 == 0:
                    for bot in bots:
                        assert bot.choose(SeatView(s, d.seat)) in d.options
            apply(s, pick.choice(d.options))
    assert asked > 50


def disk_table(held0: list[str], **kw: object) -> GameState:
    """Seat 0 leads a Black Dragon (steal 3) at a 3-player table with a disk."""
    pos = Position(
        hands=[
            ids("L-std-black-2", "L-std-red-3", "L-std-gold-4"),
            ids("L-std-white-4", "L-std-white-6"),
            ids("L-std-green-4", "L-std-green-8"),
        ],
        stakes=12,
        abilities=[keys(*held0), [], []],
        **kw,  # type: ignore[arg-type]
    )
    opts = AbilityOptions(system="disks")
    return build_position(GameConfig(players=3, abilities=opts), pos, seed=3)


def test_uses_fast_hands_to_draw_and_steal() -> None:
    s = disk_table(["fast_hands"])
    apply(s, card_number("L-std-black-2"))
    d = s.pending
    assert d is not None and d.kind == USE_ABILITY
    assert choose(s) == ID["fast_hands"]


def test_a_ready_disk_is_worth_keeping_for_a_better_use() -> None:
    s = disk_table(["fast_hands", "cutting_words"])
    tbl = s.abilities
    assert isinstance(tbl, DiskTable)
    assert readiness(s, 0) == pytest.approx(0.5 * USE[ID["fast_hands"]])
    tbl.expended = 1
    assert readiness(s, 0) == 0.0


def test_does_not_spend_a_drawing_disk_on_denying_one_card() -> None:
    # Seat 2 buys cards (one card left at its turn); seat 0 holds Cutting Words and
    # Versatile Trickster: denying one card is not worth the disk.
    pos = Position(
        hands=[ids("L-std-red-8", "L-std-red-10"), ids("L-std-white-4", "L-std-white-6"),
               ids("L-std-green-4")],
        flights=[ids("L-std-gold-13"), ids("L-std-blue-1"), ids("L-std-black-1")],
        stakes=20,
        leader=1,
        turn=1,
        round_cards=[-1, card_number("L-std-blue-1"), -1],
        abilities=[keys("cutting_words", "versatile_trickster"), [], []],
    )  # fmt: skip
    opts = AbilityOptions(system="disks")
    s = build_position(GameConfig(players=3, abilities=opts), pos, seed=4)
    d = s.pending
    assert d is not None and d.kind == USE_ABILITY and d.seat == 0
    assert ID["cutting_words"] in d.options
    assert choose(s) == PASS


def test_never_pays_an_opponent_with_heal() -> None:
    pos = Position(
        hands=[ids("L-std-red-8", "L-std-red-10"), ids("L-std-white-4", "L-std-white-6")],
        stakes=10,
        abilities=[keys("heal"), []],
    )
    opts = AbilityOptions(system="skills")
    s = build_position(GameConfig(players=2, abilities=opts), pos, seed=4)
    d = s.pending
    assert d is not None and d.kind == USE_ABILITY and d.options == (ID["heal"], PASS)
    assert choose(s) == PASS


def test_takes_streetwise_payments_when_they_beat_the_steal() -> None:
    # Seat 0 completes a strength flight of 2s with a Red 12 in its flight: each of
    # two opponents paying 12 beats stealing 2 from the stakes.
    pos = Position(
        hands=[ids("L-std-black-2", "L-std-red-3"), ids("L-std-white-4", "L-std-white-6"),
               ids("L-std-green-4", "L-std-green-8")],
        flights=[ids("L-std-red-12", "L-std-gold-2", "L-std-blue-2"), [], []],
        hoards=[30, 30, 30],
        stakes=20,
        abilities=[keys("streetwise"), [], []],
    )  # fmt: skip
    opts = AbilityOptions(system="skills")
    s = build_position(GameConfig(players=3, abilities=opts), pos, seed=5)
    apply(s, card_number("L-std-black-2"))
    d = s.pending
    assert d is not None and d.kind == ABILITY_CARD and d.seat == 0
    assert choose(s) == card_number("L-std-red-12")
