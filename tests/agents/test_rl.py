"""Stable-Baselines3 and sb3-contrib use the Gymnasium environment with no wrapper.

These need the ``rl`` extra (torch); without it they skip, and with it they
must pass.  Each trains for a few hundred steps only: they check that the
libraries accept the environment, not how well it learns (docs/agents.md
has the measured run).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sb3_contrib", reason="the rl extra (sb3-contrib, torch) is not installed")

import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv

from dragonante.agents.gymnasium import ENV_ID
from examples.maskable_ppo import evaluate, main, random_policy

torch.set_num_threads(1)


def test_maskable_ppo_trains_on_make_vec_env_of_the_plain_id() -> None:
    vec = make_vec_env(ENV_ID, n_envs=2, seed=0)  # default opponents and arguments
    assert is_masking_supported(vec)
    masks = get_action_masks(vec)
    assert masks.shape == (2, 219) and masks.any(axis=1).all()
    model = MaskablePPO("MultiInputPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(128)
    assert model.num_timesteps >= 128


def test_subprocess_workers_resolve_the_plain_id() -> None:
    vec = make_vec_env(
        ENV_ID, n_envs=2, seed=0, vec_env_cls=SubprocVecEnv, env_kwargs={"opponents": "random"}
    )
    try:
        model = MaskablePPO("MultiInputPolicy", vec, n_steps=32, batch_size=32, n_epochs=1)
        model.learn(64)
        vec.env_method("set_opponents", "baseline")
        assert vec.get_attr("opponents") == [["baseline"] * 3] * 2
    finally:
        vec.close()


def test_the_example_trains_saves_and_evaluates(tmp_path, capsys) -> None:
    out = tmp_path / "ppo.zip"
    main(["train", "--players", "2", "--minutes", "5", "--steps", "512", "--envs", "2",
          "--games", "6", "--out", str(out)])  # fmt: skip
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    training, evaluation = lines[0]["training"], lines[1]["evaluation"]
    assert training["steps"] >= 512 and out.exists()
    assert evaluation["trained"]["games"] == evaluation["random_masked"]["games"] == 6
    main(["evaluate", str(out), "--players", "3", "--games", "3"])
    row = json.loads(capsys.readouterr().out)["evaluation"]
    assert row["parity"] == round(1 / 3, 4) and 0 <= row["trained"]["win_share"] <= 1


def test_the_random_yardstick_obeys_the_mask() -> None:
    """The evaluation raises on an illegal action, so a full game proves the mask is kept."""
    result = evaluate(random_policy(0), players=4, opponents="random", games=4, seed=0)
    assert result.games == 4 and 0 <= result.wins <= 4
