"""The screens over the table: help, a card's full text, the hot-seat cover, summaries.

Each is a plain text page closed by a key (any key for the cover, which
exists so the next player can sit down before their hand is drawn).  The
text comes from the catalogs through the callers; nothing here is worded.

A page keeps its title and its keys in view and scrolls what is between
(arrows, Page Up/Down, the wheel): at 80x24 a help page is taller than the
screen, and the footer then says so.  The text is never pre-wrapped: it
wraps to the box, an indented line under its own first word, and a help
page's "key  what it does" lines become a two-column table whose second
column wraps under itself.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

#: Where a page line too wide for its box may break: between items set apart by
#: two or more spaces (kept in the split, so a line that fits is drawn as it is).
ITEM_GAP = re.compile(r"( {2,})")
#: A help line naming a key: two spaces, the key(s), two or more spaces, what it does.
KEY_LINE = re.compile(r"^  (\S.*?) {2,}(\S.*)$")


def page_renderable(lines: list[str]) -> RenderableType:
    """The page's lines, wrapping to the box; runs of key lines as a two-column table."""
    parts: list[RenderableType] = []
    rows: list[tuple[str, str]] = []

    def flush() -> None:
        if rows:
            table = Table.grid(padding=(0, 2))
            table.add_column(no_wrap=True)
            table.add_column(ratio=1)
            for key, text in rows:
                table.add_row(key, text)
            parts.append(table)
            rows.clear()

    for line in lines:
        match = KEY_LINE.match(line)
        if match:
            rows.append((match.group(1), match.group(2)))
            continue
        flush()
        parts.append(Text(line))
    flush()
    return Group(*parts)


def hanging(lines: list[str]) -> RenderableType:
    """The page's lines wrapping to the box, an indented line's wrapped part under
    its own first word (an ability's or a card's text under its name), and a
    line of items (a sheet's checkboxes) broken between two items only."""
    parts: list[RenderableType] = []
    for line in lines:
        text = line.lstrip(" ")
        indent = len(line) - len(text)
        parts.append(
            Padding(ItemLine(text), (0, 0, 0, indent)) if indent and text else ItemLine(line)
        )
    return Group(*parts)


class ItemLine:
    """One line of a page, as it is when it fits the box; else broken between its
    items, the pieces two or more spaces set apart (``[x] Allied  [ ] Leader``:
    a checkbox stays with its name), and an item wider than the box by words.

    Rich alone wraps at any space, which put a box on one line and its name on
    the next (the Dice Gambit's end box)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        if cell_len(self.text) <= width:
            yield Text(self.text)
            return
        pieces = ITEM_GAP.split(self.text)
        line = pieces[0]
        for gap, item in zip(pieces[1::2], pieces[2::2], strict=True):
            if cell_len(line + gap + item) <= width:
                line += gap + item
                continue
            yield from _words(line, console, width)
            line = item
        yield from _words(line, console, width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        items = ITEM_GAP.split(self.text)[::2]
        return Measurement(max(cell_len(item) for item in items), cell_len(self.text))


def _words(line: str, console: Console, width: int) -> list[Text]:
    """``line``, wrapped by words if it is still wider than ``width``."""
    if cell_len(line) <= width:
        return [Text(line)]
    return list(Text(line).wrap(console, width))


class TextScreen(ModalScreen[None]):
    """A titled page of lines over the table; Escape, Enter or ``q`` closes it.

    ``scroll_note`` (say "arrows scroll") is put before the footer when the
    page does not fit the screen.
    """

    #: Whether "  key  what it does" lines are drawn as a two-column table.
    KEY_TABLE = False

    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("escape", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("q", "close", show=False),
    ]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    TextScreen .title { text-style: bold; }
    TextScreen VerticalScroll { height: auto; }
    TextScreen .footer { text-style: italic; }
    """

    def __init__(self, title: str, lines: list[str], footer: str, scroll_note: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.footer = footer
        self.scroll_note = scroll_note

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), classes="title")
            with VerticalScroll():
                body = page_renderable(self.lines) if self.KEY_TABLE else hanging(self.lines)
                yield Static(body, classes="body")
            yield Static(Text(self.footer), classes="footer")

    def on_mount(self) -> None:
        self._fit()
        self.query_one(VerticalScroll).focus()
        self.call_after_refresh(self._note_scrolling)

    def on_resize(self, event: events.Resize) -> None:
        self._fit()
        self.call_after_refresh(self._note_scrolling)

    def _fit(self) -> None:
        """The scrolling part gets what the screen leaves (borders, title, footer)."""
        self.query_one(VerticalScroll).styles.max_height = max(3, self.app.size.height - 5)

    def _note_scrolling(self) -> None:
        footer = self.footer
        if self.scroll_note and self.scrolls:
            footer = f"{self.scroll_note}   {footer}"
        self.query_one(".footer", Static).update(Text(footer))

    @property
    def scrolls(self) -> bool:
        """Whether the page is taller than its box (the footer then says it scrolls)."""
        return self.query_one(VerticalScroll).max_scroll_y > 0

    def action_close(self) -> None:
        self.dismiss(None)


class HelpScreen(TextScreen):
    """The keys and what the table shows."""

    KEY_TABLE = True


class CardScreen(TextScreen):
    """A card's (or an answer's) full text, with the rulebook's explanations."""


class SummaryScreen(TextScreen):
    """The end of a gambit or of the game."""


class GameOverScreen(SummaryScreen):
    """The end of the game: its keys do what its footer says (``s`` saves the
    record and stays, ``q`` leaves the table, Escape goes back to it)."""

    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("s", "app.save", show=False),
        Binding("q", "app.quit_game", show=False),
        Binding("enter", "close", show=False),
        Binding("escape", "close", show=False),
    ]


class ConfirmScreen(ModalScreen[bool]):
    """A yes-or-no question over the table: leave a game in progress?

    ``y`` (or the Italian ``s``), ``q`` and a second Ctrl+C answer yes;
    ``n`` and Escape no.
    """

    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("y", "answer(True)", show=False),
        Binding("s", "answer(True)", show=False),
        Binding("q", "answer(True)", show=False),
        Binding("ctrl+c", "answer(True)", show=False, priority=True),
        Binding("n", "answer(False)", show=False),
        Binding("escape", "answer(False)", show=False),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 90%; max-width: 72; height: auto;
        border: round $warning; background: $surface; padding: 0 1;
    }
    ConfirmScreen .title { text-style: bold; }
    ConfirmScreen .footer { text-style: italic; }
    """

    def __init__(self, title: str, lines: list[str], footer: str) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.footer = footer

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), classes="title")
            yield Static(Text("\n".join(self.lines)))
            yield Static(Text(self.footer), classes="footer")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class CoverScreen(Screen[None]):
    """Hot-seat: hides the table until the next player presses a key."""

    DEFAULT_CSS = """
    CoverScreen { align: center middle; }
    CoverScreen > Static { width: auto; padding: 1 2; border: round $accent; }
    """

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        yield Static(Text(self.message, style="bold"))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(None)
