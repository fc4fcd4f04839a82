"""Mutation testing's kill test: every rules scenario in one process, first failure stops.

Why: the mutation runners (``tools/mutate_steps.py``, cosmic-ray) run one
test command per mutant.  Through pytest that costs about three seconds of
start-up for under one second of scenarios; played here directly, in one
interpreter, a mutant the scenarios kill costs a fraction of a second and a
survivor about one second.  The verdict is the same as
``tests/scenarios/test_scenarios.py``: a scenario fails when its result
misses an expectation or the engine raises while playing it.

Usage: ``python tools/kill_scenarios.py [TESTS_DIR]`` (default: this
checkout's ``tests/scenarios``).  Exit status 0: every scenario passed (the
mutant survived); 1: one failed (named on standard error).
"""

from __future__ import annotations

import sys
from pathlib import Path

from dragonante.scenarios import load, run

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else ROOT / "tests" / "scenarios"
    files = sorted(folder.rglob("*.toml"))
    if not files:
        print(f"no scenario under {folder}", file=sys.stderr)
        return 2
    for path in files:
        try:
            result = run(load(path))
        except Exception as exc:  # a mutant may break the engine anywhere: that is a kill
            print(f"{path}: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
        if not result.passed:
            print(f"{path}: {result.failures[0]}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
