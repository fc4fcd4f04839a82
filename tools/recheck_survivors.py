"""Re-test a ``tools/mutate_steps.py`` report's survivors against the scenarios as they are now.

Why: a whole-module cosmic-ray run takes minutes to hours on a shared
machine, and new scenarios only add kills, so after writing scenarios for a
module's survivors only those survivors need testing again.  Each survivor's
diff (as the report prints it) is applied to a scratch copy of ``src/``, the
rules scenarios are played in one process (``tools/kill_scenarios.py``), and
the diff is reverted.  The working tree is never touched.

Usage: ``python tools/recheck_survivors.py REPORT [OUT.tsv]`` where REPORT is
the saved output of ``tools/mutate_steps.py --all MODULE``.  Prints how many
survivors the scenarios now kill; OUT.tsv (optional) gets one line per
survivor: its header, ``killed`` / ``survived`` / ``patch-failed`` and the
first scenario that failed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def survivors(report: str) -> list[tuple[str, str]]:
    """(header, unified diff) of every survivor in a ``mutate_steps.py`` report."""
    out = []
    for block in re.split(r"^--- survived: ", report, flags=re.M)[1:]:
        head = block.splitlines()[0]
        if "--- mutation diff ---\n" not in block:
            continue
        diff = block.split("--- mutation diff ---\n", 1)[1].rstrip("\n") + "\n"
        out.append((head, diff))
    return out


def main(argv: list[str]) -> int:
    if not argv or not Path(argv[0]).is_file():
        print("usage: python tools/recheck_survivors.py REPORT [OUT.tsv]", file=sys.stderr)
        return 2
    items = survivors(Path(argv[0]).read_text(encoding="utf-8"))
    if not items:
        print(f"{argv[0]}: no survivor in this report", file=sys.stderr)
        return 1
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="dragonante-recheck-") as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "src", work / "src", ignore=shutil.ignore_patterns("__pycache__"))
        env = {**os.environ, "PYTHONPATH": str(work / "src")}
        scenarios = str(ROOT / "tests" / "scenarios")
        kill = [sys.executable, str(ROOT / "tools" / "kill_scenarios.py"), scenarios]
        for head, diff in items:
            patch = ["patch", "-s", "-p1", "-d", tmp]
            applied = subprocess.run(patch, input=diff, text=True, capture_output=True)
            if applied.returncode:
                rows.append((head, "patch-failed", ""))
                continue
            result = subprocess.run(kill, env=env, capture_output=True, text=True, timeout=300)
            subprocess.run([*patch, "-R"], input=diff, text=True, check=True, capture_output=True)
            first = result.stderr.strip().splitlines()[0] if result.stderr.strip() else ""
            rows.append((head, "killed" if result.returncode else "survived", first[:200]))
    killed = sum(1 for _, verdict, _ in rows if verdict == "killed")
    failed = sum(1 for _, verdict, _ in rows if verdict == "patch-failed")
    print(f"{killed} of {len(rows)} survivors now killed; {failed} diffs could not be applied")
    if len(argv) > 1:
        Path(argv[1]).write_text("".join(f"{h}\t{v}\t{k}\n" for h, v, k in rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
