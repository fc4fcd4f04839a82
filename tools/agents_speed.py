"""Measure the PettingZoo environment against the bare engine, in one run.

    .venv/bin/python tools/agents_speed.py [seconds]

Prints ``dragonante bench --players 4`` decisions per second, then the
environment's steps per second with random legal actions at 4 players, for
four loops, each also as a fraction of the engine's figure (issue 14's
target is 0.5 for the mask; issue 24's, 0.4 with an observation every step):

* ``observations``: the usual loop through ``env()`` (PettingZoo's order
  checks included), ``env.last()`` each step: a whole observation encoded;
* ``infos``: ``env()`` again, but ``env.last(observe=False)`` and the mask
  from ``infos[agent]["action_mask"]``: no observation is encoded;
* ``mask_only``: ``raw_env`` without wrapper, reading ``raw_env.action_mask``;
* ``openspiel``: the OpenSpiel game (``python_three_dragon_ante``, 4 players),
  a random legal action at each decision and a random outcome at each chance
  node through ``state.apply_action``; only decisions are counted (a chance
  node is not a decision of the engine), and nothing is observed.

Each figure is given per second of wall-clock time and per second of CPU
time (``time.process_time``; the bench's ``cpu_seconds``).  On a shared
machine the wall-clock figures drift with the other processes while the
bench and the loops run one after the other; the CPU figures, and their
ratios, are the steadier ones.
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

LOOPS = ("observations", "infos", "mask_only", "openspiel")


def openspiel_steps(seconds: float) -> tuple[float, float]:
    """Random decisions of the OpenSpiel game per wall-clock and per CPU second."""
    import pyspiel

    from dragonante.agents.openspiel import SHORT_NAME

    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    rng = random.Random(1)
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.randrange(256))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                steps += 1
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


def steps_per_second(seconds: float, loop: str) -> tuple[float, float]:
    """Random legal steps of ``loop`` (see the module docstring) per wall-clock
    second and per CPU second."""
    if loop == "openspiel":
        return openspiel_steps(seconds)
    e = raw_env(players=4) if loop == "mask_only" else env(players=4)
    base = e.unwrapped
    rng = random.Random(1)
    e.reset(seed=1)
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for agent in e.agent_iter():
            if loop == "observations":
                obs, _, term, trunc, _ = e.last()
                mask = obs["action_mask"]
            elif loop == "infos":
                _, _, term, trunc, info = e.last(observe=False)
                mask = info["action_mask"]
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
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    bench = subprocess.run(
        [str(Path(sys.executable).with_name("dragonante")), "bench", "--players", "4",
         "--seconds", str(seconds), "--json"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    result = json.loads(bench.stdout)
    engine = result["decisions_per_second"]
    engine_cpu = result["decisions"] / result["cpu_seconds"]
    report: dict[str, float] = {
        "engine_decisions_per_second": round(engine),
        "engine_decisions_per_cpu_second": round(engine_cpu),
    }
    for loop in LOOPS:
        rate, rate_cpu = steps_per_second(seconds, loop)
        report[f"{loop}_steps_per_second"] = round(rate)
        report[f"{loop}_steps_per_cpu_second"] = round(rate_cpu)
        report[f"{loop}_ratio"] = round(rate / engine, 3)
        report[f"{loop}_ratio_cpu"] = round(rate_cpu / engine_cpu, 3)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
