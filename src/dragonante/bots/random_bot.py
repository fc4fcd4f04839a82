"""The random player: uniform over the legal answers (the weakest yardstick)."""

from __future__ import annotations

import random

from dragonante.bots.base import SeatView
from dragonante.bots.registry import BotEntry, register


class RandomBot:
    """Picks uniformly among the legal answers, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        options = view.decision.options
        return options[self._rng.randrange(len(options))]


register(BotEntry("random", RandomBot, "rules", about="uniform over the legal answers"))
