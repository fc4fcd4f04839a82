"""Mutation testing of the Dice Gambit's rules modules, killed by its rules tables alone.

Why: issue 21 asks for the kill rate of the rules code against the rules
tests only.  The Dice Gambit's rules tests are the scripted tables run by
``tools/kill_dice.py`` (one process, first failure stops: about half a
second a mutant, where pytest takes three).  This runner is
``tools/mutate_steps.py --all`` with that kill test: cosmic-ray mutates a
whole module on a scratch copy of the project (the working tree is never
left mutated) and runs the kill test once per mutant.

Usage::

    python tools/mutate_dice.py src/dragonante/dice/flights.py [MORE.py ...]
    python tools/mutate_dice.py --survivors src/dragonante/dice/flights.py

Each module's counts and every survivor's diff are printed and saved to
``mutants/dice/MODULE.txt`` (``mutants/`` is not tracked), its survivors
to ``mutants/dice/MODULE.json``.  ``--survivors`` re-tests only the mutants
that survived the last run (after new tables were written for them); the
source must be unchanged since, as mutants are matched by operator,
occurrence and position.
"""

from __future__ import annotations

import ast
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from cosmic_ray.work_item import TestOutcome  # type: ignore[import-untyped]
from mutate_steps import cosmic_run, kill_command, scratch_copy  # (tools/ is on the path)
from mutation_equivalents import classify, record

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "mutants" / "dice"
#: A mutant whose tables run longer than this loops forever: cosmic-ray counts it killed.
TIMEOUT = 30.0


def key(item: Any) -> str:
    """A mutant's identity across two runs of the same source."""
    m = item.mutations[0]
    return f"{m.operator_name}#{m.occurrence}@{m.start_pos[0]}:{m.start_pos[1]}"


def function_at(source: str, line: int) -> str:
    """The name of the innermost function holding ``line`` (``-`` at module level)."""
    best, size = "-", 10**9
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            end = node.end_lineno or node.lineno
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if first <= line <= end and end - first < size:
                best, size = node.name, end - first
    return best


def mutate(module: str, only: set[str] | None) -> tuple[str, list[str]]:
    """Run one module's mutants (``only``: just these keys); its report and survivors."""
    source = (ROOT / module).read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="dragonante-mutate-dice-") as tmp:
        work = Path(tmp)
        scratch_copy(work)
        done = cosmic_run(
            work,
            module,
            kill_command(work, module),
            TIMEOUT,
            lambda item: only is not None and key(item) not in only,
        )
    done.sort(key=lambda ir: (ir[0].mutations[0].start_pos, key(ir[0])))
    counts = Counter(
        r.test_outcome.value if r.test_outcome else r.worker_outcome.value for _, r in done
    )
    killed, survived = counts["killed"], counts["survived"]
    tested = killed + survived
    rate = f"{100 * killed / tested:.1f}%" if tested else "-"
    scope = "survivors of the last run" if only is not None else "whole module"
    lines = [
        f"{module} ({scope})",
        # Incompetent: cosmic-ray could not apply or run the mutant (not a kill).
        f"mutants {len(done)}  killed {killed}  survived {survived}  "
        f"incompetent {counts['incompetent']}  kill rate {rate} (of killed + survived)",
    ]
    survivors, found = [], []
    for item, result in done:
        if result.test_outcome == TestOutcome.SURVIVED:
            m = item.mutations[0]
            survivors.append(key(item))
            head = (
                f"--- survived: {function_at(source, m.start_pos[0])} line {m.start_pos[0]} "
                f"{m.operator_name} #{m.occurrence}  [{key(item)}]"
            )
            found.append((head, result.diff or ""))
    verdict = classify(module, found)
    for s in verdict.left:
        lines.extend((f"\n{s.head}", s.diff))
    lines.append(f"\n{len(verdict.equivalent)} survivors are registered equivalents (not shown)")
    lines.extend(record(module, tested, killed, verdict, only is not None))
    return "\n".join(lines), survivors


def main(argv: list[str]) -> int:
    again = bool(argv) and argv[0] == "--survivors"
    modules = argv[1:] if again else argv
    if not modules or not all((ROOT / m).is_file() for m in modules):
        print(
            "usage: python tools/mutate_dice.py [--survivors] src/dragonante/dice/MODULE.py ...",
            file=sys.stderr,
        )
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    for module in modules:
        name = Path(module).stem
        saved = OUT / f"{name}.json"
        only: set[str] | None = None
        if again:
            if not saved.is_file():
                print(f"no earlier run of {module}: run it without --survivors", file=sys.stderr)
                return 1
            only = set(json.loads(saved.read_text(encoding="utf-8")))
        report, survivors = mutate(module, only)
        print(report, flush=True)
        suffix = "-survivors" if again else ""
        (OUT / f"{name}{suffix}.txt").write_text(report + "\n", encoding="utf-8")
        saved.write_text(json.dumps(survivors, indent=0) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
