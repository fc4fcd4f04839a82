"""The optional compiled engine: the hot modules' own source, compiled, used only while current.

The rules are written once, in Python.  When the project is installed with
Cython at hand, ``hatch_build.py`` compiles the modules in :data:`MODULES`
(the step interpreter, the play flow, the cards' powers, the self-play loop,
and what a search spends its time on: the re-deals, ``ismcts``, the
heuristic with its evaluation and fast policy, the chance of winning, the
learned bot and its features) from their unchanged ``.py`` files into
extension modules in ``dragonante/_compiled/``, and writes ``manifest.json``
there: the sha256 of each ``.py`` file it compiled.  No second
implementation: a compiled module *is* its source, translated by Cython with
every Python semantic kept (annotations are not used as C types,
``docs/benchmarks.md``), so the golden
digests are identical compiled and pure.

:func:`install` (called once by ``dragonante/__init__.py``) puts a finder in
front of ``sys.meta_path`` that imports a listed module from its compiled
build only if that build's manifest hash is the hash of the ``.py`` file
beside the package now.  A module edited after the install (not re-synced)
is therefore imported from its source, never from the stale build: slower,
never a different game.  Nothing is compiled, or everything is pure, when

* the package was built without Cython or a C compiler (a warning at install),
* the build is for another interpreter (its file name carries ``EXT_SUFFIX``),
* or ``DRAGONANTE_PURE_PYTHON=1`` is set (as for the observation encoder):
  the way to test or compare the fallback.

:func:`status` says which modules run compiled and why the others do not;
``python -c 'from dragonante.compiled_engine import main; main()'`` prints it.
Standard library only.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

#: The modules compiled, by import name: where the bench's time goes
#: (``docs/benchmarks.md``, "A compiled engine"), and where a search's does
#: (the re-deals and the bots' judgements inside it: "The search, compiled").
#: The one list: ``hatch_build.py`` reads it from this file's text.
MODULES: tuple[str, ...] = (
    "dragonante.kernel.decisions",
    "dragonante.kernel.interpreter",
    "dragonante.kernel.rng",
    "dragonante.engine.effects",
    "dragonante.engine.state",
    "dragonante.engine.core",
    "dragonante.engine.flights",
    "dragonante.engine.flow",
    "dragonante.engine.powers",
    "dragonante.sim.selfplay",
    "dragonante.engine.determinize",
    "dragonante.bots.evaluate",
    "dragonante.bots.policy",
    "dragonante.bots.heuristic",
    "dragonante.bots.outcome",
    "dragonante.bots.ismcts",
    "dragonante.bots.features",
    "dragonante.bots.learned",
)
#: The same variable that sends the observation encoder to pure Python.
PURE_PYTHON_ENV = "DRAGONANTE_PURE_PYTHON"
#: The package directory (``src/dragonante`` in a checkout).
PACKAGE_DIR = Path(__file__).resolve().parent
#: Where the build hook puts the compiled modules and their manifest.
BUILD_DIR = PACKAGE_DIR / "_compiled"
MANIFEST = "manifest.json"


class Status(NamedTuple):
    """Which listed modules import compiled, and why each other one does not."""

    compiled: tuple[str, ...]
    pure: dict[str, str]


def source_path(module: str) -> Path:
    """The ``.py`` file of a module of this package (``dragonante.engine.flow``)."""
    return PACKAGE_DIR.joinpath(*module.split(".")[1:]).with_suffix(".py")


def built_path(module: str, build_dir: Path = BUILD_DIR) -> Path:
    """Where the build hook puts ``module`` compiled for this interpreter."""
    return build_dir / f"{module}{sysconfig.get_config_var('EXT_SUFFIX') or '.so'}"


def source_sha256(path: Path) -> str:
    """The hex sha256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def module_sha256(source: Path) -> str:
    """What the manifest records for a module: the hash of its ``.py`` file, and
    of the ``.pxd`` beside it when there is one (its declarations for Cython)."""
    pxd = source.with_suffix(".pxd")
    if not pxd.is_file():
        return source_sha256(source)
    return hashlib.sha256(source.read_bytes() + b"\0" + pxd.read_bytes()).hexdigest()


def cimports(module: str) -> tuple[str, ...]:
    """The listed modules whose declarations ``module``'s ``.pxd`` uses (``from X
    cimport``): its build imports their compiled types, so it can run only
    beside their builds."""
    pxd = source_path(module).with_suffix(".pxd")
    if not pxd.is_file():
        return ()
    used = []
    for line in pxd.read_text(encoding="utf-8").splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] == "from" and words[2] == "cimport":
            used.append(words[1])
    return tuple(m for m in used if m in MODULES)


def pure_python_forced() -> bool:
    """Whether ``DRAGONANTE_PURE_PYTHON`` asks for pure Python (any value but empty or 0)."""
    return os.environ.get(PURE_PYTHON_ENV, "").strip() not in ("", "0")


def survey(build_dir: Path = BUILD_DIR, *, honour_env: bool = True) -> Status:
    """Decide, module by module, whether its compiled build may be imported."""
    if honour_env and pure_python_forced():
        why = f"{PURE_PYTHON_ENV}={os.environ[PURE_PYTHON_ENV]} is set"
        return Status((), dict.fromkeys(MODULES, why))
    try:
        recorded = json.loads((build_dir / MANIFEST).read_text(encoding="utf-8"))["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        why = "not built (no Cython or no C compiler when the package was installed)"
        return Status((), dict.fromkeys(MODULES, why))
    compiled: list[str] = []
    pure: dict[str, str] = {}
    for module in MODULES:
        built = built_path(module, build_dir)
        source = source_path(module)
        if not isinstance(recorded, dict) or module not in recorded:
            pure[module] = "not in the build's manifest"
        elif not built.is_file():
            pure[module] = f"not built for this interpreter ({built.name} is missing)"
        elif not source.is_file() or module_sha256(source) != recorded[module]:
            pure[module] = "stale: its source changed since the build (re-sync to rebuild)"
        else:
            compiled.append(module)
    # A build that uses another module's compiled types needs that module's build.
    dropped = True
    while dropped:
        dropped = False
        for module in list(compiled):
            missing = [m for m in cimports(module) if m not in compiled]
            if missing:
                compiled.remove(module)
                pure[module] = f"its build needs {missing[0]} compiled, which is not"
                dropped = True
    return Status(tuple(compiled), pure)


class CompiledFinder(importlib.abc.MetaPathFinder):
    """Import the listed modules from their (current) compiled builds."""

    def __init__(self, builds: dict[str, Path]) -> None:
        self.builds = builds

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        built = self.builds.get(fullname)
        if built is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(built))
        return importlib.util.spec_from_file_location(fullname, built, loader=loader)


_status: Status | None = None


def install() -> Status:
    """Put the finder in front of the import system (once per process)."""
    global _status
    if _status is None:
        _status = survey()
        if _status.compiled and not any(isinstance(f, CompiledFinder) for f in sys.meta_path):
            builds = {m: built_path(m) for m in _status.compiled}
            sys.meta_path.insert(0, CompiledFinder(builds))
    return _status


def status() -> Status:
    """What :func:`install` decided for this process."""
    return install()


def engine_build() -> str:
    """``compiled``, ``partly compiled`` or ``pure``: what ``dragonante bench`` reports."""
    compiled = status().compiled
    if not compiled:
        return "pure"
    return "compiled" if len(compiled) == len(MODULES) else "partly compiled"


def main() -> int:
    """Print which modules run compiled; 1 when any does not."""
    st = status()
    for module in MODULES:
        mark = "compiled" if module in st.compiled else f"pure: {st.pure[module]}"
        print(f"{module}: {mark}")
    return 0 if not st.pure else 1
