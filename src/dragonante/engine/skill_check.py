"""Gamblers Unleashed (L Appendix 5): one d20 skill check instead of a game.

"Pick up the d20 instead of the cards": the character makes a Sleight of
Hand or Persuasion check (IT *Rapidità di Mano* / *Persuasione*) against a
difficulty the game-master sets from the circumstances: easy, medium, hard
or harder (IT *facile, media, difficile, difficilissima*).  The book gives
no numbers, so the Difficulty Classes are the D&D 5e table's:

=========  ==
easy       10
medium     15
hard       20
harder     25
=========  ==

(5e's "very hard" is 25; the book's "even harder" is read as that step.)
The check succeeds when d20 + modifier >= DC.  A natural 20 or 1 has no
special meaning: in 5e only attack rolls (and death saves) succeed or fail
automatically on them, skill checks never do, so only the total counts.
With advantage two d20 are rolled and the higher kept; with disadvantage,
the lower.

Pure functions, standard library only, no I/O: :func:`resolve` turns the
d20 rolls into a :class:`SkillCheck`, :func:`roll_d20s` rolls them from a
seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

SLEIGHT_OF_HAND: Final = "sleight_of_hand"
PERSUASION: Final = "persuasion"
#: The two skills the book names.
SKILLS: Final = (SLEIGHT_OF_HAND, PERSUASION)

#: The book's difficulties with the D&D 5e Difficulty Classes.
DIFFICULTIES: Final[dict[str, int]] = {"easy": 10, "medium": 15, "hard": 20, "harder": 25}
DEFAULT_DIFFICULTY: Final = "medium"

NORMAL: Final = "normal"
ADVANTAGE: Final = "advantage"
DISADVANTAGE: Final = "disadvantage"
MODES: Final = (NORMAL, ADVANTAGE, DISADVANTAGE)
#: Per mode, how many d20 are rolled and which of them counts (max of one is the one).
_DICE: Final = {NORMAL: 1, ADVANTAGE: 2, DISADVANTAGE: 2}
_KEEP: Final = {NORMAL: max, ADVANTAGE: max, DISADVANTAGE: min}

DIE: Final = 20


class SkillCheckError(ValueError):
    """A check the rules cannot make (a roll off the die, a wrong number of rolls)."""


def dice_for(mode: str) -> int:
    """How many d20 a check rolls: two with advantage or disadvantage, else one."""
    if mode not in MODES:
        raise SkillCheckError(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")
    return _DICE[mode]


@dataclass(frozen=True, slots=True)
class SkillCheck:
    """One check, resolved."""

    skill: str
    dc: int
    modifier: int
    #: Every d20 rolled (two with advantage or disadvantage).
    rolls: tuple[int, ...]
    mode: str = NORMAL

    @property
    def roll(self) -> int:
        """The d20 that counts: the higher of two with advantage, the lower with
        disadvantage, the only one otherwise."""
        return _KEEP[self.mode](self.rolls)

    @property
    def total(self) -> int:
        return self.roll + self.modifier

    @property
    def success(self) -> bool:
        """The total meets the DC (a tie succeeds, as in 5e)."""
        return self.total >= self.dc


def resolve(
    skill: str, dc: int, modifier: int, rolls: tuple[int, ...], mode: str = NORMAL
) -> SkillCheck:
    """The check from its d20 rolls; raises :class:`SkillCheckError` for impossible input."""
    if skill not in SKILLS:
        raise SkillCheckError(f"unknown skill {skill!r}; choose from {', '.join(SKILLS)}")
    need = dice_for(mode)
    if len(rolls) != need:
        raise SkillCheckError(f"a {mode} check rolls {need} d20, got {len(rolls)}")
    for r in rolls:
        if not 1 <= r <= DIE:
            raise SkillCheckError(f"a d20 shows 1-{DIE}, got {r}")
    if dc < 1:
        raise SkillCheckError(f"a DC is at least 1, got {dc}")
    return SkillCheck(skill, dc, modifier, tuple(rolls), mode)


def roll_d20s(seed: int, mode: str = NORMAL) -> tuple[int, ...]:
    """The d20s of a check rolled from ``seed`` (the same seed, the same rolls)."""
    rng = random.Random(seed)
    return tuple(rng.randint(1, DIE) for _ in range(dice_for(mode)))
