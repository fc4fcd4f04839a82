"""Playing dragons and their powers (options.md §8.5-§8.6): the ante, evil steals,
good demands, the dragon gods, Bahamut's sacrifice and its replacements.

Most tables here start the same way: two players roll 5 and 3 for turn
order, so seat 0 goes first and antes 3 (half of 5, rounded up), seat 1
antes 5: hoards 47 and 45, stakes 8.
"""

from __future__ import annotations

import json

import pytest

from dragonante.dice import DiceConfig, IllegalAnswer, apply, new_game, run
from dragonante.dice.core import push
from dragonante.dice.decisions import (
    DEMAND,
    ORDER_ROLL,
    PASS,
    PLAY,
    ROLL,
    SACRIFICE,
    STRENGTH_ROLL,
    TIEBREAK_ROLL,
    TURN,
    TYPE_ROLL,
    WITHDRAW,
)
from dragonante.dice.state import SEEDED, STAKES, DiceState
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
    dragon,
)
from dragonante.dice.views import observe

from .script import Script, end_gambit, events, position


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


# The dice themselves -----------------------------------------------------------


def test_a_gaming_set_owner_rolls_two_dice_and_keeps_the_highest_except_the_dragon_type() -> None:
    """Dice Gambit, Gaming Set: "Characters that own the Three-Dragon Ante gaming set can
    make all game rolls with advantage (who goes first roll, dragon strength rolls, and
    tie breaker rolls) by rolling two of the specified type of dice and keeping the
    highest result."  The dragon-type d12 is not among them."""
    t = Script(players=2, gaming_set_owners=(0,))
    # Who goes first: seat 0 rolls two d12 (die 1 of 2, die 2 of 2), seat 1 one.
    assert t.d.seat == 0 and t.d.ctx == (12, ORDER_ROLL, 1, 2)
    t.answer(2, ROLL, 0)
    assert t.d.seat == 0 and t.d.ctx == (12, ORDER_ROLL, 2, 2)
    t.answer(5, ROLL, 0)
    assert t.d.seat == 1 and t.d.ctx == (12, ORDER_ROLL, 1, 1)
    t.answer(3, ROLL, 1)
    # Seat 0 kept its 5 (not the 2): it goes first and antes half of 5; seat 1 antes 5.
    assert t.events("roll", seat=0)[0]["faces"] == [2, 5]
    assert (t.s.first, t.s.hoards, t.s.stakes) == (0, [47, 45], 8)
    t.answer(PLAY, TURN, 0)
    assert t.d.ctx == (12, TYPE_ROLL, 1, 1)  # the dragon's type: one d12, no advantage
    t.answer(GOLD, ROLL, 0)
    assert t.d.ctx == (12, STRENGTH_ROLL, 1, 2)
    t.answer(9, ROLL, 0)
    assert t.d.ctx == (12, STRENGTH_ROLL, 2, 2)
    t.answer(4, ROLL, 0)
    assert t.s.flights[0] == [(GOLD, 9)]  # the highest of 9 and 4
    t.answer(PLAY, TURN, 1)
    t.answer(GOLD, ROLL, 1)
    assert t.d.seat == 1 and t.d.ctx == (12, STRENGTH_ROLL, 1, 1)  # no gaming set: one die


def asked(s: DiceState) -> tuple[int, tuple[int, ...]]:
    """Who is asked, and the question's context (for a roll: sides, purpose, die i of n)."""
    assert s.pending is not None
    return s.pending.seat, s.pending.ctx


def test_a_gaming_set_owner_rolls_the_tie_breaker_d20_with_advantage() -> None:
    """Dice Gambit, Tie Breakers: "... unmodified d20 rolls (with advantage for characters
    that own a Three-Dragon Ante gaming set)"."""
    s = position(
        hoards=[10, 10],
        stakes=20,
        flights=[[(GOLD, 6), (RED, 4)], [(SILVER, 5), (BLUE, 5)]],
        gaming_set_owners=(1,),
    )
    push(s, ("end_of_play",))
    run(s)
    assert asked(s) == (0, (20, TIEBREAK_ROLL, 1, 1))
    apply(s, 15)
    assert asked(s) == (1, (20, TIEBREAK_ROLL, 1, 2))
    apply(s, 16)
    assert asked(s) == (1, (20, TIEBREAK_ROLL, 2, 2))
    apply(s, 12)
    assert s.stake_winner == 1  # 16 (the higher of 16 and 12) beats 15


def test_seeded_dice_show_every_face_of_their_die_and_nothing_else() -> None:
    """Dice Gambit, Dragon Card Table: "D12 ... Strength 1d4 ... 1d12"; Turns: "All players
    roll 1d12".  Seeded dice stand in for the dice at the table: a d12 shows 1 to 12, every
    face can come up, nobody is asked to type a face in, and a gaming-set owner's
    strength roll keeps the higher of two dice."""
    seen: dict[int, set[int]] = {}
    advantage = 0
    for seed in range(40):
        s = new_game(DiceConfig(players=4, gaming_set_owners=(0,)), seed=seed)
        while not s.over:
            assert s.pending is not None and s.pending.kind != ROLL
            apply(s, s.pending.options[0])
        for e in events(s, "roll"):
            assert all(1 <= f <= e["sides"] for f in e["faces"]), e
            assert e["value"] == max(e["faces"])
            seen.setdefault(e["sides"], set()).update(e["faces"])
            if e["seat"] == 0 and e["purpose"] == STRENGTH_ROLL:
                assert len(e["faces"]) == 2
                advantage += e["faces"][0] != e["faces"][1]
    for sides in (4, 6, 8, 10, 12):
        assert seen[sides] == set(range(1, sides + 1)), (sides, seen[sides])
    assert advantage > 0


@pytest.mark.parametrize(
    ("face", "name", "alignment", "die", "fixed", "strength"),
    [
        (TIAMAT, "Tiamat", "evil", 0, 1, "1"),
        (BRASS, "Brass", "good", 4, 0, "1d4"),
        (WHITE, "White", "evil", 4, 0, "1d4"),
        (COPPER, "Copper", "good", 6, 0, "1d6"),
        (BLACK, "Black", "evil", 6, 0, "1d6"),
        (BRONZE, "Bronze", "good", 8, 0, "1d8"),
        (GREEN, "Green", "evil", 8, 0, "1d8"),
        (SILVER, "Silver", "good", 10, 0, "1d10"),
        (BLUE, "Blue", "evil", 10, 0, "1d10"),
        (GOLD, "Gold", "good", 12, 0, "1d12"),
        (RED, "Red", "evil", 12, 0, "1d12"),
        (BAHAMUT, "Bahamut", "good", 0, 13, "13"),
    ],
)
def test_the_dragon_card_table_row_by_row(
    face: int, name: str, alignment: str, die: int, fixed: int, strength: str
) -> None:
    """Dice Gambit, Dragon Card Table: "D12 Type Alignment Strength: 1 Tiamat [god] Evil 1,
    2 Brass Good 1d4, 3 White Evil 1d4, 4 Copper Good 1d6, 5 Black Evil 1d6, 6 Bronze Good
    1d8, 7 Green Evil 1d8, 8 Silver Good 1d10, 9 Blue Evil 1d10, 10 Gold Good 1d12, 11 Red
    Evil 1d12, 12 Bahamut [god] Good 13"; a regular dragon's power moves "1/2 the strength
    dice type"."""
    t = start()
    t.answer(PLAY, TURN, 0)
    t.answer(face, ROLL, 0)
    assert (dragon(face).name, dragon(face).alignment) == (name, alignment)
    assert dragon(face).strength_text == strength  # the table's Strength column
    if fixed:  # a dragon god: "a set strength, thus no roll is needed"
        assert t.s.flights[0] == [(face, fixed)]
        assert t.s.gods_played == [1, 0]
        return
    assert t.d.kind == ROLL and t.d.ctx[:2] == (die, STRENGTH_ROLL)
    assert t.d.options == tuple(range(1, die + 1))
    t.answer(die, ROLL, 0)
    assert t.s.flights[0] == [(face, die)] and t.s.gods_played == [0, 0]
    if alignment == "evil":
        assert t.events("take", seat=0) == [
            {"seat": 0, "amount": die // 2, "taken": die // 2, "reason": "evil"}
        ]
    else:  # good: nobody has an evil dragon to choose
        assert t.events("demand_none") == [{"seat": 0, "amount": die // 2}]


def test_opponents_are_taken_clockwise_from_the_player_each_once() -> None:
    """Dice Gambit, Turns: "play continue clockwise"; Good Dragons: "the player can choose
    an opponent that has an evil dragon in their flight"; Triplet Flight: "rewards the
    player gold equal to 1 of those dragon's strength from all opponents".  Four players,
    seat 2 the third in turn order: its opponents are seats 3, 0 and 1, each once."""
    flights = [[(RED, 2), (WHITE, 1)], [(BLUE, 1), (GREEN, 2)], [(GOLD, 5)] * 3, [(BLACK, 3)]]
    s = position(4, hoards=[20, 20, 20, 20], stakes=10, flights=flights)
    push(s, ("demand", 2, 6))
    run(s)
    assert asked(s) == (2, (6,)) and s.pending is not None
    assert s.pending.kind == DEMAND and s.pending.options == (3, 0, 1, PASS)
    s = end_gambit(position(4, hoards=[20, 20, 20, 20], stakes=10, flights=flights))
    pays = [(e["payer"], e["to"], e["amount"]) for e in events(s, "pay", reason="triplet")]
    assert pays == [(3, 2, 5), (0, 2, 5), (1, 2, 5)]


def test_an_answer_to_an_earlier_question_is_stale() -> None:
    """Every question has its own id: an answer meant for the question before (a player
    slow to type a die face) is refused, not taken as the answer to the next one."""
    t = start()
    first = t.d
    t.answer(PLAY, TURN, 0)
    with pytest.raises(IllegalAnswer, match="stale"):
        apply(t.s, 1, first.id)
    with pytest.raises(IllegalAnswer, match="stale"):
        apply(t.s, 1, t.d.id + 1)  # nor can a question not asked yet be answered
    assert t.d.kind == ROLL and t.d.id != first.id


def test_an_illegal_choice_of_opponent_names_the_legal_ones() -> None:
    """Dice Gambit, Good Dragons: "the player can choose an opponent that has an evil
    dragon in their flight" - any other answer is refused with the choices named."""
    t = start()
    t.turn(0, WHITE, 2)
    t.turn(1, GOLD, 1, demand=None)
    with pytest.raises(
        IllegalAnswer, match=r"5 is not an answer to 'demand'; choose from \[0, -1\]"
    ):
        apply(t.s, 5, t.d.id)
    assert t.d.kind == DEMAND


def test_a_dragon_god_rolled_on_each_of_the_three_turns_is_a_god_flight() -> None:
    """Dice Gambit, God Flight: "A player that rolled a dragon god at the start of each of
    their 3 turns may take 1/2 of the stakes (rounded down)"; two gods and a dragon are
    not one."""
    t = start()
    t.turn(0, BAHAMUT)
    t.turn(1, BAHAMUT)
    t.turn(0, TIAMAT)  # every Bahamut owner declines to destroy her (turn() passes)
    t.turn(1, BAHAMUT)
    t.turn(0, BAHAMUT)
    t.turn(1, BRASS, 1)
    t.decline_sacrifices()
    assert t.s.over
    assert t.s.god_turns == [3, 2]
    assert t.s.flights_earned[0][0] == "god" and "god" not in t.s.flights_earned[1]


def test_the_overall_tie_counts_the_gods_rolled_in_every_gambit() -> None:
    """Dice Gambit, Tie Breakers: "largest dragon hoard, most dragon gods played, most good
    dragons in dragon flight"; with hoards carried over the hoard is the tie itself, and
    seat 0's Tiamat of gambit 1 outweighs seat 1's Brass of gambit 2."""
    t = Script(players=2, gambits=2, multi_gambit_hoard="carry", lone_player_plays_on=False)
    t.rolls(5, 3)  # seat 0 antes 3, seat 1 antes 5: stakes 8
    t.turn(0, TIAMAT)  # antes 1: hoard 46, stakes 9
    t.withdraw(1)  # seat 0 wins the 9: hoards 55 and 45
    t.rolls(3, 5)  # gambit 2: seat 1 antes 3 (42), seat 0 antes 5 (50): stakes 8
    t.turn(1, BRASS, 1)  # hoard 41, stakes 9
    t.withdraw(0)  # seat 1 wins the 9: hoards 50 and 50
    assert t.s.hoards == [50, 50] and t.s.gods_total == [1, 0]
    assert events(t.s, "tie_broken", purpose="overall") == [
        {"purpose": "overall", "seat": 0, "by": "gods"}
    ]
    assert t.s.winners == (0,)


def test_bahamut_destroys_the_tiamat_wherever_it_lies_in_the_flight() -> None:
    """Dice Gambit, Bahamut: "the owner may choose to sacrifice him at any time to destroy a
    Tiamat of choice that is in play. Each player immediately plays a replacement card,
    with a red dragon card replacing any removed Tiamat card and a Gold dragon card
    replacing any removed Bahamut card."  Each replacement takes its god's place, and the
    table is told it is a replacement."""
    t = start()
    t.turn(0, BRASS, 1)
    t.turn(1, BRASS, 2)
    t.turn(0, BAHAMUT)
    t.turn(1, TIAMAT)
    t.answer(1, SACRIFICE, 0)
    t.rolls(9, 4)  # seat 1's Red 9, seat 0's Gold 4
    t.answer(1, DEMAND, 0)
    assert t.s.flights == [[(BRASS, 1), (GOLD, 4)], [(BRASS, 2), (RED, 9)]]
    placed = [(e["seat"], e["face"], e["replacement"]) for e in t.events("dragon")]
    assert placed == [
        (0, BRASS, False),
        (1, BRASS, False),
        (0, BAHAMUT, False),
        (1, TIAMAT, False),
        (1, RED, True),
        (0, GOLD, True),
    ]


def test_bahamut_destroying_its_owners_own_later_tiamat() -> None:
    """Dice Gambit, Bahamut: "... to destroy a Tiamat of choice that is in play" - the
    owner's own included; the Red replaces the Tiamat, the Gold the Bahamut before it."""
    t = start()
    t.turn(0, BAHAMUT)
    t.turn(1, BRASS, 1)
    t.turn(0, TIAMAT)
    t.answer(0, SACRIFICE, 0)
    t.rolls(5, 7)  # the Red for the Tiamat, then the Gold for Bahamut
    assert t.s.flights[0] == [(GOLD, 7), (RED, 5)]
    placed = [(e["face"], e["replacement"]) for e in t.events("dragon", seat=0)]
    assert placed == [(BAHAMUT, False), (TIAMAT, False), (RED, True), (GOLD, True)]


# What the table is shown, and how the engine rolls (mutation testing, docs/mutation.md) ---


def test_a_replacement_slot_is_shown_empty_until_its_dragon_enters_play() -> None:
    """Dice Gambit, Bahamut: "the owner may choose to sacrifice him at any time to destroy a
    Tiamat of choice that is in play.  Each player immediately plays a replacement card
    ... The owner rolls the new dragon's strength as it enters play."  While the Red
    dragon's strength is being rolled, both gods have left play and neither replacement
    has entered it: every seat's tracker shows the two slots empty (no type, alignment,
    god or strength), and the flights count no strength for them."""
    t = start()
    t.turn(0, BAHAMUT)
    t.turn(1, TIAMAT)
    t.answer(1, SACRIFICE, 0)
    assert t.d.kind == ROLL and t.d.seat == 1
    empty = {
        "face": 0,
        "type": "(replacement pending)",
        "alignment": "",
        "god": False,
        "strength": 0,
        "pending": True,
    }
    seen = observe(t.s)
    for seat in (0, 1):
        sheet = seen["sheets"][seat]
        assert (sheet["dragons"], sheet["total_strength"]) == ([empty], 0)
    t.rolls(9)  # the Red dragon enters play; Bahamut's slot still waits for its Gold
    assert [d["type"] for d in observe(t.s)["sheets"][1]["dragons"]] == ["Red"]
    assert observe(t.s)["sheets"][0]["dragons"] == [empty]


def test_every_question_is_shown_with_its_own_number_and_no_card_asks() -> None:
    """Dice Gambit, Turns & Starting Ante: "All players roll 1d12".  Each question the
    table asks is shown to every seat numbered in turn (1, 2, 3 ...: an answer names the
    number of the question it answers) and with no card as its source - the Dice Gambit
    has dice, not cards."""
    t = Script(players=2)
    assert observe(t.s)["pending"] == {
        "id": 1,
        "seat": 0,
        "kind": ROLL,
        "options": list(range(1, 13)),
        "source": -1,
        "ctx": [12, ORDER_ROLL, 1, 1],
    }
    t.rolls(5)
    assert observe(t.s)["pending"]["id"] == 2
    t.rolls(3)
    assert observe(t.s)["pending"] == {
        "id": 3,
        "seat": 0,
        "kind": TURN,
        "options": [PLAY, WITHDRAW],
        "source": -1,
        "ctx": [],
    }
    t.answer(PLAY, TURN, 0)
    t.answer(BRASS, ROLL, 0)
    t.answer(1, ROLL, 0)  # nobody has an evil dragon: no demand
    assert observe(t.s)["pending"] is not None
    assert (observe(t.s)["pending"]["id"], observe(t.s)["pending"]["source"]) == (6, -1)


def test_an_impossible_die_face_is_refused_in_the_dice_words() -> None:
    """Dice Gambit, Dragon Card Table: "D12 ... Strength 1d4": a d4 shows 1 to 4, so a 5
    typed in for a Brass dragon's strength is refused, naming the die; a turn's answer
    that is neither play nor withdraw is refused naming the choices."""
    t = start()
    d = t.d
    with pytest.raises(
        IllegalAnswer, match=r"^7 is not an answer to 'turn'; choose from \[0, 1\]$"
    ):
        apply(t.s, 7, d.id)
    t.answer(PLAY, TURN, 0)
    t.answer(BRASS, ROLL, 0)
    with pytest.raises(IllegalAnswer, match=r"^a d4 shows 1 to 4; 5 is impossible$"):
        apply(t.s, 5, t.d.id)


def test_seeded_dice_are_the_engines_seeded_stream_and_no_seed_is_seed_0() -> None:
    """Dice Gambit, Turns & Starting Ante: "All players roll 1d12. The player that rolled
    the highest value goes first".  Seeded dice are how the engine rolls: a game replays
    exactly from its seed (the same faces for the same seed, pinned here for seed 0), and a
    game started without one is seed 0's game, whichever way the setting reached it."""
    s = new_game(DiceConfig(players=4), seed=0)
    rolls = [(e["seat"], e["faces"]) for e in events(s, "roll")]
    assert rolls == [(0, [5]), (1, [2]), (2, [12]), (3, [7])]
    assert s.first == 2 and s.pending is not None and s.pending.seat == 2
    unseeded = new_game(DiceConfig(players=4))
    assert unseeded.to_dict() == s.to_dict()
    # The dice setting as a save file or the web lobby hands it over (read from JSON).
    restored = new_game(DiceConfig(players=4), seed=0, dice=json.loads(json.dumps(SEEDED)))
    assert restored.to_dict() == s.to_dict()
    for _ in range(30):
        if s.over:
            break
        assert s.pending is not None and unseeded.pending is not None
        apply(s, s.pending.options[0])
        apply(unseeded, unseeded.pending.options[0])
    assert unseeded.to_dict() == s.to_dict()


def test_a_player_is_never_its_own_opponent_wherever_it_sits_in_turn_order() -> None:
    """Dice Gambit, Good Dragons: "the player can choose an opponent that has an evil dragon
    in their flight".  Four players, seat 1 the second in turn order, with an evil Blue in
    its own flight: its Gold may make seats 2, 3 and 0 (each with an evil dragon) return
    gold, never itself."""
    flights = [[(RED, 2)], [(BLUE, 1), (GOLD, 5)], [(GREEN, 2)], [(BLACK, 3)]]
    s = position(4, hoards=[20, 20, 20, 20], stakes=10, flights=flights)
    push(s, ("demand", 1, 6))
    run(s)
    assert s.pending is not None and s.pending.kind == DEMAND
    assert s.pending.options == (2, 3, 0, PASS)
