"""Mutation testing of one Dice Gambit rules module, killed by its rules tables alone.

Why: issue 21 asks for the mutation score of the rules code against the
rules tests only.  The Dice Gambit's rules tests are the scripted tables
``tests/dice/test_{powers,flights,gambits,debts,rules}.py`` (``tools/kill_dice.py``
calls them without pytest).  Their calls take a few hundredths of a second;
what cost the time was starting an interpreter and importing the engine and
the tables for every mutant (cosmic-ray's runner: one to three seconds a
mutant on this shared machine).  So this runner works as
``tools/mutate_fast.py`` does for the card engine: it takes cosmic-ray's own
mutants (``cosmic-ray init``: the same operators and occurrences), imports
the engine and the five tables once, and tests each mutant in a ``fork()``:
a mutant inside an ordinary function body replaces that function's code in
the loaded module (everything holding the function runs the mutant: the
registry, the importers, the tables); one in code that runs at import gets a fresh import of
the engine and the tables with the mutated source served for the module.
Every table row is called (the last killers first), the first failure
stops; an engine error, or more than ``CPU_LIMIT`` seconds of CPU (a mutant
that loops forever), is a kill.  Mutants inside type annotations are counted
apart and not run (``from __future__ import annotations``: never evaluated).

Usage (``./dev mutate --all dice/MODULE``, ``./dev mutate --survivors dice/MODULE``)::

    python tools/mutate_dice.py src/dragonante/dice/flights.py
    python tools/mutate_dice.py --survivors src/dragonante/dice/flights.py

The survivors are matched against the registered equivalents
(``tests/mutation/equivalent/dragonante.dice.MODULE.toml``,
``tools/mutation_equivalents.py``); the figures are printed and saved to
``.mutation/dragonante.dice.MODULE.summary.json``, the survivors' diffs to
``.mutation/dragonante.dice.MODULE.survivors.diff``, which ``--survivors``
applies again (with ``patch``) to re-test them after new tables.
"""

from __future__ import annotations

import importlib
import os
import resource
import signal
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kill_dice import RULES_TABLES, cases
from mutate_fast import _Mutated, body_lines, in_place, to_run
from mutate_steps import save, survivor
from mutation_equivalents import classify, record

ROOT = Path(__file__).resolve().parent.parent
#: CPU seconds a mutant's process may use before it counts as killed (a loop
#: without end): the tables take a few hundredths of a second.
CPU_LIMIT = 8
#: Wall seconds, a last resort for a mutant that would block without computing.
WALL_LIMIT = 300
TABLES = tuple(f"tests.dice.test_{t}" for t in RULES_TABLES)
USAGE = "usage: python tools/mutate_dice.py [--survivors] src/dragonante/dice/MODULE.py"

Call = tuple[str, Callable[..., Any], dict[str, Any]]


def table_calls() -> list[Call]:
    """Every call pytest would make of the five tables' tests: (label, function, kwargs)."""
    out: list[Call] = []
    for name in TABLES:
        module = importlib.import_module(name)
        for attr, fn in vars(module).items():
            if attr.startswith("test_") and callable(fn):
                for case, kwargs in cases(fn):
                    out.append((f"{name}::{attr}[{case}]", fn, kwargs))
    return out


def fresh_tables(name: str, code: str, path: Path) -> list[Call]:
    """Forget the engine and the tables, import them again with ``name`` mutated."""
    for loaded in list(sys.modules):
        if loaded.startswith(("dragonante.", "tests.dice.")) or loaded == "dragonante":
            del sys.modules[loaded]
    sys.meta_path.insert(0, _Mutated(name, code, path))
    return table_calls()


def play(calls: list[Call], order: list[str]) -> str:
    """Call every table row, ``order``'s labels first; the label of the first that fails."""
    rank = {label: i for i, label in enumerate(order)}
    for label, fn, kwargs in sorted(calls, key=lambda c: rank.get(c[0], len(rank))):
        try:
            fn(**kwargs)
        except Exception:  # a failed assertion, or the engine raised: a kill
            return label
    return ""


def main(argv: list[str]) -> int:
    retest = bool(argv) and argv[0] == "--survivors"
    if retest:
        argv = argv[1:]
    if len(argv) != 1 or not (ROOT / argv[0]).is_file() or "/dice/" not in argv[0]:
        print(USAGE, file=sys.stderr)
        return 2
    rel = argv[0]
    path = ROOT / rel
    name = rel.removeprefix("src/").removesuffix(".py").replace("/", ".")
    source = path.read_text(encoding="utf-8")
    sys.path.insert(0, str(ROOT))  # the tables: tests.dice.*

    from cosmic_ray.mutating import mutate_code  # type: ignore[import-untyped]
    from cosmic_ray.plugins import get_operator  # type: ignore[import-untyped]

    mod = importlib.import_module(name)
    if Path(mod.__file__ or "").resolve() != path.resolve():
        print(f"{name} is imported from {mod.__file__}, not {path}", file=sys.stderr)
        return 2
    importlib.import_module("dragonante.dice.game")  # every step registered
    calls = table_calls()
    cheap = body_lines(source)
    todo, in_annotation = to_run(path, rel, source, retest)

    warnings.simplefilter("ignore", SyntaxWarning)  # ``x is 1``: a mutant, not our code
    killers: list[str] = []  # table rows, the last killer first
    counts: Counter[str] = Counter()
    survivors: list[tuple[str, str]] = []
    started = time.monotonic()
    for i, m in enumerate(todo):
        if "code" in m:
            code = m["code"]
        else:
            code = mutate_code(source, get_operator(m["op"])(**m["args"]), m["occ"])
        if code is None:
            counts["incompetent"] += 1
            continue
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the mutant's process: never returns
            os.close(read)
            status = 0
            try:
                resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 1))
                signal.alarm(WALL_LIMIT)
                if m["pos"][0] in cheap and in_place(mod, code, path):
                    mine = calls
                else:
                    mine = fresh_tables(name, code, path)
                killer = play(mine, killers)
                if killer:
                    os.write(write, killer.encode())
                    status = 1
            except BaseException:  # a mutant may break anything (its import too): a kill
                status = 1
            os._exit(status)
        os.close(write)
        _, wait = os.waitpid(pid, 0)
        with os.fdopen(read) as pipe:
            killer = pipe.read()
        if os.WIFEXITED(wait) and os.WEXITSTATUS(wait) == 0:
            counts["survived"] += 1
            survivors.append(survivor(m, source, code, rel))
        else:
            counts["killed"] += 1
            if os.WIFSIGNALED(wait):
                counts["timeout"] += 1
            if killer:
                killers = [killer, *(k for k in killers if k != killer)][:30]
            if retest:
                print(f"killed: {m['head'][4:]} (by {killer or 'an error or a hang'})")
        if (i + 1) % 100 == 0:
            speed = (i + 1) / (time.monotonic() - started)
            print(f"  {i + 1}/{len(todo)} mutants, {speed:.1f}/s", file=sys.stderr, flush=True)
    killed, survived = counts["killed"], counts["survived"]
    tested = killed + survived
    what = "the saved survivors, again" if retest else "(whole module)"
    print(f"{rel}: {what}, every mutant in a forked process, killed by the rules tables")
    print(
        f"mutants {tested + counts['incompetent']}  killed {killed} (of which "
        f"{counts['timeout']} timed out)  survived {survived}  "
        f"incompetent {counts['incompetent']}"
    )
    print(f"not run: {len(in_annotation)} mutants inside type annotations (never evaluated)")
    verdict = classify(rel, survivors)
    for s in verdict.left:
        print(f"\n{s.head}\n{s.diff}")
    print(f"\n{len(verdict.equivalent)} survivors are registered equivalents (not shown)")
    for line in record(rel, tested, killed, verdict, retest):
        print(line)
    saved = save(rel, survivors)
    print(f"\nsurvivors saved to {saved.relative_to(ROOT)} (re-test them with --survivors)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
