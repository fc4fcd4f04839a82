"""Flat per-card lookup tables the rules engine reads on its hot paths.

The engine refers to a physical card by its number (its index in
:data:`dragonante.cards.ALL_CARDS`).  Looking a property up in a tuple by
that number is several times faster than following dataclass attributes,
and the engine asks "how strong / is it a good dragon / which colors"
millions of times per second of simulation.
"""

from __future__ import annotations

from dragonante.cards import ALL_CARDS

#: The color vocabulary of both sets plus "mortal" (Legendary rules let three
#: Mortals form a color flight).  A card's colors are a bit mask over this.
COLORS: tuple[str, ...] = (
    "black", "blue", "brass", "bronze", "copper", "gold", "green", "red", "silver", "white",
    "adamantine", "brown", "earthquake", "gray", "iron", "mercury", "mithral", "purple",
    "shadow", "steel",
    "mortal",
)  # fmt: skip
COLOR_BIT: dict[str, int] = {c: 1 << i for i, c in enumerate(COLORS)}
MORTAL_BIT: int = COLOR_BIT["mortal"]
ALL_COLOR_BITS: int = (1 << len(COLORS)) - 1

N_CARDS: int = len(ALL_CARDS)
STRENGTH: tuple[int, ...] = tuple(c.strength for c in ALL_CARDS)
IS_DRAGON: tuple[bool, ...] = tuple(c.type.kind in ("dragon", "dragon god") for c in ALL_CARDS)
IS_MORTAL: tuple[bool, ...] = tuple(c.type.kind == "mortal" for c in ALL_CARDS)
#: "Good dragon" / "evil dragon" in card texts: a dragon of that alignment.
IS_GOOD: tuple[bool, ...] = tuple(
    IS_DRAGON[i] and c.type.alignment == "good" for i, c in enumerate(ALL_CARDS)
)
IS_EVIL: tuple[bool, ...] = tuple(
    IS_DRAGON[i] and c.type.alignment == "evil" for i, c in enumerate(ALL_CARDS)
)


def _colors(i: int) -> tuple[str, ...]:
    """A card's colors for color flights.  Every Mortal, of either set, carries
    the "mortal" color; whether three Mortals make a flight is the ruleset's
    ``mortals_form_color_flight`` (or a triggered EG Wyrmpriest), decided at
    flight time (rules-notes D6)."""
    colors = ALL_CARDS[i].type.colors
    if IS_MORTAL[i] and "mortal" not in colors:
        return (*colors, "mortal")
    return colors


COLOR_MASK: tuple[int, ...] = tuple(
    sum(COLOR_BIT[col] for col in _colors(i)) for i in range(len(ALL_CARDS))
)
COLOR_INDEXES: tuple[tuple[int, ...], ...] = tuple(
    tuple(COLORS.index(col) for col in _colors(i)) for i in range(len(ALL_CARDS))
)
POWER: tuple[str, ...] = tuple(c.type.power for c in ALL_CARDS)
CARD_ID: tuple[str, ...] = tuple(c.id for c in ALL_CARDS)
INDEX_BY_ID: dict[str, int] = {c.id: c.index for c in ALL_CARDS}
KEY: tuple[str, ...] = tuple(c.type.key for c in ALL_CARDS)
SET: tuple[str, ...] = tuple(c.type.set for c in ALL_CARDS)
#: Dragon-god "can't win" clauses: Bahamut with an evil dragon, Tiamat with a
#: good one, Io with a mortal.
BLOCKED_BY: tuple[str, ...] = tuple(
    {"L-leg-bahamut": "evil", "L-leg-tiamat": "good", "EG-io": "mortal"}.get(c.type.key, "")
    for c in ALL_CARDS
)
#: Ante effect of each card ("" for none), named by its card's power id.  An
#: ante effect works only while its card is in the ante and is never a power.
ANTE_EFFECT: tuple[str, ...] = tuple(
    (c.type.power or c.type.key) if c.type.ante_effect.get("en") else "" for c in ALL_CARDS
)
HAS_ANTE_EFFECT: frozenset[int] = frozenset(i for i, e in enumerate(ANTE_EFFECT) if e)
