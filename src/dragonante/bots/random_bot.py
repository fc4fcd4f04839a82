"""The random player: uniform over the legal answers (the weakest yardstick)."""

from __future__ import annotations

import random

from dragonante.bots.base import SeatView


class RandomBot:
    """Picks uniformly among the legal answers, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        options = view.decision.options
        return options[self._rng.randrange(len(options))]
