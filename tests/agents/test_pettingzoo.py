"""The PettingZoo AEC environment passes PettingZoo's own checks and plays whole games."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from dragonante.agents.encoding import N_ACTIONS, encode
from dragonante.agents.pettingzoo import env, raw_env
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.views import observe
from tests.bots.test_information import _hidden_twin


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # Dict observations make PettingZoo warn, as for its own classic games.
    warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
    warnings.filterwarnings("ignore", message="Observation space for each agent")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 4},
        {"players": 2, "ruleset": "emperors_gambit", "deck": "eg_full"},
        {"players": 3, "abilities": AbilityOptions(system="disks", assign="draft")},
        {"players": 5, "abilities": AbilityOptions(system="skills"), "gold_reward": True},
    ],
)
def test_api_test(kwargs: dict[str, object]) -> None:
    api_test(env(seed=1, **kwargs), num_cycles=200)


def test_seed_test() -> None:
    seed_test(lambda: env(players=4), num_cycles=300)


def _random_game(e: raw_env, seed: int) -> dict[str, float]:
    e.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
        assert steps < 5000
    return total


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_random_game_ends_and_rewards_sum_to_one(players: int) -> None:
    e = raw_env(players=players)
    rewards = _random_game(e, players)
    assert sum(rewards.values()) == pytest.approx(1.0)
    assert e.state.over and not e.agents
    winners = {f"player_{p}" for p in e.state.winners}
    assert {a for a, r in rewards.items() if r > 0} == winners


def test_gold_reward_adds_the_normalised_gold_difference() -> None:
    e = raw_env(players=3, gold_reward=True)
    rewards = _random_game(e, 5)
    s = e.state
    for p, agent in enumerate(e.possible_agents):
        share = 1 / len(s.winners) if p in s.winners else 0.0
        gold = (s.hoards[p] - s.config.starting_gold) / s.gold_total
        assert rewards[agent] == pytest.approx(share + gold)


def test_same_seed_same_game_and_seedless_resets_follow_the_seed() -> None:
    a, b = raw_env(players=4, seed=9), raw_env(players=4, seed=9)
    for _ in range(2):
        a.reset()
        b.reset()
        assert a.state.to_dict() == b.state.to_dict()
    a.reset(seed=3)
    first = a.state.to_dict()
    a.reset(seed=3)
    assert a.state.to_dict() == first


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env(players=4)
    e.reset(seed=2)
    before = e.state.to_dict()
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    bads: tuple[Any, ...] = (illegal, -1, 10_000, -N_ACTIONS, "x", 2.0**70, np.int64(illegal))
    for bad in bads:
        with pytest.raises(ValueError, match="not legal"):
            e.step(bad)
    with pytest.raises(ValueError):
        e.step(None)
    assert e.state.to_dict() == before
    assert e.agent_selection == agent


def test_render_ansi_narrates_public_events_and_the_table() -> None:
    e = raw_env(players=3, render_mode="ansi")
    e.reset(seed=4)
    for _ in range(10):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    text = e.render()
    assert text is not None and "player_0" in text and "Stakes" in text
    assert e.render() is not None  # nothing new: the table only
    assert raw_env(players=2).render() is None


def test_pettingzoo_render_test_and_human_prints_the_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """PettingZoo's own ``render_test`` (every mode in the metadata, ``human`` too),
    and ``human`` prints what ``ansi`` returns, after every step as the classic
    environments do."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode: env(players=3, seed=2, render_mode=render_mode))
    capsys.readouterr()
    human, ansi = raw_env(players=3, render_mode="human"), raw_env(players=3, render_mode="ansi")
    human.reset(seed=5)
    ansi.reset(seed=5)
    assert human.render() is None
    assert capsys.readouterr().out == f"{ansi.render()}\n"
    action = int(np.flatnonzero(human.action_mask(human.agent_selection))[0])
    human.step(action)
    ansi.step(action)
    assert capsys.readouterr().out == f"{ansi.render()}\n"
    assert raw_env.metadata["name"] == "dragonante_v1"
    with pytest.raises(ValueError, match="None, 'ansi' or 'human'"):
        raw_env(render_mode="rgb_array")


def test_infos_carry_the_mask_and_observations_encode_the_seat_view() -> None:
    """``infos[agent]["action_mask"]`` is the observation's mask for every agent at
    every step (zeros when not asked), and the observation is exactly
    ``encode(observe(state, seat))``, computed once per step."""
    e = raw_env(players=4, abilities=AbilityOptions(system="disks"))
    e.reset(seed=11)
    rng = random.Random(11)
    steps = 0
    while e.agents and not e.terminations[e.agent_selection]:
        for p, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)
            assert obs is e.observe(agent)  # cached until the next step
            info_mask = e.infos[agent]["action_mask"]
            assert info_mask.dtype == np.int8 and info_mask.shape == (N_ACTIONS,)
            assert (info_mask == obs["action_mask"]).all()
            assert (e.action_mask(agent) == info_mask).all()
            assert info_mask.any() == (agent == e.agent_selection)
            expected = encode(observe(e.state, p))
            assert obs["observation"].tobytes() == expected.tobytes()
        _, _, _, _, info = e.last(observe=False)
        e.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
        steps += 1
    assert steps > 20
    assert all(not e.infos[a]["action_mask"].any() for a in e.agents)


def test_a_game_played_from_infos_alone_matches_one_played_from_observations() -> None:
    def play(use_infos: bool) -> tuple[dict[str, float], dict[str, object]]:
        e = env(players=3, seed=5)
        e.reset(seed=5)
        rng = random.Random(5)
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last(observe=not use_infos)
            total[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            mask = info["action_mask"] if use_infos else obs["action_mask"]
            e.step(rng.choice(np.flatnonzero(mask).tolist()))
        return total, e.unwrapped.state.to_dict()

    assert play(use_infos=True) == play(use_infos=False)


def test_the_wrapped_env_keeps_pettingzoos_order_checks() -> None:
    """``env()``'s wrapper reads past PettingZoo's for speed but keeps its checks."""
    e = env(players=2)
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    with pytest.raises(Exception, match="reset"):
        e.step(0)
    with pytest.raises(Exception, match="reset"):
        e.agent_iter()
    e.reset(seed=1)
    assert e.last()[0] is not None
    turns = iter(e.agent_iter())
    assert next(turns) == e.agent_selection
    with pytest.raises(AssertionError, match="step"):
        next(turns)  # no step() since the last turn
    assert len(list(e.agent_iter(max_iter=0))) == 0


def test_masks_of_agents_not_asked_are_read_only_and_the_asked_mask_is_the_callers() -> None:
    """The zero mask of an agent not being asked is one shared array, so it is
    read-only: writing into it raises instead of changing every agent's mask.
    The asked agent's mask is a fresh, writable array each decision."""
    e = raw_env(players=3)
    e.reset(seed=5)
    asked = e.agent_selection
    other = next(a for a in e.possible_agents if a != asked)
    with pytest.raises(ValueError, match="read-only"):
        e.infos[other]["action_mask"][0] = 1
    assert not e.action_mask(other).any()
    mask = e.action_mask(asked)
    legal = np.flatnonzero(mask).tolist()
    mask[:] = 0  # the caller's own copy: the next decision gets a fresh one
    e.step(legal[0])
    assert e.action_mask(e.agent_selection).any()


def test_the_event_log_is_kept_only_when_rendering() -> None:
    """Observations never read the log, so it is kept only for ``render``."""
    plain = raw_env(players=4)
    plain.reset(seed=2)
    assert plain.state.log is None
    shown = raw_env(players=4, render_mode="ansi")
    shown.reset(seed=2)
    assert shown.state.log is not None
    assert (
        plain.observe("player_0")["observation"] == shown.observe("player_0")["observation"]
    ).all()


def test_the_mask_it_checks_actions_with_is_its_own_copy() -> None:
    """The step checks an action against the mask built for the question,
    not against the array it handed out: a caller writing 1 into its mask
    cannot make an illegal action pass to the engine's unchecked ``advance``."""
    e = raw_env(players=4)
    e.reset(seed=3)
    agent = e.agent_selection
    mask = e.infos[agent]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    mask[illegal] = 1
    before = e.state.to_dict()
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    assert e.state.to_dict() == before


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_environments_observations_ignore_what_the_seat_cannot_see(players: int) -> None:
    """Through the environment's own path (``observe``: the incremental encoder
    after the previous steps' views), a state and its twin that differs only
    in cards the asked seat cannot see (another hand, the deck order) give the
    same vector, and both equal the plain encoder's."""
    rng = random.Random(players)
    e = raw_env(players=players)
    checked = 0
    for game in range(3):
        e.reset(seed=60 + game)
        play = random.Random(game)
        while not all(e.terminations.values()):
            agent = e.agent_selection
            seat = e.possible_agents.index(agent)
            real = e.state
            vector = e.observe(agent)["observation"]
            assert vector.tobytes() == encode(observe(real, seat)).tobytes()
            if play.random() < 0.3:
                twin = _hidden_twin(real, seat, rng)
                if twin is not None:
                    assert twin.to_dict() != real.to_dict()
                    e.state, e._cache = twin, {}
                    assert e.observe(agent)["observation"].tobytes() == vector.tobytes()
                    e.state, e._cache = real, {}
                    assert e.observe(agent)["observation"].tobytes() == vector.tobytes()
                    checked += 1
            mask = e.infos[agent]["action_mask"]
            e.step(play.choice(np.flatnonzero(mask).tolist()))
    assert checked >= 10
