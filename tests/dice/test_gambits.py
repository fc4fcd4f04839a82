"""Several gambits (options.md §8.11) and withdrawing for the session (§8.8).

These games end a gambit as soon as one player is left (the house rule
``lone_player_plays_on = false``), to keep each script short.

Gambit 1 below: seat 0 goes first (5 against 3), plays a Brass 2, seat 1
withdraws and seat 0 wins the 10 gold stakes: hoards 55 and 45.  Gambit 2
mirrors it with the seats swapped.
"""

from __future__ import annotations

from dragonante.dice import PHYSICAL, DiceConfig, apply, new_game, run
from dragonante.dice.core import push
from dragonante.dice.decisions import ORDER_ROLL, ROLL, TURN
from dragonante.dice.state import STAKES
from dragonante.dice.table import BRASS
from dragonante.dice.views import observe

from .script import Script, events, saved


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


# The course of a game: turn order, rounds, gambits (mutation testing, docs/mutation.md) ---


def test_the_overall_winner_has_the_largest_combined_sum_not_the_largest_last_hoard() -> None:
    """Dice Gambit, Game Ends or Repeat: "If multiple gambits are played, the player that
    collected the largest combined sum for their dragon hoard is the overall winner."
    Seat 0 ends gambit 1 with 62 and gambit 2 with 45 (107); seat 1 with 38 and 55 (93):
    no tie, so no tie-breaker, although seat 1's last hoard is the larger."""
    t = Script(players=2, gambits=2, lone_player_plays_on=False)
    t.rolls(12, 3)  # seat 0 antes 6 (44), seat 1 antes 12 (38): stakes 18
    t.turn(0, BRASS, 1)  # 43, stakes 19
    t.withdraw(1)  # seat 0 wins 19: 62
    t.rolls(3, 5)  # gambit 2 from 50 each: seat 1 antes 3 (47), seat 0 antes 5 (45)
    t.turn(1, BRASS, 1)  # 46, stakes 9
    t.withdraw(0)  # seat 1 wins 9: 55
    assert t.s.totals == [107, 93] and t.s.hoards == [45, 55]
    assert events(t.s, "tie") == []
    assert t.s.winners == (0,)
    ends = [(e["gambit"], e["winner"], e["totals"]) for e in events(t.s, "gambit_end")]
    assert ends == [(1, 0, [62, 38]), (2, 1, [107, 93])]


def test_gold_repaid_out_of_play_stays_out_in_the_next_gambit() -> None:
    """Dice Gambit, Settle Debts: "Players must pay back their debts (if possible)"; with
    ``stake_debt_payee=lost`` the stake debts repaid leave play, and with hoards carried
    over they stay gone: gold is counted as hoards + stakes + out of play after every
    answer (Script checks the invariants), in gambit 2 as in gambit 1."""
    t = Script(
        players=2,
        gambits=2,
        multi_gambit_hoard="carry",
        stake_debt_payee="lost",
        lone_player_plays_on=False,
        starting_hoard=7,
    )
    t.rolls(12, 3)  # seat 0 antes 6 (1 left), seat 1 antes 7 of 12 (owes 5): stakes 13
    t.turn(0, BRASS, 4)  # seat 0 antes 1 of 4 (owes 3); stakes 14
    t.withdraw(1)  # seat 1 cannot pay: its 5 is cancelled; seat 0 wins the 14
    assert t.s.hoards == [11, 0] and t.s.out_of_play == 3  # its 3 repaid, out of play
    t.rolls(4, 9)  # gambit 2: seat 1 first, antes 0 of 5; seat 0 antes 9 of 11
    assert t.s.hoards == [2, 0] and t.s.stakes == 9 and t.s.out_of_play == 3
    assert t.s.debts == [(1, STAKES, 5)]


def test_turn_order_skips_a_seat_withdrawn_for_the_session_clockwise_from_the_first() -> None:
    """Dice Gambit, Turns & Starting Ante: "The player that rolled the highest value goes
    first and play continue clockwise"; a player withdrawn for the session sits out.  Four
    seats, seat 2 gone, seat 1 first: then seats 3 and 0."""
    s = new_game(DiceConfig(players=4, withdraw_scope="session"), dice=PHYSICAL)
    s.pending = None
    s.queue.clear()
    s.gambit = 2
    s.in_session[2] = False
    s.withdrawn[2] = True
    s.first_rolls = [3, 9, 0, 5]
    push(s, ("set_first", 1))
    run(s)
    assert s.order == [1, 3, 0]
    assert s.hoards == [50 - 9, 50 - 5, 50, 50 - 9]  # the first antes half of 9, rounded up
    assert s.pending is not None and (s.pending.kind, s.pending.seat) == (TURN, 1)


def test_the_table_is_told_each_withdrawal_and_its_scope_and_each_rounds_end() -> None:
    """Dice Gambit, Play a Gambit: "A gambit is made up of 3 Rounds"; "Optionally, a player
    can instead choose to withdraw from the game on their turn" (for the gambit, or with
    ``withdraw_scope=session`` for the rest of the game)."""
    for scope, session in (("gambit", False), ("session", True)):
        t = Script(players=3, withdraw_scope=scope)
        t.rolls(4, 9, 2)  # order 1, 2, 0
        t.turn(1, BRASS, 1)
        t.withdraw(2)
        assert events(t.s, "withdraw") == [{"seat": 2, "session": session}]
    t.turn(0, BRASS, 1)  # round 1 ends
    for _ in range(2):
        t.turn(1, BRASS, 1)
        t.turn(0, BRASS, 1)
    assert t.s.over
    assert [e["round"] for e in events(t.s, "round_end")] == [1, 2, 3]


def test_a_turn_order_roll_off_decides_only_who_goes_first() -> None:
    """Dice Gambit, Turns & Starting Ante: "All players roll 1d12. The player that rolled
    the highest value goes first ... Every player antes gold equal to the largest value
    rolled"; Tie Breakers: "... unmodified d20 rolls".  Both roll 7: equal hoards, no gods,
    no dragons yet, so a d20 roll-off (4 against 10) puts seat 1 first; the ante is the
    d12's 7 (4 for the first player, half rounded up), and the d20s are spent: the first
    turn asks for nothing else."""
    t = Script(players=2)
    t.rolls(7, 7)
    t.rolls(4, 10)
    assert events(t.s, "tie_broken") == [{"purpose": "first", "seat": 1, "by": "d20"}]
    assert (t.s.order, t.s.hoards, t.s.stakes) == ([1, 0], [43, 46], 11)
    assert t.d.kind == TURN and t.d.seat == 1


def test_until_the_turn_order_is_rolled_nobody_is_first_and_no_round_has_begun() -> None:
    """Dice Gambit, Turns & Starting Ante: "All players roll 1d12. The player that rolled
    the highest value goes first".  While the d12s are being rolled, every seat's view of
    the table shows no first player yet, round 0 and no turn-order roll; once they are in,
    the first player, the rolls and round 1."""
    t = Script(players=2, gambits=2, lone_player_plays_on=False)
    for gambit in (1, 2):
        seen = observe(t.s)
        assert (seen["gambit"], seen["first"], seen["round"]) == (gambit, -1, 0)
        assert (seen["first_rolls"], seen["order"]) == ([0, 0], [])
        t.rolls(5)
        assert observe(t.s)["first_rolls"] == [0, 0]  # seat 1 has not rolled yet
        t.rolls(3)
        seen = observe(t.s)
        assert (seen["first"], seen["round"], seen["first_rolls"]) == (0, 1, [5, 3])
        t.turn(0, BRASS, 2)
        t.withdraw(1)
    assert t.s.over


def test_a_long_session_ends_after_its_last_gambit() -> None:
    """Dice Gambit, Game Ends or Repeat: "Optionally, players can continue playing
    additional gambits by repeating the gameplay steps."  A session of 300 gambits (seeded
    dice, every player always playing) ends after the 300th, not before nor after."""
    s = new_game(saved(DiceConfig(players=2, gambits=300)), seed=3)
    while not s.over and s.gambit <= 300:
        assert s.pending is not None
        apply(s, s.pending.options[0])
    assert (s.over, s.gambit, len(s.gambit_winners)) == (True, 300, 300)
