"""Game configuration: table size, starting gold, deck building, rule switches.

A :class:`GameConfig` plus a seed plus the answers given fully determine a
game.  Every switch the rulebooks or ``rules-notes.md`` leave open is a field
here with the documented default, so a table that rules differently can say
so instead of patching code.  Configs round-trip through plain dicts (JSON)
for game records, and :func:`config_from_dict` rejects anything unknown with
a :class:`ConfigError` naming the offending key.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from dragonante.cards import CARD_TYPES

#: Deck selections of the Legendary Appendix 1.
SELECTIONS = ("random", "druids_party", "pick_em", "traditional", "agreed")
#: The ten specials of the original edition (Appendix 1, "Traditional set").
TRADITIONAL_SPECIALS: tuple[str, ...] = (
    "L-mor-archmage", "L-leg-bahamut", "L-leg-dracolich", "L-mor-dragonslayer", "L-mor-druid",
    "L-mor-fool", "L-mor-priest", "L-mor-princess", "L-mor-thief", "L-leg-tiamat",
)  # fmt: skip
GOLD_CHOICES = (8, 10, 12, 15)


class ConfigError(ValueError):
    """A configuration that the rules cannot play; the message says why."""


@dataclass(frozen=True, slots=True)
class DeckOptions:
    """How the 80-card Legendary deck is built (Setup step 2, Appendix 1)."""

    selection: str = "random"
    #: "Show 'em": everyone sees which specials were added.
    reveal_specials: bool = False
    #: Card keys (e.g. ``L-mor-druid``) always added; the rest are random.
    forced_includes: tuple[str, ...] = ()
    special_count: int = 10


@dataclass(frozen=True, slots=True)
class Rules:
    """Rule switches; defaults are the Legendary Edition with rules-notes rulings."""

    ruleset: str = "legendary"
    mortals_form_color_flight: bool = True
    mortals_in_strength_flights: bool = True
    strength_flight_ante_cards: int = 2
    hand_limit: int = 10
    starting_hand: int = 6
    draw_per_gambit: int = 2
    buy_fill_to: int = 4
    min_rounds: int = 3
    #: A26: when the stakes empty, skip the turn's pending powers and rewards.
    empty_stakes_pending_rewards: str = "skip"
    #: A32: whether the Archmage also forces "if you wish" choices inside powers.
    archmage_forces_optional_triggers: bool = False
    #: A28: no eligible winner -> the stakes stay for the next gambit.
    no_eligible_winner: str = "carry_stakes"
    #: Slang "hole in the house": the winner does not get the hole gold.
    hole_recipient: str = "game_winner"


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything about a table except the seed and the answers."""

    players: int = 4
    gold_per_player: int = 10
    deck: DeckOptions = field(default_factory=DeckOptions)
    rules: Rules = field(default_factory=Rules)
    #: Apply questions with a single legal answer automatically (they are logged).
    auto_single: bool = True

    @property
    def starting_gold(self) -> int:
        return self.players * self.gold_per_player

    def validate(self) -> GameConfig:
        """Raise :class:`ConfigError` unless this config can be played."""
        if not 2 <= self.players <= 6:
            raise ConfigError(f"players must be 2-6, got {self.players}")
        if self.gold_per_player < 1:
            raise ConfigError(f"gold_per_player must be positive, got {self.gold_per_player}")
        d = self.deck
        if d.selection not in SELECTIONS:
            raise ConfigError(
                f"unknown deck selection {d.selection!r}; choose from {', '.join(SELECTIONS)}"
            )
        if not 0 <= d.special_count <= 30:
            raise ConfigError(f"special_count must be 0-30, got {d.special_count}")
        for key in d.forced_includes:
            t = CARD_TYPES.get(key)
            if t is None or t.set not in ("legendary-dragon", "legendary-mortal"):
                raise ConfigError(f"{key!r} is not a Legendary special card (Mortal or Legendary)")
        if len(set(d.forced_includes)) != len(d.forced_includes):
            raise ConfigError("forced_includes lists a card twice")
        if len(d.forced_includes) > d.special_count:
            raise ConfigError("more forced includes than special cards")
        if d.selection == "agreed" and len(d.forced_includes) != d.special_count:
            raise ConfigError(
                f"the agreed selection needs exactly {d.special_count} cards in forced_includes"
            )
        if d.selection == "pick_em" and len(d.forced_includes) + self.players > d.special_count:
            raise ConfigError("pick 'em needs room for one pick per player")
        r = self.rules
        if r.ruleset != "legendary":
            raise ConfigError(f"unknown ruleset {r.ruleset!r}; this version plays 'legendary'")
        if r.hand_limit < r.buy_fill_to or r.hand_limit < 1:
            raise ConfigError("hand_limit must be at least buy_fill_to")
        if r.starting_hand > r.hand_limit:
            raise ConfigError("starting_hand cannot exceed hand_limit")
        if r.min_rounds < 1:
            raise ConfigError("min_rounds must be at least 1")
        if r.strength_flight_ante_cards < 0:
            raise ConfigError("strength_flight_ante_cards cannot be negative")
        if r.empty_stakes_pending_rewards not in ("skip", "resolve"):
            raise ConfigError("empty_stakes_pending_rewards is 'skip' or 'resolve'")
        if r.no_eligible_winner != "carry_stakes":
            raise ConfigError("no_eligible_winner supports only 'carry_stakes'")
        if r.hole_recipient not in ("game_winner", "house"):
            raise ConfigError("hole_recipient is 'game_winner' or 'house'")
        return self

    def with_(self, **changes: Any) -> GameConfig:
        """A copy with top-level fields changed (``deck``/``rules`` take dicts too)."""
        if isinstance(changes.get("deck"), dict):
            changes["deck"] = _build(DeckOptions, changes["deck"], "deck")
        if isinstance(changes.get("rules"), dict):
            changes["rules"] = _build(Rules, changes["rules"], "rules")
        return replace(self, **changes)


def config_to_dict(config: GameConfig) -> dict[str, Any]:
    """A JSON-ready dict (tuples become lists)."""
    d = asdict(config)
    d["deck"]["forced_includes"] = list(config.deck.forced_includes)
    return d


def _build(cls: Any, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be an object")
    names = {f.name: f for f in fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        f = names.get(key)
        if f is None:
            raise ConfigError(f"unknown {where} option {key!r}")
        default = getattr(cls(), key)
        if isinstance(default, tuple):
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{where}.{key} must be a list of card keys")
            value = tuple(value)
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ConfigError(f"{where}.{key} must be true or false")
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{where}.{key} must be an integer")
        elif isinstance(default, str) and not isinstance(value, str):
            raise ConfigError(f"{where}.{key} must be a string")
        kwargs[key] = value
    return cls(**kwargs)


def config_from_dict(data: Any) -> GameConfig:
    """Parse and validate a config dict; raises :class:`ConfigError`."""
    if not isinstance(data, dict):
        raise ConfigError("config must be an object")
    data = dict(data)
    deck = _build(DeckOptions, data.pop("deck", {}), "deck")
    rules = _build(Rules, data.pop("rules", {}), "rules")
    top = _build(_Top, data, "config")
    return GameConfig(
        players=top.players,
        gold_per_player=top.gold_per_player,
        deck=deck,
        rules=rules,
        auto_single=top.auto_single,
    ).validate()


@dataclass(frozen=True, slots=True)
class _Top:
    players: int = 4
    gold_per_player: int = 10
    auto_single: bool = True
