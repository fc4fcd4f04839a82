"""The screens over the table: help, a card's full text, the hot-seat cover, summaries.

Each is a plain text page closed by a key (any key for the cover, which
exists so the next player can sit down before their hand is drawn).  The
text comes from the catalogs through the callers; nothing here is worded.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static


class TextScreen(ModalScreen[None]):
    """A titled page of lines over the table; Escape, Enter or ``q`` closes it."""

    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("escape", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("q", "close", show=False),
    ]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll {
        width: 90%; max-width: 100; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    TextScreen .title { text-style: bold; }
    """

    def __init__(self, title: str, lines: list[str], footer: str) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.footer = footer

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(self.title_text), classes="title")
            yield Static(Text("\n".join(self.lines)))
            yield Static(Text(self.footer, style="italic"))

    def action_close(self) -> None:
        self.dismiss(None)


class HelpScreen(TextScreen):
    """The keys and what the table shows."""


class CardScreen(TextScreen):
    """A card's (or an answer's) full text, with the rulebook's explanations."""


class SummaryScreen(TextScreen):
    """The end of a gambit or of the game."""


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
