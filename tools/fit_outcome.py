"""Refit the search's win-chance model and write ``src/dragonante/bots/outcome.json``.

Run ``uv run python tools/fit_outcome.py [--games N] [--workers W] [--seed S]``.
For every player count 2-6 it plays N games of the heuristic against itself
(the default table), records each seat's gold and hand at the start of every
gambit after the first, and fits the conditional logit described in
:mod:`dragonante.sim.outcome_fit`.  The file it writes records how it was made.
Re-run it when the heuristic, the engine's rules or the default table change.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from dragonante.sim.outcome_fit import SMOOTHING, collect, fit

OUT = Path(__file__).resolve().parent.parent / "src" / "dragonante" / "bots" / "outcome.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games per player count")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="2,3,4,5,6")
    args = parser.parse_args()
    models = {}
    for n in (int(x) for x in args.players.split(",")):
        start = time.time()
        data = collect(n, args.games, args.seed, args.workers)
        result = fit(data)
        models[str(n)] = {
            "card_worth": [round(x, 3) for x in result.card_worth],
            "t0": round(result.t0, 3),
            "t1": round(result.t1, 4),
            "snapshots": result.snapshots,
            "log_likelihood": round(result.log_likelihood, 5),
        }
        print(f"{n} players: {result.snapshots} snapshots, {time.time() - start:.0f} s", flush=True)
    OUT.write_text(
        json.dumps(
            {
                "about": "dragonante.bots.outcome win-chance model (tools/fit_outcome.py)",
                "bot": "heuristic",
                "games_per_player_count": args.games,
                "seed": args.seed,
                "smoothing": SMOOTHING,
                "models": models,
            },
            indent=1,
        )
        + "\n"
    )
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
