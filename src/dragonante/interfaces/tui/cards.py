"""Cards as colored badges: the dragon's color at a glance, on dark and light themes.

A card is drawn as its label on a background of its dragon color with a
foreground chosen for contrast, rather than as colored text: a white or
yellow text vanishes on a light terminal and a black one on a dark one,
but a filled badge reads the same on both.  Mortals (no color) get a
neutral grey badge; a card of several colors (a dragon god) takes its
first.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from dragonante.cards import ALL_CARDS
from dragonante.interfaces.narrate import card_label
from dragonante.interfaces.render import TRIGGER_MARK

#: Background and foreground of each card color's badge.
BADGE: dict[str, tuple[str, str]] = {
    "red": ("#b22222", "#ffffff"),
    "blue": ("#1e5fb4", "#ffffff"),
    "green": ("#2e7d32", "#ffffff"),
    "black": ("#202020", "#ffffff"),
    "white": ("#e8e8e8", "#000000"),
    "gold": ("#d4a017", "#000000"),
    "silver": ("#a8b4c0", "#000000"),
    "bronze": ("#a0632b", "#ffffff"),
    "brass": ("#c9a43b", "#000000"),
    "copper": ("#b86a3c", "#ffffff"),
    "brown": ("#6d4c2f", "#ffffff"),
    "gray": ("#707070", "#ffffff"),
    "iron": ("#4a4f55", "#ffffff"),
    "steel": ("#6f8396", "#ffffff"),
    "mercury": ("#c0c6cc", "#000000"),
    "mithral": ("#d8e4ef", "#000000"),
    "adamantine": ("#3b3355", "#ffffff"),
    "purple": ("#6a2c91", "#ffffff"),
    "shadow": ("#3a3a4a", "#ffffff"),
    "earthquake": ("#7a5c3a", "#ffffff"),
}
#: Mortals and anything without a color.
NEUTRAL = ("#5f6b73", "#ffffff")


def card_style(card: int) -> Style:
    """The badge style of a card, by its first color."""
    colors = ALL_CARDS[card].type.colors if 0 <= card < len(ALL_CARDS) else ()
    bg, fg = next((BADGE[c] for c in colors if c in BADGE), NEUTRAL)
    return Style(color=fg, bgcolor=bg, bold=True)


def card_badge(card: int, lang: str, triggers: bool = False, label: str | None = None) -> Text:
    """One card as a badge (`` Red Dragon (12) * ``); ``label`` overrides the card's name."""
    shown = label if label is not None else card_label(card, lang)
    mark = f" {TRIGGER_MARK}" if triggers else ""
    return Text(f" {shown}{mark} ", style=card_style(card))


class Flow:
    """Pieces of text laid out left to right, a new line only *between* pieces.

    Rich wraps a text at any space, which would split a badge ("Black" on
    one line, "Dragon (9)" on the next); a card must stay in one piece.
    """

    def __init__(self, items: Iterable[Text], tail: Text | None = None) -> None:
        self.items = [*items, *([tail] if tail is not None else [])]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line = Text()
        for item in self.items:
            if line.cell_len and line.cell_len + 1 + item.cell_len > width:
                yield line
                line = Text()
            if line.cell_len:
                line.append(" ")
            line.append_text(item)
        yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [item.cell_len for item in self.items] or [0]
        return Measurement(max(widths), sum(widths) + len(widths) - 1)


def card_badges(
    cards: Iterable[int], lang: str, triggers: Iterable[int] = (), tail: Text | None = None
) -> Flow:
    """Several badges, wrapping between cards (``tail``: a last piece, such as a total)."""
    marked = set(triggers)
    return Flow((card_badge(c, lang, c in marked) for c in cards), tail)
