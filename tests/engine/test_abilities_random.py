"""Random games with D&D abilities keep the game's conservation laws and always end.

Both books' systems, under both rulesets (each with its own deck, and each
system with the other book's ruleset too), at every table size from 2 to 6,
with the three ways of giving abilities out taking turns: gold and cards are
conserved, no hand exceeds ten cards, every game ends with a winner, after
every single answer.  CI plays 400 games per case; ``DRAGONANTE_SOAK=1``
plays 2,000.
"""

from __future__ import annotations

import os

import pytest

from dragonante.engine import DeckOptions, GameConfig, Rules
from dragonante.engine.abilities import AbilityOptions
from dragonante.sim.selfplay import play_random

SOAK = os.environ.get("DRAGONANTE_SOAK") == "1"
GAMES = 2000 if SOAK else 400

RULESETS = {
    "legendary": (Rules.preset("legendary"), DeckOptions()),
    "emperors_gambit": (Rules.preset("emperors_gambit"), DeckOptions(preset="eg_full")),
}


def _abilities(system: str, players: int, seed: int) -> AbilityOptions:
    """Random, draft and fixed assignment in turn, with the most abilities allowed."""
    per = 4 if system == "disks" else min(3, 16 // players)
    how = ("random", "draft", "fixed")[seed % 3]
    if how == "fixed":
        return AbilityOptions(
            system=system, assign="fixed", seats=tuple(("random",) * per for _ in range(players))
        )
    return AbilityOptions(system=system, assign=how, per_character=per)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("system", ["disks", "skills"])
def test_random_games_with_abilities_keep_invariants(
    system: str, ruleset: str, players: int
) -> None:
    rules, deck = RULESETS[ruleset]
    used = 0
    for seed in range(GAMES):
        config = GameConfig(
            players=players, rules=rules, deck=deck, abilities=_abilities(system, players, seed)
        )
        state, result = play_random(config, seed, check=True)
        assert result.completed, f"seed {seed} did not finish"
        assert not result.violations, f"seed {seed}: {result.violations[:3]}"
        assert result.winners
        assert state.abilities is not None
        used += sum(bin(m).count("1") for m in state.abilities.to_dict()["revealed"])
    assert used > GAMES  # the abilities were really in play


@pytest.mark.parametrize("preset", ["age_of_mortals", "avandras_hand", "oddshuffle", "evil_times"])
@pytest.mark.parametrize("system", ["disks", "skills"])
def test_abilities_with_theme_decks(system: str, preset: str) -> None:
    for seed in range(GAMES // 5):
        players = 2 + seed % 5
        config = GameConfig(
            players=players,
            rules=Rules.preset("emperors_gambit"),
            deck=DeckOptions(preset=preset),
            abilities=_abilities(system, players, seed),
        )
        _, result = play_random(config, seed, check=True)
        assert result.completed and not result.violations, (seed, result.violations[:3])
