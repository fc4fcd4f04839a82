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

PRECIS lets through a few characters that draw nothing, or only empty
space, because Unicode does not call them default-ignorable: the Braille
blank U+2800, the musical null notehead U+1D159 and a few more
(:data:`BLANKS`).  A name made of them (or of marks alone) looked empty
beside its seat, and "Ann" with one after it passed for Ann (issue 32,
hole 4).  So a name may hold no blank, needs one visible character (a
letter, digit, punctuation or symbol), and two names are the same name
when their :func:`name_key` is equal: NFKC, case-folded, with every
default-ignorable, format and blank character left out.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from confusable_homoglyphs import categories, confusables
from precis_i18n import get_profile
from precis_i18n.unicode import UnicodeData

#: Characters in a name, after normalization.
NAME_MAX = 24
#: Combining marks allowed on one letter (Vietnamese needs two; more only stacks).
MAX_MARKS = 2

_PRESERVED = get_profile("NicknameCasePreserved")
_MAPPED = get_profile("NicknameCaseMapped")
_UCD = UnicodeData()

#: Characters that draw nothing, or only empty space, and that Unicode does not
#: call default-ignorable (so PRECIS allows them): the Braille blank, the
#: musical null notehead, the Khitan filler, SignWriting's two location
#: spaces; and the Hangul fillers, which PRECIS refuses already.
BLANKS = frozenset("\u2800\U0001d159\U00016fe4\U0001da7f\U0001da80\u115f\u1160\u3164\uffa0")


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


def _unseen(ch: str) -> bool:
    """Whether ``ch`` draws nothing a reader could tell apart: default-ignorable,
    a format character, or one of :data:`BLANKS`."""
    return ch in BLANKS or unicodedata.category(ch) == "Cf" or _UCD.default_ignorable(ord(ch))


def visible(ch: str) -> bool:
    """Whether ``ch`` draws something of its own: a letter, digit, punctuation
    mark or symbol that is not a blank (a combining mark only changes another)."""
    return unicodedata.category(ch)[0] in "LNPS" and not _unseen(ch)


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case-folded, every unseen
    character (:func:`_unseen`) left out and spaces collapsed, so "Ann"
    followed by a blank, "ANN" and the full-width "Ａnn" all give "ann"."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    kept = "".join(ch for ch in folded if not _unseen(ch))
    return " ".join(kept.split())


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
    if any(ch in BLANKS for ch in shown):
        raise BadName("a name may not contain blank characters (they look like nothing)")
    if not any(visible(ch) for ch in shown):
        raise BadName("a name needs a visible letter, digit or symbol")
    if marks_stacked(shown):
        raise BadName("a name may not stack combining marks")
    if confusables.is_dangerous(shown) or _looks_latin(shown):
        raise BadName(
            "a name may not use letters that look like another script's "
            "(it could pass for someone else's name)"
        )
    return shown


def same_name(a: str, b: str) -> bool:
    """Whether two names are the same name: equal case-mapped forms (RFC 8266),
    or equal :func:`name_key` (what is left once nothing unseen counts)."""
    if name_key(a) == name_key(b):
        return True
    try:
        return bool(_MAPPED.enforce(a) == _MAPPED.enforce(b))
    except UnicodeError:
        return False
