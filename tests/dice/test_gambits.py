"""Several gambits (options.md §8.11) and withdrawing for the session (§8.8).

These games end a gambit as soon as one player is left (the house rule
``lone_player_plays_on = false``), to keep each script short.

Gambit 1 below: seat 0 goes first (5 against 3), plays a Brass 2, seat 1
withdraws and seat 0 wins the 10 gold stakes: hoards 55 and 45.  Gambit 2
mirrors it with the seats swapped.
"""

from __future__ import annotations

from dragonante.dice.decisions import ORDER_ROLL, ROLL
from dragonante.dice.table import BRASS

from .script import Script, events


def gambit_one(t: Script) -> None:
    t.rolls(5, 3)
    t.turn(0, BRASS, 2)
    t.withdraw(1)


def test_each_gambit_starts_from_the_starting_hoard_and_the_largest_sum_wins() -> None:
    t = Script(players=2, gambits=2, lone_player_plays_on=False)
    gambit_one(t)
    assert t.s.gambit_winners == [0]
    assert t.s.totals == [55, 45]
    assert t.s.hoards == [50, 50]  # reset for gambit 2
    t.rolls(3, 5)  # seat 1 first: hoards 45 and 47
    t.turn(1, BRASS, 2)
    t.withdraw(0)
    assert t.s.gambit_winners == [0, 1]
    assert t.s.totals == [100, 100]
    # Tied sums: the first tie-breaker, the largest hoard (now 45 against 55).
    assert events(t.s, "tie_broken") == [{"purpose": "overall", "seat": 1, "by": "hoard"}]
    assert t.s.winners == (1,)


def test_hoards_carry_over_setting_and_the_final_hoard_decides() -> None:
    t = Script(players=2, gambits=2, multi_gambit_hoard="carry", lone_player_plays_on=False)
    gambit_one(t)
    assert t.s.hoards == [55, 45]
    t.rolls(3, 5)  # seat 1 antes 3, seat 0 antes 5: 50 and 42
    t.turn(1, BRASS, 2)
    t.withdraw(0)
    assert t.s.hoards == [50, 50]
    # The hoard is the tie itself; no gods; seat 1 has the good dragon.
    assert events(t.s, "tie_broken") == [{"purpose": "overall", "seat": 1, "by": "good_dragons"}]
    assert t.s.winners == (1,)


def test_with_carried_hoards_the_turn_order_tie_goes_to_the_largest_hoard() -> None:
    t = Script(players=2, gambits=2, multi_gambit_hoard="carry", lone_player_plays_on=False)
    gambit_one(t)
    t.rolls(7, 7)
    assert events(t.s, "tie_broken")[-1] == {"purpose": "first", "seat": 0, "by": "hoard"}


def test_a_player_who_withdraws_for_the_session_sits_out_the_later_gambits() -> None:
    t = Script(players=3, gambits=2, withdraw_scope="session", lone_player_plays_on=False)
    t.rolls(4, 9, 2)  # order 1, 2, 0
    t.turn(1, BRASS, 1)
    t.withdraw(2)
    t.turn(0, BRASS, 1)
    for _ in range(2):
        t.turn(1, BRASS, 1)
        t.turn(0, BRASS, 1)
    assert t.s.gambit == 2
    # Only seats 0 and 1 roll for turn order in gambit 2.
    assert t.d.kind == ROLL and t.d.ctx[1] == ORDER_ROLL and t.d.seat == 0
    t.rolls(6)
    assert t.d.seat == 1
    t.rolls(2)
    assert t.s.order == [0, 1]
    assert t.s.withdrawn == [False, False, True]
    withdrawn_hoard = t.s.hoards[2]
    t.turn(0, BRASS, 1)
    t.withdraw(1)
    assert t.s.over
    # Seat 2 played gambit 1 only: its sum is its hoard from then.
    assert t.s.totals[2] == withdrawn_hoard


def test_the_session_ends_when_fewer_than_two_players_are_left() -> None:
    t = Script(players=2, gambits=3, withdraw_scope="session", lone_player_plays_on=False)
    gambit_one(t)
    assert t.s.over
    assert t.s.gambit == 1
    assert events(t.s, "too_few_players") == [{"seats": [0]}]
    assert t.s.winners == (0,)
