"""The log: what happened, as the viewer's narrator tells it (only what that seat may see)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from rich.text import Text
from textual.widgets import RichLog

from dragonante.interfaces.events import Why


class LogPanel(RichLog):
    """Sentences appended as the game goes; cleared and retold when the viewer changes."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, auto_scroll=True, min_width=10)
        #: Every line told, with the why of its event (the ``w`` key's page).
        self.entries: list[tuple[str, Why | None]] = []

    def tell(
        self, lines: list[str], style: str = "", whys: Sequence[Why | None] | None = None
    ) -> None:
        """Append ``lines``; ``style`` sets a note apart (what changed since your turn);
        ``whys``: the rule of each line's event, for "why?"."""
        for i, line in enumerate(lines):
            self.write(Text(line, style=style) if style else line)
            self.entries.append((line, whys[i] if whys is not None and i < len(whys) else None))

    def clear(self) -> Self:
        self.entries = []
        return super().clear()
