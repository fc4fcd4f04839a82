"""People's names at a table: one normal form, nothing invisible, nothing that mimics another.

A name is shown to everyone beside the seat's moves and chat, so a name
that looks like someone else's is an impersonation: "Аnn" with a Cyrillic
"А", a full-width "Ａnn", "Ann" followed by an invisible Hangul filler, or
a bot's name with a Cyrillic "о" (issue 22, hole 8).  Two well-kept
libraries decide, rather than a home-made list:

* the PRECIS nickname profile (RFC 8266, ``precis-i18n``) normalizes a
  name (width and compatibility forms to their plain letters, spaces
  collapsed, NFKC) and refuses what a nickname may not hold: controls,
  zero-width and other default-ignorable characters, unassigned code
  points, old Hangul fillers.  Two names are the same name when their
  case-mapped forms are equal (``NicknameCaseMapped``), so the normalized
  "Ａnn" is taken when "ann" sits at the table;
* the Unicode confusables data (``confusable-homoglyphs``) refuses a name
  mixing scripts in a way that makes a look-alike (Latin with a Cyrillic
  or Greek letter that looks Latin), and a name in one other script whose
  every letter has a Latin look-alike ("Тео", "ВОВА" read as Latin).
  Names wholly in another script ("Анна", "李小龍") stay welcome.

Stacks of combining marks (which draw over the lines around) are refused
too, as in chat (``chat.py``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from confusable_homoglyphs import categories, confusables
from precis_i18n import get_profile

#: Characters in a name, after normalization.
NAME_MAX = 24
#: Combining marks allowed on one letter (Vietnamese needs two; more only stacks).
MAX_MARKS = 2

_PRESERVED = get_profile("NicknameCasePreserved")
_MAPPED = get_profile("NicknameCaseMapped")


class BadName(ValueError):
    """Why a name is refused (one English sentence)."""


def marks_stacked(text: str, limit: int = MAX_MARKS) -> bool:
    """Whether some letter of ``text`` carries more than ``limit`` combining
    marks (counted decomposed, so a precomposed letter counts its own)."""
    run = 0
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.category(ch) in ("Mn", "Me"):
            run += 1
            if run > limit:
                return True
        else:
            run = 0
    return False


def _ascii_twin(ch: str) -> bool:
    """Whether ``ch`` looks like a plain ASCII letter (Cyrillic "о" like "o")."""
    found = confusables.is_confusable(ch, preferred_aliases=["latin"]) or []
    return any(h["c"].isascii() and h["c"].isalpha() for f in found for h in f["homoglyphs"])


def _looks_latin(name: str) -> bool:
    """A name in one non-Latin script whose every letter looks like an ASCII
    letter ("Тео", "ВОВА"), so it reads as a Latin name ("Анна" does not: "н")."""
    scripts = categories.unique_aliases(name) - {"COMMON"}
    if len(scripts) != 1 or "LATIN" in scripts:
        return False
    letters = [ch for ch in name if ch.isalpha()]
    return bool(letters) and all(_ascii_twin(ch) for ch in letters)


def normalize(name: Any) -> str:
    """The name as shown (PRECIS nickname, case preserved); BadName if refused."""
    if not isinstance(name, str):
        raise BadName("a name is required")
    if len(name) > 4 * NAME_MAX:
        raise BadName(f"a name has 1 to {NAME_MAX} characters")
    try:
        shown: str = _PRESERVED.enforce(name)
    except UnicodeError:
        raise BadName(
            "a name may not contain invisible, control or unassigned characters"
        ) from None
    if not 1 <= len(shown) <= NAME_MAX:
        raise BadName(f"a name has 1 to {NAME_MAX} characters")
    if marks_stacked(shown):
        raise BadName("a name may not stack combining marks")
    if confusables.is_dangerous(shown) or _looks_latin(shown):
        raise BadName(
            "a name may not use letters that look like another script's "
            "(it could pass for someone else's name)"
        )
    return shown


def same_name(a: str, b: str) -> bool:
    """Whether two normalized names are the same name (RFC 8266 comparison)."""
    try:
        return bool(_MAPPED.enforce(a) == _MAPPED.enforce(b))
    except UnicodeError:
        return a.casefold() == b.casefold()
