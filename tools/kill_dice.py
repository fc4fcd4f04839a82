"""Mutation testing's kill test for the Dice Gambit: its rules tables in one process.

Why: the Dice Gambit has no TOML scenarios; its rules tests are the scripted
tables ``tests/dice/test_{powers,flights,gambits,debts,rules}.py``.  Through pytest
each mutant pays about three seconds of start-up (plugins, collection) for
a third of a second of tables.  Here the test functions are imported and
called directly, each ``@pytest.mark.parametrize`` row expanded as pytest
would, in one interpreter, stopping at the first failure: a killed mutant
costs a fraction of a second, a survivor about one.  The verdict is
pytest's: a table fails when an assertion fails or the engine raises.

Usage: ``python tools/kill_dice.py [TESTS_ROOT]`` (TESTS_ROOT: the folder
holding ``tests/``, default this checkout).  Exit status 0: every table
passed (the mutant survived); 1: one failed (named on standard error); 2:
the tables could not be collected (a test needs a fixture this runner does
not provide).
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from dragonante.scenarios.coverage import DICE_TABLES

ROOT = Path(__file__).resolve().parent.parent
#: The Dice Gambit's rules tests, the tables rule coverage reads too
#: (``dragonante.scenarios.coverage.DICE_TABLES``): never the golden digests,
#: the random games or the interfaces, which would kill mutants without
#: naming a rule.
RULES_TABLES = DICE_TABLES


class Uncollectable(Exception):
    """A test this runner cannot call the way pytest would."""


def _rows(mark: Any) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The argument names and value rows of one ``parametrize`` mark."""
    names, values = mark.args[0], mark.args[1]
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    names = list(names)
    rows = []
    for value in values:
        if hasattr(value, "values") and hasattr(value, "marks"):  # pytest.param(...)
            value = tuple(value.values) if len(names) > 1 else value.values[0]
        rows.append(tuple(value) if len(names) > 1 else (value,))
    return names, rows


def cases(fn: Callable[..., Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every call pytest would make of ``fn``: (id, keyword arguments)."""
    marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
    axes = [_rows(m) for m in marks]
    wanted = set(inspect.signature(fn).parameters)
    given = {n for names, _ in axes for n in names}
    if wanted - given:
        raise Uncollectable(f"{fn.__name__} needs fixtures {sorted(wanted - given)}")
    for combo in itertools.product(*(range(len(rows)) for _, rows in axes)):
        kwargs: dict[str, Any] = {}
        for (names, rows), i in zip(axes, combo, strict=True):
            kwargs.update(zip(names, rows[i], strict=True))
        yield "-".join(str(i) for i in combo), kwargs


def main(argv: list[str]) -> int:
    root = Path(argv[0]).resolve() if argv else ROOT
    sys.path.insert(0, str(root))
    for table in RULES_TABLES:
        name = f"tests.dice.test_{table}"
        try:
            module = importlib.import_module(name)
        except Exception as exc:  # a mutant may break an import: that is a kill
            print(f"{name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
        for attr, fn in vars(module).items():
            if not attr.startswith("test_") or not callable(fn):
                continue
            try:
                calls = list(cases(fn))
            except Uncollectable as exc:
                print(f"{name}: {exc}", file=sys.stderr)
                return 2
            for case, kwargs in calls:
                try:
                    fn(**kwargs)
                except Exception as exc:  # a failed assertion, or the engine raised
                    where = f"{name}::{attr}[{case}]" if case else f"{name}::{attr}"
                    print(f"{where}: {type(exc).__name__}: {exc}", file=sys.stderr)
                    return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
