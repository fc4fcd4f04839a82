"""The baseline policy, exactly: median ante, strongest triggering card, first answer."""

from __future__ import annotations

from dragonante.bots.base import SeatView
from dragonante.bots.baseline import BaselineBot, median_card
from dragonante.cards import card_number
from dragonante.engine import GameConfig, apply
from dragonante.engine.decisions import ANTE, BLUE_MODE, PLAY
from dragonante.engine.position import Position, build_position
from dragonante.engine.state import GameState


def ids(*names: str) -> list[int]:
    return [card_number(n) for n in names]


def ante_table(hand: list[str]) -> GameState:
    pos = Position(
        hands=[ids(*hand), ids("L-std-white-1", "L-std-white-2")],
        start="ante",
        leader=0,
    )
    return build_position(GameConfig(players=2), pos, seed=1)


def choose(s: GameState) -> int:
    d = s.pending
    assert d is not None
    return BaselineBot().choose(SeatView(s, d.seat))


def test_ante_is_the_lower_median_of_an_even_hand() -> None:
    # Strengths 1 2 5 7 9 12: the lower median is the 3rd weakest, the 5.
    s = ante_table(
        ["L-std-red-12", "L-std-black-1", "L-std-gold-9", "L-std-blue-2", "L-std-red-5",
         "L-std-copper-7"]
    )  # fmt: skip
    assert s.pending is not None and s.pending.kind == ANTE
    assert choose(s) == card_number("L-std-red-5")


def test_ante_is_the_median_of_an_odd_hand() -> None:
    s = ante_table(["L-std-red-12", "L-std-black-1", "L-std-gold-9", "L-std-blue-2", "L-std-red-5"])
    assert choose(s) == card_number("L-std-red-5")


def test_ante_median_ties_go_to_the_lower_card_number() -> None:
    hand = ids("L-std-red-5", "L-std-black-5", "L-std-white-5", "L-std-gold-13")
    assert median_card(hand) == sorted(hand[:3])[1]
    assert median_card(ids("L-std-gold-13", "L-std-black-1")) == card_number("L-std-black-1")


def play_table(hand0: list[str], right_card: str | None) -> GameState:
    """Seat 1 to play; seat 0 (on its right) led with ``right_card`` this round."""
    flights = [ids(right_card), []] if right_card else [[], []]
    round_cards = [card_number(right_card), -1] if right_card else None
    pos = Position(
        hands=[ids("L-std-white-1", "L-std-white-2"), ids(*hand0)],
        flights=flights,
        round_cards=round_cards,
        leader=0,
        turn=1 if right_card else 0,
        stakes=10,
    )
    return build_position(GameConfig(players=2), pos, seed=2)


def test_play_is_the_strongest_card_that_triggers() -> None:
    # The right neighbour played a 7: the 9 would not trigger, the 7 and 5 would.
    s = play_table(["L-std-gold-9", "L-std-copper-7", "L-std-red-5"], "L-std-bronze-7")
    assert s.pending is not None and s.pending.kind == PLAY and s.pending.seat == 1
    assert choose(s) == card_number("L-std-copper-7")


def test_play_is_the_strongest_card_when_none_triggers() -> None:
    s = play_table(["L-std-gold-9", "L-std-copper-7", "L-std-red-5"], "L-std-black-2")
    assert choose(s) == card_number("L-std-gold-9")


def test_first_player_of_a_round_triggers_everything() -> None:
    pos = Position(
        hands=[ids("L-std-gold-9", "L-std-red-12", "L-std-red-5"), ids("L-std-white-1")],
        leader=0,
        stakes=10,
    )
    s = build_position(GameConfig(players=2), pos, seed=3)
    assert choose(s) == card_number("L-std-red-12")


def test_other_questions_take_the_first_legal_answer() -> None:
    # Seat 0 leads a Blue Dragon: the mode question's first option is 0.
    pos = Position(
        hands=[ids("L-std-blue-9", "L-std-red-5"), ids("L-std-white-1", "L-std-white-4")],
        leader=0,
        stakes=10,
    )
    s = build_position(GameConfig(players=2), pos, seed=4)
    apply(s, card_number("L-std-blue-9"))
    d = s.pending
    assert d is not None and d.kind == BLUE_MODE
    assert choose(s) == d.options[0]
