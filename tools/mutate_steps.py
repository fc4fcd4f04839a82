"""Mutation testing of a rules module with cosmic-ray (``./dev mutate --all|--steps MODULE``).

Why: mutmut (``./dev mutate``) cannot mutate decorated functions, and the
engine registers its steps and question resolvers with ``@step(...)`` /
``@resolver(...)`` / ``@power(...)``: most of the rules.  cosmic-ray mutates
any function; with the in-process kill test below it costs well under a
second a mutant, so ``--all`` mutates a whole module (one tool, one report
per module), and without it only the decorated functions' bodies (not the
decorator lines) are mutated.  It runs on a scratch copy of the project so
the working tree is never left mutated.

Usage::

    python tools/mutate_steps.py [--all] src/dragonante/engine/flights.py
    python tools/mutate_steps.py --survivors src/dragonante/engine/flights.py

The kill test is the rules scenarios alone, played in one process by
``tools/kill_scenarios.py`` (the Dice Gambit's scripted rules tables, by
``tools/kill_dice.py``, for a ``dice/`` module), stopped at the first failure.  It prints the
counts, the kill rate and every survivor's diff, and saves the survivors'
diffs to ``.mutation/<module>.survivors.diff`` (ignored by git) so triage
needs no rerun.  ``--survivors`` re-tests only the saved survivors (each diff
applied with ``patch`` to a fresh scratch copy of the current sources) after
scenarios were added, prints which are now killed, and rewrites the file with
the ones still alive; a diff that no longer applies (the source changed) is
reported as stale and kept.
"""

from __future__ import annotations

import ast
import difflib
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cosmic_ray.work_db import WorkDB, use_db  # type: ignore[import-untyped]
from cosmic_ray.work_item import (  # type: ignore[import-untyped]
    TestOutcome,
    WorkerOutcome,
    WorkResult,
)

ROOT = Path(__file__).resolve().parent.parent
SAVED = ROOT / ".mutation"
#: A survivor's header in a saved file: ``### survived: line 12 core/OPERATOR #3 in pay``.
HEADER = re.compile(r"^### survived: line (\d+) (\S+) #(\d+)(?: in \S+)?$", re.MULTILINE)

USAGE = "usage: python tools/mutate_steps.py [--all | --survivors] src/dragonante/engine/MODULE.py"


def decorated_ranges(source: str) -> list[tuple[str, int, int]]:
    """(name, first body line, last line) of every decorated top-level function."""
    out = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.decorator_list:
            out.append((node.name, node.lineno, node.end_lineno or node.lineno))
    return out


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(start, end) positions of every type annotation in ``source``.

    The engine's modules use ``from __future__ import annotations``: an
    annotation is never evaluated, so a mutant inside one (cosmic-ray turns
    ``int | None`` into ``int // None``) is equivalent by construction.  Such
    mutants are set aside and counted, not run.
    """
    spans = []
    for node in ast.walk(ast.parse(source)):
        found: list[ast.expr | None] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            every = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
            found = [x.annotation for x in every if x is not None]
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found = [node.annotation]
        for x in found:
            if x is not None:
                end = (x.end_lineno or x.lineno, x.end_col_offset or 0)
                spans.append(((x.lineno, x.col_offset), end))
    return spans


def saved_path(module: str) -> Path:
    """Where a module's survivors are saved: one file per module, named after its path."""
    stem = module.removeprefix("src/").removesuffix(".py").replace("/", ".")
    return SAVED / f"{stem}.survivors.diff"


def scratch_copy(work: Path) -> None:
    """Copy what the kill test needs (sources, tests, project file) into ``work``."""
    for part in ("src", "tests", "pyproject.toml"):
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, work / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(src, work / part)


def kill_command(work: Path, module: str) -> str:
    """The test command run against the copy in ``work`` (its sources first on the path)."""
    if "/dice/" in module:
        # the Dice Gambit's rules tables, played in one process (tools/kill_dice.py)
        kill = ROOT / "tools" / "kill_dice.py"
        return f"env PYTHONPATH={work / 'src'} {sys.executable} {kill} {work}"
    return (
        f"env PYTHONPATH={work / 'src'} {sys.executable} "
        f"{ROOT / 'tools' / 'kill_scenarios.py'} {work / 'tests' / 'scenarios'} {work / 'killers'}"
    )


def cosmic_run(
    work: Path, module: str, command: str, timeout: float, skip: Callable[[Any], bool]
) -> list[tuple[Any, Any]]:
    """Run cosmic-ray over ``module`` in the scratch copy ``work``, killing with
    ``command``; every mutant (work item) ``skip`` is true of is set aside
    untested.  The (work item, result) of every mutant tested.  Shared with
    ``tools/mutate_dice.py``."""
    config = work / "cosmic-ray.toml"
    config.write_text(
        "[cosmic-ray]\n"
        f'module-path = "{module}"\n'
        f"timeout = {timeout}\n"
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
            if skip(item):
                session.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    subprocess.run([*run, "exec", str(config), str(db)], cwd=work, check=True)
    with use_db(str(db), WorkDB.Mode.open) as session:
        return [
            (item, result)
            for item, result in session.completed_work_items
            if result.worker_outcome != WorkerOutcome.SKIPPED
        ]


def save(module: str, survivors: list[tuple[str, str]]) -> Path:
    """Write (header, diff) survivors to the module's file; returns its path."""
    path = saved_path(module)
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(f"{h}\n{d.rstrip()}\n\n" for h, d in survivors), encoding="utf-8")
    return path


def survivor(m: dict[str, Any], source: str, code: str, rel: str) -> tuple[str, str]:
    """A surviving mutant as it is printed and saved: its header (line, operator,
    occurrence, function; a re-tested one keeps its saved header) and its diff."""
    head = f"### survived: line {m['pos'][0]} {m['op']} #{m['occ']}"
    if m["fn"]:
        head += f" in {m['fn']}"
    diff = difflib.unified_diff(
        source.split("\n"), code.split("\n"), fromfile="a/" + rel, tofile="b/" + rel, lineterm=""
    )
    return m.get("head", head), "\n".join(diff)


def load_saved(module: str) -> list[tuple[str, str]]:
    """The (header, diff) survivors saved by the last run over ``module``."""
    text = saved_path(module).read_text(encoding="utf-8")
    heads = list(HEADER.finditer(text))
    out = []
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out.append((m.group(0), text[m.end() : end].strip("\n")))
    return out


def retest(module: str) -> int:
    """Re-run the kill test on each saved survivor; keep the ones still alive."""
    if not saved_path(module).is_file():
        print(f"no saved survivors for {module}: run with --all first", file=sys.stderr)
        return 1
    survivors = load_saved(module)
    alive: list[tuple[str, str]] = []
    killed = stale = 0
    with tempfile.TemporaryDirectory(prefix="dragonante-mutate-") as tmp:
        work = Path(tmp)
        scratch_copy(work)
        pristine = (work / module).read_text(encoding="utf-8")
        command = kill_command(work, module)
        for head, diff in survivors:
            (work / module).write_text(pristine, encoding="utf-8")
            # cosmic-ray's own first line ("--- mutation diff ---") is not part of the patch.
            patch = "\n".join(ln for ln in diff.splitlines() if ln != "--- mutation diff ---")
            applied = subprocess.run(
                ["patch", "-p1", "--forward", "--silent", "--no-backup-if-mismatch", "-r", "-"],
                cwd=work,
                input=patch + "\n",
                text=True,
                capture_output=True,
            )
            if applied.returncode != 0:
                stale += 1
                alive.append((head, diff))
                print(f"stale (does not apply): {head[4:]}")
                continue
            run = subprocess.run(command, shell=True, cwd=work, capture_output=True, text=True)
            if run.returncode != 0:
                killed += 1
                why = run.stderr.strip().splitlines()[-1:] or ["(no message)"]
                print(f"killed: {head[4:]}\n    {why[0]}")
            else:
                alive.append((head, diff))
                print(f"still survives: {head[4:]}")
    path = save(module, alive)
    print(
        f"{module}: re-tested {len(survivors)} survivors: {killed} killed, "
        f"{len(alive) - stale} still survive, {stale} stale; saved to {path.relative_to(ROOT)}"
    )
    return 0


def main(argv: list[str]) -> int:
    mode = argv[0] if argv and argv[0] in ("--all", "--survivors") else ""
    if mode:
        argv = argv[1:]
    if len(argv) != 1 or not (ROOT / argv[0]).is_file():
        print(USAGE, file=sys.stderr)
        return 2
    module = argv[0]
    if mode == "--survivors":
        return retest(module)
    source = (ROOT / module).read_text(encoding="utf-8")
    ranges = decorated_ranges(source)
    if mode == "--all":
        ranges = [("(whole module)", 1, len(source.splitlines()))]
    if not ranges:
        print(f"{module} has no decorated function: use ./dev mutate --all", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="dragonante-mutate-") as tmp:
        work = Path(tmp)
        scratch_copy(work)
        command = kill_command(work, module)
        spans = annotation_spans(source) if "from __future__ import annotations" in source else []
        in_annotations: list[Any] = []

        def skip(item: Any) -> bool:
            pos = tuple(item.mutations[0].start_pos)
            if any(a <= pos < b for a, b in spans):
                in_annotations.append(item)
                return True
            return not any(a <= pos[0] <= b for _, a, b in ranges)

        done = cosmic_run(work, module, command, 30.0, skip)
        annotations = len(in_annotations)
    counts = Counter(
        r.test_outcome.value if r.test_outcome else r.worker_outcome.value for _, r in done
    )
    killed, survived = counts["killed"], counts["survived"]
    tested = killed + survived
    names = ", ".join(name for name, _, _ in ranges)
    print(f"{module}: {names}")
    rate = f"{100 * killed / tested:.1f}%" if tested else "-"
    # Incompetent: cosmic-ray could not apply or run the mutant (not a kill).
    print(
        f"mutants {len(done)}  killed {killed}  survived {survived}  "
        f"incompetent {counts['incompetent']}  kill rate {rate} (of killed + survived)"
    )
    print(f"not run: {annotations} mutants inside type annotations (never evaluated)")
    survivors = []
    for item, result in sorted(done, key=lambda d: d[0].mutations[0].start_pos):
        if result.test_outcome == TestOutcome.SURVIVED:
            m = item.mutations[0]
            head = f"### survived: line {m.start_pos[0]} {m.operator_name} #{m.occurrence}"
            if m.definition_name:
                head += f" in {m.definition_name}"
            survivors.append((head, result.diff or ""))
            print(f"\n{head}\n{result.diff or ''}")
    path = save(module, survivors)
    print(f"\nsurvivors saved to {path.relative_to(ROOT)} (re-test them with --survivors)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
