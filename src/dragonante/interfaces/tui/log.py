"""The log: what happened, as the viewer's narrator tells it (only what that seat may see)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

from dragonante.interfaces.events import Why


class LogPanel(RichLog):
    """Sentences appended as the game goes; cleared and retold when the viewer changes."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, auto_scroll=True, min_width=10)
        #: Every line told, with the why of its event (the ``w`` key's page).
        self.entries: list[tuple[str, Why | None]] = []
        #: The height the log was last laid out with (None before its first layout).
        self._height: int | None = None

    def on_resize(self, event: Resize) -> None:
        """A log that showed its last line keeps showing it when its panel grows or
        shrinks (a question with more answers under it): RichLog only scrolls on a
        write, so a panel made a row shorter just after hid the newest line.

        (Textual also runs RichLog's own handler, which renders the writes made
        before the size was known.)
        """
        height = self.scrollable_content_region.height
        before = self._height
        self._height = height
        if before is None or before == height:
            return
        if self.scroll_y >= max(0, self.virtual_size.height - before):
            self.scroll_end(animate=False, immediate=False, x_axis=False)

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
