"""Each rule written once (issue 21 §2): the one function every caller uses.

The trigger rule, gaining gold, "rewards are skipped because the stakes are
empty", "the stakes are empty, the gambit ends", the Princess / Dragon Turtle
chain, the ante-effect registry, and the special flights a card completed
when played.  The scenarios test the rules as the book states them; these
tests pin the shared functions themselves, so a caller that bypasses one, or
a change to one, shows here first.
"""

from __future__ import annotations

from typing import Any

import pytest

from dragonante.cards import card_number
from dragonante.engine import GameConfig, apply
from dragonante.engine.config import DeckOptions, Rules
from dragonante.engine.core import (
    ANTE_AWARD,
    ANTE_EFFECTS,
    ANTE_FIRST_TURN,
    ANTE_HOOKS,
    ANTE_REVEALED,
    ANTE_TRIGGERS,
    ANTE_WEAKEST_WINS,
    RESHAPING,
    RULES,
    STAKES,
    ante_hooks,
    end_gambit_if_stakes_empty,
    gain_gold,
    pay,
    rewards_skipped,
    trigger_each,
)
from dragonante.engine.decisions import CHOOSE_OPPONENT, PRINCESS_NEXT, TURTLE_NEXT, Decision
from dragonante.engine.flights import completed_now, detect_flight_rewards
from dragonante.engine.flow import triggers, weakest_wins, would_trigger
from dragonante.engine.invariants import violations
from dragonante.engine.position import Position, build_position
from dragonante.engine.state import GameState
from dragonante.engine.tables import ANTE_EFFECT, COLORS


def ids(*names: str) -> list[int]:
    return [card_number(n) for n in names]


def table(players: int = 4, rules: Rules | None = None, **kw: Any) -> GameState:
    """A Legendary table in round 2, seat 0 leading, nobody has played yet."""
    hands = (
        kw.pop("hands", None)
        or [
            ids("L-std-red-8", "L-std-gold-4"),
            ids("L-std-black-5", "L-std-white-5"),
            ids("L-std-black-2", "L-std-white-4"),
            ids("L-std-red-12", "L-std-gold-13"),
        ][:players]
    )
    config = GameConfig(players=players, rules=rules or Rules())
    pos = Position(hands=hands, round=2, stakes=30, hoards=kw.pop("hoards", None), **kw)
    return build_position(config, pos, seed=3)


# --- the trigger rule -------------------------------------------------------------


def test_the_first_card_of_the_round_triggers_and_later_ones_compare_to_the_right() -> None:
    s = table()
    assert triggers(s, 0, card_number("L-std-red-8"))  # first card of the round
    apply(s, card_number("L-std-red-8"))
    apply(s, 3)  # Red 8's power: choose the strongest opponent (all tied at 0)
    assert triggers(s, 1, card_number("L-std-black-5"))  # 5 <= 8
    assert not triggers(s, 1, card_number("L-std-red-12"))  # 12 > 8
    assert would_trigger(s, 1, card_number("L-std-black-5"))


def test_the_player_to_the_right_skips_an_eliminated_seat() -> None:
    s = table(hands=[ids("L-std-red-8"), [], ids("L-std-black-5"), ids("L-std-red-12")])
    s.out = 1 << 1
    s.round_card[0] = card_number("L-std-red-8")
    assert triggers(s, 2, card_number("L-std-black-5"))  # seat 0 is on its right now
    s.out = 0
    assert not triggers(s, 2, card_number("L-std-black-5"))  # seat 1 played nothing


def test_when_the_leader_had_no_card_the_first_card_played_triggers() -> None:
    s = table()
    assert all(c < 0 for c in s.round_card)
    # Seat 1 plays first (the leader, seat 0, had nothing): no card on its right.
    assert triggers(s, 1, card_number("L-std-red-12"))
    s.round_card[1] = card_number("L-std-red-12")
    assert not triggers(s, 3, card_number("L-std-gold-13"))  # seat 2 played nothing


def test_archmage_and_exarch_make_cards_trigger() -> None:
    s = table()
    s.round_card[0] = card_number("L-std-white-1")
    assert not triggers(s, 1, card_number("L-std-red-12"))
    s.archmage = 1 << 1
    assert triggers(s, 1, card_number("L-std-red-12"))
    s.archmage = 0
    s.has_ante_fx = True
    s.ante.append(card_number("EG-exarch"))
    assert triggers(s, 1, card_number("L-std-red-12"))  # strength 10 or more
    assert not triggers(s, 1, card_number("L-std-red-8"))


# --- gaining gold -----------------------------------------------------------------


@pytest.mark.parametrize("model", ["hole", "creditors", "immediate"])
def test_gain_gold_repays_debts_only_under_immediate_debts(model: str) -> None:
    s = table(rules=Rules(debt_model=model), hoards=[0, 10, 10, 10])
    pay(s, 0, 4, 2)  # seat 0 cannot pay: owed to the hole, or a debt
    s.stakes -= 3  # the gold comes from somewhere (here, the stakes)
    gain_gold(s, 0, 3)
    if model == "immediate":
        assert s.hoards[0] == 0 and s.hoards[2] == 13 and s.debts == [(0, 2, 1)]
    else:
        assert s.hoards[0] == 3 and s.hoards[2] == 10
    assert not violations(s, deck=False)  # a hand-built table, not a dealt deck


def test_a_repayment_received_is_passed_on_along_a_chain_of_debts() -> None:
    s = table(rules=Rules(debt_model="immediate"), hoards=[0, 0, 0, 10])
    pay(s, 0, 5, 1)  # 0 owes 1
    pay(s, 1, 5, 2)  # 1 owes 2
    pay(s, 2, 2, STAKES)  # 2 owes the stakes
    s.stakes -= 6
    gain_gold(s, 0, 6)
    assert s.hoards == [1, 0, 3, 10]
    assert s.stakes == 26 and s.debts == []
    assert not violations(s, deck=False)  # a hand-built table, not a dealt deck


def test_gain_gold_of_nothing_changes_nothing() -> None:
    s = table(rules=Rules(debt_model="immediate"), hoards=[0, 10, 10, 10])
    pay(s, 0, 4, 2)
    gain_gold(s, 0, 0)
    assert s.debts == [(0, 2, 4)]


# --- the stakes run out --------------------------------------------------------------


@pytest.mark.parametrize(("mode", "skipped"), [("skip", True), ("resolve", False)])
def test_rewards_skipped_only_once_the_stakes_are_empty(mode: str, skipped: bool) -> None:
    s = table(rules=Rules(empty_stakes_pending_rewards=mode))
    assert not rewards_skipped(s)
    s.stakes_emptied = True
    assert rewards_skipped(s) is skipped


def test_the_stakes_empty_the_gambit_ends() -> None:
    s = table()
    s.queue.append(("turn", 3))
    assert not end_gambit_if_stakes_empty(s)
    assert s.queue == [("turn", 3)]
    s.stakes_emptied = True
    assert end_gambit_if_stakes_empty(s)
    assert s.queue == [("decide_winner", 1)]
    assert s.log is not None and s.log[-1][1] == "stakes_empty"


# --- "trigger all of these" ------------------------------------------------------------


@pytest.mark.parametrize("kind", [PRINCESS_NEXT, TURTLE_NEXT])
def test_trigger_each_asks_for_the_cards_still_in_the_flight(kind: str) -> None:
    s = table()
    gold, silver, gone = ids("L-std-gold-2", "L-std-silver-2", "L-std-gold-6")
    s.flights[0] = [gold, silver]
    s.pending = None
    s.queue.clear()
    trigger_each(s, 0, (gold, gone, silver), card_number("L-mor-princess"), kind)
    step = s.queue.pop()
    RULES.steps[step[0]](s, step)
    assert s.pending is not None and s.pending.kind == kind
    assert s.pending.options == (gold, silver)


def test_trigger_each_stops_when_the_stakes_ran_out() -> None:
    s = table()
    gold = card_number("L-std-gold-2")
    s.flights[0] = [gold]
    s.pending = None
    s.queue.clear()
    s.stakes_emptied = True
    trigger_each(s, 0, (gold,), card_number("L-mor-princess"), PRINCESS_NEXT)
    step = s.queue.pop()
    RULES.steps[step[0]](s, step)
    assert s.pending is None


# --- ante effects ------------------------------------------------------------------------


def test_every_ante_effect_of_the_cards_is_registered() -> None:
    registered = {name for hook in ANTE_HOOKS for name in ANTE_EFFECTS[hook]}
    assert registered == {e for e in ANTE_EFFECT if e}
    assert set(ANTE_EFFECTS[ANTE_REVEALED]) == {"dragon_turtle"}
    assert set(ANTE_EFFECTS[ANTE_FIRST_TURN]) == {"spy"}
    assert set(ANTE_EFFECTS[ANTE_TRIGGERS]) == {"exarch"}
    assert set(ANTE_EFFECTS[ANTE_WEAKEST_WINS]) == {"hatchling"}
    assert set(ANTE_EFFECTS[ANTE_AWARD]) == {"adventurer"}


def test_ante_hooks_read_the_ante_now() -> None:
    s = table()
    s.has_ante_fx = True
    assert not weakest_wins(s)
    s.ante.append(card_number("EG-hatchling"))
    assert ante_hooks(s, ANTE_WEAKEST_WINS) and weakest_wins(s)
    s.ante.clear()  # the card left the ante: its effect ends
    assert not ante_hooks(s, ANTE_WEAKEST_WINS) and not weakest_wins(s)
    s.has_ante_fx = False  # a game without ante-effect cards never looks
    s.ante.append(card_number("EG-hatchling"))
    assert ante_hooks(s, ANTE_WEAKEST_WINS) == []


# --- special flights completed by the card played ---------------------------------------


def test_completed_now_and_kept_flights() -> None:
    s = build_position(
        GameConfig(players=3, deck=DeckOptions()),
        Position(
            hands=[ids("L-std-gold-4"), ids("L-std-black-5"), ids("L-std-white-4")],
            flights=[ids("L-std-copper-5", "L-std-copper-3", "L-leg-copper-trickster"), [], []],
            round=3,
            stakes=30,
        ),
        seed=1,
    )
    copper = COLORS.index("copper")
    snap = completed_now(s, 0)
    assert snap == (0, copper, 5)
    # The Trickster then replaced the Copper 3: the flight is gone, the snapshot stays.
    s.flights[0][1] = card_number("L-std-red-2")
    s.dirty = 1
    assert detect_flight_rewards(s, 0) == []
    s.dirty = 1
    assert detect_flight_rewards(s, 0, None, snap) == [("color_reward", 0, copper, 5)]
    assert (s.collected_colors[0] >> copper) & 1
    # Collected once per gambit: a snapshot is taken when a card is played and
    # holds only uncollected flights, so a later play's snapshot has nothing.
    s.flights[0][1] = card_number("L-std-copper-3")
    assert completed_now(s, 0) == ()
    s.dirty = 1
    assert detect_flight_rewards(s, 0, None, completed_now(s, 0)) == []


def test_only_powers_that_can_change_other_cards_of_the_flight_reshape() -> None:
    # A flight the played card completed can only be broken up before it is
    # collected by these (they replace, discard or swap another card of the
    # flight, or trigger or copy a power that does); self-replacing cards
    # (Copper, Sorcerer, Wyrmlings, Shadow) complete nothing anyway.
    assert {
        "copper_trickster",
        "illusionist",
        "prophet",
        "princess",
        "dragonslayer",
        "hatchling",
        "dragon_turtle",
    } == RESHAPING


# --- the new invariants ---------------------------------------------------------------------


def test_invariant_a_debtor_holding_gold_under_immediate_debts() -> None:
    s = table(rules=Rules(debt_model="immediate"), hoards=[0, 10, 10, 10])
    pay(s, 0, 4, 2)
    assert not violations(s, deck=False)  # a hand-built table, not a dealt deck
    s.hoards[0] += 1  # gold that bypassed gain_gold
    s.stakes -= 1
    assert violations(s, deck=False) == ["seat 0 holds 1 gold but owes a debt"]
    s.config = GameConfig(players=4, rules=Rules(debt_model="creditors"))
    assert not violations(s, deck=False)  # EG debts wait for Step 4


def test_invariant_an_eliminated_seat_takes_no_part() -> None:
    s = table(hands=[ids("L-std-red-8"), [], ids("L-std-black-5"), ids("L-std-red-12")])
    s.out = 1 << 1
    assert not violations(s, deck=False)  # a hand-built table, not a dealt deck
    s.round_card[1] = card_number("L-std-red-8")
    assert "eliminated seat 1 played a card" in violations(s, deck=False)
    s.round_card[1] = -1
    s.ante_choice[1] = card_number("L-std-red-8")
    assert "eliminated seat 1 anted" in violations(s, deck=False)
    s.ante_choice[1] = -1
    s.pending = Decision(99, 0, CHOOSE_OPPONENT, (1, 3), -1, ())
    assert violations(s, deck=False) == [
        "eliminated seats [1] offered as a choice (choose_opponent)"
    ]
    s.pending = Decision(99, 1, "play", (), -1, ())
    assert violations(s, deck=False) == ["eliminated seat 1 is asked play"]
