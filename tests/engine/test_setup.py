"""Setup and deck building (Legendary Setup and Appendix 1) and config validation."""

from __future__ import annotations

import pytest

from dragonante.cards import ALL_CARDS, card_number
from dragonante.engine import ConfigError, DeckOptions, GameConfig, apply, new_game
from dragonante.engine.config import TRADITIONAL_SPECIALS
from dragonante.engine.decisions import ANTE, PICK_SPECIAL
from dragonante.engine.views import events_for, observe

SPECIAL_SETS = ("legendary-dragon", "legendary-mortal")


def keys(cards: list[int]) -> set[str]:
    return {ALL_CARDS[c].type.key for c in cards}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_standard_setup(players: int) -> None:
    s = new_game(GameConfig(players=players), seed=players)
    # 10 x players gold each; 70 standard dragons + 10 random specials; 6 cards each.
    assert s.hoards == [10 * players] * players
    assert len(s.specials) == 10
    assert all(ALL_CARDS[c].type.set in SPECIAL_SETS for c in s.specials)
    assert len(s.aside) == 20
    assert all(len(h) == 6 for h in s.hands)
    assert len(s.deck) + 6 * players == 80
    assert s.pending is not None and s.pending.kind == ANTE


@pytest.mark.parametrize("gold", [8, 10, 12, 15])
def test_gold_per_player_options(gold: int) -> None:
    s = new_game(GameConfig(players=3, gold_per_player=gold))
    assert s.hoards == [3 * gold] * 3


def test_random_specials_vary_with_the_seed_and_stay_hidden() -> None:
    a = new_game(GameConfig(players=4), seed=1)
    b = new_game(GameConfig(players=4), seed=2)
    assert a.specials != b.specials
    assert observe(a, 0).specials is None  # "among friends": nobody is shown them


def test_traditional_set() -> None:
    s = new_game(GameConfig(deck=DeckOptions(selection="traditional")))
    assert keys(s.specials) == set(TRADITIONAL_SPECIALS)
    assert keys(s.specials) == {
        "L-mor-archmage", "L-leg-bahamut", "L-leg-dracolich", "L-mor-dragonslayer",
        "L-mor-druid", "L-mor-fool", "L-mor-priest", "L-mor-princess", "L-mor-thief",
        "L-leg-tiamat",
    }  # fmt: skip


@pytest.mark.parametrize("seed", range(5))
def test_druids_party_always_has_the_druid(seed: int) -> None:
    s = new_game(GameConfig(deck=DeckOptions(selection="druids_party")), seed=seed)
    assert "L-mor-druid" in keys(s.specials)
    assert len(s.specials) == 10


def test_one_or_two_chosen_cards_then_random() -> None:
    deck = DeckOptions(forced_includes=("L-leg-tiamat", "L-mor-kobold"))
    s = new_game(GameConfig(deck=deck), seed=3)
    assert {"L-leg-tiamat", "L-mor-kobold"} <= keys(s.specials)
    assert len(s.specials) == 10


def test_agreed_list() -> None:
    chosen = tuple(c.type.key for c in ALL_CARDS if c.type.set == "legendary-mortal")[:10]
    s = new_game(GameConfig(deck=DeckOptions(selection="agreed", forced_includes=chosen)))
    assert keys(s.specials) == set(chosen)


def test_show_em_shows_every_player_the_specials() -> None:
    s = new_game(GameConfig(deck=DeckOptions(reveal_specials=True)), seed=4)
    for seat in range(4):
        assert observe(s, seat).specials == s.specials
    assert s.log is not None
    assert any(e[1] == "specials_shown" for e in events_for(s.log, None))


def test_pick_em_goes_around_the_table() -> None:
    s = new_game(GameConfig(players=3, deck=DeckOptions(selection="pick_em")), seed=5)
    picks = ["L-mor-druid", "L-leg-bahamut", "L-mor-thief"]
    for seat, key in enumerate(picks):
        d = s.pending
        assert d is not None and d.kind == PICK_SPECIAL and d.seat == seat
        assert card_number(key) in d.options
        apply(s, card_number(key), d.id)
        # A pick is private unless "show 'em".
        assert s.log is not None
        other = (seat + 1) % 3
        seen = [e[2]["seat"] for e in events_for(s.log, other) if e[1] == "pick_special"]
        assert seen in ([], [other])
    assert set(picks) <= keys(s.specials)
    assert len(s.specials) == 10
    d = s.pending
    assert d is not None and d.kind == ANTE


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (GameConfig(players=1), "players must be 2-6"),
        (GameConfig(players=7), "players must be 2-6"),
        (GameConfig(gold_per_player=0), "gold_per_player"),
        (GameConfig(deck=DeckOptions(selection="poker")), "unknown deck selection"),
        (
            GameConfig(deck=DeckOptions(forced_includes=("L-std-red-12",))),
            "not a Legendary special",
        ),
        (GameConfig(deck=DeckOptions(forced_includes=("L-mor-fool", "L-mor-fool"))), "twice"),
        (
            GameConfig(deck=DeckOptions(selection="agreed", forced_includes=("L-mor-fool",))),
            "exactly 10",
        ),
    ],
)
def test_unplayable_configs_are_refused(config: GameConfig, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        new_game(config)


# --- issue 21, deviation 4: the deck is always the 70 dragons + exactly the special count ----


def _deck_size(s: object) -> int:
    """Every card of the game: deck, hands (the specials in play) and nothing aside."""
    from dragonante.engine.state import GameState

    assert isinstance(s, GameState)
    return len(s.deck) + sum(len(h) for h in s.hands)


@pytest.mark.parametrize(
    "deck",
    [
        DeckOptions(selection="druids_party", forced_includes=("L-leg-tiamat", "L-mor-kobold")),
        DeckOptions(selection="druids_party", forced_includes=("L-mor-druid", "L-mor-thief")),
        DeckOptions(selection="druids_party", special_count=6),
        DeckOptions(selection="traditional"),
        DeckOptions(selection="traditional", forced_includes=("L-mor-druid",)),
        DeckOptions(selection="random", special_count=4, forced_includes=("L-mor-druid",)),
        DeckOptions(selection="pick_em", special_count=8),
    ],
)
def test_every_selection_builds_seventy_dragons_plus_the_special_count(deck: DeckOptions) -> None:
    """Legendary Setup 2: the 70 standard dragons plus the chosen specials, never more or fewer."""
    s = new_game(GameConfig(players=3, deck=deck), seed=7)
    while s.pending is not None and s.pending.kind == PICK_SPECIAL:
        apply(s, s.pending.options[0], s.pending.id)
    assert len(s.specials) == deck.special_count
    assert _deck_size(s) == 70 + deck.special_count
    assert len(s.aside) == 30 - deck.special_count


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        # Druid's party + 10 forced includes built 29 specials.
        (
            DeckOptions(
                selection="druids_party",
                forced_includes=tuple(
                    c.type.key for c in ALL_CARDS if c.type.set == "legendary-dragon"
                )[:10],
            ),
            "11 specials are forced in",
        ),
        (DeckOptions(selection="druids_party", special_count=0), "1 specials are forced in"),
        # The traditional set with special_count 8 built 98 cards.
        (DeckOptions(selection="traditional", special_count=8), "special_count must be 10"),
        # Forced includes with the traditional set were dropped without a word.
        (
            DeckOptions(selection="traditional", forced_includes=("L-mor-kobold",)),
            "L-mor-kobold cannot be added",
        ),
    ],
)
def test_a_deck_that_cannot_be_built_as_asked_is_refused(deck: DeckOptions, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        GameConfig(deck=deck).validate()
    assert "\n" not in str(info.value)


# --- issue 21, deviation 13: the original rules' 50 gold is the engine's own preset ----------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_original_rules_start_every_hoard_at_fifty(players: int) -> None:
    """EG: 'Previous Rule: Each player started with 50 gold coins regardless of the number of
    players' - in the engine's preset, so every interface (web, scenarios, records) agrees."""
    from dragonante.engine.config import config_from_dict

    cfg = config_from_dict({"players": players, "rules": {"ruleset": "original"}})
    assert cfg.starting_gold == 50
    assert new_game(cfg, seed=1).hoards == [50] * players
    # An agreed amount still wins, and the ruleset's can be switched off.
    assert cfg.with_(starting_gold_fixed=30).starting_gold == 30
    off = config_from_dict(
        {"players": players, "rules": {"ruleset": "original", "starting_hoard": 0}}
    )
    assert off.starting_gold == 10 * players
