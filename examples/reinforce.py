"""Learn to play Three-Dragon Ante through the PettingZoo API, with numpy only.

A linear softmax policy over the observation vector, restricted to the legal
actions, trained with REINFORCE:

    logits = x @ W + b          (x: the seat's observation, 5,547 values)
    pi(a | x) = softmax(logits over the action mask)

    W, b += lr * (R - mean R) / std R * d log pi(a | x)

where R is the seat's win share at the end of the game (1 for a win, 1/k
for a k-way tie, 0 for a loss).  Rewards come only at the end of the game,
so every decision of an episode shares its return; subtracting the batch's
mean return (the baseline) and dividing by its spread keeps the updates a
similar size whether the policy wins a tenth of its games or nine tenths.

The policy is linear, yet it can learn more than card preferences: the
observation one-hot encodes the question's kind, so the weights of that
slice say which cards to ante and which to play, and the hand, flights
and round-card slices let the choice depend on what is on the table.
Observations are multi-hot and sparse (a hundred or so of the 5,547 values
are non-zero), so the forward pass and the gradient touch only the rows of
those values and the columns of the legal actions: a decision costs a few
microseconds of numpy beside the environment's encoding.

The learning seat plays through ``env.last()`` / ``env.step()`` like any
PettingZoo agent; the other seats are our bots (``random``, ``baseline``,
...), asked for their answer from the engine state as the Gymnasium
environment does (``bot.choose(SeatView(state, seat))``), or the policy
itself (``self``: every seat learns).

    python examples/reinforce.py train --episodes 20000 --players 2 --out policy.npz
    python examples/reinforce.py evaluate policy.npz --games 1000

See "A learning example" in docs/agents.md for what it reaches.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dragonante.agents.encoding import N_ACTIONS, OBS_SIZE, to_action
from dragonante.agents.pettingzoo import env as make_env
from dragonante.bots import Bot, SeatView, make_bot
from dragonante.sim.tournament import wilson_interval

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


@dataclass
class Policy:
    """A linear softmax policy: one weight per (observation value, action), one bias per action."""

    w: FloatArray = field(default_factory=lambda: np.zeros((OBS_SIZE, N_ACTIONS)))
    b: FloatArray = field(default_factory=lambda: np.zeros(N_ACTIONS))

    def save(self, path: Path) -> None:
        """Write the weights as an ``.npz`` (``w``, ``b``)."""
        np.savez_compressed(path, w=self.w, b=self.b)

    @classmethod
    def load(cls, path: Path) -> Policy:
        """Read weights written by :meth:`save`, checking they fit today's spaces."""
        with np.load(path) as data:
            w, b = data["w"], data["b"]
        if w.shape != (OBS_SIZE, N_ACTIONS) or b.shape != (N_ACTIONS,):
            raise ValueError(f"{path}: weights {w.shape}/{b.shape} do not fit this encoding")
        return cls(w.astype(np.float64), b.astype(np.float64))


@dataclass
class Step:
    """One decision of a learning seat, kept sparse: what the gradient needs and no more."""

    rows: IntArray  # indices of the observation's non-zero values
    values: FloatArray  # those values
    legal: IntArray  # the legal actions (the mask's 1s)
    choice: int  # position of the action taken within ``legal``


def sparse(observation: npt.NDArray[Any], mask: npt.NDArray[Any]) -> Step:
    """The decision's non-zero observation values and legal actions (choice not yet made)."""
    rows = np.flatnonzero(observation)
    return Step(rows, observation[rows].astype(np.float64), np.flatnonzero(mask), -1)


def probabilities(policy: Policy, step: Step) -> FloatArray:
    """The policy's distribution over ``step.legal`` (softmax of the masked logits)."""
    logits: FloatArray = step.values @ policy.w[np.ix_(step.rows, step.legal)]
    logits += policy.b[step.legal]
    p = np.exp(logits - logits.max())
    out: FloatArray = p / p.sum()
    return out


def action_probabilities(
    policy: Policy, observation: npt.NDArray[Any], mask: npt.NDArray[Any]
) -> FloatArray:
    """The distribution over all ``N_ACTIONS``: exactly 0 wherever the mask is 0."""
    step = sparse(observation, mask)
    out = np.zeros(N_ACTIONS)
    out[step.legal] = probabilities(policy, step)
    return out


def choose(policy: Policy, step: Step, rng: np.random.Generator, greedy: bool = False) -> int:
    """Pick an action for ``step`` (recorded in ``step.choice``): sampled, or the likeliest."""
    p = probabilities(policy, step)
    step.choice = int(p.argmax()) if greedy else int(rng.choice(len(p), p=p))
    return int(step.legal[step.choice])


def reinforce_update(
    policy: Policy, episodes: Sequence[tuple[Sequence[Step], float]], lr: float
) -> None:
    """One REINFORCE step on a batch of (decisions, return) pairs, in place.

    The advantage of an episode is its return less the batch mean, over the
    batch's standard deviation (a batch where every return is equal teaches
    nothing and changes nothing).  The gradient of log pi(a | x) for a
    linear softmax is x (onehot(a) - pi) on the legal actions, so each
    decision updates only its non-zero rows and legal columns.  The step
    is divided by the number of decisions in the batch so that the learning
    rate does not depend on how long games are.
    """
    returns = np.array([r for _, r in episodes])
    spread = returns.std()
    if spread < 1e-9:
        return
    advantages = (returns - returns.mean()) / spread
    n = max(1, sum(len(steps) for steps, _ in episodes))
    for (steps, _), adv in zip(episodes, advantages, strict=True):
        scale = lr * float(adv) / n
        for st in steps:
            g = -probabilities(policy, st)
            g[st.choice] += 1.0
            policy.w[np.ix_(st.rows, st.legal)] += scale * np.outer(st.values, g)
            policy.b[st.legal] += scale * g


def play(
    policy: Policy,
    players: int,
    opponents: Sequence[str],
    seed: int,
    rng: np.random.Generator,
    learner: int = 0,
    greedy: bool = False,
) -> tuple[dict[int, list[Step]], list[float]]:
    """Play one game through the PettingZoo env: the policy's decisions and every seat's reward.

    ``opponents`` gives one spec per other seat (in seat order after
    ``learner``); ``"self"`` is the policy itself, any other spec is one of
    our bots, driven the way the Gymnasium environment drives them: the bot
    answers from a ``SeatView`` of the engine state, and its answer is
    translated to an action with ``to_action``.  Only the policy's seats
    call ``env.last()``, so bot seats cost no observation encoding.
    """
    e = make_env(players=players)
    e.reset(seed=seed)
    raw = e.unwrapped
    bots: dict[int, Bot] = {}
    policy_seats = {learner}
    for i, spec in enumerate(opponents):
        seat = (learner + 1 + i) % players
        if spec == "self":
            policy_seats.add(seat)
        else:
            bots[seat] = make_bot(spec, seed * 101 + seat)
    decisions: dict[int, list[Step]] = {p: [] for p in policy_seats}
    rewards = [0.0] * players
    for agent in e.agent_iter():
        seat = int(agent.rsplit("_", 1)[1])
        _, reward, termination, truncation, _ = e.last(observe=False)
        if termination or truncation:
            rewards[seat] = float(reward)
            e.step(None)
        elif seat in bots:
            d = raw.state.pending
            e.step(to_action(d.kind, bots[seat].choose(SeatView(raw.state, seat))))
        else:
            obs = e.observe(agent)
            step = sparse(obs["observation"], obs["action_mask"])
            e.step(choose(policy, step, rng, greedy))
            decisions[seat].append(step)
    return decisions, rewards


def train(
    episodes: int,
    players: int = 2,
    opponents: Sequence[str] = ("random", "baseline"),
    seed: int = 0,
    lr: float = 10.0,
    batch: int = 32,
    policy: Policy | None = None,
    log_every: int = 0,
) -> Policy:
    """Train a policy by REINFORCE for ``episodes`` games, every ``batch`` games an update.

    Each episode draws its opponents: every other seat is ``opponents[k]``
    for one ``k`` drawn per game (so ``("random", "baseline")`` trains on
    tables of all-random and all-baseline opponents, and ``("self",)`` is
    pure self-play, where every seat's decisions are training data).  The
    learning seat goes round the table so that it learns every position.
    """
    policy = policy or Policy()
    rng = np.random.default_rng(seed)
    seeds = random.Random(seed)
    pending: list[tuple[list[Step], float]] = []
    recent: list[float] = []
    start = time.perf_counter()
    for ep in range(episodes):
        spec = opponents[int(rng.integers(len(opponents)))]
        learner = ep % players
        decisions, rewards = play(
            policy, players, [spec] * (players - 1), seeds.getrandbits(31), rng, learner
        )
        for seat, steps in decisions.items():
            pending.append((steps, rewards[seat]))
        recent.append(rewards[learner])
        if len(pending) >= batch:
            reinforce_update(policy, pending, lr)
            pending = []
        if log_every and (ep + 1) % log_every == 0:
            elapsed = time.perf_counter() - start
            mean = sum(recent) / len(recent)
            print(
                f"episode {ep + 1}: learning seat won {mean:.1%} of the last {len(recent)}"
                f" ({elapsed:.0f} s)",
                flush=True,
            )
            recent = []
    if pending:
        reinforce_update(policy, pending, lr)
    return policy


@dataclass
class Result:
    """The policy's wins (win shares) over games against one opponent."""

    opponent: str
    games: int
    wins: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the win rate."""
        return wilson_interval(self.wins, self.games)


def evaluate(
    policy: Policy,
    opponent: str,
    games: int,
    players: int = 2,
    seed: int = 1,
    greedy: bool = True,
) -> Result:
    """Play ``games`` games, the policy in one seat and ``opponent`` in every other.

    The policy's seat goes round the table (game ``g`` puts it in seat
    ``g % players``), so no seat's advantage counts for or against it.
    ``greedy`` plays each decision's likeliest action, which is how a
    trained policy is normally used; sampling (``greedy=False``) measures
    the policy exactly as it was trained.
    """
    rng = np.random.default_rng(seed)
    seeds = random.Random(seed)
    wins = 0.0
    for g in range(games):
        learner = g % players
        _, rewards = play(
            policy, players, [opponent] * (players - 1), seeds.getrandbits(31), rng, learner, greedy
        )
        wins += rewards[learner]
    return Result(opponent, games, wins)


def report(results: Sequence[Result], players: int) -> str:
    """Win rates with their 95% intervals, each against the parity rate ``1 / players``."""
    parity = 1.0 / players
    lines = [f"parity (1/{players}): {parity:.1%}"]
    for r in results:
        low, high = r.interval()
        where = (
            "above" if low > parity else "below" if high < parity else "not distinguishable from"
        )
        lines.append(
            f"vs {r.opponent:<10} {r.rate:6.1%}  95% CI {low:.1%} - {high:.1%}"
            f"  over {r.games} games: {where} parity"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``train`` (then evaluate) or ``evaluate`` saved weights."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="train a policy, save it, then evaluate it")
    tr.add_argument("--episodes", type=int, default=20000)
    tr.add_argument(
        "--opponents",
        default="random,baseline",
        help="bot specs or 'self', one drawn per episode (default: random,baseline)",
    )
    tr.add_argument("--lr", type=float, default=10.0)
    tr.add_argument("--batch", type=int, default=32, help="episodes per update")
    tr.add_argument("--out", type=Path, default=Path("policy.npz"), help="weights (.npz)")
    ev = sub.add_parser("evaluate", help="evaluate saved weights")
    ev.add_argument("weights", type=Path)
    for p in (tr, ev):
        p.add_argument("--players", type=int, default=2)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--games", type=int, default=1000, help="evaluation games per opponent")
        p.add_argument(
            "--sample",
            action="store_true",
            help="evaluate by sampling the policy, not its likeliest action",
        )
    args = parser.parse_args(argv)
    if args.command == "train":
        start, cpu = time.perf_counter(), time.process_time()
        policy = train(
            args.episodes,
            args.players,
            args.opponents.split(","),
            args.seed,
            args.lr,
            args.batch,
            log_every=max(1, args.episodes // 10),
        )
        print(
            f"trained {args.episodes} episodes in {time.perf_counter() - start:.0f} s"
            f" ({time.process_time() - cpu:.0f} s of CPU)"
        )
        policy.save(args.out)
        print(f"weights written to {args.out}")
    else:
        policy = Policy.load(args.weights)
    if args.games > 0:
        start, cpu = time.perf_counter(), time.process_time()
        results = [
            evaluate(policy, bot, args.games, args.players, args.seed + 1, not args.sample)
            for bot in ("random", "baseline")
        ]
        print(report(results, args.players))
        print(
            f"evaluated in {time.perf_counter() - start:.0f} s"
            f" ({time.process_time() - cpu:.0f} s of CPU)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
