"""The state encoder (issue 24's fast observations) gives exactly the view's vector.

``StateEncoder`` reads the engine state instead of a seat's view, so these
tests hold it to the view: for every seat, in every state of whole games of
every kind of table, its vector must be the reference encoder's vector of
``observe(state, seat)``, and hidden cards must change nothing it returns.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from dragonante.agents.encoding import _NOT_ENCODED, encode
from dragonante.agents.state_encoding import COVERED_FIELDS, StateEncoder
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.config import DeckOptions, Rules
from dragonante.engine.views import Observation, observe
from tests.agents.reference_encoding import reference_encode
from tests.agents.test_encoding import EQUIVALENCE_CONFIGS, whole_games
from tests.bots.test_information import _hidden_twin


def _reference(s: object, seat: int) -> bytes:
    view = observe(s, seat, hints=False)  # type: ignore[arg-type]
    return reference_encode(view).tobytes()


@pytest.mark.parametrize(
    "config",
    EQUIVALENCE_CONFIGS,
    ids=lambda c: f"{c.players}-{c.rules.ruleset}-{c.abilities.system}",
)
def test_the_state_encoder_matches_the_reference_byte_for_byte(config: GameConfig) -> None:
    """Along whole games, random seats (several per state, in any order, none
    at some states, so that several steps pass between two syncs) get
    exactly the reference vector, as a fresh array each time."""
    encoder = StateEncoder()
    compared = 0
    for seed, s, rng in whole_games(config, 4000, 10):
        seats = [p for p in range(config.players) if rng.random() < 0.45]
        rng.shuffle(seats)
        for seat in seats:
            fast = encoder.encode(s, seat)
            assert fast.dtype == np.float32
            assert fast.tobytes() == _reference(s, seat), (seed, seat, s.pending)
            fast[:] = 1.0  # the caller's array: changing it changes nothing kept
            compared += 1
    assert compared > 100


def test_every_step_of_a_game_and_every_seat() -> None:
    """The environments' pattern (every step, the asked seat), and every other
    seat too, at tables of 2 to 6 and in the three rulesets."""
    tables = [
        GameConfig(players=2),
        GameConfig(players=3, rules=Rules.preset("original")),
        GameConfig(players=5, deck=DeckOptions(reveal_specials=True)),
        GameConfig(
            players=6, rules=Rules.preset("emperors_gambit"), deck=DeckOptions(preset="eg_full")
        ),
    ]
    asked, others = StateEncoder(), StateEncoder()
    for i, config in enumerate(tables * 3):
        s = new_game(config.validate(), 5000 + i)
        rng = random.Random(i)
        while not s.over:
            d = s.pending
            assert d is not None
            assert asked.encode(s, d.seat).tobytes() == _reference(s, d.seat)
            seat = rng.randrange(config.players)
            assert others.encode(s, seat).tobytes() == _reference(s, seat)
            apply(s, rng.choice(d.options))


def test_one_state_encoder_serves_any_table_in_any_order() -> None:
    """States of different games and table sizes, one after another, each
    advanced between visits: nothing needs resetting between them."""
    encoder = StateEncoder()
    rng = random.Random(11)
    states = [new_game(c.validate(), 6000 + i) for i, c in enumerate(EQUIVALENCE_CONFIGS)]
    for _ in range(300):
        s = rng.choice(states)
        for _ in range(rng.randrange(4)):
            if s.pending is not None:
                apply(s, rng.choice(s.pending.options))
        seat = rng.randrange(s.n)
        assert encoder.encode(s, seat).tobytes() == _reference(s, seat)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_hidden_cards_never_change_the_state_encoders_vector(players: int) -> None:
    """A twin state that differs only in cards ``seat`` cannot see (another
    hand, the deck order) gives that seat the very same vector, whether the
    encoder followed the game step by step or starts from the twin."""
    rng = random.Random(players)
    checked = 0
    following = StateEncoder()
    for seed in range(4):
        s = new_game(GameConfig(players=players), 70 * players + seed)
        play = random.Random(seed)
        while not s.over:
            d = s.pending
            assert d is not None
            seat = d.seat
            real = following.encode(s, seat)
            if play.random() < 0.15:
                twin = _hidden_twin(s, seat, rng)
                if twin is not None:
                    assert twin.to_dict() != s.to_dict()
                    assert StateEncoder().encode(twin, seat).tobytes() == real.tobytes()
                    assert real.tobytes() == encode(observe(twin, seat, hints=False)).tobytes()
                    checked += 1
            apply(s, play.choice(d.options))
    assert checked >= 10


def test_the_state_encoder_writes_every_encoded_field_of_the_view() -> None:
    """A new field of the view fails here until the state encoder writes it
    (and lists it in ``COVERED_FIELDS``)."""
    assert len(set(COVERED_FIELDS)) == len(COVERED_FIELDS)
    assert sorted([*COVERED_FIELDS, *_NOT_ENCODED]) == sorted(Observation._fields)
