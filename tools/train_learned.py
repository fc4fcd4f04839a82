"""Train the learned bot and write ``src/dragonante/bots/learned.json``.

Run ``uv run --extra agents python tools/train_learned.py [--games N]
[--rounds R] [--workers W] [--seed S]``.  For every player count 2-6 it
plays N self-play games (round one: the heuristic; each later round: the
learned bot with the round before's model), records every seat's features
at its plays and antes with who won, and fits the logistic value function
of :mod:`dragonante.sim.value_fit` (numpy).  The same seed, games and rounds
give the same file.  CPU only; the file it writes records how it was made.
Re-run it when the features, the heuristic, the fast policy, the engine's
rules or the default table change.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from dragonante import RULES_VERSION
from dragonante.bots.features import FEATURE_NAMES, LAYOUT_VERSION
from dragonante.bots.learned import MODEL_FORMAT, PLAYER_COUNTS
from dragonante.sim.value_fit import HOLD_OUT, RIDGE, collect, fit

OUT = Path(__file__).resolve().parent.parent / "src" / "dragonante" / "bots" / "learned.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per player count and round")
    parser.add_argument("--rounds", type=int, default=2, help="self-play rounds")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    command = (
        f"tools/train_learned.py --games {args.games} --rounds {args.rounds} --seed {args.seed}"
    )
    scratch = Path(tempfile.mkdtemp(prefix="dragonante-learned-"))
    bot = "heuristic"
    document: dict[str, object] = {}
    for rnd in range(1, args.rounds + 1):
        models: dict[str, list[float]] = {}
        fits: dict[str, object] = {}
        for n in PLAYER_COUNTS:
            start = time.time()
            data = collect(n, args.games, args.seed * 100 + rnd, bot, args.workers)
            result = fit(data, args.games)
            models[str(n)] = [round(w, 6) for w in result.weights]
            fits[str(n)] = result.summary()
            print(
                f"round {rnd} ({bot.split(':')[0]}), {n} players: {result.positions} positions,"
                f" log loss {result.held_out_log_loss:.4f} held out"
                f" (constant guess {result.base_log_loss:.4f}), {time.time() - start:.0f} s",
                flush=True,
            )
        document = {
            "format": MODEL_FORMAT,
            "layout_version": LAYOUT_VERSION,
            "features": list(FEATURE_NAMES),
            "rules_version": RULES_VERSION,
            "training": {
                "command": command,
                "seed": args.seed,
                "games_per_player_count_and_round": args.games,
                "rounds": args.rounds,
                "last_round_bot": bot.split(":")[0],
                "ridge": RIDGE,
                "held_out_share": HOLD_OUT,
                "fit": fits,
            },
            "models": models,
        }
        path = scratch / f"round{rnd}.json"
        path.write_text(json.dumps(document, indent=1) + "\n")
        bot = f"learned:model={path}"
    args.out.write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
