"""OpenSpiel's own imperfect-information algorithms on the game, unchanged.

    python examples/openspiel_search.py mccfr --iterations 1000 --players 2
    python examples/openspiel_search.py ismcts --games 20 --simulations 50

``mccfr`` runs ``outcome_sampling_mccfr`` on the perfect-recall information
states and prints how long the iterations took and how many information
states the solver filled.  ``ismcts`` plays OpenSpiel's ``ISMCTSBot`` (which
searches states resampled from its information state with
``resample_from_infostate``) in seat 0 against uniformly random seats, and
prints its win share with a 95% interval.  Plain ``MCTSBot`` would search the
true state, other hands and the deck order included: it cheats, and is not
offered here.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr

from dragonante.agents.openspiel import SHORT_NAME
from dragonante.sim.tournament import wilson_interval


def run_mccfr(players: int, iterations: int, seed: int) -> dict[str, object]:
    """``iterations`` of outcome-sampling MCCFR, timed."""
    game = pyspiel.load_game(SHORT_NAME, {"players": players})
    np.random.seed(seed)  # the solver samples with numpy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    wall, cpu = time.monotonic(), time.process_time()
    for _ in range(iterations):
        solver.iteration()
    return {
        "players": players,
        "iterations": iterations,
        "information_states": len(solver._infostates),
        "wall_seconds": round(time.monotonic() - wall, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
    }


def run_ismcts(players: int, games: int, simulations: int, seed: int) -> dict[str, object]:
    """``ISMCTSBot`` in seat 0 against random seats, ``games`` games."""
    game = pyspiel.load_game(SHORT_NAME, {"players": players})
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=rng,
    )
    wins = 0.0
    cpu = time.process_time()
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(int(rng.randint(game.max_chance_outcomes())))
            elif s.current_player() == 0:
                s.apply_action(bot.step(s))
            else:
                s.apply_action(int(rng.choice(s.legal_actions())))
        wins += s.returns()[0]
    low, high = wilson_interval(wins, games)
    return {
        "players": players,
        "games": games,
        "simulations": simulations,
        "win_share": round(wins / games, 3),
        "ci95": [round(low, 3), round(high, 3)],
        "cpu_seconds": round(time.process_time() - cpu, 1),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("mccfr", help="outcome-sampling MCCFR")
    m.add_argument("--iterations", type=int, default=1000)
    i = sub.add_parser("ismcts", help="ISMCTSBot against random seats")
    i.add_argument("--games", type=int, default=20)
    i.add_argument("--simulations", type=int, default=50)
    for p in (m, i):
        p.add_argument("--players", type=int, default=2)
        p.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.players not in range(2, 7):
        parser.error("--players must be 2-6")
    if args.command == "mccfr":
        print(json.dumps(run_mccfr(args.players, args.iterations, args.seed)))
    else:
        print(json.dumps(run_ismcts(args.players, args.games, args.simulations, args.seed)))


if __name__ == "__main__":
    main()
