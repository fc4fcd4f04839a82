"""Every D&D ability of both books, as data: its number, key, system and kind.

Two books tie Three-Dragon Ante to a campaign in different ways:

* the Legendary Edition's **3DA ability disks** (L Appendix 5, options.md
  §6.3): twelve abilities in three categories (Card Draw, Ante
  Manipulation, Card Denial), each character with one Ready/Expended disk;
* Emperor's Gambit's **special abilities** (EG Appendix 2, options.md §7.2):
  fifteen 4e skills and the Luck Domain feat, each always on, once per
  gambit, or usable again only after a special flight (recharge).

An ability is named in answers and configs by its number in :data:`ABILITIES`
(the engine's int-only answers) or its ``key`` (files, the command line).
Names and rule texts live in the message catalogs (``ability.<key>.*``),
so the engine stays free of prose.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: The two systems; a table uses at most one.
DISKS: Final = "disks"
SKILLS: Final = "skills"
SYSTEMS: Final = (DISKS, SKILLS)
#: Systems whose abilities belong to one character only (Emperor's Gambit's special
#: abilities; the disks can be held by several).  The tables know it through
#: ``_exclusive``; checks that must not trust a table read it here.
EXCLUSIVE_SYSTEMS: Final = frozenset({SKILLS})

# Legendary categories (L Appendix 5 "The Three Categories of Ability").
CARD_DRAW: Final = "card_draw"
ANTE_MANIPULATION: Final = "ante_manipulation"
CARD_DENIAL: Final = "card_denial"
# Emperor's Gambit kinds (how often an ability may be used).
ALWAYS: Final = "always"
ONCE_PER_GAMBIT: Final = "once_per_gambit"
RECHARGE: Final = "recharge"


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability: ``kind`` is a Legendary category or an Emperor's Gambit usage."""

    id: int
    key: str
    system: str
    kind: str
    #: Cards drawn when a Legendary Card Draw ability is used (its twist may say 1).
    draws: int = 0


ABILITIES: tuple[Ability, ...] = (
    # Legendary Edition ability disks: Card Draw (draw 2 unless a twist says 1).
    Ability(0, "desperation", DISKS, CARD_DRAW, 2),
    Ability(1, "blessing_of_the_trickster", DISKS, CARD_DRAW, 2),
    Ability(2, "draconic_ancestry", DISKS, CARD_DRAW, 1),
    Ability(3, "fast_hands", DISKS, CARD_DRAW, 1),
    Ability(4, "gambling_background", DISKS, CARD_DRAW, 2),
    Ability(5, "inspiring_leader", DISKS, CARD_DRAW, 2),
    Ability(6, "practice_counts", DISKS, CARD_DRAW, 2),
    Ability(7, "versatile_trickster", DISKS, CARD_DRAW, 2),
    # Ante Manipulation and Card Denial.
    Ability(8, "confusingly_smooth", DISKS, ANTE_MANIPULATION),
    Ability(9, "threats_and_promises", DISKS, ANTE_MANIPULATION),
    Ability(10, "cutting_words", DISKS, CARD_DENIAL),
    Ability(11, "magical_discouragement", DISKS, CARD_DENIAL),
    # Emperor's Gambit special abilities (4e skills, then the Luck Domain feat).
    Ability(12, "arcana", SKILLS, ALWAYS),
    Ability(13, "bluff", SKILLS, ALWAYS),
    Ability(14, "diplomacy", SKILLS, ONCE_PER_GAMBIT),
    Ability(15, "dungeoneering", SKILLS, RECHARGE),
    Ability(16, "endurance", SKILLS, ALWAYS),
    Ability(17, "heal", SKILLS, RECHARGE),
    Ability(18, "history", SKILLS, ALWAYS),
    Ability(19, "insight", SKILLS, RECHARGE),
    Ability(20, "intimidate", SKILLS, ALWAYS),
    Ability(21, "nature", SKILLS, ALWAYS),
    Ability(22, "perception", SKILLS, RECHARGE),
    Ability(23, "religion", SKILLS, ALWAYS),
    Ability(24, "stealth", SKILLS, ALWAYS),
    Ability(25, "streetwise", SKILLS, RECHARGE),
    Ability(26, "thievery", SKILLS, ALWAYS),
    Ability(27, "luck_domain", SKILLS, RECHARGE),
)

ID: dict[str, int] = {a.key: a.id for a in ABILITIES}
KEY: tuple[str, ...] = tuple(a.key for a in ABILITIES)

# Numbers the rules code refers to by name.
DESPERATION: Final = 0
BLESSING_OF_THE_TRICKSTER: Final = 1
DRACONIC_ANCESTRY: Final = 2
FAST_HANDS: Final = 3
GAMBLING_BACKGROUND: Final = 4
INSPIRING_LEADER: Final = 5
PRACTICE_COUNTS: Final = 6
VERSATILE_TRICKSTER: Final = 7
CONFUSINGLY_SMOOTH: Final = 8
THREATS_AND_PROMISES: Final = 9
CUTTING_WORDS: Final = 10
MAGICAL_DISCOURAGEMENT: Final = 11
ARCANA: Final = 12
BLUFF: Final = 13
DIPLOMACY: Final = 14
DUNGEONEERING: Final = 15
ENDURANCE: Final = 16
HEAL: Final = 17
HISTORY: Final = 18
INSIGHT: Final = 19
INTIMIDATE: Final = 20
NATURE: Final = 21
PERCEPTION: Final = 22
RELIGION: Final = 23
STEALTH: Final = 24
STREETWISE: Final = 25
THIEVERY: Final = 26
LUCK_DOMAIN: Final = 27


def of_system(system: str) -> tuple[Ability, ...]:
    """The abilities of one book's system, in catalog order."""
    return _BY_SYSTEM.get(system, ())


_BY_SYSTEM: dict[str, tuple[Ability, ...]] = {
    system: tuple(a for a in ABILITIES if a.system == system) for system in SYSTEMS
}


#: Colors a dragonborn's ancestry may take: the ten dragon colors of the
#: Legendary Edition (which are also 5e's dragonborn ancestries), as indexes
#: into :data:`dragonante.engine.tables.COLORS`.
ANCESTRY_COLORS: tuple[str, ...] = (
    "black", "blue", "brass", "bronze", "copper", "gold", "green", "red", "silver", "white",
)  # fmt: skip

#: Default number of abilities per character (L: "note two abilities"; EG:
#: "each character chooses one").
DEFAULT_PER_CHARACTER: dict[str, int] = {DISKS: 2, SKILLS: 1}
#: The most a character may have (L: "three or even four"; EG: "might even have three").
MAX_PER_CHARACTER: dict[str, int] = {DISKS: 4, SKILLS: 3}
