"""Playing dragons and their powers (options.md §8.5-§8.6): the ante, evil steals,
good demands, the dragon gods, Bahamut's sacrifice and its replacements.

Most tables here start the same way: two players roll 5 and 3 for turn
order, so seat 0 goes first and antes 3 (half of 5, rounded up), seat 1
antes 5: hoards 47 and 45, stakes 8.
"""

from __future__ import annotations

import pytest

from dragonante.dice import IllegalAnswer, apply
from dragonante.dice.decisions import DEMAND, PASS, ROLL, SACRIFICE, STRENGTH_ROLL, TURN
from dragonante.dice.state import STAKES
from dragonante.dice.table import (
    BAHAMUT,
    BLACK,
    BLUE,
    BRASS,
    BRONZE,
    COPPER,
    GOLD,
    GREEN,
    RED,
    SILVER,
    TIAMAT,
    WHITE,
)

from .script import Script


def start(**settings: object) -> Script:
    t = Script(players=2, **settings)
    t.rolls(5, 3)
    assert (t.s.hoards, t.s.stakes) == ([47, 45], 8)
    return t


def test_a_turn_asks_to_play_or_withdraw_then_rolls_type_and_strength() -> None:
    t = start()
    assert t.d.kind == TURN and t.d.options == (0, 1)
    t.answer(0, TURN, 0)
    assert t.d.kind == ROLL and t.d.ctx[0] == 12
    t.rolls(BRONZE)
    assert t.d.kind == ROLL and t.d.ctx[:2] == (8, STRENGTH_ROLL)
    t.rolls(5)
    assert t.s.flights[0] == [(BRONZE, 5)]


@pytest.mark.parametrize("strength", [1, 4, 7])
def test_playing_a_dragon_antes_its_strength_to_the_stakes(strength: int) -> None:
    t = start()
    t.turn(0, SILVER, strength)
    assert t.s.hoards[0] == 47 - strength
    assert t.s.stakes == 8 + strength


def test_dragon_gods_have_fixed_strength_and_roll_no_strength_die() -> None:
    t = start()
    t.turn(0, BAHAMUT)
    t.turn(1, TIAMAT)
    assert t.s.flights == [[(BAHAMUT, 13)], [(TIAMAT, 1)]]
    assert t.s.hoards == [34, 44]
    assert t.s.stakes == 8 + 13 + 1
    assert [e["sides"] for e in t.events("roll", purpose=STRENGTH_ROLL)] == []


def test_ante_shortfall_pays_what_you_have_and_the_rest_is_a_debt_to_the_stakes() -> None:
    t = Script(players=2, starting_hoard=10)
    t.rolls(5, 3)  # hoards 7 and 5, stakes 8
    t.turn(0, GOLD, 11)
    assert t.s.hoards[0] == 0
    assert t.s.debts == [(0, STAKES, 4)]
    assert t.s.stakes == 15


@pytest.mark.parametrize(
    ("face", "die", "half"),
    [(WHITE, 4, 2), (BLACK, 6, 3), (GREEN, 8, 4), (BLUE, 10, 5), (RED, 12, 6)],
)
@pytest.mark.parametrize("roll", ["lowest", "highest"])
def test_evil_dragon_steals_half_its_strength_die_whatever_its_strength(
    face: int, die: int, half: int, roll: str
) -> None:
    strength = 1 if roll == "lowest" else die
    t = start()
    t.turn(0, face, strength)
    assert t.s.hoards[0] == 47 - strength + half
    assert t.s.stakes == 8 + strength - half


def test_evil_steal_comes_after_the_ante_and_can_take_back_part_of_it() -> None:
    t = Script(players=2, starting_hoard=1)
    t.rolls(2, 1)  # seat 0 antes 1 of 1; seat 1 antes 1 of 2 and owes 1: stakes 2
    assert t.s.stakes == 2
    t.turn(0, RED, 3)  # antes 0 of 3 (debt 3), then steals: the stakes hold 2
    assert t.events("take", seat=0) == [{"seat": 0, "amount": 6, "taken": 2, "reason": "evil"}]
    assert t.s.hoards[0] == 2
    assert t.s.stakes == 0
    # "The stakes is not responsible for any debt": only the ante shortfalls are owed.
    assert t.s.debts == [(1, STAKES, 1), (0, STAKES, 3)]


@pytest.mark.parametrize(
    ("face", "half"), [(BRASS, 2), (COPPER, 3), (BRONZE, 4), (SILVER, 5), (GOLD, 6)]
)
def test_good_dragon_makes_an_opponent_with_an_evil_dragon_return_half_its_die(
    face: int, half: int
) -> None:
    t = start()
    t.turn(0, WHITE, 2)  # antes 2, steals 2: hoard 47, stakes 8
    t.turn(1, face, 1, demand=0)  # antes 1: hoard 44, stakes 9
    assert t.events("demand") == [{"seat": 1, "target": 0, "amount": half}]
    assert t.s.hoards == [47 - half, 44]
    assert t.s.stakes == 9 + half


def test_good_dragon_demand_is_optional() -> None:
    t = start()
    t.turn(0, BLACK, 1)
    t.turn(1, GOLD, 2)  # demand declined (PASS)
    assert t.events("demand_declined") == [{"seat": 1, "amount": 6}]
    assert t.s.hoards == [49, 43]


def test_good_dragon_may_only_choose_opponents_with_an_evil_dragon_tiamat_included() -> None:
    t = Script(players=3)
    t.rolls(4, 9, 2)  # order 1, 2, 0
    t.turn(1, TIAMAT)
    t.turn(2, BRASS, 1, demand=None)  # seat 1 has Tiamat (evil): the only choice
    assert t.d.kind == DEMAND and t.d.options == (1, PASS)
    t.answer(PASS, DEMAND, 2)
    t.turn(0, GREEN, 1)
    t.turn(1, BRASS, 2, demand=None)
    # Opponents in turn order after seat 1: seat 2 has no evil dragon, seat 0 has the Green.
    assert t.d.kind == DEMAND and t.d.options == (0, PASS)


def test_good_dragon_with_no_evil_opponent_asks_nothing() -> None:
    t = start()
    t.turn(0, BRASS, 1)
    assert t.events("demand_none") == [{"seat": 0, "amount": 2}]
    assert t.d.kind == TURN and t.d.seat == 1


def test_good_dragon_demand_shortfall_is_a_debt_to_the_stakes() -> None:
    t = Script(players=2, starting_hoard=6)
    t.rolls(5, 3)  # hoards 3 and 1, stakes 8
    t.turn(0, BLUE, 9)  # antes 3 of 9 (owes 6), steals 5: hoard 5, stakes 6
    t.turn(1, GOLD, 1, demand=0)  # antes 1: hoard 0; seat 0 returns 6 of which it has 5
    assert t.s.hoards == [0, 0]
    assert t.s.debts == [(0, STAKES, 6), (0, STAKES, 1)]
    assert t.s.stakes == 6 + 1 + 5


def test_withdrawn_players_cannot_be_chosen_by_good_dragons() -> None:
    t = Script(players=3, lone_player_plays_on=False)
    t.rolls(4, 9, 2)  # order 1, 2, 0
    t.turn(1, RED, 1)
    t.turn(2, RED, 1)
    t.withdraw(0)
    t.turn(1, RED, 1)
    t.withdraw(2)  # seat 1 is now alone: with the house rule, on to the special flights
    assert t.s.over
    t2 = Script(players=3)
    t2.rolls(4, 9, 2)
    t2.turn(1, RED, 1)
    t2.withdraw(2)
    t2.turn(0, GOLD, 1, demand=None)
    assert t2.d.kind == DEMAND and t2.d.options == (1, PASS)  # not the withdrawn seat 2


# Bahamut --------------------------------------------------------------------


def test_bahamut_sacrifice_destroys_a_tiamat_and_both_are_replaced_tiamats_owner_first() -> None:
    t = start()
    t.turn(0, BAHAMUT)  # hoard 34, stakes 21; no Tiamat in play: no offer
    assert t.d.kind == TURN and t.d.seat == 1
    t.turn(1, TIAMAT)  # hoard 44, stakes 22
    assert t.d.kind == SACRIFICE and t.d.seat == 0 and t.d.options == (1, PASS)
    t.answer(1, SACRIFICE, 0)
    # Tiamat's owner plays a Red dragon in her place (1d12), as a full play.
    assert t.d.kind == ROLL and t.d.seat == 1 and t.d.ctx[:2] == (12, STRENGTH_ROLL)
    t.rolls(9)  # Red 9: antes 9, steals 6 -> hoard 41, stakes 25
    assert t.d.kind == ROLL and t.d.seat == 0 and t.d.ctx[:2] == (12, STRENGTH_ROLL)
    t.rolls(4)  # Gold 4: antes 4 -> hoard 30, stakes 29; may make seat 1 (Red) return 6
    assert t.d.kind == DEMAND and t.d.options == (1, PASS)
    t.answer(1, DEMAND, 0)
    assert t.s.flights == [[(GOLD, 4)], [(RED, 9)]]
    assert t.s.hoards == [30, 35]
    assert t.s.stakes == 35
    assert t.s.gods_played == [1, 1]  # sacrificed and destroyed gods were still played
    assert t.d.kind == TURN and t.d.seat == 0  # round 2


def test_replacements_without_full_play_neither_ante_nor_trigger() -> None:
    t = start(replacement_is_full_play=False)
    t.turn(0, BAHAMUT)
    t.turn(1, TIAMAT)
    t.answer(1, SACRIFICE, 0)
    t.rolls(9, 4)
    assert t.s.flights == [[(GOLD, 4)], [(RED, 9)]]
    assert t.s.hoards == [34, 44]
    assert t.s.stakes == 22
    assert t.d.kind == TURN


def test_bahamut_may_destroy_its_owners_own_tiamat() -> None:
    t = start()
    t.turn(0, TIAMAT)
    t.turn(1, BRASS, 1)
    t.turn(0, BAHAMUT)
    assert t.d.kind == SACRIFICE and t.d.options == (0, PASS)
    t.answer(0, SACRIFICE, 0)
    t.rolls(5, 7)  # Red 5 for the Tiamat, then Gold 7 for Bahamut
    assert t.s.flights[0] == [(RED, 5), (GOLD, 7)]


def test_bahamut_can_be_sacrificed_at_a_later_window_and_offers_repeat_after_every_turn() -> None:
    t = start()
    t.turn(0, BAHAMUT)
    t.turn(1, TIAMAT)
    t.answer(PASS, SACRIFICE, 0)  # window after seat 1's turn
    t.answer(0, TURN, 0)
    t.rolls(BRASS, 2)
    t.answer(PASS, DEMAND, 0)  # seat 1's Tiamat is an evil dragon
    assert t.d.kind == SACRIFICE and t.d.seat == 0  # window after seat 0's own turn
    t.answer(PASS, SACRIFICE, 0)
    t.turn(1, BRASS, 1)
    t.answer(1, SACRIFICE, 0)
    t.rolls(3, 3)
    assert t.s.flights == [[(GOLD, 3), (BRASS, 2)], [(RED, 3), (BRASS, 1)]]


def test_the_last_window_before_the_special_flights_decides_whether_tiamat_stays() -> None:
    t = start()
    for _ in range(2):
        t.turn(0, BRASS, 1)
        t.turn(1, BRASS, 1)
    t.turn(0, BAHAMUT)
    t.turn(1, TIAMAT)
    t.answer(PASS, SACRIFICE, 0)
    # Tiamat is still in play at the end: the weakest flight (seat 1: 3) wins.
    assert t.s.over
    assert t.events("leader_flight") == [{"seats": [1], "weakest": True}]


def test_no_sacrifice_is_offered_without_a_tiamat_in_play() -> None:
    t = start()
    t.turn(0, BAHAMUT)
    t.turn(1, BAHAMUT)
    assert t.d.kind == TURN


def test_a_second_bahamut_may_destroy_a_second_tiamat_at_once() -> None:
    t = Script(players=3)
    t.rolls(4, 9, 2)  # order 1, 2, 0
    t.turn(1, TIAMAT)
    t.turn(2, TIAMAT)
    t.turn(0, BAHAMUT)
    t.answer(PASS, SACRIFICE, 0)
    t.turn(1, BAHAMUT)
    t.decline_sacrifices()
    t.turn(2, BRASS, 1)
    t.answer(PASS, SACRIFICE, 0)  # seat 0 passes first (turn order from seat 2's turn)
    assert t.d.kind == SACRIFICE and t.d.seat == 1 and t.d.options == (1, 2, PASS)
    t.answer(2, SACRIFICE, 1)
    t.rolls(8, 10)  # seat 2's Red, seat 1's Gold
    t.answer(PASS, DEMAND, 1)
    # Seat 1 has no Bahamut left; seat 0 passed in this window and is not asked again.
    assert t.d.kind == TURN and t.d.seat == 0


def test_illegal_and_stale_answers_are_refused_and_change_nothing() -> None:
    t = start()
    before = t.s.to_dict()
    d = t.d
    with pytest.raises(IllegalAnswer, match="not an answer"):
        apply(t.s, 7, d.id)
    with pytest.raises(IllegalAnswer, match="stale"):
        apply(t.s, 0, d.id - 1)
    t.answer(0, TURN, 0)
    d = t.d
    before = t.s.to_dict()
    with pytest.raises(IllegalAnswer, match="a d12 shows 1 to 12; 13 is impossible"):
        apply(t.s, 13, d.id)
    with pytest.raises(IllegalAnswer):
        apply(t.s, 0, d.id)
    assert t.s.to_dict() == before
