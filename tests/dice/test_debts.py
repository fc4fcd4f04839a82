"""Withdrawal, settling debts and the gambit winner (options.md §8.8, §8.10)."""

from __future__ import annotations

from dragonante.dice.decisions import ROLL, TURN
from dragonante.dice.state import OUT_OF_PLAY, STAKES
from dragonante.dice.table import BRASS, GOLD, RED
from dragonante.dice.views import tracker

from .script import Script, end_gambit, events, position

# Seat 0 leads (Gold 9 against Brass 1) and the stakes are empty, so only the
# debts move gold.
LEADER_0 = [[(GOLD, 9)], [(BRASS, 1)]]


def test_debts_are_repaid_in_the_order_incurred_until_the_hoard_runs_out() -> None:
    s = end_gambit(
        position(hoards=[5, 5], stakes=0, flights=LEADER_0, debts=((1, STAKES, 3), (1, 0, 4)))
    )
    assert events(s, "debt_paid") == [
        {"seat": 1, "to": 0, "owed": 3, "paid": 3, "reason": "settle"},  # stake debt -> winner
        {"seat": 1, "to": 0, "owed": 4, "paid": 2, "reason": "settle"},
    ]
    assert s.hoards == [10, 0]
    assert s.debts == []
    assert (s.debt_paid, s.debt_cancelled) == (5, 2)


def test_debts_to_the_stakes_are_paid_to_the_player_who_won_the_stakes() -> None:
    s = end_gambit(position(hoards=[5, 5], stakes=10, flights=LEADER_0, debts=((1, STAKES, 4),)))
    assert s.stake_winner == 0
    assert s.hoards == [5 + 10 + 4, 1]


def test_debts_to_the_stakes_lost_setting() -> None:
    s = end_gambit(
        position(
            hoards=[5, 5],
            stakes=0,
            flights=LEADER_0,
            debts=((1, STAKES, 3), (1, 0, 4)),
            stake_debt_payee="lost",
        )
    )
    assert events(s, "debt_paid")[0]["to"] == OUT_OF_PLAY
    assert s.hoards == [7, 0]
    assert s.out_of_play == 3


def test_debts_to_the_stakes_forgiven_setting() -> None:
    s = end_gambit(
        position(
            hoards=[5, 5],
            stakes=0,
            flights=LEADER_0,
            debts=((1, STAKES, 3), (1, 0, 4)),
            stake_debt_payee="forgiven",
        )
    )
    assert s.hoards == [9, 1]


def test_the_stakes_winner_does_not_repay_their_own_stake_debts_to_themself() -> None:
    s = end_gambit(position(hoards=[5, 5], stakes=0, flights=LEADER_0, debts=((0, STAKES, 5),)))
    assert s.hoards == [5, 5]
    assert events(s, "debt_cancelled")[0]["why"] == "forgiven"


def test_a_player_who_runs_out_during_settlement_owes_nothing_else() -> None:
    # Seat 0 runs out paying its first debt; seat 1's repayment later gives it
    # gold again, but its second debt was cancelled when it ran out.
    s = end_gambit(
        position(hoards=[3, 0], stakes=0, flights=LEADER_0, debts=((0, 1, 3), (1, 0, 2), (0, 1, 3)))
    )
    assert s.hoards == [2, 1]
    assert (s.debt_paid, s.debt_cancelled) == (5, 3)


def test_settlement_in_incurred_order_across_the_table() -> None:
    flights = [[(BRASS, 1)], [(BRASS, 2)], [(GOLD, 9)]]
    debts = ((1, 0, 5), (0, 2, 5))
    s = end_gambit(position(3, hoards=[0, 5, 0], stakes=0, flights=flights, debts=debts))
    assert s.hoards == [0, 0, 5]  # seat 1 pays seat 0, who can then pay seat 2


def test_settlement_player_by_player_in_turn_order_setting() -> None:
    flights = [[(BRASS, 1)], [(BRASS, 2)], [(GOLD, 9)]]
    debts = ((1, 0, 5), (0, 2, 5))
    s = end_gambit(
        position(
            3,
            hoards=[0, 5, 0],
            stakes=0,
            flights=flights,
            debts=debts,
            settlement_order="turn_order",
        )
    )
    assert s.hoards == [5, 0, 0]  # seat 0 settles first, with nothing: its debt is cancelled


def test_gambit_winner_is_the_largest_hoard_after_settling_debts() -> None:
    s = end_gambit(position(hoards=[20, 18], stakes=0, flights=LEADER_0, debts=((0, 1, 3),)))
    assert s.hoards == [17, 21]
    assert s.gambit_winner == 1 and s.winners == (1,)


def test_gambit_winner_tie_skips_the_hoard_and_goes_to_gods_played() -> None:
    s = end_gambit(position(hoards=[20, 20], stakes=0, flights=LEADER_0, gods_played=[0, 1]))
    assert events(s, "tie_broken", purpose="winner") == [
        {"purpose": "winner", "seat": 1, "by": "gods"}
    ]
    assert s.winners == (1,)


def test_a_withdrawn_player_cannot_win_the_gambit() -> None:
    s = end_gambit(
        position(
            3,
            hoards=[10, 100, 5],
            stakes=0,
            flights=[[(GOLD, 9)], [(BRASS, 1)], [(BRASS, 2)]],
            withdrawn=(1,),
        )
    )
    assert s.winners == (0,)


# Withdrawal -----------------------------------------------------------------


def test_withdrawing_forfeits_your_gold_in_the_stakes() -> None:
    t = Script(players=2, lone_player_plays_on=False)
    t.rolls(5, 3)  # hoards 47, 45; stakes 8
    t.turn(0, BRASS, 2)  # hoards 45, 45; stakes 10
    t.withdraw(1)
    # Seat 1's ante stays in the stakes; seat 0, alone, plays no more turns (the
    # house rule lone_player_plays_on = false) and wins the stakes with the Leader Flight.
    assert events(t.s, "last_in_gambit") == [{"seat": 0}]
    assert t.s.over
    assert t.s.hoards == [55, 45]
    assert t.s.winners == (0,)


def test_withdrawing_pays_your_debts_at_once_in_order_until_your_gold_runs_out() -> None:
    t = Script(players=2, starting_hoard=5, lone_player_plays_on=False)
    t.rolls(12, 3)  # seat 0 antes 5 of 6 (owes 1), seat 1 5 of 12 (owes 7); stakes 10
    t.turn(0, RED, 12)  # antes 0 of 12 (owes 12), steals 6: hoard 6, stakes 4
    t.turn(1, RED, 1)  # antes 0 of 1 (owes 1), steals 4: hoard 4, stakes 0
    assert t.s.debts == [(0, STAKES, 1), (1, STAKES, 7), (0, STAKES, 12), (1, STAKES, 1)]
    t.withdraw(0)
    assert events(t.s, "debt_paid", reason="withdraw") == [
        {"seat": 0, "to": STAKES, "owed": 1, "paid": 1, "reason": "withdraw"},
        {"seat": 0, "to": STAKES, "owed": 12, "paid": 5, "reason": "withdraw"},
    ]
    # The unpaid 7 is cancelled; seat 1 wins the 6 in the stakes and owes its
    # stake debts to itself, which cancels them.
    assert t.s.over
    assert t.s.hoards == [0, 10]


def test_a_withdrawn_player_takes_no_more_turns() -> None:
    t = Script(players=3)
    t.rolls(4, 9, 2)  # order 1, 2, 0
    t.turn(1, BRASS, 1)
    t.withdraw(2)
    t.turn(0, BRASS, 1)
    t.turn(1, BRASS, 1)
    assert t.d.kind == TURN and t.d.seat == 0  # seat 2 is skipped


def test_a_gambit_is_three_rounds_the_last_player_left_rolls_them_all() -> None:
    """Dice Gambit: 'A gambit is made up of 3 Rounds'; 'On your turn in each of the three
    rounds you roll a dragon "card" into your dragon flight'.  When everyone else has
    withdrawn, the last player still rolls the remaining rounds (issue 21, deviation 16)."""
    t = Script(players=2)
    t.rolls(5, 3)
    t.turn(0, BRASS, 2)
    t.withdraw(1)
    assert events(t.s, "last_in_gambit") == []
    # Seat 0 is alone: no play-or-withdraw question, the type die is asked at once.
    assert t.d.kind == ROLL and t.d.seat == 0
    t.rolls(BRASS, 1, BRASS, 1)
    assert t.s.over
    assert len(t.s.flights[0]) == 3  # the tracker shows three dragons
    assert [e["round"] for e in events(t.s, "round_start")] == [1, 2, 3]


def test_a_lone_player_may_stop_rolling_with_the_house_rule() -> None:
    t = Script(players=2, lone_player_plays_on=False)
    t.rolls(5, 3)
    t.turn(0, BRASS, 2)
    t.withdraw(1)
    assert events(t.s, "last_in_gambit") == [{"seat": 0}]
    assert t.s.over
    assert len(t.s.flights[0]) == 1


def test_withdrawal_can_be_switched_off() -> None:
    t = Script(players=2, withdrawal=False)
    t.rolls(5, 3)
    for _ in range(3):
        for seat in (0, 1):
            assert t.d.kind == ROLL and t.d.seat == seat  # never a play-or-withdraw question
            t.rolls(BRASS, 1)
    assert t.s.over


# Settlement: every debtor and amount (mutation testing, docs/mutation.md) -------------

# Seat 1 leads (Gold 9 against Brass 1): it wins the (empty) stakes.
LEADER_1 = [[(BRASS, 1)], [(GOLD, 9)]]


def test_a_stake_debt_of_a_seat_before_the_stakes_winner_is_paid_to_the_winner() -> None:
    """Dice Gambit, Settle Debts: "Players must pay back their debts (if possible) in the
    order they were incurred."  Only the stakes' winner's own stake debts are cancelled
    (it would pay itself), whichever seat it sits in."""
    s = end_gambit(position(hoards=[5, 5], stakes=0, flights=LEADER_1, debts=((0, STAKES, 4),)))
    assert s.stake_winner == 1
    assert events(s, "debt_paid") == [
        {"seat": 0, "to": 1, "owed": 4, "paid": 4, "reason": "settle"}
    ]
    assert s.hoards == [1, 9]


def test_with_stake_debts_lost_the_stakes_winner_pays_its_own_out_of_play() -> None:
    """Dice Gambit, Settle Debts: "Players must pay back their debts (if possible)".  With
    ``stake_debt_payee=lost`` a repaid stake debt leaves play, and the stakes' winner is
    no exception: it does not owe the gold to itself but to the stakes, now gone."""
    s = end_gambit(
        position(
            hoards=[5, 5],
            stakes=0,
            flights=LEADER_0,
            debts=((0, STAKES, 3),),
            stake_debt_payee="lost",
        )
    )
    assert s.stake_winner == 0
    assert s.hoards == [2, 5] and s.out_of_play == 3


def test_a_debtor_with_one_gold_pays_it_and_an_empty_hoard_owes_nothing_else() -> None:
    """Dice Gambit, Settle Debts: "Players must pay back their debts (if possible) ...
    However, if the player's dragon hoard is empty or runs out during this step, they do
    not owe anything else."  One gold piece is not an empty hoard; none is."""
    s = end_gambit(position(hoards=[1, 5], stakes=0, flights=LEADER_1, debts=((0, 1, 3),)))
    assert events(s, "debt_paid") == [
        {"seat": 0, "to": 1, "owed": 3, "paid": 1, "reason": "settle"}
    ]
    assert s.hoards == [0, 6]
    s = end_gambit(position(hoards=[0, 5], stakes=0, flights=LEADER_1, debts=((0, 1, 3),)))
    assert events(s, "debt_paid") == []
    assert events(s, "debt_cancelled") == [{"seat": 0, "to": 1, "owed": 3, "why": "no gold"}]
    assert s.hoards == [0, 5] and s.debt_cancelled == 3


def test_a_tie_for_the_gambit_between_large_hoards_is_still_a_tie() -> None:
    """Dice Gambit, Determine Gambit Winner: "The player with the largest dragon hoard
    after settling debts is the gambit winner. See basics section for breaking ties."
    Two hoards of 300 are tied however they were reached (seat 0 gets its 300 by winning
    the stakes), so the next tie-breaker, dragon gods played, decides."""
    s = end_gambit(position(hoards=[290, 300], stakes=10, flights=LEADER_0, gods_played=[0, 1]))
    assert s.hoards == [300, 300]
    assert events(s, "tie_broken", purpose="winner") == [
        {"purpose": "winner", "seat": 1, "by": "gods"}
    ]


def test_the_player_tracker_shows_each_players_own_debts_owed() -> None:
    """Dice Gambit, Player Tracker: each player's sheet has "Dragon Hoard" and "Debts
    Owed" boxes: the sum of what that player (and nobody else) still owes."""
    s = position(
        3,
        hoards=[5, 5, 5],
        stakes=0,
        flights=[[(BRASS, 1)], [(BRASS, 2)], [(GOLD, 9)]],
        debts=((1, STAKES, 3), (0, 2, 4), (2, 0, 6), (1, 0, 2)),
    )
    assert [sheet["debts_owed"] for sheet in tracker(s)["sheets"]] == [4, 5, 6]


def test_withdrawing_pays_only_your_own_debts() -> None:
    """Dice Gambit, Play a Gambit: a player who withdraws "If they owe any debts, they must
    pay them in order immediately from their remaining dragon hoard": theirs, not the debts
    of the player who went before them."""
    t = Script(players=2, starting_hoard=5)
    t.rolls(12, 3)  # seat 0 antes 5 of 6 (owes 1), seat 1 antes 5 of 12 (owes 7)
    t.turn(0, BRASS, 1)  # seat 0 antes 0 of 1: owes 1 more
    assert t.s.debts == [(0, STAKES, 1), (1, STAKES, 7), (0, STAKES, 1)]
    t.withdraw(1)  # seat 1 has no gold: its 7 is cancelled, seat 0 still owes its 2
    assert events(t.s, "debt_paid", reason="withdraw") == [
        {"seat": 1, "to": STAKES, "owed": 7, "paid": 0, "reason": "withdraw"}
    ]
    assert t.s.debts == [(0, STAKES, 1), (0, STAKES, 1)]
    assert t.s.hoards == [0, 0]
