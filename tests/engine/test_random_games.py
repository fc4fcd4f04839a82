"""Random games keep the game's conservation laws and always end.

Gold is conserved (hoards + stakes + hole), every physical card is in
exactly one zone, no hand ever exceeds ten cards, and every game ends.
CI plays 2,000 games per player count with the invariants checked
after every answer; ``DRAGONANTE_SOAK=1`` plays 20,000.
"""

from __future__ import annotations

import os

import pytest

from dragonante.engine import GameConfig
from dragonante.sim.selfplay import play_random

SOAK = os.environ.get("DRAGONANTE_SOAK") == "1"
GAMES = 20000 if SOAK else 2000


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_invariants(players: int) -> None:
    config = GameConfig(players=players)
    for seed in range(GAMES):
        _, result = play_random(config, seed, check=True)
        assert result.completed, f"seed {seed} did not finish"
        assert not result.violations, f"seed {seed}: {result.violations[:3]}"
        assert result.winners
