"""The OpenSpiel game: OpenSpiel's own checks, the action mask, the information
barrier, the chance nodes and determinism given the chance outcomes."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest

from dragonante.agents.encoding import action_mask, encode
from dragonante.agents.openspiel import SHORT_NAME, ThreeDragonAnteState
from dragonante.agents.pettingzoo import make_config
from dragonante.engine import new_game
from dragonante.engine.views import observe
from tests.bots.test_information import _hidden_twin


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game(SHORT_NAME, params)


def step(s: ThreeDragonAnteState, rng: random.Random) -> None:
    """One random move: a chance outcome by its probability, or a legal action."""
    if s.is_chance_node():
        outcomes, probs = zip(*s.chance_outcomes(), strict=True)
        s.apply_action(rng.choices(outcomes, probs)[0])
    else:
        s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"players": 4},
        {"players": 6},
        {"players": 3, "ruleset": "emperors_gambit", "deck": "eg_full"},
    ],
    ids=lambda p: "-".join(str(v) for v in p.values()),
)
def test_openspiel_random_simulation(params: dict[str, object]) -> None:
    game = load(**params)
    assert game.num_players() == params["players"]
    assert game.information_state_tensor_shape() == [5560]
    assert game.observation_tensor_shape() == [5560]
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="players must be 2-6"):
        load(players=7)
    with pytest.raises(Exception, match="unknown ruleset"):
        load(ruleset="chess")


def test_legal_actions_are_the_mask_and_chance_probabilities_sum_to_one() -> None:
    game = load(players=4, abilities="disks")
    rng = random.Random(1)
    for _ in range(2):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                assert s.current_player() == pyspiel.PlayerId.CHANCE
                assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1.0)
                assert len(s.chance_outcomes()) == game.max_chance_outcomes()
            else:
                d = s.engine.pending
                assert d is not None and s.current_player() == d.seat
                mask = action_mask(d)
                assert s.legal_actions() == np.flatnonzero(mask).tolist()
                assert s.legal_actions_mask(d.seat) == mask.tolist()
                others = [p for p in range(4) if p != d.seat]
                assert all(s.legal_actions(p) == [] for p in others)
            step(s, rng)
        assert s.current_player() == pyspiel.PlayerId.TERMINAL
        assert sum(s.returns()) == pytest.approx(1.0)
        winners = [r for r in s.returns() if r > 0]
        assert winners == [pytest.approx(1 / len(winners))] * len(winners)


def test_the_deal_is_the_engines_game_for_the_seed_the_chance_nodes_spell() -> None:
    game = load(players=3, chance_outcomes=16, chance_nodes=3)
    s = game.new_initial_state()
    for digit in (2, 0, 11):
        assert s.is_chance_node() and s.engine is None
        s.apply_action(digit)
    expected = new_game(make_config(3), 2 * 16 * 16 + 0 * 16 + 11, log=False)
    assert s.engine.to_dict() == expected.to_dict()


def test_a_step_that_shuffles_waits_for_its_seed_and_each_seed_is_another_shuffle() -> None:
    game = load(players=2, chance_outcomes=4, chance_nodes=2)
    rng = random.Random(5)
    s = game.new_initial_state()
    while s.engine is None or s.waiting is None:  # until a random step waits
        step(s, rng)
    assert s.is_chance_node()
    before = s.engine.to_dict()
    results = []
    for first in range(4):
        for second in range(4):
            t = s.clone()
            t.apply_action(first)
            assert t.is_chance_node() and t.engine.to_dict() == before  # not applied yet
            t.apply_action(second)
            assert t.waiting is None
            results.append(repr(t.engine.to_dict()))
    assert len(set(results)) == 16


def test_the_game_is_deterministic_given_the_chance_outcomes() -> None:
    game = load(players=4, ruleset="emperors_gambit", deck="eg_full")
    s = game.new_initial_state()
    rng = random.Random(9)
    while not s.is_terminal():
        step(s, rng)
    replay = game.new_initial_state()
    for action in s.history():
        replay.apply_action(action)
    assert replay.is_terminal()
    assert replay.engine.to_dict() == s.engine.to_dict()
    assert replay.returns() == s.returns()
    assert sum(1 for a in s.full_history() if a.player == pyspiel.PlayerId.CHANCE) > 4


def test_clones_are_independent() -> None:
    game = load(players=4)
    s = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(30):
        step(s, rng)
    c = s.clone()
    snapshot = s.engine.to_dict()
    while not c.is_terminal():
        step(c, rng)
    assert s.engine.to_dict() == snapshot
    assert c.history()[: len(s.history())] == s.history()


def _same_for(s: ThreeDragonAnteState, seat: int, rng: random.Random) -> int:
    """Compare ``seat``'s information in ``s`` and in a twin differing in hidden cards."""
    assert s.engine is not None
    twin_engine = _hidden_twin(s.engine, seat, rng)
    if twin_engine is None:
        return 0
    twin = s.clone()
    twin.engine = twin_engine
    assert twin_engine.to_dict() != s.engine.to_dict()
    assert s.information_state_tensor(seat) == twin.information_state_tensor(seat)
    assert s.observation_tensor(seat) == twin.observation_tensor(seat)
    assert s.information_state_string(seat) == twin.information_state_string(seat)
    assert s.observation_string(seat) == twin.observation_string(seat)
    return 1


@pytest.mark.parametrize("players", [2, 5])
def test_hidden_cards_never_change_a_seats_information_state(players: int) -> None:
    game = load(players=players)
    rng = random.Random(players)
    checked = 0
    for _ in range(4):
        s = game.new_initial_state()
        while not s.is_terminal():
            if not s.is_chance_node() and rng.random() < 0.2:
                for seat in range(players):
                    checked += _same_for(s, seat, rng)
            step(s, rng)
    assert checked >= 10


def test_tensors_and_strings_are_the_seats_view() -> None:
    game = load(players=4)
    s = game.new_initial_state()
    rng = random.Random(2)
    assert s.information_state_tensor(0) == [0.0] * 5560  # before the deal
    while s.engine is None:
        step(s, rng)
    for seat in range(4):
        view = observe(s.engine, seat)
        assert np.array_equal(np.array(s.information_state_tensor(seat), np.float32), encode(view))
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
        assert s.observation_string(seat) == s.information_state_string(seat) == text


def test_the_time_limit_ends_a_long_game_after_one_more_gambit() -> None:
    game = load(players=3, time_limit=5)
    s = game.new_initial_state()
    rng = random.Random(4)
    while not s.is_terminal():
        step(s, rng)
        if s.engine is not None and s.engine.decision_count >= 5:
            assert s.engine.last_gambit > 0 or s.is_terminal()
    assert s.engine is not None
    assert s.engine.gambit <= 2
    assert sum(s.returns()) == pytest.approx(1.0)
