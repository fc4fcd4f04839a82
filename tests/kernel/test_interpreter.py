"""The kernel's interpreter, as both games use it: the validated ``apply``, the
trusted ``advance``, the chance query, the registries and the step budget."""

from __future__ import annotations

import random
from typing import Any, Never

import pytest

from dragonante import dice
from dragonante.dice import DiceConfig
from dragonante.dice.decisions import PLAY as DICE_PLAY
from dragonante.dice.decisions import ROLL, TURN
from dragonante.dice.state import DiceState
from dragonante.engine import GameConfig, GameState, Rules, advance, answered, apply, new_game
from dragonante.engine import draws_on_chance as card_draws_on_chance
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.config import DeckOptions
from dragonante.kernel import IllegalAnswer, Registry, RunawayGame, Step

#: Tables that between them reach every random step of the card game: the deck
#: reshuffled, cards taken at random (Green, Black, the Emperor's Gambit
#: thieves), pick 'em, abilities dealt at random and the Luck Domain.
CARD_TABLES = {
    "legendary": GameConfig(players=4),
    "emperors_gambit": GameConfig(
        players=5, rules=Rules.preset("emperors_gambit"), deck=DeckOptions(preset="eg_full")
    ),
    "disks": GameConfig(players=3, abilities=AbilityOptions(system="disks", per_character=4)),
    "skills": GameConfig(players=4, abilities=AbilityOptions(system="skills", per_character=3)),
}


def _card_game(config: GameConfig, seed: int, answer: Any) -> GameState:
    """A whole game with random answers (from ``seed``) through ``answer``."""
    s = new_game(config, seed)
    pick = random.Random(seed).choice
    while s.pending is not None:
        answer(s, pick(s.pending.options))
    return s


@pytest.mark.parametrize("table", sorted(CARD_TABLES))
def test_advance_plays_the_game_apply_plays(table: str) -> None:
    """The trusted path skips the checks and nothing else: same answers, same game,
    event for event."""
    config = CARD_TABLES[table]
    for seed in range(3):
        checked = _card_game(config, seed, apply)
        trusted = _card_game(config, seed, advance)
        assert trusted.to_dict() == checked.to_dict()
        assert trusted.log == checked.log


def test_advance_plays_the_dice_game_apply_plays() -> None:
    for seed in range(5):
        games = []
        for answer in (dice.apply, dice.advance):
            s = dice.new_game(DiceConfig(players=3), seed)
            pick = random.Random(seed).choice
            while s.pending is not None:
                answer(s, pick(s.pending.options))
            games.append(s)
        assert games[0].to_dict() == games[1].to_dict()
        assert games[0].log == games[1].log


def test_a_refused_answer_changes_nothing() -> None:
    s = new_game(GameConfig(players=3), seed=4)
    d = s.pending
    assert d is not None
    before = s.to_dict()
    illegal = max(d.options) + 1000
    with pytest.raises(IllegalAnswer, match="not a legal answer"):
        apply(s, illegal)
    with pytest.raises(IllegalAnswer, match="stale answer"):
        apply(s, d.options[0], d.id + 1)
    with pytest.raises(IllegalAnswer, match="not a legal answer"):
        apply(s, True)  # a bool is not an answer, even where 1 is
    assert s.to_dict() == before
    assert s.pending is d


def test_the_dice_game_words_its_refusals() -> None:
    s = dice.new_game(DiceConfig(players=2), seed=1, dice=dice.PHYSICAL)
    d = s.pending
    assert d is not None and d.kind == ROLL
    before = s.to_dict()
    with pytest.raises(IllegalAnswer, match=r"a d12 shows 1 to 12; 13 is impossible"):
        dice.apply(s, 13)
    assert s.to_dict() == before


def test_a_finished_game_takes_no_answer() -> None:
    s = _card_game(GameConfig(players=2), 1, advance)
    with pytest.raises(IllegalAnswer, match="the game is over"):
        apply(s, 0)
    with pytest.raises(IllegalAnswer, match="the game is over"):
        advance(s, 0)


@pytest.mark.parametrize("table", sorted(CARD_TABLES))
def test_chance_query_tells_answers_that_draw_from_those_that_do_not(table: str) -> None:
    """An answer the query calls chance-free gives the same position whatever
    the stream holds; one it calls random moved the stream.  The position
    asked about never changes, and the copy the query returns is the game."""
    config = CARD_TABLES[table]
    random_answers = plain_answers = 0
    for seed in range(4):
        s = new_game(config, seed, log=False)
        pick = random.Random(seed).choice
        while s.pending is not None:
            a = pick(s.pending.options)
            before = s.to_dict()
            after, drew = answered(s, a)
            assert s.to_dict() == before
            assert card_draws_on_chance(s, a) is drew
            other = s.clone()
            other.rng ^= 0x5DEECE66D  # another stream, same position
            apply(other, a)
            if drew:
                random_answers += 1
                assert after.rng != s.rng
            else:
                plain_answers += 1
                assert after.rng == s.rng
                moved = other.to_dict()
                moved["rng"] = after.rng
                assert moved == after.to_dict()
            s = after
    assert random_answers and plain_answers > random_answers


def test_seeded_dice_draw_on_chance_and_physical_dice_never_do() -> None:
    seeded = dice.new_game(DiceConfig(players=2), seed=3)
    while seeded.pending is not None and seeded.pending.kind != TURN:
        dice.advance(seeded, seeded.pending.options[0])
    assert seeded.pending is not None
    assert dice.draws_on_chance(seeded, DICE_PLAY)  # the type die is rolled
    physical = dice.new_game(DiceConfig(players=2), seed=3, dice=dice.PHYSICAL)
    for _ in range(200):
        d = physical.pending
        if d is None:
            break
        assert not dice.draws_on_chance(physical, d.options[-1])
        dice.apply(physical, d.options[-1])


def test_a_name_is_registered_once() -> None:
    rules: Registry[DiceState, Never] = Registry("test game")

    @rules.step("deal")
    def deal(s: DiceState, st: Step) -> None: ...

    rules.step("deal")(deal)  # the same function again: harmless (a re-import)
    with pytest.raises(ValueError, match="test game step 'deal' is registered twice"):

        @rules.step("deal")
        def other_deal(s: DiceState, st: Step) -> None: ...


def test_each_game_runs_its_own_steps() -> None:
    """Both games name a step ``turn`` and one ``round_end``: one shared table
    would make one game run the other's."""
    from dragonante.dice.core import RULES as DICE_RULES
    from dragonante.engine.core import RULES as CARD_RULES

    shared = CARD_RULES.steps.keys() & DICE_RULES.steps.keys()
    assert {"turn", "round_end"} <= shared
    for name in shared:
        assert CARD_RULES.steps[name].__module__.startswith("dragonante.engine.")
        assert DICE_RULES.steps[name].__module__.startswith("dragonante.dice.")


def test_a_step_budget_stops_a_loop() -> None:
    """The Dice Gambit's safety net: steps that never reach a question are a bug
    reported as one, not a hang."""
    rules: Registry[DiceState, Never] = Registry("looping game", max_steps=50)

    @rules.step("again")
    def again(s: DiceState, st: Step) -> None:
        s.queue.append(("again",))

    s = DiceState(DiceConfig(players=2), 0, dice.SEEDED)
    s.queue.append(("again",))
    with pytest.raises(RunawayGame, match="the looping game ran 50 steps after one answer"):
        rules.run(s)


def _check_records(rules: Any, monkeypatch: pytest.MonkeyPatch, play: Any) -> set[str]:
    """Play games through ``play`` with every step checked against its declared
    fields as it runs; the names of the steps that ran."""
    ran: set[str] = set()
    for name, fn in list(rules.steps.items()):

        def checked(s: Any, st: Step, fn: Any = fn) -> None:
            record = rules.named(st)  # raises if the tuple does not fit
            ran.add(record["step"])
            fn(s, st)

        monkeypatch.setitem(rules.steps, name, checked)
    play()
    return ran


def test_every_card_game_step_fits_its_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """Steps are small named records: each declares its fields where it is
    registered, and every step the games queue has exactly those items."""
    from dragonante.engine.core import RULES

    tables = [
        *CARD_TABLES.values(),
        GameConfig(
            players=4,
            deck=DeckOptions(selection="pick_em"),
            abilities=AbilityOptions(system="skills", assign="draft", per_character=2),
        ),
    ]

    def play() -> None:
        for config in tables:
            for seed in range(16):
                s = new_game(config, seed, log=False)
                pick = random.Random(seed).choice
                while s.pending is not None:
                    for st in s.queue:
                        RULES.named(st)
                    advance(s, pick(s.pending.options))

    ran = _check_records(RULES, monkeypatch, play)
    # Rare in random games (an Adventurer split, the Shadow Dragon's card placed,
    # an ability window before an ante); their few constructions are plain to read.
    assert set(RULES.steps) - ran <= {"adventurer_stacks", "ante_choose", "shadow_place"}


def test_every_dice_step_fits_its_record(monkeypatch: pytest.MonkeyPatch) -> None:
    from dragonante.dice.core import RULES

    def play() -> None:
        for seed in range(30):
            s = dice.new_game(DiceConfig(players=2 + seed % 4), seed, log=False)
            pick = random.Random(seed).choice
            while s.pending is not None:
                for st in s.queue:
                    RULES.named(st)
                dice.advance(s, pick(s.pending.options))

    ran = _check_records(RULES, monkeypatch, play)
    assert ran == set(RULES.steps)


def test_a_step_reads_as_its_record() -> None:
    from dragonante.engine.core import RULES

    assert RULES.named(("give_or_pay", 2, 0, 14)) == {
        "step": "give_or_pay",
        "giver": 2,
        "receiver": 0,
        "text": 14,
    }
    assert RULES.named(("decide_winner", 1)) == {"step": "decide_winner", "final": 1, "led": ()}
    assert RULES.named(("end_turn", 0, 1, 14, 3)) == {
        "step": "end_turn",
        "seat": 0,
        "nth": 1,
        "completed": (14, 3),
    }
    with pytest.raises(ValueError, match="does not fit"):
        RULES.named(("give_or_pay", 2, 0))
    with pytest.raises(ValueError, match="does not fit"):
        RULES.named(("trigger", 0, 14, 14, 9))
    with pytest.raises(ValueError, match="is not a card game step"):
        RULES.named(("no_such_step",))
