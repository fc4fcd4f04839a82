"""Which cards a game is played with: deck presets and custom lists.

* ``legendary`` (the default): the Legendary Edition's 70 standard dragons
  plus 10 specials chosen from its 15 Mortals and 15 Legendary Dragons by
  one of the Appendix 1 selections (``DeckOptions.selection``); the other
  20 are set aside unseen.
* ``eg_full``: the 70 Emperor's Gambit cards.
* The five Emperor's Gambit theme decks (EG Appendix 1) and their listed
  variants: every dragon of each listed color plus each listed unique card.
  Original-edition colors and specials are the Legendary cards of the same
  name (7 per color; ``original_colors_six_cards`` drops one per color at
  random, set aside unseen, to get the original 6); the Queen, Sorcerer and
  Wyrmpriest are the Emperor's Gambit cards (rules-notes A53).
* ``custom``: an explicit list of card-type keys (``EG-brown`` = all six
  Brown Dragons) and physical card ids (``L-std-red-12``), from either set.
"""

from __future__ import annotations

from dragonante.cards import ALL_CARDS, CARD_BY_ID, CARD_TYPES

#: Theme decks: (dragon color types, unique card types).
THEME_DECKS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "age_of_mortals": (
        ("EG-adamantine", "L-std-copper", "L-std-silver", "EG-steel",
         "EG-brown", "EG-purple", "L-std-red", "L-std-white"),
        ("EG-adventurer", "L-mor-archmage", "L-leg-bahamut", "L-leg-dracolich",
         "EG-dragon-turtle", "L-mor-dragonslayer", "L-mor-druid", "EG-emperor", "EG-exarch",
         "L-mor-fool", "EG-hatchling", "EG-io", "L-mor-priest", "L-mor-princess", "EG-queen",
         "EG-sorcerer", "EG-spy", "L-mor-thief", "L-leg-tiamat", "EG-wyrmpriest"),
    ),
    "avandras_hand": (
        ("EG-adamantine", "L-std-bronze", "L-std-copper", "EG-iron", "EG-steel",
         "L-std-black", "EG-earthquake", "EG-gray", "L-std-green", "EG-purple"),
        ("EG-adventurer", "L-mor-archmage", "L-leg-bahamut", "L-leg-dracolich",
         "EG-dragon-turtle", "EG-exarch", "EG-hatchling", "EG-sorcerer", "EG-spy",
         "L-leg-tiamat"),
    ),
    "oddshuffle": (
        ("L-std-copper", "EG-iron", "EG-mithral", "EG-mercury", "L-std-silver",
         "EG-earthquake", "EG-gray", "EG-purple", "L-std-red", "EG-shadow"),
        ("EG-adventurer", "L-mor-archmage", "L-leg-dracolich", "EG-dragon-turtle",
         "EG-exarch", "EG-hatchling", "L-mor-princess", "EG-queen", "EG-sorcerer", "EG-spy"),
    ),
    "strength_and_greed": (
        ("EG-adamantine", "L-std-bronze", "EG-iron", "EG-mercury", "L-std-silver",
         "L-std-black", "L-std-blue", "EG-brown", "EG-purple", "L-std-white"),
        ("EG-adventurer", "L-mor-archmage", "L-leg-dracolich", "EG-dragon-turtle",
         "L-mor-dragonslayer", "L-mor-druid", "EG-exarch", "EG-io", "L-mor-princess",
         "L-mor-thief"),
    ),
    "evil_times": (
        ("L-std-black", "L-std-blue", "EG-brown", "EG-earthquake", "EG-gray",
         "L-std-green", "EG-purple", "L-std-red", "EG-shadow", "L-std-white"),
        ("L-leg-dracolich", "EG-dragon-turtle", "L-mor-dragonslayer", "EG-exarch",
         "L-mor-fool", "EG-hatchling", "EG-io", "EG-sorcerer", "EG-spy", "L-leg-tiamat"),
    ),
}  # fmt: skip

#: Variants the EG rulebook lists: (base deck, color type replaced, replacement).
THEME_VARIANTS: dict[str, tuple[str, str, str]] = {
    # "Earlier versions of this deck used the Bronze Dragon instead of the Copper."
    "age_of_mortals_bronze": ("age_of_mortals", "L-std-copper", "L-std-bronze"),
    # "...replace one or the other of the two with the Gold Dragon."
    "avandras_hand_gold_for_bronze": ("avandras_hand", "L-std-bronze", "L-std-gold"),
    "avandras_hand_gold_for_iron": ("avandras_hand", "EG-iron", "L-std-gold"),
}

PRESETS: tuple[str, ...] = (
    "legendary",
    "eg_full",
    *THEME_DECKS,
    *THEME_VARIANTS,
    "custom",
)

#: One-line descriptions for ``--help`` and the web lobby.
PRESET_HELP: dict[str, str] = {
    "legendary": "Legendary Edition: 70 standard dragons + 10 of the 30 specials",
    "eg_full": "Emperor's Gambit: all 70 cards",
    "age_of_mortals": "EG theme deck 'Face Deck': 8 colors, 20 unique cards",
    "age_of_mortals_bronze": "Age of Mortals, older version: Bronze instead of Copper",
    "avandras_hand": "EG theme deck: cards that tinker with the ante",
    "avandras_hand_gold_for_bronze": "Avandra's Hand with Gold instead of Bronze",
    "avandras_hand_gold_for_iron": "Avandra's Hand with Gold instead of Iron",
    "oddshuffle": "EG theme deck: surprising events and unpredictable outcomes",
    "strength_and_greed": "EG theme deck: strip the stakes bare",
    "evil_times": "EG theme deck: evil dragons only",
    "custom": "an explicit list of card types and card ids (--card ...)",
}


class DeckError(ValueError):
    """A deck that cannot be built; the message says why."""


def theme_types(preset: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(dragon color types, unique card types) of a theme deck or variant."""
    if preset in THEME_VARIANTS:
        base, old, new = THEME_VARIANTS[preset]
        colors, unique = THEME_DECKS[base]
        return tuple(new if c == old else c for c in colors), unique
    return THEME_DECKS[preset]


def cards_of_types(keys: tuple[str, ...] | list[str]) -> list[int]:
    """Every physical card of the given type keys, by card number."""
    wanted = set(keys)
    return [c.index for c in ALL_CARDS if c.type.key in wanted]


def custom_cards(entries: tuple[str, ...]) -> list[int]:
    """Resolve a custom list: type keys give all their cards, ids give one card."""
    out: list[int] = []
    seen: set[int] = set()
    for entry in entries:
        if entry in CARD_TYPES:
            found = cards_of_types([entry])
        elif entry in CARD_BY_ID:
            found = [CARD_BY_ID[entry].index]
        else:
            raise DeckError(f"unknown card or card type {entry!r} in the custom deck")
        for c in found:
            if c in seen:
                raise DeckError(f"card {ALL_CARDS[c].id} is listed twice in the custom deck")
            seen.add(c)
            out.append(c)
    return out


def fixed_deck(preset: str, custom: tuple[str, ...] = ()) -> list[int]:
    """The cards of a preset that is a fixed list (every preset but ``legendary``)."""
    if preset == "eg_full":
        return [c.index for c in ALL_CARDS if c.type.set == "emperors-gambit"]
    if preset == "custom":
        return custom_cards(custom)
    colors, unique = theme_types(preset)
    return cards_of_types([*colors, *unique])


def original_colors(preset: str) -> list[str]:
    """The Legendary standard color types a theme deck uses (7 cards each, A53)."""
    if preset not in THEME_DECKS and preset not in THEME_VARIANTS:
        return []
    colors, _ = theme_types(preset)
    return [c for c in colors if c.startswith("L-std-")]
