"""The invariants check the deck's size (issue 21, deviation 15).

Legendary Setup step 2: the deck is the 70 standard dragons plus the chosen
specials (10 by default).  A deck built long or short still has every card in
exactly one zone, so only a check of its size can see it: a 99-card deck once
passed ``simulate --check-every-step``.
"""

from __future__ import annotations

import pytest

from dragonante.engine import DeckOptions, GameConfig, new_game
from dragonante.engine.config import ConfigError
from dragonante.engine.invariants import expected_deck_size, violations
from dragonante.sim.simulate import simulate


@pytest.mark.parametrize(
    "deck",
    [
        DeckOptions(),
        DeckOptions(special_count=4),
        DeckOptions(selection="traditional"),
        DeckOptions(preset="eg_full"),
        DeckOptions(preset="age_of_mortals", original_colors_six_cards=True),
        DeckOptions(
            preset="custom", custom=("EG-brown", "EG-gray", "L-std-red", "L-std-gold", "EG-spy")
        ),
    ],
)
def test_a_deck_built_as_its_options_say_passes(deck: DeckOptions) -> None:
    s = new_game(GameConfig(players=3, deck=deck), seed=2)
    assert violations(s) == []
    assert len(s.universe) - len(s.aside) == expected_deck_size(deck)


def test_a_99_card_deck_fails_the_invariants() -> None:
    s = new_game(GameConfig(players=4), seed=1)
    # Nineteen of the set-aside specials shuffled in: every card is still in one zone.
    moved = s.aside[:19]
    s.aside = s.aside[19:]
    s.deck.extend(moved)
    assert len(s.deck) + sum(len(h) for h in s.hands) == 99
    assert violations(s) == ["the game has 99 cards in play; its deck options build 80"]


def test_simulate_reports_a_deck_built_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """The traditional set with special_count 8 once built 98 cards; the config now
    refuses it, and were the check skipped, ``simulate`` would report the deck."""
    deck = DeckOptions(selection="traditional", special_count=8)
    with pytest.raises(ConfigError):
        GameConfig(deck=deck).validate()
    monkeypatch.setattr(GameConfig, "validate", lambda self: self)
    report = simulate(GameConfig(deck=deck), games=2, check_every_step=True)
    found = [v for g in report.invariant_violations for v in g.violations]
    assert found and all("its deck options build 78" in v for v in found), found
