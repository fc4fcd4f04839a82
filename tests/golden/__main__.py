"""``python -m tests.golden [--update [--same-version]]``: check or regenerate the golden digests.

Without ``--update`` it prints what is wrong (exit 1) or that all is well.
``--update`` rewrites ``tests/golden/card_game.json`` and ``dice.json`` under
the current ``RULES_VERSION`` / ``DICE_RULES_VERSION``, and refuses while a
digest changed but its version did not (bump the version first).
``--same-version`` lifts that refusal: only for changes merged into a
version that was never released.
"""

from __future__ import annotations

import argparse
import sys

from tests.golden.games import card_golden, dice_golden


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    parser.add_argument("--update", action="store_true", help="rewrite the pinned digests")
    parser.add_argument(
        "--same-version",
        action="store_true",
        help="allow changed digests under the pinned version (unreleased version only)",
    )
    args = parser.parse_args(argv)
    goldens = (card_golden(), dice_golden())
    if args.update:
        for g in goldens:
            print(g.update(same_version=args.same_version))
        return 0
    problems = [p for g in goldens for p in g.problems()]
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print("golden games: all digests match their pinned versions")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
