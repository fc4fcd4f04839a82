"""The special dragon flights and the tie-breakers (options.md §8.7, §8.9).

Each table is set up at the end of a gambit's play: the flights, hoards and
stakes are given, and the special flights, debts and winner follow.
"""

from __future__ import annotations

import pytest

from dragonante.dice.decisions import ROLL, TIEBREAK_ROLL
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

from .script import end_gambit, events, position


def test_god_flight_takes_half_the_stakes_rounded_down() -> None:
    s = end_gambit(
        position(
            hoards=[20, 20],
            stakes=41,
            flights=[
                [(TIAMAT, 1), (BAHAMUT, 13), (TIAMAT, 1)],
                [(BRASS, 2), (WHITE, 3), (COPPER, 5)],
            ],
        )
    )
    assert events(s, "take", reason="god") == [
        {"seat": 0, "amount": 20, "taken": 20, "reason": "god"}
    ]
    # A Tiamat is in play: the weakest flight (seat 1: 10 < 15) wins the other 21.
    assert s.hoards == [40, 41]
    assert s.flights_earned == [["god"], ["leader"]]


def test_god_flight_counts_gods_no_longer_in_the_flight() -> None:
    # Three gods rolled, but a Bahamut was sacrificed and the Tiamats destroyed.
    s = end_gambit(
        position(
            hoards=[20, 20],
            stakes=40,
            flights=[[(GOLD, 4), (RED, 5), (BRASS, 1)], [(BRASS, 2), (WHITE, 3), (COPPER, 9)]],
            god_turns=[3, 0],
        )
    )
    assert "god" in s.flights_earned[0]
    assert events(s, "take", reason="god")[0]["taken"] == 20


def test_god_flight_needs_a_god_on_every_turn() -> None:
    s = end_gambit(
        position(
            hoards=[20, 20],
            stakes=40,
            flights=[
                [(BAHAMUT, 13), (BAHAMUT, 13), (BRASS, 2)],
                [(WHITE, 2), (BLACK, 3), (BRASS, 4)],
            ],
        )
    )
    assert "god" not in s.flights_earned[0]


def test_triplet_flight_each_opponent_pays_the_shared_strength() -> None:
    s = end_gambit(
        position(
            3,
            hoards=[10, 10, 10],
            stakes=30,
            flights=[
                [(BRASS, 3), (WHITE, 3), (COPPER, 3)],
                [(GOLD, 5), (RED, 2), (BLACK, 1)],
                [(BRASS, 1), (WHITE, 1), (BRASS, 2)],
            ],
        )
    )
    pays = events(s, "pay", reason="triplet")
    assert [(e["payer"], e["to"], e["amount"]) for e in pays] == [(1, 0, 3), (2, 0, 3)]
    assert s.flights_earned[0] == ["triplet", "leader"]
    assert s.hoards == [10 + 6 + 30, 7, 7]


def test_triplet_flight_shortfall_is_a_debt_to_the_player_repaid_at_settlement() -> None:
    s = end_gambit(
        position(
            hoards=[10, 1],
            stakes=40,
            flights=[[(BRASS, 3), (WHITE, 3), (COPPER, 3)], [(RED, 12), (BLUE, 10), (GREEN, 8)]],
        )
    )
    assert events(s, "pay", reason="triplet") == [
        {"payer": 1, "to": 0, "amount": 3, "paid": 1, "debt": 2, "reason": "triplet"}
    ]
    # Seat 1 then takes 12 (Allied Flight) and the rest of the stakes (Leader
    # Flight), and at settlement repays the 2 it owes seat 0.
    assert events(s, "settle") == [{"debts": [[1, 0, 2]]}]
    assert events(s, "debt_paid") == [
        {"seat": 1, "to": 0, "owed": 2, "paid": 2, "reason": "settle"}
    ]
    assert s.hoards == [13, 38]


def test_withdrawn_players_neither_earn_nor_pay_special_flights() -> None:
    s = end_gambit(
        position(
            3,
            hoards=[10, 10, 10],
            stakes=30,
            flights=[[(BRASS, 3), (WHITE, 3), (COPPER, 3)], [(GOLD, 5), (RED, 2)], [(GOLD, 1)]],
            withdrawn=(1,),
        )
    )
    pays = events(s, "pay", reason="triplet")
    assert [(e["payer"], e["to"]) for e in pays] == [(2, 0)]
    assert s.hoards[1] == 10


def test_allied_flight_takes_the_strongest_dragons_strength_from_the_stakes() -> None:
    s = end_gambit(
        position(
            hoards=[10, 10],
            stakes=20,
            flights=[[(BRASS, 2), (COPPER, 5), (SILVER, 7)], [(WHITE, 1), (BRASS, 1), (BLACK, 2)]],
        )
    )
    assert events(s, "take", reason="allied") == [
        {"seat": 0, "amount": 7, "taken": 7, "reason": "allied"}
    ]
    assert s.hoards == [30, 10]


def test_allied_flight_of_evil_dragons() -> None:
    s = end_gambit(
        position(
            hoards=[10, 10],
            stakes=20,
            flights=[[(BRASS, 2), (COPPER, 5), (SILVER, 7)], [(TIAMAT, 1), (RED, 9), (BLACK, 2)]],
        )
    )
    assert events(s, "take", reason="allied", seat=1)[0]["taken"] == 9


def test_allied_flight_takes_only_what_the_stakes_hold_and_no_debt() -> None:
    s = end_gambit(
        position(
            hoards=[10, 10],
            stakes=3,
            flights=[[(BRASS, 2), (COPPER, 5), (SILVER, 7)], [(WHITE, 1), (BRASS, 1), (BLACK, 2)]],
        )
    )
    assert events(s, "take", reason="allied")[0]["taken"] == 3
    assert events(s, "settle") == [{"debts": []}]
    assert s.hoards == [13, 10]


def test_leader_flight_the_strongest_flight_wins_the_rest_of_the_stakes() -> None:
    s = end_gambit(
        position(
            hoards=[10, 10],
            stakes=25,
            flights=[[(GOLD, 3), (RED, 4), (BRASS, 1)], [(SILVER, 9), (BLUE, 2), (WHITE, 1)]],
        )
    )
    assert s.stake_winner == 1 and s.hoards == [10, 35]


def test_leader_flight_the_weakest_flight_wins_while_a_tiamat_is_in_play() -> None:
    s = end_gambit(
        position(
            hoards=[10, 10],
            stakes=25,
            flights=[[(GOLD, 3), (RED, 4), (BRASS, 1)], [(SILVER, 9), (TIAMAT, 1), (WHITE, 1)]],
        )
    )
    assert s.stake_winner == 0 and s.hoards == [35, 10]


def test_a_withdrawn_players_tiamat_is_no_longer_in_play() -> None:
    s = end_gambit(
        position(
            3,
            hoards=[10, 10, 10],
            stakes=25,
            flights=[[(GOLD, 8)], [(TIAMAT, 1)], [(GOLD, 3)]],
            withdrawn=(1,),
        )
    )
    assert s.stake_winner == 0


@pytest.mark.parametrize(
    ("hoards", "gods_played", "flight1", "winner", "by"),
    [
        ([10, 12], [0, 0], [(SILVER, 5), (BLUE, 5)], 1, "hoard"),
        ([10, 10], [1, 0], [(SILVER, 5), (BLUE, 5)], 0, "gods"),
        ([10, 10], [0, 0], [(SILVER, 5), (BRONZE, 5)], 1, "good_dragons"),
    ],
)
def test_leader_tie_broken_by_hoard_then_gods_played_then_good_dragons(
    hoards: list[int], gods_played: list[int], flight1: list[tuple[int, int]], winner: int, by: str
) -> None:
    s = end_gambit(
        position(
            hoards=hoards,
            stakes=20,
            flights=[[(GOLD, 6), (RED, 4)], flight1],
            gods_played=gods_played,
        )
    )
    assert events(s, "tie_broken", purpose="leader") == [
        {"purpose": "leader", "seat": winner, "by": by}
    ]
    assert s.stake_winner == winner


def test_leader_tie_left_after_every_criterion_is_a_d20_roll_off() -> None:
    s = end_gambit(
        position(
            hoards=[10, 10], stakes=20, flights=[[(GOLD, 6), (RED, 4)], [(SILVER, 5), (BLUE, 5)]]
        )
    )
    assert s.pending is not None and s.pending.kind == ROLL
    assert s.pending.ctx[:2] == (20, TIEBREAK_ROLL) and s.pending.seat == 0
    from dragonante.dice import apply

    for face in (7, 7, 3, 18):  # tied again on 7: roll again
        apply(s, face)
    assert s.stake_winner == 1
    assert s.hoards == [10, 30]


def test_special_flights_go_criterion_by_criterion_in_turn_order() -> None:
    # Seat 0 (first) has an Allied Flight, seat 1 a God Flight.  Criterion by
    # criterion: seat 1's God Flight halves the stakes before seat 0's Allied.
    flights = [[(BRASS, 2), (COPPER, 5), (SILVER, 7)], [(TIAMAT, 1), (BAHAMUT, 13), (TIAMAT, 1)]]
    s = end_gambit(position(hoards=[10, 10], stakes=40, flights=flights))
    assert [e["reason"] for e in events(s, "take")] == ["god", "allied", "leader"]
    assert s.hoards[0] == 10 + 7 + 13  # weakest flight (Tiamat in play) takes the last 13
    assert s.hoards[1] == 10 + 20


def test_special_flights_player_by_player_setting() -> None:
    flights = [[(BRASS, 2), (COPPER, 5), (SILVER, 7)], [(TIAMAT, 1), (BAHAMUT, 13), (TIAMAT, 1)]]
    s = end_gambit(position(hoards=[10, 10], stakes=40, flights=flights, flight_order="player"))
    assert [e["reason"] for e in events(s, "take")] == ["allied", "god", "leader"]
    assert s.hoards == [10 + 7 + 17, 10 + 16]


def test_a_player_can_earn_several_special_flights() -> None:
    # Three Bahamuts: God, Triplet (13) and Allied (good) Flights, and the Leader Flight.
    s = end_gambit(
        position(
            hoards=[50, 50],
            stakes=60,
            flights=[[(BAHAMUT, 13)] * 3, [(BRASS, 1), (WHITE, 2), (COPPER, 3)]],
        )
    )
    assert s.flights_earned[0] == ["god", "triplet", "allied", "leader"]
    assert s.hoards == [50 + 30 + 13 + 13 + 17, 50 - 13]
    assert STAKES not in [d[1] for d in s.debts]


# Tie-breakers: which gods and which hoards count (mutation testing, docs/mutation.md) ---


def test_gods_played_break_this_gambits_ties_and_gods_over_the_game_the_overall_tie() -> None:
    """Dice Gambit, Tie Breakers: "Break any ties in this order of precedence: largest
    dragon hoard, most dragon gods played, ..."; Game Ends or Repeat: "If multiple gambits
    are played, the player that collected the largest combined sum for their dragon hoard
    is the overall winner."  A tie within the gambit (Leader Flight, gambit winner) counts
    the gods played in it; the overall tie counts the gods of the whole game
    (docs/dice.md, More gambits).  Gambit 2 of 2: seat 0 rolled two gods in gambit 1 and
    none now, seat 1 rolls its Bahamut now."""
    s = position(
        hoards=[20, 20],
        stakes=0,
        flights=[[(GOLD, 9), (BRASS, 4)], [(BAHAMUT, 13)]],
        gambits=2,
    )
    s.gambit = 2
    s.gods_total = [2, 1]
    s.totals = [280, 280]  # the sums (300 each) are tied however large
    end_gambit(s)
    assert events(s, "tie_broken") == [
        {"purpose": "leader", "seat": 1, "by": "gods"},  # 1 god this gambit against 0
        {"purpose": "winner", "seat": 1, "by": "gods"},
        {"purpose": "overall", "seat": 0, "by": "gods"},  # 2 gods in the game against 1
    ]
    assert s.gambit_winners == [1] and s.winners == (0,)


def test_a_leader_tie_between_large_equal_hoards_goes_on_to_the_next_tie_breaker() -> None:
    """Dice Gambit, Tie Breakers: "largest dragon hoard, most dragon gods played, most good
    dragons in dragon flight, ...".  Two hoards of 300 are equal however they were reached
    (seat 0's by its Allied Flight), so the good dragons decide."""
    s = end_gambit(
        position(
            hoards=[290, 300],
            stakes=30,
            flights=[[(BRASS, 1), (COPPER, 1), (SILVER, 10)], [(GOLD, 10), (RED, 2)]],
        )
    )
    assert events(s, "take", reason="allied")[0]["taken"] == 10
    assert events(s, "tie_broken", purpose="leader") == [
        {"purpose": "leader", "seat": 0, "by": "good_dragons"}
    ]


def test_four_dragons_of_one_strength_and_alignment_include_three_in_longer_gambits() -> None:
    """Dice Gambit, Special Dragon Flights: "Three dragons of the same strength in a dragon
    flight ..."; "Three dragons of the same alignment in a flight ...".  With the
    ``rounds_per_gambit`` setting a flight can hold four: four such dragons still hold
    three, so both flights are earned."""
    s = end_gambit(
        position(
            hoards=[10, 10],
            stakes=20,
            flights=[[(BRASS, 2)] * 4, [(WHITE, 1), (BRASS, 3), (BLACK, 4), (GOLD, 1)]],
            rounds_per_gambit=4,
        )
    )
    assert s.flights_earned == [["triplet", "allied"], ["leader"]]
    assert events(s, "pay", reason="triplet")[0]["amount"] == 2
    assert events(s, "take", reason="allied")[0]["taken"] == 2


def test_each_special_flight_announces_the_reward_it_moves() -> None:
    """Dice Gambit, Special Dragon Flights: God Flight "may take 1/2 of the stakes (rounded
    down)"; Triplet Flight "rewards the player gold equal to 1 of those dragon's strength
    from all opponents"; Allied Flight "the strongest dragon's strength worth of gold from
    the stakes"; Leader Flight "wins the stakes".  The table is told each reward as it is
    earned (the ``flight_earned`` event the narration reads)."""
    s = end_gambit(
        position(
            3,
            hoards=[20, 20, 20],
            stakes=41,
            flights=[
                [(TIAMAT, 1), (BAHAMUT, 13), (TIAMAT, 1)],
                [(BRASS, 4), (COPPER, 4), (SILVER, 4)],
                [(GOLD, 12), (RED, 1), (GREEN, 2)],
            ],
        )
    )
    earned = [(e["seat"], e["flight"], e["amount"]) for e in events(s, "flight_earned")]
    # God: 41 // 2 = 20 (stakes 21); triplet: 4 from each opponent; allied (good): 4
    # from the stakes (17 left); the weakest flight leads (Tiamat): seat 1, 12 < 15.
    assert earned == [(0, "god", 20), (1, "triplet", 4), (1, "allied", 4), (1, "leader", 17)]
    assert s.hoards == [20 + 20 - 4, 20 + 8 + 4 + 17, 20 - 4]


def test_a_roll_off_uses_each_d20_once_and_only_for_its_own_tie() -> None:
    """Dice Gambit, Tie Breakers: "Break any ties in this order of precedence: largest dragon
    hoard, most dragon gods played, most good dragons in dragon flight, unmodified d20
    rolls".  The Leader Flight tie (11 against 11, one good dragon each) goes to a d20
    roll-off, rolled again while tied (7 and 7, then 3 against 18); each d20 decides only
    its own roll-off, and none is left over to weigh on anything after it: the game runs
    to its end with every law of the table kept."""
    from dragonante.dice import apply
    from dragonante.dice.invariants import violations

    s = end_gambit(
        position(
            hoards=[10, 10], stakes=20, flights=[[(GOLD, 6), (RED, 4)], [(SILVER, 5), (BLUE, 5)]]
        )
    )
    for face in (7, 7, 3, 18):
        apply(s, face)
        assert violations(s) == []
    assert events(s, "tie_broken", purpose="leader") == [
        {"purpose": "leader", "seat": 1, "by": "d20"}
    ]
    assert s.over and s.winners == (1,)
