"""Mutation testing of one card-engine module, every mutant tested in a forked process.

Why: cosmic-ray (``tools/mutate_steps.py``) starts a fresh interpreter per
mutant, which then imports the engine and parses all the scenario files
again: about 0.7 s of CPU for 0.08 s of scenarios, and flow.py alone has
some 1,800 mutants.  This runner takes cosmic-ray's own mutants
(``cosmic-ray init``: the same operators and occurrences) and tests each in
a ``fork()`` of one process that has read and parsed the scenario files
once.  The fork forgets every loaded ``dragonante`` module and imports the
engine again with the mutated source served for the target module (never
written to disk, never a cached .pyc), so it sees exactly what a fresh
interpreter would (decorators registering steps and powers run again), then
plays every rules scenario (first failure stops; the last killers first)
and exits.

Usage: ``python tools/mutate_fast.py src/dragonante/engine/MODULE.py``
(``./dev mutate --all MODULE``).  The verdicts were checked against a
cosmic-ray run of core.py (docs/mutation.md).  The output, and the
survivors' diffs saved to ``.mutation/<module>.survivors.diff`` (re-tested
with ``./dev mutate --survivors MODULE``), are those of
``tools/mutate_steps.py``.  A mutant that makes the module fail to load,
the engine raise, or the scenarios use more than ``CPU_LIMIT`` seconds of CPU
(a hang) is killed, as with cosmic-ray.
"""

from __future__ import annotations

import ast
import copy
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import tomllib
import warnings
from collections import Counter
from collections.abc import Set as AbstractSet
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mutate_steps import HEADER, annotation_spans, load_saved, save, survivor
from mutation_equivalents import classify, record

ROOT = Path(__file__).resolve().parent.parent
#: CPU seconds one mutant's process may use before it counts as killed (a
#: mutant that loops forever): CPU time, not wall time, so a loaded machine
#: cannot turn a slow survivor into a kill (every scenario takes about 0.3 s).
CPU_LIMIT = 8
#: Wall seconds, a last resort for a mutant that would block without computing.
WALL_LIMIT = 300


def saved_mutants(rel: str, source: str) -> list[dict[str, Any]]:
    """The survivors saved by the last run over the module, each diff applied again.

    A diff that no longer applies (the source changed since) is reported and
    dropped from the re-test: run the whole module again then.
    """
    out = []
    with tempfile.TemporaryDirectory(prefix="dragonante-mutate-") as tmp:
        target = Path(tmp) / "module.py"
        for head, diff in load_saved(rel):
            target.write_text(source, encoding="utf-8")
            patch = "\n".join(ln for ln in diff.splitlines() if not ln.startswith(("--- ", "+++ ")))
            done = subprocess.run(
                ["patch", "--silent", "--forward", "-r", "-", str(target)],
                input=patch + "\n",
                text=True,
                capture_output=True,
            )
            match = HEADER.match(head)
            if done.returncode != 0 or match is None:
                print(f"stale (no longer applies): {head[4:]}", file=sys.stderr)
                continue
            row, op, occ = int(match.group(1)), match.group(2), int(match.group(3))
            code = target.read_text(encoding="utf-8")
            out.append(
                {"op": op, "occ": occ, "pos": (row, 0), "fn": None, "head": head, "code": code}
            )
    return out


def mutants(module_path: Path) -> list[dict[str, Any]]:
    """cosmic-ray's mutants of the module (``cosmic-ray init``), in source order."""
    with tempfile.TemporaryDirectory(prefix="dragonante-mutate-") as tmp:
        config = Path(tmp) / "cr.toml"
        config.write_text(
            "[cosmic-ray]\n"
            f'module-path = "{module_path}"\n'
            'timeout = 10.0\nexcluded-modules = []\ntest-command = "true"\n'
            '[cosmic-ray.distributor]\nname = "local"\n',
            encoding="utf-8",
        )
        db = Path(tmp) / "session.sqlite"
        cli = [sys.executable, "-m", "cosmic_ray.cli", "init", str(config), str(db)]
        subprocess.run(cli, check=True, cwd=tmp)
        rows = (
            sqlite3.connect(db)
            .execute(
                "select operator_name, operator_args, occurrence, start_pos_row,"
                " start_pos_col, definition_name from mutation_specs"
            )
            .fetchall()
        )
    out = [
        {"op": r[0], "args": _args(r[1]), "occ": r[2], "pos": (r[3], r[4]), "fn": r[5]}
        for r in rows
    ]
    out.sort(key=lambda m: (m["pos"], m["op"], m["occ"]))
    return out


def to_run(
    path: Path, rel: str, source: str, retest: bool
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The mutants to play (the saved survivors when ``retest``), and those left
    out because they lie inside type annotations, which the module never
    evaluates (``from __future__ import annotations``)."""
    if retest:
        return saved_mutants(rel, source), []
    todo = mutants(path)
    if "from __future__ import annotations" not in source:
        return todo, []
    spans = annotation_spans(source)
    skipped = [m for m in todo if any(a <= m["pos"] < b for a, b in spans)]
    return [m for m in todo if m not in skipped], skipped


def _args(raw: str | None) -> dict[str, Any]:
    """An operator's arguments as stored by cosmic-ray (JSON, sometimes JSON of JSON)."""
    value: Any = json.loads(raw or "{}")
    if isinstance(value, str):
        value = json.loads(value or "{}")
    return dict(value)


class _Mutated(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the mutated source for one module name (never the file, nor a cached .pyc)."""

    def __init__(self, name: str, code: str, path: Path) -> None:
        self.name, self.code, self.path = name, code, path

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=str(self.path))

    def exec_module(self, module: ModuleType) -> None:
        module.__file__ = str(self.path)
        exec(compile(self.code, str(self.path), "exec"), module.__dict__)  # the point


def in_place(mod: ModuleType, code: str, path: Path) -> bool:
    """Give the loaded ``mod``'s functions the mutated ``code``'s bodies; True if one changed.

    For a mutant inside an ordinary function body (:func:`body_lines`).  Each
    top-level function of the module keeps its identity and takes the code
    compiled from the mutated source (``fn.__code__``), so everything that
    holds it runs the mutant, as after a fresh import: the kernel's
    registries (``@step``, ``@resolver``, ``@power``), the modules that
    imported it (``from core import pay``) and closures made at import (a
    registry's ``explain``).  Executing the module again instead would
    register every step a second time, which the kernel refuses (every mutant
    "killed"), and leave the closures on the old function (false survivors).
    False when no function's code changed (the mutant is elsewhere): the
    caller imports afresh then.
    """
    compiled = compile(code, str(path), "exec")
    bodies = {c.co_name: c for c in compiled.co_consts if isinstance(c, CodeType)}
    changed = False
    for name, fn in list(vars(mod).items()):
        if not isinstance(fn, FunctionType) or fn.__module__ != mod.__name__:
            continue
        body = bodies.get(name)
        if body is not None and fn.__code__.co_name == name and fn.__code__ != body:
            fn.__code__ = body
            changed = True
    return changed


def import_time_calls(package: Path) -> set[str]:
    """The names of the functions some module of ``package`` calls while it is imported.

    Module-level statements, decorators (``@power("x", reshapes=True)``),
    default values and class bodies run at import; a function called there
    (``power``, which registers its families in ``RESHAPING`` at once, and
    returns no inner function) has done its work before any mutant is swapped
    in, so its body must be tested with a fresh import too.  Names only (a
    call through ``core.power`` counts as ``power``): a name shared with a
    function that is not called at import only costs speed.
    """
    names: set[str] = set()

    def calls(node: ast.AST) -> None:
        for n in ast.walk(node):
            if isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Name):
                    names.add(f.id)
                elif isinstance(f, ast.Attribute):
                    names.add(f.attr)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                calls_outside_body(n)

    def calls_outside_body(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for dec in fn.decorator_list:
            calls(dec)
        for default in [*fn.args.defaults, *fn.args.kw_defaults]:
            if default is not None:
                calls(default)

    def module_level(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                calls_outside_body(stmt)
            elif isinstance(stmt, ast.ClassDef):
                for dec in [*stmt.decorator_list, *stmt.bases]:
                    calls(dec)
                module_level(stmt.body)
            else:
                calls(stmt)

    for path in sorted(package.rglob("*.py")):
        module_level(ast.parse(path.read_text(encoding="utf-8")).body)
    return names


def body_lines(source: str, at_import: AbstractSet[str] = frozenset()) -> set[int]:
    """Lines where a mutant can be tested in place: inside the body of a top-level
    function that defines no inner function and that no module calls while
    it is imported (``at_import``, from :func:`import_time_calls`).

    Everything else runs when a module is imported - module-level code,
    decorator lines (``@power("x", reshapes=True)``), default values, and the
    decorator factories (``step``, ``power``: their inner function, or their
    body itself, runs as other modules import) - and needs a fresh import
    (:func:`fresh_engine`).
    """
    lines: set[int] = set()
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef) or node.name in at_import:
            continue
        if any(
            isinstance(n, (ast.FunctionDef, ast.Lambda)) for n in ast.walk(node) if n is not node
        ):
            continue
        first = node.body[0].lineno
        if isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            first = node.body[0].end_lineno or first  # the docstring
        lines.update(range(first, (node.end_lineno or first) + 1))
    return lines


def fresh_engine(name: str, code: str, path: Path) -> Any:
    """Forget every loaded dragonante module and import them again, ``name`` mutated.

    Exactly what a fresh interpreter would see (decorators run again, so a
    mutant in ``@step``/``@power`` registration counts), without the
    interpreter's start-up.  Returns the fresh ``dragonante.scenarios``.
    """
    for loaded in [n for n in sys.modules if n == "dragonante" or n.startswith("dragonante.")]:
        del sys.modules[loaded]
    sys.meta_path.insert(0, _Mutated(name, code, path))
    return importlib.import_module("dragonante.scenarios")


def main(argv: list[str]) -> int:
    retest = bool(argv) and argv[0] == "--survivors"
    if retest:
        argv = argv[1:]
    if len(argv) != 1 or not (ROOT / argv[0]).is_file() or "/engine/" not in argv[0]:
        print(
            "usage: python tools/mutate_fast.py [--survivors] src/dragonante/engine/MODULE.py",
            file=sys.stderr,
        )
        return 2
    rel = argv[0]
    path = ROOT / rel
    name = rel.removeprefix("src/").removesuffix(".py").replace("/", ".")
    source = path.read_text(encoding="utf-8")

    from cosmic_ray.mutating import mutate_code  # type: ignore[import-untyped]
    from cosmic_ray.plugins import get_operator  # type: ignore[import-untyped]

    mod = importlib.import_module(name)
    if Path(mod.__file__ or "").resolve() != path.resolve():
        print(f"{name} is imported from {mod.__file__}, not {path}", file=sys.stderr)
        return 2
    importlib.import_module("dragonante.scenarios")  # the parent imports once (warm caches)
    files = sorted((ROOT / "tests" / "scenarios").rglob("*.toml"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    # The files are parsed as TOML once; each mutant's process builds its
    # scenarios from copies (the engine's config classes are its own).
    parsed = {text: tomllib.loads(text) for text in texts}
    toml_loads = tomllib.loads
    tomllib.loads = lambda s, **kw: (
        copy.deepcopy(parsed[s]) if s in parsed and not kw else toml_loads(s, **kw)
    )

    at_import = import_time_calls(ROOT / "src" / "dragonante")
    cheap = body_lines(source, at_import) if name not in ("dragonante.engine.decks",) else set()
    loaded = [
        sys.modules["dragonante.scenarios"].parse(x, str(f))
        for x, f in zip(texts, files, strict=True)
    ]
    todo, in_annotation = to_run(path, rel, source, retest)

    warnings.simplefilter("ignore", SyntaxWarning)  # ``x is 1``: a mutant, not our code
    killers: list[int] = []  # scenario indexes, the last killer first
    counts: Counter[str] = Counter()
    survivors: list[tuple[str, str]] = []
    verdicts: list[tuple[str, int, str]] = []  # (operator, occurrence, verdict)
    started = time.monotonic()
    for i, m in enumerate(todo):
        if "code" in m:
            code = m["code"]
        else:
            code = mutate_code(source, get_operator(m["op"])(**m["args"]), m["occ"])
        if code is None:
            counts["incompetent"] += 1
            continue
        order = killers + [k for k in range(len(files)) if k not in killers]
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the mutant's process: never returns
            os.close(read)
            status = 0
            try:
                resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 1))
                signal.alarm(WALL_LIMIT)
                if m["pos"][0] in cheap and in_place(mod, code, path):
                    scenarios: Any = sys.modules["dragonante.scenarios"]
                    play = [loaded[k] for k in order]
                else:
                    scenarios = fresh_engine(name, code, path)
                    play = [scenarios.parse(texts[k], str(files[k])) for k in order]
                for k, sc in zip(order, play, strict=True):
                    if not scenarios.run(sc).passed:
                        os.write(write, str(k).encode())
                        status = 1
                        break
            except BaseException:  # a mutant may break anything: a kill
                status = 1
            os._exit(status)
        os.close(write)
        _, wait = os.waitpid(pid, 0)
        with os.fdopen(read) as pipe:
            killer = pipe.read()
        if os.WIFEXITED(wait) and os.WEXITSTATUS(wait) == 0:
            counts["survived"] += 1
            verdicts.append((m["op"], m["occ"], "survived"))
            survivors.append(survivor(m, source, code, rel))
        else:
            counts["killed"] += 1
            verdicts.append((m["op"], m["occ"], "killed"))
            if os.WIFSIGNALED(wait):
                counts["timeout"] += 1
            if killer:
                k = int(killer)
                killers = [k, *(x for x in killers if x != k)][:30]
            if retest:
                why = files[int(killer)].relative_to(ROOT) if killer else "an error or a hang"
                print(f"killed: {m['head'][4:]} (by {why})")
        if (i + 1) % 100 == 0:
            speed = (i + 1) / (time.monotonic() - started)
            print(f"  {i + 1}/{len(todo)} mutants, {speed:.1f}/s", file=sys.stderr, flush=True)
    killed, survived = counts["killed"], counts["survived"]
    tested = killed + survived
    rate = f"{100 * killed / tested:.1f}%" if tested else "-"
    what = "the saved survivors, again" if retest else "(whole module)"
    print(f"{rel}: {what}, every mutant in a forked process")
    print(
        f"mutants {tested + counts['incompetent']}  killed {killed} (of which {counts['timeout']} "
        f"timed out)  survived {survived}  incompetent {counts['incompetent']}  kill rate {rate}"
    )
    print(f"not run: {len(in_annotation)} mutants inside type annotations (never evaluated)")
    verdict = classify(rel, survivors)
    for head, diff in [(s.head, s.diff) for s in verdict.left]:
        print(f"\n{head}\n{diff}")
    print(f"\n{len(verdict.equivalent)} survivors are registered equivalents (not shown)")
    for line in record(rel, tested, killed, verdict, retest):
        print(line)
    saved = save(rel, survivors)
    saved.with_suffix(".verdicts.json").write_text(json.dumps(verdicts), encoding="utf-8")
    print(f"\nsurvivors saved to {saved.relative_to(ROOT)} (re-test them with --survivors)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
