"""Measure the PettingZoo environment against the bare engine, in one run.

    .venv/bin/python tools/agents_speed.py [seconds]

Prints ``dragonante bench --players 4`` decisions per second, then the
environment's steps per second with random legal actions at 4 players:
the usual loop (``env.last()``: a whole observation each step), and a loop
reading only the action mask (``raw_env.action_mask``).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from dragonante.agents.pettingzoo import env, raw_env


def steps_per_second(seconds: float, full: bool) -> float:
    e = env(players=4) if full else raw_env(players=4)
    base = e.unwrapped
    rng = random.Random(1)
    e.reset(seed=1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for agent in e.agent_iter():
            if full:
                obs, _, term, trunc, _ = e.last()
                mask = obs["action_mask"]
            else:
                term = base.terminations[agent]
                trunc = base.truncations[agent]
                mask = None if term else base.action_mask(agent)
            if term or trunc:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(mask).tolist()))
            steps += 1
        e.reset()
    return steps / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    bench = subprocess.run(
        [str(Path(sys.executable).with_name("dragonante")), "bench", "--players", "4",
         "--seconds", str(seconds), "--json"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    engine = json.loads(bench.stdout)["decisions_per_second"]
    full = steps_per_second(seconds, full=True)
    mask_only = steps_per_second(seconds, full=False)
    print(json.dumps({
        "engine_decisions_per_second": round(engine),
        "env_steps_per_second_with_observations": round(full),
        "env_steps_per_second_mask_only": round(mask_only),
        "ratio_with_observations": round(full / engine, 3),
        "ratio_mask_only": round(mask_only / engine, 3),
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
