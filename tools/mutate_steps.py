"""Mutation testing of a rules module's *decorated* functions (``./dev mutate --steps MODULE``).

Why: mutmut (``./dev mutate``) cannot mutate decorated functions, and the
engine registers its steps and question resolvers with ``@step(...)`` /
``@resolver(...)`` / ``@power(...)``: most of the rules.  cosmic-ray mutates
any function, but runs the whole test command once per mutant, so this
script limits it to the decorated functions (their bodies; not the
decorator lines) of one module, and runs it on a scratch copy of the
project so the working tree is never left mutated.

Usage: ``python tools/mutate_steps.py [--all] src/dragonante/engine/flights.py``.
``--all`` mutates the whole module, not only its decorated functions: one
tool and one report for a module (cosmic-ray with the in-process kill test
is as fast as mutmut).
The kill test is the rules scenarios alone, played in one process by
``tools/kill_scenarios.py`` (the Dice Gambit's scripted rules tables, through
pytest, for a ``dice/`` module), stopped at the first failure.  Prints the
counts, the kill rate and every survivor's diff.  Under a second a mutant
for the card engine's modules; 3-10 seconds for the Dice Gambit's.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from cosmic_ray.work_db import WorkDB, use_db  # type: ignore[import-untyped]
from cosmic_ray.work_item import (  # type: ignore[import-untyped]
    TestOutcome,
    WorkerOutcome,
    WorkResult,
)

ROOT = Path(__file__).resolve().parent.parent
DICE_TESTS = [f"tests/dice/test_{n}.py" for n in ("powers", "flights", "gambits", "debts")]


def decorated_ranges(source: str) -> list[tuple[str, int, int]]:
    """(name, first body line, last line) of every decorated top-level function."""
    out = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.decorator_list:
            out.append((node.name, node.lineno, node.end_lineno or node.lineno))
    return out


def main(argv: list[str]) -> int:
    whole = bool(argv) and argv[0] == "--all"
    if whole:
        argv = argv[1:]
    if len(argv) != 1 or not (ROOT / argv[0]).is_file():
        print(
            "usage: python tools/mutate_steps.py [--all] src/dragonante/engine/MODULE.py",
            file=sys.stderr,
        )
        return 2
    module = argv[0]
    source = (ROOT / module).read_text(encoding="utf-8")
    ranges = decorated_ranges(source)
    if whole:
        ranges = [("(whole module)", 1, len(source.splitlines()))]
    if not ranges:
        print(f"{module} has no decorated function: use ./dev mutate", file=sys.stderr)
        return 1
    dice = "/dice/" in module
    with tempfile.TemporaryDirectory(prefix="dragonante-mutate-") as tmp:
        work = Path(tmp)
        for part in ("src", "tests", "pyproject.toml"):
            src = ROOT / part
            if src.is_dir():
                shutil.copytree(src, work / part, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy(src, work / part)
        # The copy's sources come first on the path, ahead of the editable install.
        if dice:
            command = (
                f"env PYTHONPATH={work / 'src'} {sys.executable} -m pytest -x -q -p no:randomly "
                f"-p no:cacheprovider -n 0 {' '.join(DICE_TESTS)}"
            )
        else:
            command = (
                f"env PYTHONPATH={work / 'src'} {sys.executable} "
                f"{ROOT / 'tools' / 'kill_scenarios.py'} {work / 'tests' / 'scenarios'}"
            )
        config = work / "cosmic-ray.toml"
        config.write_text(
            "[cosmic-ray]\n"
            f'module-path = "{module}"\n'
            "timeout = 60.0\n"
            "excluded-modules = []\n"
            f'test-command = "{command}"\n'
            '[cosmic-ray.distributor]\nname = "local"\n',
            encoding="utf-8",
        )
        db = work / "session.sqlite"
        run = [sys.executable, "-m", "cosmic_ray.cli"]
        subprocess.run([*run, "init", str(config), str(db)], cwd=work, check=True)
        with use_db(str(db), WorkDB.Mode.open) as session:
            for item in list(session.pending_work_items):
                line = item.mutations[0].start_pos[0]
                if not any(a <= line <= b for _, a, b in ranges):
                    session.set_result(
                        item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED)
                    )
        subprocess.run([*run, "exec", str(config), str(db)], cwd=work, check=True)
        with use_db(str(db), WorkDB.Mode.open) as session:
            done = [
                (item, result)
                for item, result in session.completed_work_items
                if result.worker_outcome != WorkerOutcome.SKIPPED
            ]
    counts = Counter(
        r.test_outcome.value if r.test_outcome else r.worker_outcome.value for _, r in done
    )
    killed, survived = counts["killed"], counts["survived"]
    tested = killed + survived
    names = ", ".join(name for name, _, _ in ranges)
    print(f"{module}: decorated functions {names}")
    rate = f"{100 * killed / tested:.1f}%" if tested else "-"
    # Incompetent: cosmic-ray could not apply or run the mutant (not a kill).
    print(
        f"mutants {len(done)}  killed {killed}  survived {survived}  "
        f"incompetent {counts['incompetent']}  kill rate {rate} (of killed + survived)"
    )
    for item, result in done:
        if result.test_outcome == TestOutcome.SURVIVED:
            m = item.mutations[0]
            print(f"\n--- survived: line {m.start_pos[0]} {m.operator_name} #{m.occurrence}")
            print(result.diff or "")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
