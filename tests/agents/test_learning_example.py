"""The learning example (examples/reinforce.py): its gradient, its mask and a run end to end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dragonante.agents.encoding import N_ACTIONS, OBS_SIZE
from dragonante.agents.pettingzoo import env
from examples.reinforce import (
    Policy,
    Step,
    action_probabilities,
    evaluate,
    main,
    play,
    probabilities,
    reinforce_update,
    train,
)


def _step(choice: int) -> Step:
    """The same small decision each time: three non-zero values, four legal actions."""
    return Step(
        rows=np.array([3, 40, 5000]),
        values=np.array([1.0, 0.5, 0.25]),
        legal=np.array([2, 17, 170, 216]),
        choice=choice,
    )


def test_a_gradient_step_makes_rewarded_actions_likelier() -> None:
    rng = np.random.default_rng(0)
    policy = Policy(rng.normal(0, 0.1, (OBS_SIZE, N_ACTIONS)), rng.normal(0, 0.1, N_ACTIONS))
    before = np.log(probabilities(policy, _step(0)))
    # Two games won choosing legal[1], two lost choosing legal[3].
    batch = [([_step(1)], 1.0), ([_step(3)], 0.0), ([_step(1)], 1.0), ([_step(3)], 0.0)]
    reinforce_update(policy, batch, lr=0.5)
    after = np.log(probabilities(policy, _step(0)))
    assert after[1] > before[1] + 0.05
    assert after[3] < before[3] - 0.05


def test_a_batch_of_equal_returns_changes_nothing() -> None:
    policy = Policy()
    reinforce_update(policy, [([_step(1)], 1.0), ([_step(2)], 1.0)], lr=1.0)
    assert not policy.w.any() and not policy.b.any()


def test_masked_actions_have_probability_zero() -> None:
    rng = np.random.default_rng(1)
    policy = Policy(rng.normal(0, 1.0, (OBS_SIZE, N_ACTIONS)), rng.normal(0, 1.0, N_ACTIONS))
    policy.b[:] = -50.0
    policy.b[0] = 50.0  # the likeliest action everywhere, but not legal below
    e = env(players=3)
    e.reset(seed=4)
    obs = e.observe(e.agent_selection)
    mask = obs["action_mask"]
    assert mask[0] == 0 and mask.sum() >= 2
    p = action_probabilities(policy, obs["observation"], mask)
    assert p.shape == (N_ACTIONS,)
    assert (p[mask == 0] == 0.0).all()
    assert (p[mask == 1] > 0.0).all()
    assert p.sum() == pytest.approx(1.0)


def test_a_game_gives_the_policy_its_decisions_and_every_seat_its_reward() -> None:
    rng = np.random.default_rng(2)
    decisions, rewards = play(Policy(), 3, ["self", "baseline"], seed=5, rng=rng, learner=1)
    assert set(decisions) == {1, 2}  # the learner and the "self" seat after it
    assert all(steps for steps in decisions.values())
    assert all(0 <= st.choice < len(st.legal) for steps in decisions.values() for st in steps)
    assert sum(rewards) == pytest.approx(1.0)


def test_training_then_evaluation_end_to_end(tmp_path: Path, capsys) -> None:
    out = tmp_path / "policy.npz"
    assert (
        main(["train", "--episodes", "40", "--batch", "8", "--games", "6", "--out", str(out)]) == 0
    )
    trained = capsys.readouterr().out
    assert "trained 40 episodes" in trained and "vs baseline" in trained and "95% CI" in trained
    policy = Policy.load(out)
    assert policy.w.any()  # 40 games taught it something, and it was written
    assert main(["evaluate", str(out), "--games", "4", "--players", "2"]) == 0
    report = capsys.readouterr().out
    assert "vs random" in report and "parity (1/2): 50.0%" in report
    # Reloaded weights play exactly as the trained ones.
    again = train(40, 2, ["random", "baseline"], seed=0, batch=8)
    assert np.array_equal(again.w, policy.w) and np.array_equal(again.b, policy.b)
    a = evaluate(policy, "random", 4, 2, seed=3)
    b = evaluate(again, "random", 4, 2, seed=3)
    assert (a.games, a.wins) == (b.games, b.wins) == (4, b.wins)


def test_weights_of_another_shape_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.npz"
    np.savez(path, w=np.zeros((3, 4)), b=np.zeros(4))
    with pytest.raises(ValueError, match="do not fit"):
        Policy.load(path)
