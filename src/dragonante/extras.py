"""The optional package sets ("extras") and the check that names a missing one.

A player's install holds only what playing needs (the engine, the terminal
table, the server).  The research stack is split into the extras declared in
``pyproject.toml``; a feature that needs one calls :func:`require` before it
imports anything from it, so a missing package is a one-line message that
says how to add it, instead of a ``ModuleNotFoundError`` traceback from deep
inside an import chain.
"""

from __future__ import annotations

import importlib.util

#: The import names each extra must make available, by extra name.
EXTRAS: dict[str, tuple[str, ...]] = {
    "agents": ("numpy", "gymnasium", "pettingzoo", "pyspiel", "tree"),
    "analysis": ("numpy", "matplotlib"),
    "cluster": ("distributed",),
}


class MissingExtra(ImportError):
    """A feature was asked for whose optional packages are not installed."""

    def __init__(self, extra: str, feature: str, module: str) -> None:
        self.extra = extra
        self.feature = feature
        self.module = module
        super().__init__(
            f"{feature} needs the optional '{extra}' packages ({module} is not installed): "
            f"in a checkout run ./dev extra {extra}, otherwise pip install 'dragonante[{extra}]'"
        )


def missing(extra: str) -> str | None:
    """The first import name of ``extra`` that cannot be found, or None."""
    for module in EXTRAS[extra]:
        if importlib.util.find_spec(module) is None:
            return module
    return None


def require(extra: str, feature: str) -> None:
    """Raise :class:`MissingExtra` if ``extra`` is not installed; ``feature``
    names what needed it (a command, a module) in the message."""
    module = missing(extra)
    if module is not None:
        raise MissingExtra(extra, feature, module)


__all__ = ["EXTRAS", "MissingExtra", "missing", "require"]
