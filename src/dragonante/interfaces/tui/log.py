"""The log: what happened, as the viewer's narrator tells it (only what that seat may see)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog


class LogPanel(RichLog):
    """Sentences appended as the game goes; cleared and retold when the viewer changes."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, auto_scroll=True, min_width=10)

    def tell(self, lines: list[str], style: str = "") -> None:
        """Append ``lines``; ``style`` sets a note apart (what changed since your turn)."""
        for line in lines:
            self.write(Text(line, style=style) if style else line)
