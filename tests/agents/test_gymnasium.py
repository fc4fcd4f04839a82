"""The single-seat Gymnasium environment passes Gymnasium's checker and plays whole games."""

from __future__ import annotations

import warnings
from typing import SupportsFloat

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from dragonante.agents.gymnasium import ENV_ID, ThreeDragonAnteEnv
from dragonante.engine.abilities import AbilityOptions


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 4},
        {"players": 3, "seat": 2, "opponents": ["random", "baseline"]},
        {"players": 3, "abilities": AbilityOptions(system="disks", assign="draft")},
    ],
)
def test_check_env(kwargs: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = ThreeDragonAnteEnv(illegal_action="random", **kwargs)  # type: ignore[arg-type]
        check_env(env, skip_render_check=True)


def test_registered_and_a_game_plays_to_the_end() -> None:
    env = gym.make(ENV_ID, players=4, opponents=["heuristic"], render_mode="ansi")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    done, steps = False, 0
    reward: SupportsFloat = 0.0
    while not done:
        mask = obs["action_mask"]
        assert (mask == info["action_mask"]).all() and mask.sum() >= 1
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        steps += 1
        assert steps < 2000
    s = env.unwrapped.state  # type: ignore[attr-defined]
    assert reward == (1 / len(s.winners) if 0 in s.winners else 0.0)
    assert obs["action_mask"].sum() == 0
    text = env.render()
    assert isinstance(text, str) and "player_1" in text


def test_same_seed_same_game() -> None:
    a, b = ThreeDragonAnteEnv(players=3), ThreeDragonAnteEnv(players=3)
    oa, _ = a.reset(seed=8)
    ob, _ = b.reset(seed=8)
    for _ in range(20):
        if a.state.over:
            break
        act = int(np.flatnonzero(oa["action_mask"])[0])
        assert (oa["observation"] == ob["observation"]).all()
        oa, *_ = a.step(act)
        ob, *_ = b.step(act)
    assert a.state.to_dict() == b.state.to_dict()


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = ThreeDragonAnteEnv(players=4)
    obs, _ = env.reset(seed=1)
    before = env.state.to_dict()
    for bad in (int(np.flatnonzero(obs["action_mask"] == 0)[0]), 999):
        with pytest.raises(ValueError, match="not legal"):
            env.step(bad)
    assert env.state.to_dict() == before


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        ThreeDragonAnteEnv(players=3, seat=3)
    with pytest.raises(ValueError):
        ThreeDragonAnteEnv(players=4, opponents=["random", "random"])
    with pytest.raises(KeyError):
        ThreeDragonAnteEnv(players=2, opponents=["nonesuch"])
