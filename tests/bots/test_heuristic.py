"""The heuristic player's judgement on positions where the right answer is clear."""

from __future__ import annotations

from dragonante.bots.base import SeatView
from dragonante.bots.heuristic import HeuristicBot, unseen_cards
from dragonante.cards import card_number
from dragonante.engine import GameConfig, apply
from dragonante.engine.decisions import ANTE, GIVE_OR_PAY, PASS
from dragonante.engine.position import Position, build_position
from dragonante.engine.state import GameState


def ids(*names: str) -> list[int]:
    return [card_number(n) for n in names]


def choose(s: GameState) -> int:
    d = s.pending
    assert d is not None
    return HeuristicBot(seed=1).choose(SeatView(s, d.seat))


def green_asks(hand1: list[str], gold: int = 30) -> GameState:
    """Seat 0 leads a Green 8: seat 1 (its left) gives a weaker evil dragon or pays 5."""
    pos = Position(
        hands=[ids("L-std-green-8", "L-std-red-2"), ids(*hand1), ids("L-std-gold-8")],
        flights=[[], [], []],
        hoards=[30, gold, 30],
        stakes=12,
        leader=0,
    )
    s = build_position(GameConfig(players=3), pos, seed=1)
    apply(s, card_number("L-std-green-8"))
    assert s.pending is not None and s.pending.kind == GIVE_OR_PAY and s.pending.seat == 1
    return s


def test_gives_a_weak_card_rather_than_5_gold() -> None:
    s = green_asks(["L-std-black-1", "L-std-gold-13", "L-std-silver-12"])
    assert choose(s) == card_number("L-std-black-1")


def test_pays_rather_than_give_a_strong_card() -> None:
    # Brass 2 led by seat 0: seat 2 (its right) must give a good dragon stronger than
    # 2 - here only the Gold 13 - or pay 5: the Gold 13 is worth more than 5 gold.
    pos = Position(
        hands=[ids("L-std-brass-2", "L-std-red-2"), ids("L-std-white-1"),
               ids("L-std-gold-13", "L-std-black-3")],
        hoards=[30, 30, 30],
        stakes=12,
        leader=0,
    )  # fmt: skip
    s = build_position(GameConfig(players=3), pos, seed=2)
    apply(s, card_number("L-std-brass-2"))
    d = s.pending
    assert d is not None and d.kind == GIVE_OR_PAY and d.seat == 2
    assert choose(s) == PASS


def test_weak_hand_antes_its_cheapest_card() -> None:
    pos = Position(
        hands=[ids("L-std-black-1", "L-std-white-2", "L-std-red-3", "L-std-brass-4",
                   "L-std-blue-2", "L-std-green-1"),
               ids("L-std-gold-13", "L-std-red-12", "L-std-silver-12", "L-std-gold-11",
                   "L-std-blue-11", "L-std-bronze-11")],
        start="ante",
    )  # fmt: skip
    s = build_position(GameConfig(players=2), pos, seed=3)
    d = s.pending
    assert d is not None and d.kind == ANTE and d.seat == 0
    assert choose(s) in ids("L-std-black-1", "L-std-green-1")


def test_card_counting_excludes_everything_seen() -> None:
    pos = Position(
        hands=[ids("L-std-black-1", "L-std-white-2"), ids("L-std-gold-13")],
        flights=[ids("L-std-red-12"), ids("L-std-blue-2")],
        ante=ids("L-std-green-4", "L-std-silver-3"),
        discard=ids("L-std-copper-10"),
        stakes=8,
    )
    s = build_position(GameConfig(players=2), pos, seed=4)
    unseen = unseen_cards(s, 0)
    seen = ids("L-std-black-1", "L-std-white-2", "L-std-red-12", "L-std-blue-2",
               "L-std-green-4", "L-std-silver-3", "L-std-copper-10")  # fmt: skip
    assert not set(seen) & set(unseen)
    assert card_number("L-std-gold-13") in unseen  # the opponent's hand is unseen
    standard = [c for c in unseen if c < 70]
    assert len(standard) == 70 - len(seen)
    # 30 specials, none seen: thinned to the 10 expected in the deck.
    assert len(unseen) - len(standard) == 10
