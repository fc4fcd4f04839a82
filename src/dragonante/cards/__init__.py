"""Every Three-Dragon Ante card as data: one row per card type, one entry per physical card.

The table (``cards.json`` beside this module) is generated from the project's
reference card list by ``tools/gen_cards.py`` and checked against it by the
test suite.  A *card type* is a name with its rules data (set, kind,
alignment, colors, power family, texts in English and Italian); a *card* is
one physical card of a type with its strength.  The engine refers to a
physical card by its number, its index in :data:`ALL_CARDS`: the 100
Legendary Edition cards come first (70 standard dragons, 15 Legendary
Dragons, 15 Mortals), then the 70 Emperor's Gambit cards.

Physical card ids are the type key for one-of-a-kind cards (``L-mor-druid``)
and ``key-strength`` for the standard dragons (``L-std-red-12``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

LEGENDARY_SETS = ("legendary-standard", "legendary-dragon", "legendary-mortal")
EMPERORS_GAMBIT_SET = "emperors-gambit"
#: Command-line names of the card sets.
SET_GROUPS: dict[str, tuple[str, ...]] = {
    "legendary": LEGENDARY_SETS,
    "emperors-gambit": (EMPERORS_GAMBIT_SET,),
}
LANGUAGES = ("en", "it")


@dataclass(frozen=True, slots=True)
class CardType:
    """A card name and its rules data, shared by all physical cards of that name."""

    key: str
    set: str
    kind: str  # "dragon" | "mortal" | "dragon god" (a dragon god is a dragon)
    alignment: str  # "good" | "evil" | "unaligned" | "none" (mortals)
    colors: tuple[str, ...]
    strengths: tuple[int, ...]
    legendary_banner: bool
    #: Power family id ("" for a card with no power, like Tiamat).
    power: str
    names: dict[str, str | None]
    type_lines: dict[str, str | None]
    texts: dict[str, str | None]
    dragon_god: dict[str, str | None]
    ante_effect: dict[str, str | None]
    explanations: dict[str, list[str]]

    @property
    def is_dragon(self) -> bool:
        return self.kind in ("dragon", "dragon god")

    def name(self, lang: str = "en") -> str:
        """The card's name in ``lang``, falling back to English where no translation exists."""
        return self.names.get(lang) or self.names["en"] or self.key

    def text(self, lang: str = "en") -> str:
        """The power text in ``lang`` (English fallback; empty if the card has no power)."""
        return self.texts.get(lang) or self.texts.get("en") or ""

    def dragon_god_text(self, lang: str = "en") -> str:
        return self.dragon_god.get(lang) or self.dragon_god.get("en") or ""

    def ante_effect_text(self, lang: str = "en") -> str:
        return self.ante_effect.get(lang) or self.ante_effect.get("en") or ""

    def type_line(self, lang: str = "en") -> str:
        return self.type_lines.get(lang) or self.type_lines.get("en") or ""


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card: its number in :data:`ALL_CARDS`, its id, type and strength."""

    index: int
    id: str
    type: CardType
    strength: int

    def name(self, lang: str = "en") -> str:
        return self.type.name(lang)


def _load() -> tuple[tuple[Card, ...], dict[str, CardType]]:
    raw = json.loads(
        resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8")
    )
    types: dict[str, CardType] = {}
    for row in raw["cards"]:
        t = CardType(
            key=row["key"],
            set=row["set"],
            kind=row["kind"],
            alignment=row["alignment"],
            colors=tuple(row["colors"]),
            strengths=tuple(row["strengths"]),
            legendary_banner=row["legendary_banner"],
            power=row["power"],
            names=row["name"],
            type_lines=row["type_line"],
            texts=row["text"],
            dragon_god=row["dragon_god"],
            ante_effect=row["ante_effect"],
            explanations=row["explanation"],
        )
        types[t.key] = t
    ordered = sorted(
        types.values(),
        key=lambda t: 0 if t.set in LEGENDARY_SETS else 1,
    )
    cards: list[Card] = []
    for t in ordered:
        for strength in t.strengths:
            cid = t.key if len(t.strengths) == 1 else f"{t.key}-{strength}"
            cards.append(Card(len(cards), cid, t, strength))
    return tuple(cards), types


ALL_CARDS, CARD_TYPES = _load()
CARD_BY_ID: dict[str, Card] = {c.id: c for c in ALL_CARDS}


def card_number(card_id: str) -> int:
    """The engine's number for a physical card id; raises ``KeyError`` if unknown."""
    return CARD_BY_ID[card_id].index


def cards_of_sets(*sets: str) -> tuple[Card, ...]:
    return tuple(c for c in ALL_CARDS if c.type.set in sets)


__all__ = [
    "ALL_CARDS",
    "CARD_BY_ID",
    "CARD_TYPES",
    "Card",
    "CardType",
    "card_number",
    "cards_of_sets",
]
