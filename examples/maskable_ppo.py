"""Train sb3-contrib's MaskablePPO on the Gymnasium environment, with no wrapper.

    python examples/maskable_ppo.py train --players 2 --minutes 30 --out ppo2.zip
    python examples/maskable_ppo.py evaluate ppo2.zip --players 2 --games 500

Needs the ``rl`` extra (sb3-contrib, Stable-Baselines3, torch; see
docs/agents.md).  The environment is built by id, as any Stable-Baselines3
user would: ``make_vec_env("dragonante/ThreeDragonAnte-v1", ...)`` (the id
resolves without an import), and ``MaskablePPO("MultiInputPolicy", ...)``
reads the legal actions from the environment's ``action_masks()``.

The training budget is wall-clock minutes (``--minutes``) or environment
steps (``--steps``), whichever ends first.  The opponents follow a
curriculum (``--curriculum``, default ``random,baseline``): the budget is
split evenly between its levels, and all environments move up together
through ``env_method("set_opponents", ...)`` between episodes.  Against
``random`` a new policy wins often enough to learn what scores; against
``baseline`` (the evaluation's opponent) it then learns to beat that.

``evaluate`` plays ``--games`` games against ``--opponents`` (``baseline``)
with the trained policy (its likeliest legal action) and, on the same deals,
with a random masked policy (a uniformly random legal action), moving the
learning seat round the table from game to game, and prints each win share
with its 95% Wilson interval.  ``train`` evaluates at the end too, unless
``--games 0``.  torch is held to one thread (``torch.set_num_threads(1)``):
on a small shared machine more threads only contend.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env
except ImportError as e:  # pragma: no cover - the message is the point
    raise SystemExit(
        f"this example needs the 'rl' extra (sb3-contrib, stable-baselines3, torch): {e.name} "
        "is missing; see 'Deep reinforcement learning' in docs/agents.md"
    ) from None

from dragonante.agents.gymnasium import ENV_ID, ThreeDragonAnteEnv
from dragonante.sim.tournament import wilson_interval

Policy = Callable[[dict[str, Any], npt.NDArray[np.bool_]], int]


class Budget(BaseCallback):  # type: ignore[misc]  # sb3 ships no types for this base
    """Stop after ``seconds``, moving the opponents up the curriculum on the way.

    Level ``i`` of ``levels`` starts once ``i / len(levels)`` of the time or of
    the steps (whichever is further along) has passed.
    """

    def __init__(self, seconds: float, steps: int, levels: Sequence[str]) -> None:
        super().__init__()
        self.seconds = seconds
        self.steps = steps
        self.levels = list(levels)
        self.level = 0
        self.start = time.monotonic()
        self.log: list[dict[str, Any]] = []
        self._wins: list[float] = []

    def _on_step(self) -> bool:
        for done, reward in zip(self.locals["dones"], self.locals["rewards"], strict=True):
            if done:
                self._wins.append(float(reward))
        elapsed = time.monotonic() - self.start
        progress = max(elapsed / self.seconds, self.num_timesteps / self.steps)
        level = min(int(progress * len(self.levels)), len(self.levels) - 1)
        if level != self.level:
            self._report(elapsed)
            self.level = level
            self.training_env.env_method("set_opponents", self.levels[level])
        return bool(progress < 1.0)

    def _on_rollout_end(self) -> None:
        self._report(time.monotonic() - self.start)

    def _report(self, elapsed: float) -> None:
        if not self._wins:
            return
        row = {
            "seconds": round(elapsed),
            "steps": self.num_timesteps,
            "opponents": self.levels[self.level],
            "games": len(self._wins),
            "win_share": round(float(np.mean(self._wins)), 3),
        }
        self.log.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
        self._wins = []


def train(
    players: int,
    minutes: float,
    steps: int,
    curriculum: Sequence[str],
    seed: int,
    n_envs: int = 4,
) -> tuple[MaskablePPO, dict[str, Any]]:
    """A MaskablePPO policy trained within the budget; and what the run measured."""
    torch.set_num_threads(1)
    vec = make_vec_env(
        ENV_ID,
        n_envs=n_envs,
        seed=seed,
        env_kwargs={"players": players, "opponents": [curriculum[0]]},
    )
    model = MaskablePPO(
        "MultiInputPolicy",
        vec,
        n_steps=256,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,  # the only reward is the game's result: no reason to discount it
        ent_coef=0.01,
        seed=seed,
        verbose=0,
    )
    budget = Budget(minutes * 60, steps, curriculum)
    wall, cpu = time.monotonic(), time.process_time()
    model.learn(total_timesteps=steps, callback=budget)
    stats = {
        "players": players,
        "curriculum": list(curriculum),
        "steps": model.num_timesteps,
        "wall_seconds": round(time.monotonic() - wall),
        "cpu_seconds": round(time.process_time() - cpu),
        "progress": budget.log,
    }
    return model, stats


def model_policy(model: MaskablePPO) -> Policy:
    """The trained policy's likeliest legal action."""

    def choose(obs: dict[str, Any], mask: npt.NDArray[np.bool_]) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    return choose


def random_policy(seed: int) -> Policy:
    """A uniformly random legal action: the yardstick a learner must beat."""
    rng = np.random.default_rng(seed)

    def choose(obs: dict[str, Any], mask: npt.NDArray[np.bool_]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return choose


@dataclass
class Result:
    """Win share over a number of games, with its 95% interval."""

    games: int
    wins: float

    def row(self) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.games)
        return {
            "games": self.games,
            "win_share": round(self.wins / self.games, 4),
            "ci95": [round(low, 4), round(high, 4)],
        }


def evaluate(policy: Policy, players: int, opponents: str, games: int, seed: int) -> Result:
    """``policy``'s win share in ``games`` games, its seat moving round the table.

    Game ``g`` is dealt from ``seed + g`` whatever the policy, so two policies
    evaluated with the same ``seed`` meet the same deals.  Illegal actions
    raise: the mask must be obeyed.
    """
    envs = [
        ThreeDragonAnteEnv(players=players, seat=p, opponents=[opponents], illegal_action="raise")
        for p in range(players)
    ]
    wins = 0.0
    for g in range(games):
        env = envs[g % players]
        obs, _ = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            action = policy(obs, env.action_masks())
            obs, reward, done, _, _ = env.step(action)
        wins += reward
    return Result(games, wins)


def evaluation(
    model: MaskablePPO, players: int, opponents: str, games: int, seed: int
) -> dict[str, Any]:
    """The trained and the random masked policy on the same deals."""
    start = time.monotonic()
    trained = evaluate(model_policy(model), players, opponents, games, seed)
    rand = evaluate(random_policy(seed), players, opponents, games, seed)
    return {
        "players": players,
        "opponents": opponents,
        "parity": round(1 / players, 4),
        "trained": trained.row(),
        "random_masked": rand.row(),
        "seconds": round(time.monotonic() - start),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train, save, then evaluate")
    t.add_argument("--players", type=int, default=2)
    t.add_argument("--minutes", type=float, default=30.0, help="wall-clock budget")
    t.add_argument("--steps", type=int, default=10_000_000, help="step budget")
    t.add_argument("--curriculum", default="random,baseline", help="opponents, weakest first")
    t.add_argument("--envs", type=int, default=4, help="environments in the vector env")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out", default="maskable_ppo.zip")
    e = sub.add_parser("evaluate", help="evaluate a saved policy")
    e.add_argument("model")
    e.add_argument("--players", type=int, default=2)
    for p in (t, e):
        p.add_argument("--games", type=int, default=500, help="evaluation games (0: none)")
        p.add_argument("--opponents", default="baseline", help="the evaluation's opponents")
        p.add_argument("--eval-seed", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    if args.players not in range(2, 7):
        parser.error("--players must be 2-6")
    if args.command == "train":
        curriculum = [c.strip() for c in args.curriculum.split(",") if c.strip()]
        if not curriculum:
            parser.error("--curriculum needs at least one opponent")
        try:
            model, stats = train(
                args.players, args.minutes, args.steps, curriculum, args.seed, args.envs
            )
        except (KeyError, ValueError) as err:
            parser.error(str(err).strip("'\""))
        model.save(args.out)
        print(json.dumps({"training": stats}))
    else:
        model = MaskablePPO.load(args.model)
    if args.games:
        print(json.dumps({"evaluation": evaluation(
            model, args.players, args.opponents, args.games, args.eval_seed
        )}))  # fmt: skip


if __name__ == "__main__":
    main()
