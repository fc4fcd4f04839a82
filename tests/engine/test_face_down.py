"""The face-down ante round (``engine/face_down.py``) is exactly what the engine asks.

An interface puts a round's questions to every seat at once and answers the
engine afterwards in the round's order.  That is only sound if each
question of the round is the one the engine asks once the questions before
it are answered, whatever those answers: these tests play whole games with
random answers, under both rulesets, with and without D&D abilities (whose
windows split a round), and compare every round with the questions that
really came.
"""

from __future__ import annotations

import random

import pytest

from dragonante.engine import DeckOptions, GameConfig, Rules, apply, new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.decisions import ANTE
from dragonante.engine.face_down import ante_round, asked_alone
from dragonante.engine.records import digest
from dragonante.engine.views import observe

CONFIGS = {
    "legendary": GameConfig(players=4),
    "eg_5": GameConfig(
        players=5, rules=Rules.preset("emperors_gambit"), deck=DeckOptions(preset="eg_full")
    ),
    "disks_3": GameConfig(
        players=3, abilities=AbilityOptions(system="disks", assign="random", per_character=4)
    ),
    "skills_6": GameConfig(
        players=6, abilities=AbilityOptions(system="skills", assign="draft", per_character=2)
    ),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_round_is_the_questions_the_engine_asks(name: str) -> None:
    rounds = longest = 0
    for seed in range(40):
        state = new_game(CONFIGS[name], seed)
        pick = random.Random(seed)
        expected: list[tuple[int, int, str, tuple[int, ...]]] = []
        while not state.over:
            d = state.pending
            assert d is not None
            if expected:
                assert (d.id, d.seat, d.kind, d.options) == expected.pop(0), f"seed {seed}"
            elif d.kind == ANTE:
                found = ante_round(state)
                assert found and found[0] is d
                assert len({q.seat for q in found}) == len(found)  # one question a seat
                rounds += 1
                longest = max(longest, len(found))
                expected = [(q.id, q.seat, q.kind, q.options) for q in found[1:]]
            else:
                assert ante_round(state) == ()
            apply(state, pick.choice(d.options), d.id)
        assert not expected
    assert rounds > 100
    assert longest == CONFIGS[name].players  # every seat at once, at least sometimes


def test_a_round_of_four_asks_every_seat_and_changes_nothing() -> None:
    state = new_game(GameConfig(players=4), 3)
    before = digest(state)
    found = ante_round(state)
    assert [q.seat for q in found] == [0, 1, 2, 3]
    assert all(q.kind == ANTE and q.options == tuple(state.hands[q.seat]) for q in found)
    assert digest(state) == before  # looked ahead on a copy


def test_answering_in_round_order_is_the_sequential_game() -> None:
    """The record of a round answered at once is the record of the same
    answers given one after another (the digest is the same)."""
    a, b = new_game(GameConfig(players=3), 11), new_game(GameConfig(players=3), 11)
    found = ante_round(a)
    choices = {q.seat: q.options[-1] for q in found}
    for q in found:
        apply(a, choices[q.seat], q.id)
    while b.pending is not None and b.pending.kind == ANTE:
        apply(b, choices[b.pending.seat], b.pending.id)
    assert digest(a) == digest(b)


def test_a_bot_decides_from_its_own_question_and_sees_no_stand_in() -> None:
    state = new_game(GameConfig(players=4), 5)
    found = ante_round(state)
    last = found[-1]
    probe = asked_alone(state, found, last.seat)
    assert probe.pending is not None and probe.pending.id == last.id
    assert probe.pending.options == last.options
    seen = observe(probe, last.seat)
    assert seen.my_ante == -1  # its own card is not chosen yet
    # The others' stand-ins are face down: only that a card lies there.
    assert seen.ante_placed == [True, True, True, False]
    assert state.log is not None and probe.log is not None
    assert probe.log[: len(state.log)] == state.log  # the history, copied
    assert state.pending is found[0]  # the table's own state is untouched
    with pytest.raises(ValueError):
        asked_alone(state, found[:2], last.seat)
