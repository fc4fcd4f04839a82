"""The ``w`` key: "why?" for a line of the log, the rule that made it happen.

The log panel keeps each line it tells with the :class:`~dragonante.interfaces.events.Why`
of its event (the table of events, :mod:`dragonante.interfaces.events`);
this page lists the log's lines, the latest one selected, and shows the
rule of the selected line under the list: the rule in words, the card's or
the ability's own text when one made it happen, and the book and section.
The arrows choose another line; Escape, Enter or ``q`` goes back to the
table.  The lines are the viewer's own (the narrator told only what the
seat may see), so the page can show nothing else.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from dragonante.i18n import t
from dragonante.interfaces.events import Why

#: A log line and the why of its event (None: a note with no event of its own).
Entry = tuple[str, Why | None]


def why_lines(why: Why | None, lang: str) -> list[str]:
    """The page's text for one line's why (a note of its own says it has none)."""
    return why.lines(lang) if why is not None else [t("why.none", lang)]


class WhyScreen(ModalScreen[None]):
    """The log's lines, one selected, and the rule of the selected one."""

    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("escape", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("q", "close", show=False),
        Binding("w", "close", show=False),
        Binding("y", "close", show=False),
    ]
    DEFAULT_CSS = """
    WhyScreen { align: center middle; }
    WhyScreen > Vertical {
        width: 90%; max-width: 110; height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    WhyScreen .title { text-style: bold; }
    WhyScreen OptionList { height: 1fr; border: none; }
    WhyScreen #why-rule { height: auto; max-height: 50%; border-top: solid $panel; }
    WhyScreen .footer { text-style: italic; }
    """

    def __init__(self, entries: list[Entry], lang: str) -> None:
        super().__init__()
        self.entries = entries
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(t("tui.why.title", self.lang)), classes="title")
            yield OptionList(*(Text(line) for line, _ in self.entries), id="why-lines")
            yield Static(id="why-rule")
            yield Static(Text(t("tui.why.keys", self.lang)), classes="footer")

    def on_mount(self) -> None:
        lines = self.query_one(OptionList)
        lines.focus()
        if self.entries:
            lines.highlighted = self.latest
            self.show_rule(self.latest)

    @property
    def latest(self) -> int:
        """The line selected first: the latest one with a rule (the table's own
        notes, what changed since your turn, come after the events they sum up)."""
        ruled = [i for i, (_, why) in enumerate(self.entries) if why is not None]
        return ruled[-1] if ruled else len(self.entries) - 1

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_rule(event.option_index)

    def show_rule(self, index: int) -> None:
        """Show the rule of the ``index``-th line under the list."""
        if not 0 <= index < len(self.entries):
            return
        line, why = self.entries[index]
        body = Text(line, style="bold")
        for part in why_lines(why, self.lang):
            body.append("\n" + part)
        self.query_one("#why-rule", Static).update(body)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
