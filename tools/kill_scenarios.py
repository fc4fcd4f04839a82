"""Mutation testing's kill test: every rules scenario in one process, first failure stops.

Why: the mutation runners (``tools/mutate_steps.py``, cosmic-ray) run one
test command per mutant.  Through pytest that costs about three seconds of
start-up for under one second of scenarios; played here directly, in one
interpreter, a mutant the scenarios kill costs a fraction of a second and a
survivor about one second.  The verdict is the same as
``tests/scenarios/test_scenarios.py``: a scenario fails when its result
misses an expectation or the engine raises while playing it.

Usage: ``python tools/kill_scenarios.py [TESTS_DIR] [HINTS]`` (default: this
checkout's ``tests/scenarios``).  Exit status 0: every scenario passed (the
mutant survived); 1: one failed (named on standard error).

``HINTS``: a file of scenario paths, the last killers first.  They are played
first and a new killer is put at its head: neighbouring mutants (one line,
one function) are mostly killed by the same scenario, so a kill usually costs
one or two scenarios instead of half the folder.  The verdict is the same
(every scenario still runs when none fails).
"""

from __future__ import annotations

import sys
from pathlib import Path

from dragonante.scenarios import load, run

ROOT = Path(__file__).resolve().parent.parent
#: How many recent killers the hints file keeps.
KEEP = 30


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else ROOT / "tests" / "scenarios"
    hints = Path(argv[1]) if len(argv) > 1 else None
    files = sorted(folder.rglob("*.toml"))
    if not files:
        print(f"no scenario under {folder}", file=sys.stderr)
        return 2
    killers: list[Path] = []
    if hints is not None and hints.is_file():
        known = set(files)
        killers = [p for ln in hints.read_text().splitlines() if (p := Path(ln)) in known]
        first = set(killers)
        files = killers + [p for p in files if p not in first]
    for path in files:
        try:
            result = run(load(path))
            why = "" if result.passed else str(result.failures[0])
        except Exception as exc:  # a mutant may break the engine anywhere: that is a kill
            why = f"{type(exc).__name__}: {exc}"
        if why:
            print(f"{path}: {why}", file=sys.stderr)
            if hints is not None:
                order = [path, *(p for p in killers if p != path)][:KEEP]
                hints.write_text("".join(f"{p}\n" for p in order))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
