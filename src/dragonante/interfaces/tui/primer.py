"""The rules primer over the table: opened with ``r`` from the help page.

The text is :mod:`dragonante.interfaces.primer`'s (the catalogues'
``primer.*``), the same ``dragonante rules`` prints; a page scrolls like
every other.  ``section`` opens one section alone (an explanation that links
to ``primer.trigger`` opens that), the whole primer otherwise.
"""

from __future__ import annotations

from textual.binding import Binding

from dragonante.i18n import t
from dragonante.interfaces import primer
from dragonante.interfaces.tui.screens import HelpScreen, TextScreen


class PrimerScreen(TextScreen):
    """The primer (or one section of it), scrollable."""

    def __init__(self, lang: str, section: str | None = None) -> None:
        only = primer.section_id(section) if section else None
        super().__init__(
            t("tui.title.primer", lang),
            primer.text_lines(lang, only),
            t("tui.close", lang),
            t("tui.scrolls", lang),
        )
        #: The section shown alone, or None for the whole primer.
        self.section = only


class TableHelpScreen(HelpScreen):
    """The card table's help page: its keys, and ``r`` for the rules primer over it."""

    BINDINGS = [Binding("r", "app.primer", show=False)]  # noqa: RUF012 (Textual's style)
