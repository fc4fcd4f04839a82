"""A searching bot's budget: what a strength figure was measured with.

A search given a wall clock (``ismcts:seconds=...``, or the default cap)
does fewer iterations on a busy machine, so its strength moves with the
load; given only ``iters`` it does the same work anywhere and a figure
measured with it is reproducible.  Bots that search say which budget they
run with (``bot.budget``); ``dragonante tournament`` shows it beside every
bot's figures, so a reported strength always says which it used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Budget:
    """Iterations per decision and a wall-clock cap in seconds (None: no limit of that kind)."""

    iters: int | None
    seconds: float | None

    @property
    def reproducible(self) -> bool:
        """No clock: the same seed gives the same answers on any machine."""
        return self.seconds is None

    def to_dict(self) -> dict[str, Any]:
        return {"iters": self.iters, "seconds": self.seconds, "reproducible": self.reproducible}


def budget_of(bot: object) -> Budget | None:
    """The budget a bot searches with, or None for bots that do not search."""
    budget = getattr(bot, "budget", None)
    return budget if isinstance(budget, Budget) else None
