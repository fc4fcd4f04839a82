"""Dice Gambit setup (options.md §8.1-§8.4): the dragon table, settings, hoards,
turn order, the starting ante, and advantage for gaming-set owners."""

from __future__ import annotations

import pytest

from dragonante.dice import DiceConfig, new_game
from dragonante.dice.config import ConfigError, config_from_dict, config_to_dict, parse_setting
from dragonante.dice.decisions import ORDER_ROLL, ROLL, STRENGTH_ROLL, TIEBREAK_ROLL, TYPE_ROLL
from dragonante.dice.state import STAKES
from dragonante.dice.table import BAHAMUT, DRAGONS, GREEN, TIAMAT

from .script import Script

# The seed's Dragon Card Table: d12, type, alignment, strength (die or fixed), half-die.
TABLE = [
    (1, "Tiamat", "evil", "1", 0),
    (2, "Brass", "good", "1d4", 2),
    (3, "White", "evil", "1d4", 2),
    (4, "Copper", "good", "1d6", 3),
    (5, "Black", "evil", "1d6", 3),
    (6, "Bronze", "good", "1d8", 4),
    (7, "Green", "evil", "1d8", 4),
    (8, "Silver", "good", "1d10", 5),
    (9, "Blue", "evil", "1d10", 5),
    (10, "Gold", "good", "1d12", 6),
    (11, "Red", "evil", "1d12", 6),
    (12, "Bahamut", "good", "13", 0),
]


@pytest.mark.parametrize(("face", "name", "alignment", "strength", "half"), TABLE)
def test_dragon_card_table(face: int, name: str, alignment: str, strength: str, half: int) -> None:
    t = DRAGONS[face]
    assert (t.face, t.name, t.alignment, t.strength_text) == (face, name, alignment, strength)
    assert t.god == (face in (TIAMAT, BAHAMUT))
    if not t.god:
        assert t.half_die == half


def test_defaults_are_the_specs_parameters() -> None:
    c = DiceConfig()
    assert c.starting_hoard == 50
    assert c.rounds_per_gambit == 3
    assert c.gaming_set_owners == ()
    assert not c.multi_gambit
    assert c.multi_gambit_hoard == "reset"
    assert c.replacement_is_full_play is True
    assert c.withdraw_scope == "gambit"
    assert c.flight_order == "criteria"
    assert c.stake_debt_payee == "winner"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"players": 1}, "players must be 2-6"),
        ({"players": 7}, "players must be 2-6"),
        ({"starting_hoard": 0}, "starting_hoard"),
        ({"gambits": 0}, "gambits"),
        ({"gaming_set_owners": (4,)}, "seat 4"),
        ({"multi_gambit_hoard": "keep"}, "multi_gambit_hoard must be one of reset, carry"),
        ({"withdraw_scope": "forever"}, "withdraw_scope"),
        ({"flight_order": "random"}, "flight_order"),
        ({"stake_debt_payee": "bank"}, "stake_debt_payee"),
        ({"settlement_order": "random"}, "settlement_order"),
    ],
)
def test_settings_that_cannot_be_played_are_refused(
    settings: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        DiceConfig(**settings).validate()  # type: ignore[arg-type]


def test_settings_round_trip_and_parse() -> None:
    c = DiceConfig(players=3, gaming_set_owners=(0, 2), multi_gambit_hoard="carry", gambits=2)
    assert config_from_dict(config_to_dict(c)) == c
    c2 = parse_setting(DiceConfig(), "withdraw-scope=session")
    assert c2.withdraw_scope == "session"
    assert parse_setting(DiceConfig(), "gaming_set_owners=1,3").gaming_set_owners == (0, 2)
    assert parse_setting(DiceConfig(), "withdrawal=off").withdrawal is False
    for bad in ("nonsense", "players=x", "withdrawal=maybe", "colour=red"):
        with pytest.raises(ConfigError):
            parse_setting(DiceConfig(), bad)
    with pytest.raises(ConfigError, match="unknown setting"):
        config_from_dict({"players": 2, "cheat": True})


@pytest.mark.parametrize("hoard", [50, 20, 100])
def test_every_player_starts_with_the_agreed_hoard(hoard: int) -> None:
    s = new_game(DiceConfig(players=3, starting_hoard=hoard), seed=1)
    start = next(data for kind, data in s.log or [] if kind == "gambit_start")
    assert start["hoards"] == [hoard] * 3


def test_every_player_rolls_a_d12_and_the_highest_goes_first_clockwise() -> None:
    t = Script(players=3)
    for seat in range(3):
        assert t.d.kind == ROLL and t.d.seat == seat and t.d.ctx[:2] == (12, ORDER_ROLL)
        t.rolls((4, 9, 2)[seat])
    assert t.s.first == 1
    assert t.s.order == [1, 2, 0]
    assert t.d.seat == 1  # the first player takes the first turn


def test_everyone_antes_the_largest_roll_and_the_first_player_half_rounded_up() -> None:
    t = Script(players=3)
    t.rolls(4, 9, 2)
    assert [(e["payer"], e["amount"]) for e in t.events("pay", reason="starting ante")] == [
        (1, 5),  # half of 9, rounded up
        (2, 9),
        (0, 9),
    ]
    assert t.s.hoards == [41, 45, 41]
    assert t.s.stakes == 23


def test_starting_ante_shortfall_is_a_debt_to_the_stakes() -> None:
    t = Script(players=2, starting_hoard=5)
    t.rolls(3, 12)
    assert t.s.hoards == [0, 0]
    assert t.s.debts == [(1, STAKES, 1), (0, STAKES, 7)]  # first pays 6 of 5; second 12 of 5
    assert t.s.stakes == 10


def test_turn_order_tie_is_broken_by_a_d20_roll_off_rerolled_while_tied() -> None:
    t = Script(players=3)
    t.rolls(8, 8, 3)  # seats 0 and 1 tie for highest; hoards, gods, good dragons all equal
    assert t.d.ctx[:2] == (20, TIEBREAK_ROLL) and t.d.seat == 0
    t.rolls(11, 11)  # still tied: roll again
    t.rolls(4, 17)
    assert t.s.first == 1
    assert t.events("tie_broken") == [{"purpose": "first", "seat": 1, "by": "d20"}]
    # The ante is the largest value rolled for turn order (8), not the d20.
    assert t.s.hoards == [42, 46, 42]


def test_advantage_rolls_two_dice_and_keeps_the_highest_for_turn_order() -> None:
    t = Script(players=2, gaming_set_owners=(1,))
    t.rolls(6)
    assert t.d.seat == 1 and t.d.ctx == (12, ORDER_ROLL, 1, 2)
    t.rolls(2)
    assert t.d.ctx == (12, ORDER_ROLL, 2, 2)
    t.rolls(9)
    assert t.events("roll", seat=1)[0]["faces"] == [2, 9]
    assert t.s.first == 1
    assert t.s.hoards == [41, 45]  # the ante is the kept value, 9


def test_advantage_applies_to_strength_rolls_but_never_to_the_dragon_type() -> None:
    t = Script(players=2, gaming_set_owners=(0,))
    t.rolls(7, 7, 2)  # seat 0 keeps 7, seat 1 rolls 2
    t.answer(0, "turn", 0)
    assert t.d.ctx == (12, TYPE_ROLL, 1, 1)
    t.rolls(GREEN)
    assert t.d.ctx == (8, STRENGTH_ROLL, 1, 2)
    t.rolls(3, 6)
    assert t.s.flights[0] == [(GREEN, 6)]


def test_advantage_applies_to_tie_breaker_d20s() -> None:
    t = Script(players=2, gaming_set_owners=(1,))
    t.rolls(8, 3, 8)  # tie on 8
    t.rolls(15)  # seat 0's d20
    assert t.d.seat == 1 and t.d.ctx == (20, TIEBREAK_ROLL, 1, 2)
    t.rolls(2, 16)
    assert t.s.first == 1
