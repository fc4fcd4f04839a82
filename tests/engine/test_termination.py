"""Every game ends, whatever table the engine accepts (issue 33, section 2).

A deck and discard pile of nothing but Copper Dragons once made one answer
loop for ever (Copper replaces Copper, the pile is reshuffled, again), and
the web server accepts custom decks from anyone.  The ruling that ends such
a chain is in ``docs/rules.md`` ("Every game ends"); here termination is a
property, not a hope: hypothesis builds tables from every ruleset, custom
decks down to the smallest the engine accepts (the Coppers and the cards
that chain them weighted up), the optional endings, and both ability
systems, at 2-6 players, and plays them with random answers.  Every one must
end, and no answer may hit the engine's bound on work
(:data:`~dragonante.engine.core.MAX_STEPS_PER_ANSWER`): the engine raises
:class:`~dragonante.kernel.RunawayGame` past it, which fails the test with
the table that caused it.  CI runs a short version; ``DRAGONANTE_SOAK=1``
a long one.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dragonante.engine import DeckOptions, GameConfig, Rules
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.config import Ending
from dragonante.engine.core import MAX_QUESTIONS_PER_GAME, MAX_STEPS_PER_ANSWER
from dragonante.engine.decks import custom_cards
from dragonante.engine.game import advance, new_game
from dragonante.engine.state import GameState
from dragonante.kernel import RunawayGame
from dragonante.kernel.interpreter import Registry

SOAK = os.environ.get("DRAGONANTE_SOAK") == "1"
EXAMPLES = 3000 if SOAK else 120

#: Card types a chain runs through (replacements, redraws, copies), drawn
#: more often than the rest so the smallest decks are mostly these.
CHAINING = (
    "L-std-copper",
    "L-leg-copper-trickster",
    "L-mor-prophet",
    "L-mor-princess",
    "L-mor-archmage",
    "L-mor-sorcerer",
    "L-std-gold",
    "L-std-silver",
)
#: Types that fill a deck out to the size the players need.
FILLERS = ("L-std-red", "L-std-blue", "L-std-black", "EG-brown", "EG-gray", "L-std-white")
OTHERS = ("L-std-bronze", "L-std-green", "L-std-brass", "L-leg-silver-seer", "EG-spy")
EVERY_COLOR = tuple(
    f"L-std-{c}"
    for c in (
        "red",
        "blue",
        "black",
        "white",
        "green",
        "gold",
        "silver",
        "bronze",
        "brass",
        "copper",
    )
)
RULESETS = ("legendary", "emperors_gambit", "original")


@st.composite
def tables(draw: st.DrawFn) -> tuple[GameConfig, int]:
    """A table the engine accepts: ruleset, deck, endings, abilities, players, seed."""
    players = draw(st.integers(2, 6))
    rules = Rules.preset(draw(st.sampled_from(RULESETS)))
    types = draw(st.lists(st.sampled_from(CHAINING), min_size=1, max_size=4, unique=True))
    types += draw(st.lists(st.sampled_from(OTHERS), max_size=2, unique=True))
    need = (rules.starting_hand + 2) * players
    fillers = [*draw(st.permutations(FILLERS)), *(t for t in EVERY_COLOR if t not in types)]
    for filler in fillers:  # the smallest deck the players allow
        if len(custom_cards(tuple(types))) >= need:
            break
        if filler not in types:
            types.append(filler)
    deck = DeckOptions(preset="custom", custom=tuple(types))
    ending = Ending(
        gambits=draw(st.sampled_from((0, 0, 3))),
        target_gold=draw(st.sampled_from((0, 0, 80))),
        players_remaining=draw(st.sampled_from((0, 0, 2))) if players > 2 else 0,
    )
    system = draw(st.sampled_from(("", "", "disks", "skills")))
    abilities = (
        AbilityOptions(system=system, per_character=2 if system == "disks" else 1)
        if system
        else AbilityOptions()
    )
    gold = draw(st.sampled_from((6, 20, 50)))
    config = GameConfig(
        players=players,
        gold_per_player=gold,
        rules=rules,
        deck=deck,
        ending=ending,
        abilities=abilities,
    )
    return config, draw(st.integers(0, 2**32 - 1))


def play_to_the_end(config: GameConfig, seed: int) -> int:
    """Random answers until the game is over; the number of answers given."""
    s = new_game(config, seed)
    pick = random.Random(seed).choice
    answers = 0
    while s.pending is not None:
        advance(s, pick(s.pending.options))
        answers += 1
    assert s.over
    return answers


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not SOAK,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(tables())
def test_every_table_the_engine_accepts_ends(table: tuple[GameConfig, int]) -> None:
    config, seed = table
    answers = play_to_the_end(config, seed)  # a RunawayGame fails with the table
    assert answers < MAX_QUESTIONS_PER_GAME


def test_the_copper_only_table_of_the_issue_ends() -> None:
    """``simulate --players 2 --games 300 --deck custom --card L-std-copper
    --card L-std-gold --card L-std-silver`` never returned."""
    deck = DeckOptions(preset="custom", custom=("L-std-copper", "L-std-gold", "L-std-silver"))
    for seed in range(300):
        play_to_the_end(GameConfig(players=2, deck=deck), seed)


def test_a_chain_that_never_asks_is_stopped_with_a_clear_error() -> None:
    """The bound itself: a step that schedules itself for ever raises, never hangs."""
    rules: Registry[GameState, None] = Registry("loop", max_steps=1000)

    @rules.step("again")
    def again(s: GameState, st_: object) -> None:
        s.queue.append(("again",))

    s = new_game(GameConfig(players=2), 1)
    s.pending = None
    s.queue.append(("again",))
    with pytest.raises(RunawayGame, match="1000 steps") as caught:
        rules.run(s)
    assert caught.value.bound == "steps"
    assert caught.value.limit == 1000


def test_the_card_game_has_the_bound() -> None:
    from dragonante.engine import core

    s = new_game(GameConfig(players=2), 1)
    s.pending = None
    s.queue.append(("runaway",))

    def runaway(state: GameState, st_: object) -> None:
        state.queue.append(("runaway",))

    core.RULES.steps["runaway"] = runaway
    try:
        with pytest.raises(RunawayGame, match=f"{MAX_STEPS_PER_ANSWER} steps"):
            core.RULES.run(s)
    finally:
        del core.RULES.steps["runaway"]


def _play_first_answers(s: GameState) -> None:
    while s.pending is not None:
        advance(s, s.pending.options[0])


def test_a_game_past_the_question_bound_is_stopped() -> None:
    s = new_game(GameConfig(players=2), 3)
    s.decision_count = MAX_QUESTIONS_PER_GAME + 1
    with pytest.raises(RunawayGame, match="questions") as caught:
        _play_first_answers(s)
    assert caught.value.bound == "questions"


def _chain(s: GameState, length: int) -> None:
    """Queue a chain of ``length`` card-game steps that asks nothing and then ends."""
    from dragonante.engine import core

    left = [length]

    def link(state: GameState, st_: object) -> None:
        left[0] -= 1
        if left[0]:
            state.queue.append(("chain_link",))

    core.RULES.steps["chain_link"] = link
    s.pending = None
    s.queue.clear()
    s.queue.append(("chain_link",))


def test_the_step_bound_is_exactly_the_documented_fifty_thousand() -> None:
    """docs/rules.md promises 50,000 steps after one answer: a chain of exactly that
    many finishes, one more is stopped (the bound, not just some bound)."""
    from dragonante.engine import core

    try:
        s = new_game(GameConfig(players=2), 1)
        _chain(s, 50_000)
        core.RULES.run(s)
        assert not s.queue
        _chain(s, 50_001)
        with pytest.raises(RunawayGame, match="50000 steps") as caught:
            core.RULES.run(s)
        assert caught.value.limit == 50_000
    finally:
        core.RULES.steps.pop("chain_link", None)


def test_the_question_bound_is_exactly_the_documented_million() -> None:
    """docs/rules.md: a game asks at most 1,000,000 questions, checked as each gambit
    begins: a gambit still begins after exactly a million, not after one more."""
    from dragonante.engine import core

    begin = core.RULES.steps["begin_gambit"]
    s = new_game(GameConfig(players=2), 1)
    s.decision_count = 1_000_000
    begin(s, ("begin_gambit", 0))
    assert s.queue[-1][0] == "ante_ask"
    s.decision_count = 1_000_001
    with pytest.raises(RunawayGame, match="1000001 questions") as caught:
        begin(s, ("begin_gambit", 0))
    assert caught.value.limit == 1_000_000
