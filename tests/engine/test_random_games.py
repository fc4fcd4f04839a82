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
from dragonante.engine.config import DeckOptions, Ending, Rules
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


EDGE_GAMES = 2000 if SOAK else 150


@pytest.mark.parametrize(
    ("ruleset", "deck"),
    [("original", "legendary"), ("emperors_gambit", "eg_full"), ("legendary", "legendary")],
)
def test_eliminations_and_debts_keep_invariants(ruleset: str, deck: str) -> None:
    """Short hoards and players_remaining: eliminated seats never ante, play or get
    chosen, and under immediate debts (original rules) no debtor holds gold."""
    config = GameConfig(
        players=5,
        gold_per_player=6,
        rules=Rules.preset(ruleset),
        deck=DeckOptions(preset=deck),
        ending=Ending(players_remaining=2),
    )
    eliminated = 0
    for seed in range(EDGE_GAMES):
        s, result = play_random(config, seed, check=True)
        assert result.completed, f"seed {seed} did not finish"
        assert not result.violations, f"seed {seed}: {result.violations[:3]}"
        eliminated += s.out.bit_count()
    assert eliminated > EDGE_GAMES  # the games did exercise eliminations
