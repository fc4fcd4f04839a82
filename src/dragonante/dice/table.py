"""The Dice Gambit's d12 dragon table (options.md §8.2).

A d12 roll names the dragon "card": its type, alignment and strength die
(dragon gods have a fixed strength and roll nothing).  A regular dragon's
power amount is half its strength die ("1/2 the strength dice type"), which
does not depend on the strength rolled.  Entry 0 is not a dragon: it marks
a slot whose god was just sacrificed or destroyed and whose replacement has
not entered play yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

GOOD: Final = "good"
EVIL: Final = "evil"


@dataclass(frozen=True, slots=True)
class DragonType:
    """One row of the dragon card table."""

    #: The d12 face that rolls this dragon (0: an empty slot awaiting a replacement).
    face: int
    name: str
    alignment: str
    #: Sides of the strength die (none for dragon gods, whose strength is fixed).
    die: int = 0
    #: The fixed strength of a dragon god (none for regular dragons).
    fixed: int = 0
    god: bool = False

    @property
    def half_die(self) -> int:
        """A regular dragon's power amount: half its strength die (d8 -> 4)."""
        return self.die // 2

    @property
    def good(self) -> bool:
        return self.alignment == GOOD

    @property
    def evil(self) -> bool:
        return self.alignment == EVIL

    @property
    def strength_text(self) -> str:
        return str(self.fixed) if self.god else f"1d{self.die}"


EMPTY: Final = 0
TIAMAT: Final = 1
BRASS: Final = 2
WHITE: Final = 3
COPPER: Final = 4
BLACK: Final = 5
BRONZE: Final = 6
GREEN: Final = 7
SILVER: Final = 8
BLUE: Final = 9
GOLD: Final = 10
RED: Final = 11
BAHAMUT: Final = 12

#: The table, indexed by d12 face (index 0: an empty slot).
DRAGONS: Final[tuple[DragonType, ...]] = (
    DragonType(EMPTY, "(replacement pending)", ""),
    DragonType(TIAMAT, "Tiamat", EVIL, fixed=1, god=True),
    DragonType(BRASS, "Brass", GOOD, die=4),
    DragonType(WHITE, "White", EVIL, die=4),
    DragonType(COPPER, "Copper", GOOD, die=6),
    DragonType(BLACK, "Black", EVIL, die=6),
    DragonType(BRONZE, "Bronze", GOOD, die=8),
    DragonType(GREEN, "Green", EVIL, die=8),
    DragonType(SILVER, "Silver", GOOD, die=10),
    DragonType(BLUE, "Blue", EVIL, die=10),
    DragonType(GOLD, "Gold", GOOD, die=12),
    DragonType(RED, "Red", EVIL, die=12),
    DragonType(BAHAMUT, "Bahamut", GOOD, fixed=13, god=True),
)

#: The die that names a dragon, and the die of the tie-breaker roll-off.
TYPE_DIE: Final = 12
ORDER_DIE: Final = 12
TIEBREAK_DIE: Final = 20


def dragon(face: int) -> DragonType:
    """The dragon a d12 face names (``0``: an empty slot)."""
    return DRAGONS[face]
