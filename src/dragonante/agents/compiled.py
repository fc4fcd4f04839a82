"""The optional compiled observation encoder: load it, or say why not.

``dragonante.agents._fastobs`` is a small CPython extension, compiled from
``_fastobs.c`` when the project is installed on a machine with a C compiler
(``hatch_build.py``).  It is an optimisation only: whoever uses it calls
:func:`fastobs` and falls back to the pure-Python encoder when that returns
None.  It returns None when the module

* is not built (no compiler at install time, or the build failed),
* cannot be imported (built for another interpreter, a broken file),
* is stale: its ``SOURCE_SHA256`` (the hash of the C file it was compiled
  from, put in by the build hook) differs from the hash of the ``_fastobs.c``
  next to it, i.e. someone edited the C file and did not re-sync; running
  old compiled code against new Python would give wrong observations
  silently, so a stale build is never used,
* or ``DRAGONANTE_PURE_PYTHON=1`` is set (to test or compare the fallback).

The result is decided once per process and cached.  :func:`status` gives the
reason as well; ``python -m dragonante.agents.compiled`` prints it (exit
status 0 when the compiled encoder is in use, 1 when not).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

#: Set to 1 to use the pure-Python encoder even when the compiled one is built.
PURE_PYTHON_ENV = "DRAGONANTE_PURE_PYTHON"
#: The extension's import name.
MODULE = "dragonante.agents._fastobs"
#: The C file it is built from, in a checkout (a wheel does not ship it).
SOURCE = Path(__file__).with_name("_fastobs.c")


class Extension(NamedTuple):
    """A load attempt's outcome: the module (None: use pure Python) and why."""

    module: ModuleType | None
    reason: str


def pure_python_forced() -> bool:
    """Whether ``DRAGONANTE_PURE_PYTHON`` asks for the fallback (any value but empty or 0)."""
    return os.environ.get(PURE_PYTHON_ENV, "").strip() not in ("", "0")


def load(name: str, source: Path | None, *, honour_env: bool = True) -> Extension:
    """Import the extension ``name`` if it is built, importable and current.

    ``source`` is the C file it must have been built from; when that file
    exists, the module's ``SOURCE_SHA256`` must be its hash.  Uncached: the
    tests load modules of their own with it; the package uses :func:`status`.
    """
    if honour_env and pure_python_forced():
        return Extension(None, f"{PURE_PYTHON_ENV}={os.environ[PURE_PYTHON_ENV]} is set")
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError) as exc:
        return Extension(None, f"cannot be looked up: {exc}")
    if spec is None:
        return Extension(
            None,
            "not built (no working C compiler when the package was installed, or the build failed)",
        )
    try:
        module = importlib.import_module(name)
    except Exception as exc:  # a broken build must cost speed, never the caller's run
        return Extension(None, f"cannot be imported: {type(exc).__name__}: {exc}")
    built_from = getattr(module, "SOURCE_SHA256", None)
    if not isinstance(built_from, str):
        return Extension(None, "has no SOURCE_SHA256: it was not built by hatch_build.py")
    if source is not None and source.is_file():
        current = hashlib.sha256(source.read_bytes()).hexdigest()
        if built_from != current:
            return Extension(
                None,
                f"stale: built from an older {source.name}; re-sync to rebuild "
                "(./dev test, or uv sync)",
            )
    return Extension(module, f"in use: {module.__file__}")


@functools.cache
def status() -> Extension:
    """The package's own extension, loaded once per process (see the module docstring).

    A test that changes ``DRAGONANTE_PURE_PYTHON`` in-process calls
    ``status.cache_clear()`` before and after, or uses :func:`load`.
    """
    return load(MODULE, SOURCE)


def fastobs() -> ModuleType | None:
    """The compiled observation encoder, or None: then use the pure-Python one."""
    return status().module


def main() -> int:
    """Print whether the compiled encoder is in use, and why not if it is not."""
    module, reason = status()
    print(f"compiled observation encoder: {reason}")
    return 0 if module is not None else 1


__all__ = ["MODULE", "PURE_PYTHON_ENV", "SOURCE", "Extension", "fastobs", "load", "status"]

if __name__ == "__main__":
    sys.exit(main())
