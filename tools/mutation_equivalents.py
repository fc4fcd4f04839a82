"""Registered equivalent mutants, and the figures of each module's last mutation run.

Why: issue 21 counts the mutants the rules scenarios kill, and asks that
every survivor be killed or explained as equivalent.  An explanation in
prose drifts: nobody re-checks it when the code or the scenarios change.
So each equivalent mutant is registered, with its proof, in
``tests/mutation/equivalent/<dotted module>.toml``::

    [[mutant]]
    function = "theme_types"           # the function mutated ("" at module level)
    before = "return tuple(new if c == old else c for c in colors), unique"
    after = "return tuple(new if c is old else c for c in colors), unique"
    why = "both strings are constants of the module's own tables: one object each"

``before`` and ``after`` are the removed and added lines of the mutant's
diff, each stripped, joined by newlines.  After every run (``./dev mutate
--all`` / ``--survivors``) the survivors are matched against the registry:
a match is *equivalent*, the rest are *left*, and an entry that matches no
survivor is reported as stale (the mutant is killed now, or the code
changed: delete or fix the entry).  Two figures are printed and saved to
``.mutation/<module>.summary.json``: the kill rate (killed / mutants) and the
mutation score (killed / (mutants - equivalent)), the usual definition,
which does not count against the scenarios a mutant no game can tell apart.

``python tools/mutation_equivalents.py`` prints every module's saved
figures and the totals; ``--check`` validates the registry files (every
entry complete, its ``before`` text still in the module, no entry twice),
which ``tests/test_mutation_registry.py`` runs.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "tests" / "mutation" / "equivalent"
SAVED = ROOT / ".mutation"
#: An explanation shorter than this is not a proof.
MIN_WHY = 20


class Entry(NamedTuple):
    """One registered equivalent mutant."""

    function: str
    before: str
    after: str
    why: str


class Survivor(NamedTuple):
    """One surviving mutant as a run reports it."""

    function: str
    head: str
    diff: str


class Verdict(NamedTuple):
    """A run's survivors sorted against the registry."""

    equivalent: list[Survivor]
    left: list[Survivor]
    stale: list[Entry]


def dotted(module: str) -> str:
    """``src/dragonante/engine/flow.py`` or ``dragonante.engine.flow`` -> the dotted name."""
    return module.removeprefix("src/").removesuffix(".py").replace("/", ".")


def registry_file(module: str) -> Path:
    return REGISTRY / f"{dotted(module)}.toml"


def source_file(module: str) -> Path:
    return ROOT / "src" / (dotted(module).replace(".", "/") + ".py")


def load(module: str) -> list[Entry]:
    """The registered equivalents of ``module`` (none if it has no file); a malformed
    file raises ``ValueError`` naming the entry."""
    path = registry_file(module)
    if not path.is_file():
        return []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path.name}: not valid TOML: {e}") from e
    unknown = set(data) - {"mutant"}
    if unknown:
        raise ValueError(f"{path.name}: unknown top-level keys {sorted(unknown)}")
    out = []
    for i, raw in enumerate(data.get("mutant", [])):
        where = f"{path.name}: mutant {i + 1}"
        fields = ("function", "before", "after", "why")
        if not isinstance(raw, dict) or set(raw) != set(fields):
            raise ValueError(f"{where}: needs exactly the keys {', '.join(fields)}")
        if not all(isinstance(raw[f], str) for f in fields):
            raise ValueError(f"{where}: every key is a string")
        entry = Entry(*(raw[f] for f in fields))
        if not entry.before or not entry.after or entry.before == entry.after:
            raise ValueError(f"{where}: before and after must be two different non-empty texts")
        if len(entry.why.strip()) < MIN_WHY:
            raise ValueError(f"{where}: why must explain (at least {MIN_WHY} characters)")
        out.append(entry)
    return out


def changed_lines(diff: str) -> tuple[str, str]:
    """The removed and added lines of a unified diff, each stripped."""
    before, after = [], []
    for line in diff.splitlines():
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("-"):
            before.append(line[1:].strip())
        elif line.startswith("+"):
            after.append(line[1:].strip())
    return "\n".join(before), "\n".join(after)


_IN_FUNCTION = re.compile(r" in ([\w.<>]+)\s*$")
_DICE_HEAD = re.compile(r"^--- survived: (\S+) line")


def function_in(head: str) -> str:
    """The function a survivor header names (both runners' header forms)."""
    m = _IN_FUNCTION.search(head) or _DICE_HEAD.match(head.strip())
    name = m.group(1) if m else ""
    return "" if name == "-" else name


def classify(module: str, survivors: Iterable[tuple[str, str]]) -> Verdict:
    """Sort ``(header, diff)`` survivors into registered equivalents and the rest."""
    entries = load(module)
    index = {(e.function, e.before, e.after): e for e in entries}
    used: set[Entry] = set()
    equivalent, left = [], []
    for head, diff in survivors:
        s = Survivor(function_in(head), head, diff)
        hit = index.get((s.function, *changed_lines(diff)))
        if hit is None:
            left.append(s)
        else:
            used.add(hit)
            equivalent.append(s)
    return Verdict(equivalent, left, [e for e in entries if e not in used])


def summary_file(module: str) -> Path:
    return SAVED / f"{dotted(module)}.summary.json"


def record(module: str, mutants: int, killed: int, verdict: Verdict, retest: bool) -> list[str]:
    """Save the module's figures and return the lines to print.

    A full run (``retest`` false) sets them; a re-test of the saved survivors
    adds its kills to the last full run's and replaces the survivors.
    """
    path = summary_file(module)
    if retest:
        last: dict[str, Any] = (
            json.loads(path.read_text(encoding="utf-8")) if path.is_file() else earlier(module)
        )
        if not last:
            return ["no full run on record for this module: run --all for its figures"]
        mutants = int(last["mutants"])
        killed = int(last["killed"]) + killed
    equivalent, left = len(verdict.equivalent), len(verdict.left)
    stale_survivors = mutants - killed - equivalent - left
    figures = {
        "module": dotted(module),
        "mutants": mutants,
        "killed": killed,
        "equivalent": equivalent,
        "left": left,
        "not_retested": stale_survivors,
    }
    SAVED.mkdir(exist_ok=True)
    path.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    lines = [describe(figures)]
    if stale_survivors:
        lines.append(
            f"{stale_survivors} survivors of the last full run no longer apply to the source: "
            "run --all again for exact figures"
        )
    for e in verdict.stale:
        lines.append(
            f"stale registry entry (matches no survivor: killed now, or the code changed): "
            f"{e.function}: {e.before!r} -> {e.after!r}"
        )
    return lines


def earlier(module: str) -> dict[str, Any]:
    """A full run's figures from what the runners wrote before summaries existed:
    the card engine's verdicts of the last run, the Dice Gambit's report."""
    verdicts = SAVED / f"{dotted(module)}.survivors.verdicts.json"
    if verdicts.is_file():
        rows = json.loads(verdicts.read_text(encoding="utf-8"))
        return {"mutants": len(rows), "killed": sum(r[2] == "killed" for r in rows)}
    report = ROOT / "mutants" / "dice" / f"{dotted(module).rsplit('.', 1)[-1]}.txt"
    if "dice" in dotted(module) and report.is_file():
        m = re.search(r"killed (\d+)  survived (\d+)", report.read_text(encoding="utf-8"))
        if m:
            killed, survived = int(m.group(1)), int(m.group(2))
            return {"mutants": killed + survived, "killed": killed}
    return {}


def describe(f: dict[str, Any]) -> str:
    mutants, killed, eq = f["mutants"], f["killed"], f["equivalent"]
    rate = 100 * killed / mutants if mutants else 0.0
    score = 100 * killed / (mutants - eq) if mutants > eq else 0.0
    return (
        f"{f['module']}: mutants {mutants}  killed {killed}  registered equivalent {eq}  "
        f"left {f['left']}  kill rate {rate:.1f}%  mutation score {score:.1f}%"
    )


def check() -> list[str]:
    """Problems in the registry files (empty: all well)."""
    problems = []
    for path in sorted(REGISTRY.glob("*.toml")):
        module = path.stem
        src = source_file(module)
        if not src.is_file():
            problems.append(f"{path.name}: no module {module}")
            continue
        try:
            entries = load(module)
        except ValueError as bad:
            problems.append(str(bad))
            continue
        lines = {line.strip() for line in src.read_text(encoding="utf-8").splitlines()}
        seen: set[tuple[str, str, str]] = set()
        for e in entries:
            k = (e.function, e.before, e.after)
            if k in seen:
                problems.append(f"{path.name}: {e.function}: {e.before!r} registered twice")
            seen.add(k)
            missing = [b for b in e.before.split("\n") if b not in lines]
            if missing:
                problems.append(f"{path.name}: {e.function}: {missing[0]!r} is not in {src.name}")
    return problems


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        problems = check()
        for p in problems:
            print(p)
        return 1 if problems else 0
    rows = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(SAVED.glob("*.summary.json"))]
    if not rows:
        print("no mutation run on record: ./dev mutate --all MODULE first", file=sys.stderr)
        return 1
    for f in rows:
        print(describe(f))
    total = {
        "module": "all",
        **{k: sum(int(f[k]) for f in rows) for k in ("mutants", "killed", "equivalent", "left")},
    }
    print(describe(total))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
