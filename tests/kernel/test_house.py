"""The shape of the house: who may import whom, no import circles, interpreter
internals kept inside the kernel and the two engines.

Read from the source with ``ast`` (nothing is imported), so a violation is
found even in a module no test happens to load, in a function-level import,
or under ``if TYPE_CHECKING:``.  ``docs/engine.md`` ("The house") draws the
same rules.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.import_cycles import cycles

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PKG = SRC / "dragonante"

#: Which of the rules packages each may import (besides the standard library
#: and the root package's constants, such as ``RULES_VERSION``).
MAY_IMPORT = {
    "kernel": {"kernel"},
    "dice": {"dice", "kernel"},
    "engine": {"engine", "kernel", "cards"},
    "cards": {"cards"},
}
#: What the interpreter is made of: a file outside the kernel and the two
#: engines names none of these (it answers through ``apply`` / ``advance``).
INTERNAL_MODULES = {
    "dragonante.kernel.interpreter",
    "dragonante.engine.core",
    "dragonante.dice.core",
}
INTERNAL_NAMES = {
    "dragonante.kernel": {"Registry", "KernelState", "Apply"},
    # The registries and their decorators, and the two ways to touch the queue.
    "dragonante.engine.core": {
        "RULES",
        "STEPS",
        "RESOLVERS",
        "POWERS",
        "step",
        "resolver",
        "power",
        "ante_effect",
        "ANTE_EFFECTS",
        "RESHAPING",
        "push",
        "ask",
    },
    "dragonante.dice.core": {"RULES", "STEPS", "RESOLVERS", "step", "resolver", "push", "ask"},
}
INSIDE = ("kernel", "engine", "dice")


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PKG.rglob("*.py")}


def imports(path: Path) -> Iterator[tuple[str, str | None, int]]:
    """Every import in ``path`` (anywhere, TYPE_CHECKING included):
    (module, imported name or None, line)."""
    name = module_name(path) if path.is_relative_to(SRC) else path.stem
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                yield base, alias.name, node.lineno


def edges(path: Path) -> set[str]:
    """The project modules ``path`` imports: ``from pkg import sub`` names the
    submodule, ``from pkg import name`` the package's ``__init__``."""
    out = set()
    for mod, name, _ in imports(path):
        sub = f"{mod}.{name}" if name else None
        if sub in MODULES:
            out.add(sub)
        elif mod in MODULES:
            out.add(mod)
    return out


def area(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "dragonante" else None


def test_kernel_imports_only_the_standard_library() -> None:
    bad = []
    for mod, path in MODULES.items():
        if area(mod) != "kernel":
            continue
        for target, _, line in imports(path):
            top = target.split(".")[0]
            if target.startswith("dragonante.kernel") or top in sys.stdlib_module_names:
                continue
            if top == "__future__":
                continue
            bad.append(f"{path.relative_to(ROOT)}:{line}: {target}")
    assert not bad, "the kernel is standard library only:\n" + "\n".join(bad)


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_who_may_import_whom(package: str) -> None:
    allowed = MAY_IMPORT[package]
    bad = []
    for mod, path in MODULES.items():
        if area(mod) != package:
            continue
        for target, _, line in imports(path):
            other = area(target)
            if package != "kernel" and target == "dragonante":
                continue
            if target.startswith("dragonante") and other not in allowed:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {target}")
    assert not bad, f"{package}/ may import only {sorted(allowed)}:\n" + "\n".join(sorted(set(bad)))


def test_no_import_circle_in_the_rules() -> None:
    """Counting every import, those only for type checkers too: without a
    circle there, there is none at run time either."""
    inside = {m: p for m, p in MODULES.items() if area(m) in INSIDE}
    graph = {m: {t for t in edges(p) if t in inside and t != m} for m, p in inside.items()}
    assert cycles(graph) == []


def test_no_import_circle_in_the_package() -> None:
    """No circle anywhere in ``dragonante`` either, counting an import inside a
    function: such an import only defers the circle to the first call, and it
    still ties the two modules together for a reader (``scenarios/format.py``
    and ``scenarios/skill_check.py`` were one, through ``parse``'s import).
    The web package has its own test (``tests/web/test_package_shape.py``)."""
    graph = {m: {t for t in edges(p) if t != m} for m, p in MODULES.items()}
    assert cycles(graph) == []


def test_the_import_reader_sees_imports_inside_functions(tmp_path: Path) -> None:
    """The graph above counts every import, at any depth of the file: a
    function-level ``from ... import``, a bare ``import`` in a method, and one
    under ``if TYPE_CHECKING:``."""
    (tmp_path / "m.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from dragonante.engine.state import GameState\n"
        "def f():\n"
        "    from dragonante.scenarios.skill_check import parse_check\n"
        "class C:\n"
        "    def g(self):\n"
        "        import dragonante.kernel.rng\n",
        encoding="utf-8",
    )
    assert edges(tmp_path / "m.py") == {
        "dragonante.engine.state",
        "dragonante.scenarios.skill_check",
        "dragonante.kernel.rng",
    }


def test_cycles_finds_a_circle() -> None:
    """The check above can fail: a two-module and a three-module circle are found."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert sorted(cycles(graph)) == [["a", "b"], ["c", "d", "e"]]


def outside_files() -> Iterator[Path]:
    for path in sorted(PKG.rglob("*.py")):
        if area(module_name(path)) not in INSIDE:
            yield path
    yield from sorted((ROOT / "tools").rglob("*.py"))


def test_interpreter_internals_stay_inside() -> None:
    """Bots, simulation, agents and interfaces answer through ``apply`` /
    ``advance`` and ask ``answered`` about chance; none holds a registry,
    pushes a step or clears ``pending`` to answer by hand."""
    bad = []
    for path in outside_files():
        where = path.relative_to(ROOT)
        for mod, name, line in imports(path):
            if name is None:
                if mod in INTERNAL_MODULES:
                    bad.append(f"{where}:{line}: import {mod}")
            elif f"{mod}.{name}" in INTERNAL_MODULES or name in INTERNAL_NAMES.get(mod, ()):
                bad.append(f"{where}:{line}: from {mod} import {name}")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Attribute) and t.attr == "pending":
                        bad.append(f"{where}:{node.lineno}: sets .pending")
    assert not bad, "interpreter internals used outside the engines:\n" + "\n".join(bad)
