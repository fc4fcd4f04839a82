"""The single-seat Gymnasium environment passes Gymnasium's checker and plays whole games."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from typing import SupportsFloat

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from dragonante.agents.gymnasium import (
    CURRICULUM,
    DEFAULT_OPPONENTS,
    ENV_ID,
    OLD_ENV_ID,
    ThreeDragonAnteEnv,
    draw_table,
    masked_sample,
)
from dragonante.bots import make_bot
from dragonante.engine import new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.views import observe
from tests.agents.reference_encoding import reference_encode
from tests.bots.test_information import _hidden_twin


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


def test_check_env_passes_on_the_registered_defaults() -> None:
    """What a researcher runs first: the checker on ``gymnasium.make(ID)``, no arguments."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym.make(ENV_ID))
        check_env(gym.make(ENV_ID).unwrapped)


def test_an_illegal_action_loses_by_default() -> None:
    """PettingZoo's classic convention: the episode ends, a penalty, and ``info`` says why."""
    env = ThreeDragonAnteEnv(players=4)
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (terminated, truncated, reward, info["illegal_action"]) == (True, False, -1.0, True)
    assert obs["action_mask"].sum() == 0 and not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env2 = ThreeDragonAnteEnv(players=4, illegal_reward=-0.5)
    env2.reset(seed=1)
    assert env2.step(999)[1] == -0.5
    obs, _ = env.reset(seed=2)  # a reset starts a fresh episode
    assert obs["action_mask"].sum() >= 1


def test_an_illegal_action_can_be_replaced_by_a_random_legal_one() -> None:
    env = ThreeDragonAnteEnv(players=3, illegal_action="random")
    _obs, _ = env.reset(seed=4)
    decisions = env.state.decision_count
    _, reward, terminated, _, info = env.step(999)
    assert info["illegal_action"] and reward >= 0 and env.state.decision_count > decisions
    assert terminated == env.state.over


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = ThreeDragonAnteEnv(players=4, illegal_action="raise")
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
    with pytest.raises(ValueError, match="illegal_action"):
        ThreeDragonAnteEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        ThreeDragonAnteEnv(render_mode="human")


def test_action_masks_is_the_boolean_mask_maskable_ppo_reads() -> None:
    env = gym.make(ENV_ID, players=3, opponents="random")
    obs, _ = env.reset(seed=5)
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.dtype == np.bool_ and (masks == obs["action_mask"].astype(bool)).all()


def test_opponents_change_between_episodes() -> None:
    """A curriculum: opponents by name, from the weakest, changed between episodes."""
    assert CURRICULUM[0] == "random"
    env = ThreeDragonAnteEnv(players=3, opponents=["random"])
    env.reset(seed=1)
    env.set_opponents("baseline")
    assert env.opponents == ["baseline", "baseline"]
    env.reset(seed=1, options={"opponents": ["heuristic", "random"]})
    assert env.opponents == ["heuristic", "random"]
    assert [type(b).__name__ for b in env._bots.values()] == [
        type(make_bot("heuristic")).__name__,
        type(make_bot("random")).__name__,
    ]
    with pytest.raises(KeyError):
        env.set_opponents("nonesuch")
    assert env.opponents == ["heuristic", "random"]


def test_rgb_array_draws_the_seats_view() -> None:
    """``make_vec_env`` asks for ``rgb_array``: an image, with nothing the seat may not see."""
    env = gym.make(ENV_ID, players=4, opponents="random", render_mode="rgb_array")
    assert env.metadata["render_fps"] > 0
    obs, _ = env.reset(seed=2)
    # the sampled actions seeded too: unseeded, about one run in 300 ended the
    # game (a seat out of gold) before ten steps, and stepping on raised
    env.action_space.seed(0)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.shape[2] == 3
    for _ in range(10):
        obs, _r, terminated, _t, _i = env.step(env.action_space.sample(obs["action_mask"]))
        if terminated:
            break
    later = env.render()
    assert isinstance(later, np.ndarray) and not np.array_equal(first, later)
    rng = random.Random(0)
    s = new_game(seed=3)
    checked = 0
    while not s.over and checked < 20:
        for seat in range(s.n):
            twin = _hidden_twin(s, seat, rng)
            if twin is not None:
                a, b = draw_table(observe(s, seat)), draw_table(observe(twin, seat))
                assert np.array_equal(a, b)
                checked += 1
        d = s.pending
        assert d is not None
        from dragonante.engine import apply

        apply(s, rng.choice(d.options))
    assert checked >= 10


def test_the_id_resolves_in_a_fresh_process_without_an_import() -> None:
    """What ``SubprocVecEnv`` workers do: ``gymnasium.make(ID)`` with only Gymnasium imported."""
    code = (
        "import sys, gymnasium\n"
        f"env = gymnasium.make({ENV_ID!r}, players=2, opponents='random')\n"
        "env.reset(seed=0)\n"
        "print(type(env.unwrapped).__module__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "dragonante.agents.gymnasium"


def test_the_retired_v0_id_says_what_changed() -> None:
    """``-v0`` still resolves (here and in a fresh process) and refuses clearly."""
    assert ENV_ID == "dragonante/ThreeDragonAnte-v1"
    with pytest.raises(
        gym.error.DeprecatedEnv, match=r"-v0 is retired.*Use dragonante/ThreeDragonAnte-v1"
    ):
        gym.make(OLD_ENV_ID, players=2)
    code = (
        "import gymnasium\n"
        "try:\n"
        f"    gymnasium.make({OLD_ENV_ID!r})\n"
        "except gymnasium.error.DeprecatedEnv as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "observation layout changed" in out.stdout and "opponents=['heuristic']" in out.stdout


def test_the_default_opponents_are_fast() -> None:
    """``baseline`` by default: the environment, not the bots, sets the pace."""
    assert DEFAULT_OPPONENTS == ("baseline",)
    env = gym.make(ENV_ID, players=4)
    assert env.unwrapped.opponents == ["baseline"] * 3  # type: ignore[attr-defined]


def test_vector_autoreset_with_the_masked_sampler() -> None:
    """Gymnasium 1.x next-step autoreset: the step after a game's end carries an
    all-zero mask; ``masked_sample`` gives any action for it (ignored by the reset)."""
    envs = gym.make_vec(
        ENV_ID, num_envs=2, vectorization_mode="sync", players=2, opponents="random"
    )
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(400):
        masks = obs["action_mask"]
        obs, _reward, terminated, _truncated, info = envs.step(masked_sample(masks, rng))
        ends += int(terminated.sum())
        assert "illegal_action" not in info
    assert ends >= 2
    assert masked_sample(np.zeros((1, 219), np.int8), rng).tolist() == [0]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 5, "seat": 3, "opponents": ["random"]},
        {"players": 3, "abilities": AbilityOptions(system="disks", assign="draft")},
    ],
)
def test_observations_equal_the_plain_reference_along_whole_episodes(
    kwargs: dict[str, object],
) -> None:
    """The environment re-encodes only what changed since its last step
    (``IncrementalEncoder``); every vector it returns must still be the plain
    reference encoding of the seat's view, across episodes (a reset starts a
    new game under the same encoder)."""
    env = ThreeDragonAnteEnv(**kwargs)  # type: ignore[arg-type]
    rng = random.Random(7)
    steps = 0
    for episode in range(3):
        obs, _info = env.reset(seed=episode)
        while True:
            want = reference_encode(observe(env.state, env.seat, hints=False))
            assert obs["observation"].tobytes() == want.tobytes()
            legal = np.flatnonzero(obs["action_mask"])
            if not len(legal):
                break
            obs, _r, terminated, _t, _info = env.step(int(rng.choice(legal.tolist())))
            steps += 1
            if terminated:
                want = reference_encode(observe(env.state, env.seat, hints=False))
                assert obs["observation"].tobytes() == want.tobytes()
                break
    assert steps > 30
