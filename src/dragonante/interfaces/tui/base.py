"""What every full-screen table shares, whatever feeds it: the panels, the keys, the pages.

The table is drawn from a :class:`~dragonante.interfaces.tui.snapshot.Snapshot`
and told through the log panel; where the snapshots and the sentences come
from is the *table source*, and one loop draws every source:

* :class:`~dragonante.interfaces.tui.source_app.SourceTableApp`: any
  :class:`~dragonante.interfaces.table_source.TableSource`, the one
  full-screen loop over the seam: a local game in
  :class:`~dragonante.interfaces.tui.app.TableApp` (the engine in this
  process, bots in worker threads, hot-seat, take-back), a replay in
  :class:`~dragonante.interfaces.tui.source_app.ReplayApp`,
  and one seat at a table on a ``dragonante serve`` server in
  :class:`~dragonante.interfaces.tui.online.OnlineTableApp`, fed by the
  frames of the seat's WebSocket (:mod:`.frame_source`, read by :mod:`.remote`).

Keeping the layout, the answer keys, help, card texts and the theme here
means both look and answer alike, and the snapshot stays the one place the
screen reads from (the information barrier: only the viewer's own view).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from dragonante.i18n import t
from dragonante.interfaces.events import Why
from dragonante.interfaces.render import ability_help_lines, ability_page_lines, card_help_lines
from dragonante.interfaces.tui.hand import HandPanel
from dragonante.interfaces.tui.history import HistoryPanel
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.primer import PrimerScreen, TableHelpScreen
from dragonante.interfaces.tui.question import NUMBER_KEYS, QuestionPanel
from dragonante.interfaces.tui.screens import CardScreen, TextScreen
from dragonante.interfaces.tui.seats import SeatsPanel
from dragonante.interfaces.tui.snapshot import Snapshot
from dragonante.interfaces.tui.why import WhyScreen

#: The two themes the ``t`` key switches between.
THEMES = ("textual-dark", "textual-light")


class TableBase(App[int]):
    """The full-screen table's layout and shared keys; subclasses feed it snapshots."""

    TITLE = "dragonante"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #seats { height: auto; max-height: 50%; padding: 0 1; }
    #hand { height: auto; padding: 0 1; }
    #bottom { height: 1fr; min-height: 5; }
    #question { width: 1fr; border: round $accent; }
    #question-text { height: auto; }
    #answers { height: 1fr; border: none; padding: 0; }
    #question-why { height: auto; }
    #side { width: 1fr; }
    #log { height: 1fr; border: round $panel; scrollbar-size-vertical: 1; }
    #keys { height: 1; background: $panel; padding: 0 1; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("ctrl+c", "interrupt", show=False, priority=True),
        Binding("q", "quit_game", show=False),
        Binding("question_mark", "help", show=False),
        Binding("c", "card", show=False),
        Binding("a", "abilities", show=False),
        Binding("t", "theme", show=False),
        Binding("w", "why", show=False),
        # The answers keep the arrows; these scroll the log (priority: the
        # answer list would take them otherwise).
        Binding("pageup", "scroll_log(-1)", show=False, priority=True),
        Binding("pagedown", "scroll_log(1)", show=False, priority=True),
        *(Binding(k, f"number({i})", show=False) for i, k in enumerate(NUMBER_KEYS)),
    ]
    #: Catalog keys of the key line and of the help page (a source may have other keys).
    KEYS_TEXT = "online.keys"
    HELP_TEXT = "tui.help"

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        #: What the panels show now (None before the first one).
        self.snapshot: Snapshot | None = None

    def compose(self) -> ComposeResult:
        yield SeatsPanel(id="seats")
        yield HandPanel(id="hand")
        with Horizontal(id="bottom"):
            yield QuestionPanel(id="question")
            with Vertical(id="side"):
                yield HistoryPanel(self.lang, id="history")
                yield LogPanel(id="log")
        yield Static(self.keys_line(), id="keys")

    def keys_line(self) -> str:
        """The line of keys at the bottom: only keys that work at this table."""
        return t(self.KEYS_TEXT, self.lang)

    def on_mount(self) -> None:
        self.query_one("#question").border_title = t("tui.title.question", self.lang)
        self.query_one("#log").border_title = t("tui.title.log", self.lang)

    def draw(self, snap: Snapshot, waiting: str) -> None:
        """Every panel from ``snap``; ``waiting`` is the question box's text when the
        question is someone else's (or there is none)."""
        self.snapshot = snap
        self.query_one(SeatsPanel).show(snap)
        self.query_one(HandPanel).show(snap)
        self.query_one(QuestionPanel).show(snap.prompt, self.lang, waiting)
        self.query_one(HistoryPanel).show(snap)

    def tell(
        self, lines: list[str], style: str = "", whys: Sequence[Why | None] | None = None
    ) -> None:
        """Append sentences to the log (in ``style``, a Rich style, if given;
        ``whys``: the rule behind each, for the ``w`` key)."""
        self.query_one(LogPanel).tell(lines, style, whys)

    def action_why(self) -> None:
        """``w``: the log's lines, the latest selected, with the rule behind each."""
        entries = self.query_one(LogPanel).entries
        if not entries:
            self.notify(t("tui.why.empty", self.lang))
            return
        self.push_screen(WhyScreen(list(entries), self.lang))

    # --- keys -------------------------------------------------------------------

    def action_number(self, index: int) -> None:
        self.query_one(QuestionPanel).choose(index)

    def action_help(self) -> None:
        lines = t(self.HELP_TEXT, self.lang).split("\n")
        lines += ["", t("tui.help_primer", self.lang)]
        self.push_screen(
            TableHelpScreen(
                t("tui.title.help", self.lang),
                lines,
                t("tui.close", self.lang),
                t("tui.scrolls", self.lang),
            )
        )

    def action_primer(self, section: str = "") -> None:
        """``r`` on the help page: the rules primer (``section``: that section alone)."""
        self.push_screen(PrimerScreen(self.lang, section or None))

    def action_scroll_log(self, pages: int) -> None:
        """Page Up/Down: the log, whatever has the focus (the answers keep the arrows)."""
        if isinstance(self.screen, TextScreen):
            scroller = self.screen.query_one("VerticalScroll")
            if pages < 0:
                scroller.scroll_page_up()
            else:
                scroller.scroll_page_down()
            return
        log = self.query_one(LogPanel)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_abilities(self) -> None:
        """``a``: the table's ability rows, and every ability the viewer knows (its
        own, the opponents' known ones) with its full text."""
        lang = self.lang
        snap = self.snapshot
        if snap is None or snap.view.seat is None:
            return
        ab = snap.view.obs.abilities
        if ab is None:
            self.notify(t("play.no_abilities", lang))
            return
        lines = ability_page_lines(snap.view, snap.narrator)
        self.push_screen(
            CardScreen(
                t("tui.title.abilities", lang), lines, t("tui.close", lang), t("tui.scrolls", lang)
            )
        )

    def action_card(self) -> None:
        """The full text of the highlighted answer's card (or ability), else of the hand."""
        lang = self.lang
        option = self.query_one(QuestionPanel).highlighted_option()
        snap = self.snapshot
        lines: list[str] = []
        if option is not None and option.card >= 0:
            lines = card_help_lines(option.card, lang)
        elif option is not None and option.detail:
            lines = [option.label, "  " + option.detail]
        elif snap is not None and snap.view.obs.hand:
            for c in snap.view.obs.hand:
                lines.extend(card_help_lines(c, lang))
        if snap is not None and option is None and snap.view.seat is not None:
            ab = snap.view.obs.abilities
            if ab is not None:
                lines.extend(ability_help_lines(ab["held"][snap.view.seat], lang))
        if not lines:
            self.notify(t("tui.no_card", lang))
            return
        self.push_screen(
            CardScreen(
                t("tui.title.card", lang), lines, t("tui.close", lang), t("tui.scrolls", lang)
            )
        )

    def action_theme(self) -> None:
        self.theme = THEMES[1] if self.theme == THEMES[0] else THEMES[0]

    def action_quit_game(self) -> None:
        self.exit(0)

    def action_interrupt(self) -> None:
        """Ctrl+C: as ``q`` here; a local game asks first and exits 130."""
        self.action_quit_game()
