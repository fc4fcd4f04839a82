"""Rule coverage: which card texts and rules clauses of the books no scenario quotes yet.

Every card's book entry - its power text, each paragraph of its explanation,
its dragon-god ability and its ante effect, in English, from both books (the
Legendary Edition's Appendix 4 and the Emperor's Gambit's card list; the
package's card table holds them) - should be quoted by the ``rule`` field of
at least one scenario, because a scenario is how the project checks that the
engine does what that text says.  :func:`coverage` says which are not.

The rest of each book's rules (setup, the gambit's steps, special flights,
buying, the hole, debts, winning, the optional rules, the deck options, the
D&D ability rules, and the Dice Gambit's rules) is listed clause by clause
in ``clauses.json`` (cut from the books by ``tools/extract_clauses.py``, which
says what it leaves out and why); :func:`rule_clauses` reads it.  The Dice
Gambit's rules tests are Python tables, not scenario files: the strings of
``tests/dice/test_*.py`` (their docstrings quote the book) count as quotes
too (:func:`table_quotes`).

The quote-matching rule (see ``docs/scenarios.md``, "Rule coverage"): both
texts are normalized - Unicode compatibility forms, lower case, curly quotes
and apostrophes dropped, every dash one character, runs of whitespace one
space.  A *quote* is a stretch of at least :data:`MIN_SPAN` consecutive
characters of the paragraph found in some scenario's rule (a paragraph
shorter than that must be quoted whole, but for its closing full stop).
The paragraph is covered when the quotes, from all scenarios together, span
at least :data:`MIN_SHARE` of its characters.  So a quote may wrap lines,
change quote marks, be cut with "..." or spread over the scenarios that
test its separate points, but a phrase that several cards share never
covers a long paragraph on its own.
"""

from __future__ import annotations

import ast
import json
import re
import tomllib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, overload

from dragonante.cards import CARD_TYPES, CardType

#: Characters of a paragraph a rule must quote in one stretch for it to count.
MIN_SPAN = 40
#: Share of a paragraph's characters the quotes must span for it to be covered.
MIN_SHARE = 0.5

_QUOTES = str.maketrans(dict.fromkeys("'\"‘’‚‛“”„‟`´«»"))
_DASHES = re.compile(r"\s*(?:[‐‑‒–—―−]|-{1,3})\s*")
_SPACES = re.compile(r"\s+")


def normalize(text: str) -> str:
    """The form in which book text and quotes are compared (see the module doc)."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.replace("…", "...").translate(_QUOTES)
    text = _DASHES.sub("-", text)
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True, slots=True)
class Paragraph:
    """One quotable piece of a card's book entry."""

    card: str  # the card type's key, e.g. ``L-mor-archmage``
    name: str  # the card's English name
    part: str  # ``power``, ``explanation 2``, ``dragon god``, ``ante effect``
    text: str  # as printed (English)

    @property
    def book(self) -> str:
        return "Emperor's Gambit" if self.card.startswith("EG-") else "Legendary"


def card_paragraphs(t: CardType) -> list[Paragraph]:
    """The quotable paragraphs of one card's entry, in book order."""
    name = t.name("en")
    out: list[Paragraph] = []
    if t.texts.get("en"):
        out.append(Paragraph(t.key, name, "power", t.texts["en"] or ""))
    if t.dragon_god.get("en"):
        out.append(Paragraph(t.key, name, "dragon god", t.dragon_god["en"] or ""))
    if t.ante_effect.get("en"):
        out.append(Paragraph(t.key, name, "ante effect", t.ante_effect["en"] or ""))
    for i, para in enumerate(t.explanations.get("en", []), 1):
        if para.strip():
            out.append(Paragraph(t.key, name, f"explanation {i}", para))
    return out


@dataclass(frozen=True, slots=True)
class Clause:
    """One paragraph of a book's rules (not a card's entry)."""

    book: str  # ``Legendary``, ``Emperor's Gambit``, ``Dice Gambit``
    section: str  # the heading it is under, as printed
    text: str


class Quotable(Protocol):
    """Anything whose ``text`` scenarios may quote: a card paragraph, a rules clause."""

    @property
    def text(self) -> str: ...


_CLAUSES = Path(__file__).with_name("clauses.json")


def rule_clauses() -> list[Clause]:
    """Every rules clause of the three books, in book order."""
    data = json.loads(_CLAUSES.read_text(encoding="utf-8"))
    return [Clause(c["book"], c["section"], c["text"]) for c in data]


def all_paragraphs() -> list[Paragraph]:
    """Every card's paragraphs, both books, in card-table order."""
    return [p for t in CARD_TYPES.values() for p in card_paragraphs(t)]


@dataclass(frozen=True, slots=True)
class Quoted:
    """How much of one paragraph the scenarios quote, and which files do."""

    share: float  # 0.0 - 1.0 of the paragraph's normalized characters
    files: tuple[str, ...]

    @property
    def covered(self) -> bool:
        return self.share >= MIN_SHARE


Q = TypeVar("Q", bound=Quotable)


@dataclass(slots=True)
class Coverage(Generic[Q]):
    """Each paragraph with what the scenarios quote of it."""

    quoted: dict[Q, Quoted] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return len(self.quoted)

    @property
    def covered(self) -> int:
        return sum(1 for q in self.quoted.values() if q.covered)

    def uncovered(self) -> list[Q]:
        return [p for p, q in self.quoted.items() if not q.covered]


class _Index:
    """Every ``span``-character window of the normalized rules, to their files."""

    def __init__(self, rules: Sequence[tuple[str, str]], span: int) -> None:
        self.span = span
        self.rules = [(name, normalize(text)) for name, text in rules]
        self.windows: dict[str, list[str]] = {}
        for name, text in self.rules:
            for i in range(len(text) - span + 1):
                files = self.windows.setdefault(text[i : i + span], [])
                if not files or files[-1] != name:
                    files.append(name)

    def quoted(self, paragraph: str) -> Quoted:
        """What the rules quote of ``paragraph`` under the matching rule."""
        text = normalize(paragraph)
        span = self.span
        if len(text) < span:
            # Quoted whole, but a quote may drop the closing full stop.
            text = text.rstrip(".!")
            files = tuple(name for name, rule in self.rules if text in rule)
            return Quoted(1.0 if files else 0.0, files)
        found: dict[str, None] = {}
        spanned = [False] * len(text)
        for i in range(len(text) - span + 1):
            names = self.windows.get(text[i : i + span])
            if names:
                spanned[i : i + span] = [True] * span
                found.update(dict.fromkeys(names))
        return Quoted(sum(spanned) / len(text), tuple(found))


@overload
def coverage(rules: Sequence[tuple[str, str]]) -> Coverage[Paragraph]: ...


@overload
def coverage(
    rules: Sequence[tuple[str, str]], paragraphs: Iterable[Q], span: int = MIN_SPAN
) -> Coverage[Q]: ...


def coverage(
    rules: Sequence[tuple[str, str]],
    paragraphs: Iterable[Quotable] | None = None,
    span: int = MIN_SPAN,
) -> Coverage[Any]:
    """What the ``(file, rule)`` pairs quote of ``paragraphs`` (default: every card's)."""
    index = _Index(rules, span)
    result: Coverage[Any] = Coverage()
    for p in all_paragraphs() if paragraphs is None else paragraphs:
        result.quoted[p] = index.quoted(p.text)
    return result


class CoverageError(ValueError):
    """A scenario file whose ``rule`` cannot be read; the message names it."""


def scenario_rules(paths: Iterable[Path]) -> list[tuple[str, str]]:
    """``(file, rule)`` of every scenario file given or below a folder given.

    Only the ``rule`` field is read (the files are not validated: ``scenario
    run`` does that), so coverage is quick and a file that does not run yet
    still counts for what it quotes.
    """
    files: list[Path] = []
    for p in paths:
        files.extend(sorted(p.rglob("*.toml")) if p.is_dir() else [p])
    out: list[tuple[str, str]] = []
    for f in files:
        try:
            data = tomllib.loads(f.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise CoverageError(f"{f}: {e}") from e
        rule = data.get("rule", "")
        if not isinstance(rule, str):
            raise CoverageError(f"{f}: rule must be a string")
        out.append((str(f), rule))
    return out


#: The Dice Gambit's rules tables (``tests/dice/test_<name>.py``): its rules tests
#: (``test_rules.py``: the book's clauses that no other table quotes).
DICE_TABLES = ("powers", "flights", "gambits", "debts", "rules")
#: The card game's rules tests in Python, for what one scenario cannot play (a
#: series of several games): ``tests/engine/test_endings.py``.
CARD_TABLES = ("endings",)


def table_quotes(paths: Iterable[Path]) -> list[tuple[str, str]]:
    """``(file, text)`` of every string in the Python rules tables given or below a
    folder given (:data:`DICE_TABLES`, :data:`CARD_TABLES`): they quote the book in
    their docstrings, as scenario files do in ``rule``.  Other Python files (the
    runner's own tests) quote nothing."""
    names = {f"test_{n}.py" for n in DICE_TABLES + CARD_TABLES}
    files: list[Path] = []
    for p in paths:
        found = sorted(p.rglob("test_*.py")) if p.is_dir() else [p]
        files.extend(f for f in found if f.name in names)
    out: list[tuple[str, str]] = []
    for f in files:
        try:
            tree = ast.parse(f.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, SyntaxError) as e:
            raise CoverageError(f"{f}: {e}") from e
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and len(text) >= MIN_SPAN:
                out.append((str(f), text))
    return out
