"""Everything that lasts one gambit (or one purchase) is shown over in the next (issue 33 §3).

The scenarios pin each rule within a gambit well; a running effect or a flag
that should end with its gambit, and does not, shows only in the gambit
after.  So every running effect of :data:`dragonante.engine.effects.EFFECTS`
and every piece of state of both games that is reset at a gambit's start (or
after a purchase) names here the scenario, or for the Dice Gambit the rules
test, that plays into the next gambit (or purchase) and shows it over; each
was checked to fail with its reset removed.

Every slot of the states is listed, here or in :data:`LASTS`, with how long
it lasts: a new effect, slot or ability field fails :func:`test_every_slot_has_a_lifetime`
until it is placed, and one reset at a gambit's start until it has its scenario
(``docs/scenarios.md``, "Effects end with their gambit").
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from pathlib import Path

import pytest

from dragonante import compiled_engine
from dragonante.dice import flow as dice_flow
from dragonante.dice.state import DiceState
from dragonante.engine import effects
from dragonante.engine import flow as card_flow
from dragonante.engine.abilities.disks import DiskTable
from dragonante.engine.abilities.skills import SkillTable
from dragonante.engine.abilities.table import AbilityTable
from dragonante.engine.hooks import AbilityHooks
from dragonante.engine.state import GameState
from dragonante.scenarios import load, run
from tests.dice import test_rules as dice_rules

HERE = Path(__file__).resolve().parent
NEXT = "next_gambit/"

_ANCESTRY = "abilities/disks/draconic_ancestry/count_restarts_each_gambit.toml"

#: Each running effect that ends with its gambit -> the scenario showing it over in the next.
EFFECT_SCENARIOS = {
    "archmage": NEXT + "archmage_triggers_only_later_in_its_gambit.toml",
    "merchant_prince": "mortals/merchant_prince/only_until_the_end_of_the_gambit.toml",
    "druid": NEXT + "druid_weakest_flight_wins_only_its_own_gambit.toml",
    "priest": NEXT + "priest_split_only_in_its_own_gambit.toml",
    "monarch": NEXT + "gold_monarch_gifts_only_for_its_own_gambit.toml",
    "monarch_gifts": NEXT + "gold_monarch_gifts_only_for_its_own_gambit.toml",
    "warlord": NEXT + "bronze_warlord_fourth_round_only_in_its_gambit.toml",
    "dracolich": NEXT + "dracolich_bonus_only_when_its_gambit_is_scored.toml",
    "wild": NEXT + "wyrmpriest_wild_only_for_the_rest_of_its_gambit.toml",
    "dragonrider": NEXT + "dragonrider_strength_only_when_its_gambit_is_scored.toml",
    "emperor": NEXT + "emperor_bonus_only_when_its_gambit_is_scored.toml",
    "score_round": NEXT + "emperor_fourth_round_only_in_its_gambit.toml",
    "mortal_flights": NEXT + "wyrmpriest_three_mortals_only_for_the_rest_of_its_gambit.toml",
}

#: Card-game state reset at a gambit's start or its Step 4 (``GameState.X``), or after a
#: purchase (``AbilityTable.X``...) -> the scenario showing it over.
FLAG_SCENARIOS = {
    "GameState.stakes_emptied": NEXT + "stakes_emptied_end_only_their_own_gambit.toml",
    "GameState.collected_colors": NEXT + "color_flight_collected_again_in_the_next_gambit.toml",
    "GameState.collected_strengths": NEXT
    + "strength_flight_collected_again_in_the_next_gambit.toml",
    "GameState.gambit_winner": "sequence/gambit_effects_end_with_the_gambit.toml",
    "GameState.hole_owed": "sequence/hole_owed_gold_is_paid_into_the_hole_at_step_4.toml",
    "GameState.debts": "emperors_gambit/rules/winner_ignores_its_debts_to_the_stakes.toml",
    # Card Denial: "the buyer only fills their hand to 3 cards", for that purchase.
    "AbilityTable.denied": "abilities/disks/card_denial/"
    "the_denied_buyers_next_purchase_fills_to_four.toml",
    # Draconic Ancestry's count of this gambit's matching cards (and the gambit it counts).
    "DiskTable.ancestry_plays": _ANCESTRY,
    "DiskTable.ancestry_gambit": _ANCESTRY,
    # Diplomacy, once per gambit (the gambit it was last used in).
    "SkillTable.diplomacy": "abilities/skills/diplomacy/usable_again_next_gambit.toml",
}
#: State that lasts one turn (reset by every play that triggers, and at a gambit's start)
#: -> the scenario showing it over in the next turn.
TURN_SCENARIOS = {
    # The cards this turn's Copper replacements discarded (docs/rules.md, "Every game ends").
    "GameState.replaced": "standard/copper/"
    "a_copper_discarded_in_an_earlier_turn_triggers_again.toml",
}
#: Purchases, not gambits: their scenario shows one seat buying twice.
PER_PURCHASE = {"AbilityTable.denied"}

#: Dice Gambit state reset at a gambit's start -> the rules test showing it over.
_GODS = "test_gods_rolled_in_an_earlier_gambit_make_no_god_flight_in_the_next"
_TIES = "test_gods_played_in_an_earlier_gambit_break_no_tie_of_the_next"
_TRACKER = "test_the_player_tracker_starts_each_gambit_with_no_special_flight_checked"
_TWO_GAMBITS = "test_the_game_ends_with_the_gambit_winner_or_sums_the_hoards_of_several"
DICE_TESTS = {
    "DiceState.god_turns": _GODS,
    "DiceState.flights": _GODS,
    "DiceState.turns_taken": _GODS,
    "DiceState.gods_played": _TIES,
    "DiceState.flights_earned": _TRACKER,
    # A player who withdrew plays the next gambit, which is played out, from the starting hoard.
    "DiceState.withdrawn": _TWO_GAMBITS,
    "DiceState.ended_early": _TWO_GAMBITS,
    "DiceState.hoards": _TWO_GAMBITS,
}

GAME = "lasts the game (or is fixed at set-up)"
ZONE = "a zone of cards or gold: every card and coin is checked at the end of every scenario"
ROUND = "lasts one round: reset at each round's start (and the gambit's end) too"
ANTE = "lasts one ante: cleared when the ante is settled, and before the next"
COUNTER = "a counter the next gambit sets anew (the gambit, the round, the leader, the phase)"
BOOKKEEPING = "interpreter or search book-keeping, no rule reads it"
OVERWRITTEN = "reset at the gambit's start, but always set again before any rule reads it"

#: Every other slot, with how long it lasts.
LASTS = {
    # The card game.
    "GameState.abilities": GAME,
    "GameState.config": GAME,
    "GameState.seed": GAME,
    "GameState.n": GAME,
    "GameState.universe": GAME,
    "GameState.specials": GAME,
    "GameState.has_ante_fx": GAME,
    "GameState.winners": GAME,
    "GameState.out": GAME,
    "GameState.last_gambit": GAME,
    "GameState.gold_total": GAME,
    "GameState.ante": ZONE,
    "GameState.aside": ZONE,
    "GameState.deck": ZONE,
    "GameState.discard": ZONE,
    "GameState.flights": ZONE,
    "GameState.hands": ZONE,
    "GameState.limbo": ZONE,
    "GameState.hoards": ZONE,
    "GameState.stakes": ZONE,
    "GameState.hole": ZONE,
    "GameState.round_card": ROUND,
    "GameState.round_removed": ROUND,
    "GameState.ante_choice": ANTE,
    "GameState.gambit": COUNTER,
    "GameState.round": COUNTER,
    "GameState.leader": COUNTER,
    "GameState.phase": COUNTER,
    "GameState.dirty": BOOKKEEPING,
    "GameState.known": BOOKKEEPING,
    "GameState.decision_count": BOOKKEEPING,
    "GameState.log": BOOKKEEPING,
    "GameState.pending": BOOKKEEPING,
    "GameState.queue": BOOKKEEPING,
    "GameState.rng": BOOKKEEPING,
    # The D&D abilities.
    "AbilityTable.ancestry": GAME,
    "AbilityTable.held": GAME,
    "AbilityTable.n": GAME,
    "AbilityTable.options": GAME,
    "AbilityTable.revealed": GAME,
    "AbilityTable.wins": GAME,
    "AbilityTable.play_seats": BOOKKEEPING,
    "AbilityTable.window_seats": BOOKKEEPING,
    "DiskTable.expended": "until the character scores a special flight (its own scenarios)",
    "SkillTable.spent": "until the character completes a special flight (its own scenarios)",
    # The Dice Gambit.
    "DiceState.config": GAME,
    "DiceState.seed": GAME,
    "DiceState.dice": GAME,
    "DiceState.in_session": GAME,
    "DiceState.gods_total": GAME,
    "DiceState.gambit_winners": GAME,
    "DiceState.totals": GAME,
    "DiceState.winners": GAME,
    "DiceState.over": GAME,
    "DiceState.debt_incurred": GAME,
    "DiceState.debt_paid": GAME,
    "DiceState.debt_cancelled": GAME,
    "DiceState.stakes": ZONE,
    "DiceState.out_of_play": ZONE,
    "DiceState.debts": ZONE,
    "DiceState.gold_total": ZONE,
    "DiceState.gambit": COUNTER,
    "DiceState.round": COUNTER,
    "DiceState.first_rolls": COUNTER,
    "DiceState.first": COUNTER,
    "DiceState.order": COUNTER,
    "DiceState.stake_winner": OVERWRITTEN,
    "DiceState.gambit_winner": OVERWRITTEN,
    "DiceState.decision_count": BOOKKEEPING,
    "DiceState.log": BOOKKEEPING,
    "DiceState.pending": BOOKKEEPING,
    "DiceState.queue": BOOKKEEPING,
    "DiceState.rng": BOOKKEEPING,
    "DiceState.rolls": BOOKKEEPING,
    "DiceState.faces": BOOKKEEPING,
}

#: Where slots are declared, by the name they are listed under (the abilities' hooks'
#: two are the table's; the effects' slots are the effects table's).
_DECLARED = (
    ("GameState", GameState),
    ("AbilityTable", AbilityTable),
    ("AbilityTable", AbilityHooks),
    ("DiskTable", DiskTable),
    ("SkillTable", SkillTable),
    ("DiceState", DiceState),
)


def slots() -> set[str]:
    """Every slot of the two games' states and the abilities' tables, as ``Class.slot``."""
    return {f"{label}.{name}" for label, cls in _DECLARED for name in cls.__dict__["__slots__"]}


def source_of(fn: Callable[..., object]) -> str:
    """``fn``'s source, also when it runs compiled (``dragonante.compiled_engine``):
    a Cython function is no ``inspect`` function, but keeps its first line."""
    if inspect.isfunction(fn):
        return inspect.getsource(fn)
    lines = compiled_engine.source_path(fn.__module__).read_text().splitlines(keepends=True)
    first = fn.__code__.co_firstlineno
    return "".join(inspect.getblock(lines[first - 1 :]))


def reset_at_gambit_start(fn: Callable[..., object], state: str) -> set[str]:
    """The slots ``fn`` (a gambit's first step) assigns on its state ``s``."""
    tree = ast.parse(source_of(fn))
    out = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        for t in targets:
            if isinstance(t, ast.Subscript):
                t = t.value
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "s":
                out.add(f"{state}.{t.attr}")
    return out


def test_every_effect_that_ends_with_its_gambit_has_a_scenario() -> None:
    ending = {e.name for e in effects.EFFECTS if e.reset == effects.GAMBIT}
    missing = sorted(ending - set(EFFECT_SCENARIOS))
    assert not missing, (
        f"effects without a scenario that plays into the next gambit and shows them over: "
        f"{missing} (add one and list it in EFFECT_SCENARIOS; docs/scenarios.md)"
    )
    assert set(EFFECT_SCENARIOS) <= ending, "EFFECT_SCENARIOS names an effect that is gone"


def test_every_slot_has_a_lifetime() -> None:
    placed = [*FLAG_SCENARIOS, *TURN_SCENARIOS, *DICE_TESTS, *LASTS]
    assert len(placed) == len(set(placed)), "a slot is listed twice"
    unplaced = sorted(slots() - set(placed))
    assert not unplaced, (
        f"new state without a lifetime: {unplaced}. If it lasts one gambit or one purchase, "
        "write the scenario (the Dice Gambit: the rules test) that plays into the next one and "
        "shows it over, and list it in FLAG_SCENARIOS (DICE_TESTS); else say in LASTS how long "
        "it lasts (docs/scenarios.md)"
    )
    assert set(placed) <= slots(), f"listed but no longer a slot: {sorted(set(placed) - slots())}"


@pytest.mark.parametrize(
    ("fn", "state"),
    [(card_flow._begin_gambit, "GameState"), (dice_flow._gambit_start, "DiceState")],
    ids=["card game", "dice gambit"],
)
def test_what_a_gambit_start_resets_is_pinned_or_said_why_not(
    fn: Callable[..., object], state: str
) -> None:
    """The lists above agree with the code: a slot the gambit's first step resets is
    pinned by a scenario or test, unless it is a zone, a round's, an ante's, a counter,
    book-keeping or always set again before it is read."""
    free = {ZONE, ROUND, ANTE, COUNTER, BOOKKEEPING, OVERWRITTEN}
    reset = reset_at_gambit_start(fn, state)
    assert {f"{state}.round", f"{state}.gambit_winner"} <= reset  # the reader reads them
    unpinned = sorted(
        r
        for r in reset
        if r not in FLAG_SCENARIOS
        and r not in TURN_SCENARIOS
        and r not in DICE_TESTS
        and LASTS.get(r) not in free
    )
    assert not unpinned, f"reset at a gambit's start but pinned by no scenario: {unpinned}"
    assert "GameState.collected_colors" in reset_at_gambit_start(
        card_flow._begin_gambit, "GameState"
    )


@pytest.mark.parametrize(
    ("what", "path"),
    sorted({**EFFECT_SCENARIOS, **FLAG_SCENARIOS}.items()),
    ids=lambda x: str(x),
)
def test_each_scenario_plays_into_the_next_gambit_or_purchase(what: str, path: str) -> None:
    """The named scenario exists, passes, and gets past what it shows over: a later
    gambit begins, or (a purchase's flag) one seat buys twice."""
    file = HERE / path
    assert file.is_file(), f"{what}: no scenario {path}"
    result = run(load(file))
    assert result.passed, "\n".join(result.failures)
    if what in PER_PURCHASE:
        buyers = [data["seat"] for _, kind, data in result.events if kind == "buy"]
        assert any(buyers.count(p) >= 2 for p in buyers), f"{path}: no seat buys twice"
        return
    first = result.scenario.position.gambit if result.scenario.position else 0
    started = [data["gambit"] for _, kind, data in result.events if kind == "gambit_start"]
    assert any(g > first for g in started), f"{path}: never reaches the next gambit"


@pytest.mark.parametrize(("what", "path"), sorted(TURN_SCENARIOS.items()))
def test_each_turn_scenario_plays_into_the_next_turn(what: str, path: str) -> None:
    """The named scenario passes and two seats play a card that triggers in it: the
    state of the first turn is over in the second."""
    result = run(load(HERE / path))
    assert result.passed, "\n".join(result.failures)
    fired = [
        data["seat"] for _, kind, data in result.events if kind == "play" and data["triggered"]
    ]
    assert len(set(fired)) >= 2, f"{what}: {path} plays no second turn that triggers"


def test_each_effects_scenario_sets_its_effect() -> None:
    """A scenario for an effect starts with it in force (its ``[table]`` key)."""
    for name, path in EFFECT_SCENARIOS.items():
        scenario = load(HERE / path)
        assert scenario.position is not None
        key = effects.BY_NAME[name].key
        assert key in scenario.position.effects, f"{path} does not set {key}"


@pytest.mark.parametrize(("what", "name"), sorted(DICE_TESTS.items()))
def test_each_dice_test_plays_two_gambits(what: str, name: str) -> None:
    fn = getattr(dice_rules, name, None)
    assert fn is not None, f"{what}: no rules test {name} in tests/dice/test_rules.py"
    assert "gambits=2" in inspect.getsource(fn), f"{name} does not play a second gambit"


@pytest.mark.parametrize("name", sorted(EFFECT_SCENARIOS))
def test_each_effects_scenario_fails_without_its_reset(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scenario pins the reset: with the effect left out of the generated
    ``reset_gambit`` (it then lasts into the next gambit), the scenario fails."""
    kept = [e for e in effects.EFFECTS if e.reset == effects.GAMBIT and e.name != name]
    mutant = effects.compile_function(
        "reset_gambit", "s, n", [f"s.{e.name} = {e.fresh_code()}" for e in kept], name
    )
    monkeypatch.setattr(card_flow, "reset_gambit", mutant)
    assert not run(load(HERE / EFFECT_SCENARIOS[name])).passed, (
        f"{EFFECT_SCENARIOS[name]} still passes when {name} outlasts its gambit"
    )
