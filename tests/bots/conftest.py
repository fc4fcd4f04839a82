"""Shared helpers for the bot tests."""

from __future__ import annotations

#: Every bot, with search budgets small enough for unit tests.
BOT_SPECS = ("random", "baseline", "heuristic", "ismcts:iters=12")
