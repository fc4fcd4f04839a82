"""The Dice Gambit's rules, clause by clause (``scenario coverage --rules``).

Each test's docstring quotes the clause of the book (seed 001) it checks,
so this file counts as a rules table for rule coverage.  The tables are
played with physical dice (:class:`~tests.dice.script.Script`): every face
is stated, so what the clause says happens is asserted exactly.  Most
start with two players rolling 5 and 3 for turn order: seat 0 goes first and
antes 3 (half of 5, rounded up), seat 1 antes 5 (hoards 47 and 45, stakes 8).
"""

from __future__ import annotations

import pytest

from dragonante.dice.decisions import DEMAND, PASS, ROLL, SACRIFICE, STRENGTH_ROLL, TURN
from dragonante.dice.state import FLIGHTS, STAKES
from dragonante.dice.table import (
    BAHAMUT,
    BLACK,
    BLUE,
    BRASS,
    BRONZE,
    COPPER,
    DRAGONS,
    GOLD,
    GREEN,
    RED,
    SILVER,
    TIAMAT,
    WHITE,
    dragon,
)
from dragonante.dice.views import sheet

from .script import Script, end_gambit, events, position


def start(players: int = 2, **settings: object) -> Script:
    t = Script(players=players, **settings)
    t.rolls(5, 3)
    assert (t.s.hoards, t.s.stakes) == ([47, 45], 8)
    return t


def test_a_gambit_is_three_rounds_of_one_rolled_dragon_and_its_ante_per_turn() -> None:
    """THE GAMBIT: "A gambit of Three-Dragon Ante consists of three rounds. On your turn in each
    of the three rounds you roll a dragon "card" into your dragon flight (your dragons in play)
    and ante (pay) gold to the stakes (the pot) equal to the dragon's strength."

    PLAY A GAMBIT: "A gambit is made up of 3 Rounds. On each player's turn, they plays a card by
    rolling a d12 to determine the dragon's type from the "Dragon Card Table", then roll the
    listed strength dice to determine the dragon's strength (dragon gods have a set strength,
    thus no roll is needed). The dragon type, alignment, and strength represent the dragon card
    that is played."

    DRAGON CARDS: "Each turn a player will roll for a dragon card from this table. Specific
    directions are provided in the gameplay steps."

    Good dragons only (no evil dragon to demand gold from), so each turn moves exactly its
    strength from the player's hoard to the stakes; after three turns each, play is over."""
    t = start(lone_player_plays_on=True)
    plays = [(0, BRASS, 2), (1, COPPER, 5), (0, BRONZE, 7), (1, SILVER, 1), (0, GOLD, 3)]
    hoards, stakes = [47, 45], 8
    for seat, face, strength in plays:
        t.decline_sacrifices()
        t.answer(0, TURN, seat)
        assert t.d.kind == ROLL and t.d.ctx[0] == 12  # the d12 for the type
        t.answer(face, ROLL, seat)
        assert t.d.ctx[:2] == (dragon(face).die, STRENGTH_ROLL)  # the listed strength die
        t.answer(strength, ROLL, seat)
        hoards[seat] -= strength
        stakes += strength
        assert (t.s.hoards, t.s.stakes) == (hoards, stakes)
    # Seat 1's third turn: a dragon god, fixed strength 13, no strength die.
    t.answer(0, TURN, 1)
    t.answer(BAHAMUT, ROLL, 1)
    assert t.s.flights == [
        [(BRASS, 2), (BRONZE, 7), (GOLD, 3)],
        [(COPPER, 5), (SILVER, 1), (BAHAMUT, 13)],
    ]
    assert [e["sides"] for e in t.events("roll", purpose=STRENGTH_ROLL)] == [4, 6, 8, 10, 12]
    # Three rounds played: no fourth turn; the gambit (the only one) is over.
    assert t.s.over and t.s.pending is None
    assert all(len(f) == 3 for f in t.s.flights)


#: The book's table, row by row: d12 face, type, alignment, strength (die or fixed).
BOOK_TABLE = [
    (1, "Tiamat", "evil", "1"),
    (2, "Brass", "good", "1d4"),
    (3, "White", "evil", "1d4"),
    (4, "Copper", "good", "1d6"),
    (5, "Black", "evil", "1d6"),
    (6, "Bronze", "good", "1d8"),
    (7, "Green", "evil", "1d8"),
    (8, "Silver", "good", "1d10"),
    (9, "Blue", "evil", "1d10"),
    (10, "Gold", "good", "1d12"),
    (11, "Red", "evil", "1d12"),
    (12, "Bahamut", "good", "13"),
]


@pytest.mark.parametrize(("face", "name", "alignment", "strength"), BOOK_TABLE)
def test_the_dragon_card_table(face: int, name: str, alignment: str, strength: str) -> None:
    """DRAGON CARDS: "Dragon Card Table: D12 Type Alignment Strength 1 Tiamat [god] Evil 1 2
    Brass Good 1d4 3 White Evil 1d4 4 Copper Good 1d6 5 Black Evil 1 d 6 6 Bronze Good 1d8 7
    Green Evil 1d8 8 Silver Good 1d10 9 Blue Evil 1d10 10 Gold Good 1d12 11 Red Evil 1d12 12
    Bahamut [god] Good 13"

    Each d12 face rolls the book's dragon: its type and alignment, and its strength die (the
    question asks that many sides) or, for a god, its fixed strength with no roll."""
    row = dragon(face)
    assert (row.name, row.alignment, row.strength_text) == (name, alignment, strength)
    assert row.god == (face in (TIAMAT, BAHAMUT))
    assert len(DRAGONS) == 13  # the twelve faces and the empty-slot marker
    t = start()
    t.answer(0, TURN, 0)
    t.answer(face, ROLL, 0)
    if row.god:
        assert t.s.flights[0] == [(face, int(strength))]
    else:
        assert t.d.ctx[:2] == (int(strength[2:]), STRENGTH_ROLL)
        t.answer(int(strength[2:]), ROLL, 0)  # the die's top face is a legal roll
        assert t.s.flights[0] == [(face, int(strength[2:]))]


def test_an_evil_dragon_steals_half_its_strength_die_and_the_stakes_owe_no_debt() -> None:
    """EVIL DRAGONS [REGULAR]: "When a non-god evil dragon is played, steal gold from the stakes
    up to a value equal to 1/2 the strength dice type of the played dragon (i.e., 1/2 of a Green
    dragon's d8 strength dice equals 4, thus the player would steal 4 gold from the stakes). If
    the full amount of stealable gold is not available in the stakes, the player steals as much
    as they can, but the stakes is not responsible for any debt incurred due to theft)."

    The book's Green: seat 0 rolls a Green 1, antes 1 and steals 4 (not 1). Then a table of
    one-gold hoards: the stakes hold 2 when seat 0's Red 3 (antes nothing: owes 3) steals what is
    there of its 6, and nobody owes seat 0 the missing 4."""
    t = start()
    t.turn(0, GREEN, 1)
    assert t.events("take", seat=0) == [{"seat": 0, "amount": 4, "taken": 4, "reason": "evil"}]
    assert (t.s.hoards, t.s.stakes) == ([47 - 1 + 4, 45], 8 + 1 - 4)
    poor = Script(players=2, starting_hoard=1)
    poor.rolls(2, 1)  # seat 0 antes 1 of 1; seat 1 antes 1 of 2 and owes 1: stakes 2
    poor.turn(0, RED, 3)
    assert poor.events("take", seat=0) == [{"seat": 0, "amount": 6, "taken": 2, "reason": "evil"}]
    assert (poor.s.hoards[0], poor.s.stakes) == (2, 0)
    # Only the ante shortfalls are owed; no debt from the stakes to the thief.
    assert poor.s.debts == [(1, STAKES, 1), (0, STAKES, 3)]


def test_a_god_is_not_a_regular_evil_dragon_and_steals_nothing() -> None:
    """EVIL DRAGONS [REGULAR]: "When a non-god evil dragon is played, steal gold from the
    stakes" - Tiamat, an evil dragon god, antes her 1 and steals nothing."""
    t = start()
    t.turn(0, TIAMAT)
    assert t.events("take") == []
    assert (t.s.hoards, t.s.stakes) == ([46, 45], 9)


def test_a_good_dragon_makes_an_opponent_with_an_evil_dragon_return_half_its_die() -> None:
    """GOOD DRAGONS [REGULAR]: "When a non-god good dragon is played, the player can choose an
    opponent that has an evil dragon in their flight. The chosen opponent must "return" gold to
    the stakes up to a value equal to 1/2 the strength dice type of the dragon that was just
    played (i.e., 1/2 of a Gold dragon's d12 strength dice equals 6, thus the chosen opponent
    pays 6 gold to the stakes). If the opponent does not have the full amount of gold, they pay
    as much as they can now and owe a debt to the stakes for the remaining gold amount)."

    Seat 0 plays a Red 2 (antes 2, steals 6: hoard 51, stakes 4). Seat 1's Gold 7 (antes 7,
    stakes 11) may choose seat 0, who has an evil dragon: seat 0 pays 6 (the book's Gold), not 7."""
    t = start()
    t.turn(0, RED, 2)
    assert (t.s.hoards, t.s.stakes) == ([51, 45], 4)
    t.turn(1, GOLD, 7, demand=None)
    assert t.d.kind == DEMAND and t.d.seat == 1 and t.d.options == (0, PASS)
    t.answer(0, DEMAND, 1)
    assert (t.s.hoards, t.s.stakes) == ([45, 38], 17)


def test_a_good_dragons_demand_short_of_gold_is_paid_in_part_and_owed_to_the_stakes() -> None:
    """GOOD DRAGONS [REGULAR]: "If the opponent does not have the full amount of gold, they pay
    as much as they can now and owe a debt to the stakes for the remaining gold amount)." With 5
    gold to start, seat 0 antes 3, plays a Black 3 (antes its last 2, steals 3): hoard 3. Seat
    1's Silver demands 5: seat 0 pays its 3 and owes the stakes 2."""
    t = Script(players=2, starting_hoard=5)
    t.rolls(5, 3)  # seat 0 antes 3 (hoard 2), seat 1 antes 5 (hoard 0): stakes 8
    t.turn(0, BLACK, 2)  # antes 2 (hoard 0, stakes 10), steals 3: hoard 3, stakes 7
    assert (t.s.hoards, t.s.stakes) == ([3, 0], 7)
    t.turn(1, SILVER, 1, demand=0)  # antes 0 of 1: a debt of 1 to the stakes
    assert t.s.hoards[0] == 0
    assert (0, STAKES, 2) in t.s.debts
    assert t.s.stakes == 7 + 3


def test_tiamat_in_play_makes_the_weakest_flight_win_the_stakes() -> None:
    """TIAMAT [DRAGON GOD]: "If Tiamat is still in play at the end of the gambit, the weakest
    dragon flight wins the stakes. Her apparent strength of 1 is magical treachery to make her
    more likely to win through use of her dragon power."

    Seat 1's flight holds Tiamat (1 + 2 + 3 = 6, the weakest): seat 1 wins the stakes; without
    her, seat 0's strongest flight would."""
    flights = [[(GOLD, 9), (RED, 8), (BRASS, 2)], [(TIAMAT, 1), (WHITE, 2), (COPPER, 3)]]
    s = end_gambit(position(hoards=[10, 10], stakes=20, flights=flights))
    assert s.stake_winner == 1 and s.hoards == [10, 30]
    flights[1][0] = (BRASS, 1)
    s = end_gambit(position(hoards=[10, 10], stakes=20, flights=flights))
    assert s.stake_winner == 0


@pytest.mark.parametrize("hoard", [50, 30])
def test_every_player_starts_with_fifty_gold_or_the_agreed_amount(hoard: int) -> None:
    """TURNS & STARTING ANTE: "To play a gambit, players supply 50 gold (or other agreed to
    amount) as their starting dragon hoard." """
    settings = {} if hoard == 50 else {"starting_hoard": hoard}
    t = Script(players=3, **settings)
    assert t.s.hoards == [hoard] * 3 and t.s.stakes == 0


def test_the_highest_turn_order_roll_goes_first_everyone_antes_it_the_first_half() -> None:
    """TURNS & STARTING ANTE: "All players roll 1d12. The player that rolled the highest value
    goes first and play continue clockwise. Every player antes gold equal to the largest value
    rolled to the stakes, except the player going first only pays half the starting ante
    (rounded up to next whole number)."

    Three players roll 4, 9 and 2: seat 1 goes first, then seats 2 and 0; seats 0 and 2 ante 9,
    seat 1 half of 9 rounded up, 5."""
    t = Script(players=3)
    for seat, face in enumerate((4, 9, 2)):
        assert t.d.kind == ROLL and t.d.seat == seat and t.d.ctx[0] == 12
        t.answer(face, ROLL, seat)
    assert t.s.order == [1, 2, 0]
    assert t.s.hoards == [41, 45, 41] and t.s.stakes == 23
    for seat in (1, 2, 0):
        t.turn(seat, BRASS, 1)


def test_playing_antes_the_strength_short_is_a_debt_and_bahamut_waits_for_its_owner() -> None:
    """PLAY A GAMBIT: "After playing a card, the player then antes gold to the stakes equal to
    the strength of the dragon card they played. If the player does not have enough gold, they
    ante what they have until they are out of gold, and owe a debt to the stakes for the
    remaining gold amount. When a dragon is played, the dragon's power is triggered (except for
    Bahamut's power which is triggered at a time of the owner's choosing). Carry out the
    instructions stated for the dragon power when it is triggered."

    With 10 gold each, seat 0 (hoard 7) plays a Gold 11: it antes its 7 and owes the stakes 4.
    Seat 1 plays Bahamut: nothing happens yet (no Tiamat to destroy). Seat 0's Tiamat then
    lets seat 1 choose its moment: it is asked after the turn, and may wait (pass)."""
    t = Script(players=2, starting_hoard=10)
    t.rolls(5, 3)  # hoards 7 and 5, stakes 8
    t.turn(0, GOLD, 11)
    assert t.s.hoards[0] == 0 and t.s.debts == [(0, STAKES, 4)] and t.s.stakes == 15
    t.turn(1, BAHAMUT)  # antes its 5, owes 8
    assert t.s.debts == [(0, STAKES, 4), (1, STAKES, 8)]
    assert t.d.kind == TURN and t.d.seat == 0  # no sacrifice without a Tiamat
    t.turn(0, TIAMAT)
    assert t.d.kind == SACRIFICE and t.d.seat == 1 and t.d.options == (0, PASS)
    t.answer(PASS, SACRIFICE, 1)
    assert t.s.flights[0][-1] == (TIAMAT, 1)


def test_special_flights_are_evaluated_in_the_order_of_play_and_gods_count_as_dragons() -> None:
    """SPECIAL DRAGON FLIGHTS: "In the order of play, evaluate each player's dragon flights with
    the following criteria in the following order and carry out the associated instructions
    (dragon gods still count as dragons)."

    Seat 1 went first. Both have an Allied Flight, but the stakes hold only 6: seat 1, first in
    the order of play, takes its 4, seat 0 the 2 left of its 7. Seat 0's Allied Flight counts
    Bahamut, a good dragon god, as one of its three good dragons. Two Tiamats (strength 1) and a
    Brass 1 are three dragons of one strength: a Triplet Flight."""
    flights = [[(BRASS, 2), (BAHAMUT, 13), (SILVER, 7)], [(WHITE, 1), (RED, 4), (BLACK, 2)]]
    s = end_gambit(position(hoards=[10, 10], stakes=6, flights=flights, first=1))
    assert events(s, "take", reason="allied") == [
        {"seat": 1, "amount": 4, "taken": 4, "reason": "allied"},
        {"seat": 0, "amount": 13, "taken": 2, "reason": "allied"},
    ]
    flights = [[(TIAMAT, 1), (TIAMAT, 1), (BRASS, 1)], [(GOLD, 9), (RED, 8), (SILVER, 2)]]
    s = end_gambit(position(hoards=[10, 10], stakes=0, flights=flights))
    assert [(e["payer"], e["to"], e["amount"]) for e in events(s, "pay", reason="triplet")] == [
        (1, 0, 1)
    ]


def test_a_triplet_flight_is_paid_by_every_opponent_and_a_shortfall_is_a_debt() -> None:
    """SPECIAL DRAGON FLIGHTS: "(2) Triplet Flight: Three dragons of the same strength in a
    dragon flight rewards the player gold equal to 1 of those dragon's strength from all
    opponents. If an opponent does not have enough gold, they pay what they have until they are
    out of gold, and owe a debt to the player for the remaining gold amount."

    Seat 0's three 4s: seat 1 pays 4; seat 2, with 1 gold, pays 1 and owes seat 0 3."""
    flights = [
        [(BRASS, 4), (WHITE, 4), (SILVER, 4)],
        [(GOLD, 9), (RED, 12), (BLUE, 2)],
        [(COPPER, 1), (GREEN, 2), (BLACK, 5)],
    ]
    s = position(3, hoards=[10, 10, 1], stakes=0, flights=flights)
    s = end_gambit(s)
    pays = events(s, "pay", reason="triplet")
    assert [(e["payer"], e["to"], e["amount"]) for e in pays] == [(1, 0, 4), (2, 0, 4)]
    assert pays[1]["paid"] == 1
    assert "triplet" in s.flights_earned[0]
    assert s.hoards[1] == 6 and s.hoards[2] == 0


def test_an_allied_flight_takes_the_strongest_dragons_strength_from_the_stakes() -> None:
    """SPECIAL DRAGON FLIGHTS: "(3) Allied Flight: Three dragons of the same alignment in a
    flight rewards a player the strongest dragon's strength worth of gold from the stakes. If
    the full amount of gold is not available in the stakes, the player takes as much as they
    can, but the stakes does not owe a debt."

    Seat 1's three evil dragons, the strongest a Red 9: 9 from the stakes of 20. With 5 in the
    stakes it takes the 5 and is owed nothing."""
    flights = [[(BRASS, 2), (RED, 3), (SILVER, 1)], [(WHITE, 1), (RED, 9), (BLACK, 2)]]
    s = end_gambit(position(hoards=[10, 10], stakes=20, flights=flights))
    assert events(s, "take", reason="allied") == [
        {"seat": 1, "amount": 9, "taken": 9, "reason": "allied"}
    ]
    s = end_gambit(position(hoards=[10, 10], stakes=5, flights=flights))
    assert events(s, "take", reason="allied")[0]["taken"] == 5
    assert s.debts == []


def test_the_leader_flight_strongest_or_weakest_with_tiamat_wins_the_stakes() -> None:
    """SPECIAL DRAGON FLIGHTS: "(4) Leader Flight: Add the strength of all dragons in each
    player's dragon flight together. The player with the strongest dragon flight (or weakest if
    Tiamat is in play) is the leader and wins the stakes. See basics above for breaking ties."

    Totals 3 + 4 + 1 = 8 and 9 + 2 + 1 = 12 (the single strongest dragon is not what counts):
    seat 1 wins the 25 gold. Flights tied at 10 go to the basics' first tie-breaker, the
    larger hoard."""
    flights = [[(GOLD, 3), (RED, 4), (BRASS, 1)], [(SILVER, 9), (BLUE, 2), (WHITE, 1)]]
    s = end_gambit(position(hoards=[10, 10], stakes=25, flights=flights))
    assert s.stake_winner == 1 and s.hoards == [10, 35]
    assert s.flights_earned[1] == ["leader"]
    tied = [[(GOLD, 6), (RED, 4)], [(SILVER, 5), (BLUE, 5)]]
    s = end_gambit(position(hoards=[10, 12], stakes=20, flights=tied))
    assert events(s, "tie_broken", purpose="leader") == [
        {"purpose": "leader", "seat": 1, "by": "hoard"}
    ]


def test_the_stakes_go_to_the_strongest_flight_the_gambit_to_the_largest_hoard() -> None:
    """WINNING: "Typically, the player with the strongest dragon flight (sum of strength of all
    dragons in a dragon flight) at the end of the gambit wins the stakes from that gambit."
    "The overall winner of the gambit is the player with the largest dragon hoard at the end of
    a gambit, though winning the stakes greatly increases the chances of being the overall
    gambit winner."

    Seat 1's flight (7 + 8 + 3 = 18) wins the 12 gold of the stakes (hoard 17), but seat 0's
    hoard of 40 is the largest: seat 0 wins the gambit, and with it the one-gambit game."""
    flights = [[(GOLD, 2), (RED, 5), (BRASS, 4)], [(SILVER, 7), (BLUE, 8), (COPPER, 3)]]
    s = end_gambit(position(hoards=[40, 5], stakes=12, flights=flights))
    assert s.stake_winner == 1 and s.hoards == [40, 17]
    assert s.gambit_winners == [0]
    assert s.over and s.winners == (0,)


def test_the_game_ends_with_the_gambit_winner_or_sums_the_hoards_of_several() -> None:
    """GAME ENDS OR REPEAT: "The game ends once a gambit winner is declared. Optionally, players
    can continue playing additional gambits by repeating the gameplay steps. If multiple
    gambits are played, the player that collected the largest combined sum for their dragon
    hoard is the overall winner."

    One gambit: seat 0 withdraws, seat 1 wins it and the game is over. Two gambits: seat 0
    wins the first by 10 (55 to 45) and loses the second by 4 (48 to 52): its combined 103
    against 97 wins."""
    one = Script(players=2, lone_player_plays_on=False)
    one.rolls(3, 5)  # seat 1 first: hoards 48 and 47, stakes 5
    one.turn(1, BRASS, 2)
    one.withdraw(0)
    assert one.s.gambit_winners == [1] and one.s.over and one.s.winners == (1,)
    assert one.s.pending is None

    two = Script(players=2, gambits=2, lone_player_plays_on=False)
    two.rolls(5, 3)  # seat 0 first: hoards 47 and 45, stakes 8
    two.turn(0, BRASS, 2)
    two.withdraw(1)
    assert two.s.gambit_winners == [0] and not two.s.over
    assert two.s.totals == [55, 45]
    two.rolls(3, 4)  # gambit 2, seat 1 first: seat 0 antes 4, seat 1 2: stakes 6
    two.turn(1, BRASS, 2)  # seat 1: 48 - 2 = 46, stakes 8
    two.withdraw(0)  # seat 1 takes the 8: 54 against 46
    assert two.s.gambit_winners == [0, 1] and two.s.over
    assert two.s.totals == [55 + 46, 45 + 54]
    assert two.s.winners == (0,)


# --- what a gambit counts ends with it (issue 33 §3) ---------------------------------------


def test_gods_rolled_in_an_earlier_gambit_make_no_god_flight_in_the_next() -> None:
    """SPECIAL DRAGON FLIGHTS: "(1) God Flight: A player that rolled a dragon god at the start of
    each of their 3 turns may take 1/2 of the stakes (rounded down) and add it to their dragon
    hoard." GAME ENDS OR REPEAT: "Optionally, players can continue playing additional gambits by
    repeating the gameplay steps."

    Their 3 turns are the turns of this gambit. Seat 0 rolls Bahamut on its first two turns of
    gambit 1 and a Brass 2 on its third (no God Flight); in gambit 2 it rolls Bahamut on its first
    turn only, and seat 1 withdraws: the two gods of gambit 1 do not make three with it, so gambit
    2 has no God Flight either."""
    t = start(gambits=2, lone_player_plays_on=False)
    t.turn(0, BAHAMUT)
    t.turn(1, BRASS, 1)
    t.turn(0, BAHAMUT)
    t.turn(1, BRASS, 3)
    t.turn(0, BRASS, 2)
    t.turn(1, COPPER, 4)
    t.decline_sacrifices()
    assert t.s.gambit == 2 and t.s.god_turns == [0, 0]
    assert "god" not in t.s.flights_earned[0] and not t.events("take", reason="god")
    t.rolls(5, 3)  # gambit 2: seat 0 first again
    t.turn(0, BAHAMUT)
    t.withdraw(1)
    t.decline_sacrifices()
    assert t.s.over and t.s.gambit == 2
    assert t.s.god_turns == [1, 0]
    assert "god" not in t.s.flights_earned[0] and not t.events("take", reason="god")


def test_gods_played_in_an_earlier_gambit_break_no_tie_of_the_next() -> None:
    """TIE BREAKERS: "Break any ties in this order of precedence: largest dragon hoard, most
    dragon gods played, most good dragons in dragon flight, unmodified d20 rolls". GAME ENDS OR
    REPEAT: "Optionally, players can continue playing additional gambits by repeating the
    gameplay steps."

    A tie within a gambit counts the gods played in it (the whole game's count only breaks the
    overall tie). Seat 0 plays Bahamut in gambit 1 and seat 1 withdraws. Gambit 2 starts from
    the starting hoards again (50 each) and both roll 4 for turn order: equal hoards, no god
    played yet in this gambit, no dragon in any flight, so the d20s decide (seat 1's 15 against
    seat 0's 7), not seat 0's Bahamut of the gambit before."""
    t = start(gambits=2, lone_player_plays_on=False)
    t.turn(0, BAHAMUT)
    t.withdraw(1)
    t.decline_sacrifices()
    assert t.s.gambit == 2 and t.s.gods_played == [0, 0] and t.s.gods_total == [1, 0]
    t.rolls(4, 4)
    assert t.events("tie", purpose="first") == [{"purpose": "first", "seats": [0, 1]}]
    t.rolls(7, 15)
    assert t.events("tie_broken", purpose="first") == [{"purpose": "first", "seat": 1, "by": "d20"}]
    assert t.s.first == 1


def test_the_player_tracker_starts_each_gambit_with_no_special_flight_checked() -> None:
    """PLAYER TRACKER: "Optional gambit trackers for players to use." GAME ENDS OR REPEAT:
    "Optionally, players can continue playing additional gambits by repeating the gameplay
    steps."

    A gambit tracker's special flight boxes are the gambit's: seat 0 wins gambit 1's Leader
    Flight (seat 1 withdrew), its box is checked; when gambit 2 starts, nobody's box is, until a
    special flight of gambit 2 is earned."""
    t = start(gambits=2, lone_player_plays_on=False)
    t.turn(0, BRASS, 2)
    t.withdraw(1)
    assert t.s.gambit == 2
    assert [e["flight"] for e in t.events("flight_earned", seat=0)] == ["leader"]
    t.rolls(5, 3)
    for seat in (0, 1):
        assert sheet(t.s, seat)["flights"] == dict.fromkeys(FLIGHTS, False)
