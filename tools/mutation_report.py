"""Summarize the last mutation run (``./dev mutate``): kill rate per module, survivors.

Run ``python tools/mutation_report.py [MODULE]`` after ``mutmut run``; MODULE
is a dotted prefix such as ``dragonante.engine.flights``.  It reads mutmut's
own result files under ``mutants/`` (one ``.meta`` JSON per source file) and
prints, per module that has results: mutants, killed, survived, no tests
(no scenario reaches the function), timeouts, and two kill rates - of all
mutants, and of the mutants some scenario reaches.  Survivors and unreached
mutants are listed by name; ``mutmut show NAME`` prints the change.

Why a script of our own: mutmut's ``results`` lists survivors only and its
badge gives one figure for everything run; docs/engine.md reports both rates
per module, and this is the command that makes those figures.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "mutants" / "src"

#: mutmut's exit codes (mutmut.stats.status_by_exit_code), grouped.
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped"}
for _code in (24, -24, 36, 152, 255):
    STATUS[_code] = "timeout"


def module_results() -> dict[str, dict[str, str]]:
    """{module: {mutant name: status}} for every file mutmut has run mutants of."""
    out: dict[str, dict[str, str]] = {}
    for meta in sorted(RESULTS.rglob("*.py.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})
        checked = {k: STATUS.get(v, "suspicious") for k, v in codes.items() if v is not None}
        if checked:
            rel = meta.relative_to(RESULTS).with_suffix("").with_suffix("")
            out[".".join(rel.parts)] = checked
    return out


def main(argv: list[str]) -> int:
    prefix = argv[0] if argv else ""
    results = {m: r for m, r in module_results().items() if m.startswith(prefix)}
    if not results:
        print("no mutation results: run ./dev mutate first", file=sys.stderr)
        return 1
    header = f"{'module':<36}{'mutants':>8}{'killed':>8}{'survived':>9}{'no tests':>9}"
    print(header + f"{'timeout':>8}{'kill rate':>11}{'reached':>9}")
    for module, statuses in results.items():
        c = Counter(statuses.values())
        total = sum(c.values())
        killed = c["killed"] + c["timeout"]
        reached = total - c["no tests"] - c["skipped"]
        rate = f"{100 * killed / total:.1f}%" if total else "-"
        of_reached = f"{100 * killed / reached:.1f}%" if reached else "-"
        print(
            f"{module:<36}{total:>8}{c['killed']:>8}{c['survived']:>9}{c['no tests']:>9}"
            f"{c['timeout']:>8}{rate:>11}{of_reached:>9}"
        )
    for module, statuses in results.items():
        for kind in ("survived", "no tests", "suspicious"):
            names = sorted(n for n, st in statuses.items() if st == kind)
            if names:
                print(f"\n{module}: {kind} ({len(names)})")
                for n in names:
                    print(f"  {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
