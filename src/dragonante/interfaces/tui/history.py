"""The panel beside the log: the current gambit round by round (who played what, what
triggered, who led next, what flights paid).

The lines come from :mod:`dragonante.interfaces.gambit_history`, the same the
browser draws, built from the viewer's own events (the snapshot's
``history``); the panel only lays them out, the latest round in view.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from dragonante.i18n import t
from dragonante.interfaces.gambit_history import history_lines
from dragonante.interfaces.tui.snapshot import Snapshot


class HistoryPanel(VerticalScroll):
    """The gambit so far, scrolled to its latest line."""

    DEFAULT_CSS = """
    HistoryPanel { height: auto; max-height: 45%; border: round $panel; padding: 0 1;
                   scrollbar-size-vertical: 1; }
    HistoryPanel > Static { width: 1fr; }
    """

    def __init__(self, lang: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lang = lang
        #: The lines shown now (tests and the snapshot compare read them).
        self.lines: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(Text(t("history.none", self.lang)), id="history-text")

    def on_mount(self) -> None:
        self.border_title = t("tui.title.history", self.lang)

    def show(self, snap: Snapshot) -> None:
        """Draw the snapshot's history (the viewer's own) if it changed."""
        lines = history_lines(snap.history, snap.narrator)
        if lines == self.lines:
            return
        self.lines = lines
        body = Text()
        for i, line in enumerate(lines):
            style = "bold" if i == 0 or not line.startswith(" ") else ""
            body.append(line + ("\n" if i < len(lines) - 1 else ""), style=style)
        self.query_one("#history-text", Static).update(body)
        self.call_after_refresh(self.scroll_end, animate=False)
