"""Rulesets and deck presets: Emperor's Gambit, theme decks, custom mixes.

Random games keep the invariants for every ruleset and every preset at 2-6
players (60 games per player count in CI, 1,000 with ``DRAGONANTE_SOAK=1``), and the
configuration switches carry the defaults rules-notes §2 gives.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from dragonante.cards import ALL_CARDS
from dragonante.engine import ConfigError, DeckOptions, GameConfig, Rules, new_game
from dragonante.engine.config import config_from_dict, config_to_dict
from dragonante.engine.decks import PRESETS, THEME_DECKS, fixed_deck
from dragonante.sim.selfplay import play_random

SOAK = os.environ.get("DRAGONANTE_SOAK") == "1"
GAMES = 1000 if SOAK else 60
FIXED = [p for p in PRESETS if p not in ("legendary", "custom")]


def test_ruleset_defaults_follow_the_rules_notes() -> None:
    lg, eg, orig = (Rules.preset(r) for r in ("legendary", "emperors_gambit", "original"))
    assert (lg.mortals_form_color_flight, eg.mortals_form_color_flight) == (True, False)  # D6
    assert (lg.strength_flight_ante_cards, eg.strength_flight_ante_cards) == (2, 3)  # D8
    assert orig.strength_flight_ante_cards == -1  # all (EG "Previous Rule")
    assert (lg.debt_model, eg.debt_model, orig.debt_model) == ("hole", "creditors", "immediate")
    assert orig.mortals_in_strength_flights is False  # D9
    assert Rules.preset("emperors_gambit", strength_flight_ante_cards=2).debt_model == "creditors"


def test_config_dict_round_trip_keeps_the_ruleset() -> None:
    config = GameConfig(
        players=5,
        deck=DeckOptions(preset="custom", custom=("EG-brown", "L-std-red", "L-mor-druid")),
        rules=Rules.preset("emperors_gambit"),
    )
    with pytest.raises(ConfigError, match="need at least"):
        config.validate()  # 6 + 7 + 1 cards cannot deal five hands
    config = GameConfig(
        players=3, deck=DeckOptions(preset="oddshuffle"), rules=Rules.preset("emperors_gambit")
    )
    assert config_from_dict(config_to_dict(config)) == config
    # A dict naming only the ruleset gets that ruleset's defaults.
    assert config_from_dict({"rules": {"ruleset": "emperors_gambit"}}).rules == Rules.preset(
        "emperors_gambit"
    )


def test_eg_full_deck_is_the_70_cards() -> None:
    cards = fixed_deck("eg_full")
    assert len(cards) == 70
    assert {ALL_CARDS[c].type.set for c in cards} == {"emperors-gambit"}


@pytest.mark.parametrize("preset", sorted(THEME_DECKS))
def test_theme_decks_take_every_dragon_of_each_color(preset: str) -> None:
    cards = fixed_deck(preset)
    per_type = Counter(ALL_CARDS[c].type.key for c in cards)
    for key, count in per_type.items():
        assert count == len(
            ALL_CARDS[next(c for c in cards if ALL_CARDS[c].type.key == key)].type.strengths
        )
    uniques = [k for k, v in per_type.items() if v == 1]
    assert len(uniques) == (20 if preset == "age_of_mortals" else 10)


def test_theme_variants_swap_the_named_color() -> None:
    keys = {ALL_CARDS[c].type.key for c in fixed_deck("age_of_mortals_bronze")}
    assert "L-std-bronze" in keys and "L-std-copper" not in keys
    keys = {ALL_CARDS[c].type.key for c in fixed_deck("avandras_hand_gold_for_iron")}
    assert "L-std-gold" in keys and "EG-iron" not in keys and "L-std-bronze" in keys


def test_original_colors_six_cards_sets_one_per_color_aside() -> None:
    config = GameConfig(deck=DeckOptions(preset="oddshuffle", original_colors_six_cards=True))
    s = new_game(config, seed=2)
    aside = Counter(ALL_CARDS[c].type.key for c in s.aside)
    assert aside == {"L-std-copper": 1, "L-std-silver": 1, "L-std-red": 1}


def test_fixed_starting_gold() -> None:
    s = new_game(GameConfig(players=3, starting_gold_fixed=50), seed=1)
    assert s.hoards == [50, 50, 50]


@pytest.mark.parametrize("ruleset", ["legendary", "emperors_gambit", "original"])
@pytest.mark.parametrize("preset", FIXED)
def test_random_games_keep_invariants_for_every_preset(ruleset: str, preset: str) -> None:
    for players in (2, 3, 4, 5, 6):
        config = GameConfig(
            players=players, deck=DeckOptions(preset=preset), rules=Rules.preset(ruleset)
        )
        for seed in range(GAMES):
            _, result = play_random(config, seed, check=True)
            assert result.completed, (players, seed)
            assert not result.violations, (players, seed, result.violations[:3])


@pytest.mark.parametrize("ruleset", ["emperors_gambit", "original"])
def test_legendary_deck_under_other_rulesets(ruleset: str) -> None:
    for players in (2, 4, 6):
        config = GameConfig(players=players, rules=Rules.preset(ruleset))
        for seed in range(GAMES * 3):
            _, result = play_random(config, seed, check=True)
            assert result.completed and not result.violations, (players, seed)


def test_custom_mixed_deck_plays() -> None:
    custom = (
        "L-std-red",
        "L-std-gold",
        "L-std-blue",
        "L-std-silver",
        "EG-brown",
        "EG-steel",
        "EG-purple",
        "EG-mithral",
        "EG-exarch",
        "EG-spy",
        "L-mor-druid",
        "L-leg-tiamat",
    )
    config = GameConfig(players=4, deck=DeckOptions(preset="custom", custom=custom))
    for seed in range(GAMES * 2):
        _, result = play_random(config, seed, check=True)
        assert result.completed and not result.violations, seed
