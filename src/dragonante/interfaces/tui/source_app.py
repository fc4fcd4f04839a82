"""The full-screen table over any table source, and the replay viewer built on it.

:class:`SourceTableApp` is the full-screen counterpart of the plain prompts'
:class:`~dragonante.interfaces.cli.plain_table.PlainTable`: it asks a
:class:`~dragonante.interfaces.table_source.TableSource` and nothing else
(wait, the seat's new events, its view and question, the answer), so any
source is played at the full-screen table without a loop of its own.  The
source's ``wait`` runs in a worker thread (the bots of a local source think
there) and the screen's thread alone draws, as at the local table.  The
panels, keys and pages are :class:`~dragonante.interfaces.tui.base.TableBase`'s,
the one layout every full-screen table shares.

:class:`ReplayApp` draws a :class:`~dragonante.interfaces.replay_source.ReplaySource`
(``replay FILE --screen``): nothing is asked, and the arrows step through the
record (→ one answer on, ← one back, Home and End its two ends); stepping
back tells the log again from the start, as the seat saw it up to there.
"""

from __future__ import annotations

from textual.binding import Binding

from dragonante.engine.state import Event
from dragonante.i18n import t
from dragonante.interfaces.events import Explainer, Table
from dragonante.interfaces.gambit_history import gambit_history
from dragonante.interfaces.replay_source import ReplaySource
from dragonante.interfaces.table_source import SourceClosed, SourceRefused, TableSource
from dragonante.interfaces.tui.base import TableBase
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.question import QuestionPanel
from dragonante.interfaces.tui.snapshot import Snapshot


class SourceTableApp(TableBase):
    """``source``'s seat at the full-screen table; ``table`` gives each event its rule."""

    def __init__(self, source: TableSource, table: Table) -> None:
        super().__init__(source.lang)
        self.source = source
        self.explainer = Explainer(table, source.lang)

    def on_mount(self) -> None:
        super().on_mount()
        self.advance()

    def advance(self) -> None:
        """Let the others answer (in a worker thread), then draw what the seat sees."""
        self.run_worker(self._wait, thread=True, exclusive=True, group="source")

    def _wait(self) -> None:
        try:
            self.source.wait()
        except SourceClosed as e:
            self.call_from_thread(self.notify, str(e), severity="error")
            return
        self.call_from_thread(self.show)

    def show(self) -> None:
        """The source's notes and new events told, and every panel drawn from its view."""
        source = self.source
        notes = source.notes()
        if notes:
            self.tell(notes)
        self.tell_events(source.new_events())
        view = source.view()
        if view is None:
            return
        history = gambit_history(source.all_events(), source.seat)
        snap = Snapshot(view, source.narrator(), source.prompt(), None, history=history)
        self.draw(snap, self.waiting_text())

    def tell_events(self, events: list[Event]) -> None:
        """The seat's events in the log, each line with the rule behind it (``w``)."""
        told = self.explainer.lines(self.source.narrator().told(events), events)
        self.tell([line for line, _ in told], whys=[why for _, why in told])

    def waiting_text(self) -> str:
        """The question box when the seat is not asked: who won, or that others decide."""
        if self.source.over:
            winners = self.source.winners()
            return t("tui.winners", self.lang, names=self.source.narrator().seats(winners))
        return t("tui.waiting", self.lang)

    def on_question_panel_answered(self, message: QuestionPanel.Answered) -> None:
        try:
            self.source.answer(message.answer, message.decision_id)
        except SourceRefused as e:
            self.notify(str(e), severity="warning")
            return
        self.advance()

    def on_unmount(self) -> None:
        self.source.close()


class ReplayApp(SourceTableApp):
    """A saved game at the full-screen table, stepped through with the arrows."""

    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("right", "step(1)", show=False, priority=True),
        Binding("left", "step(-1)", show=False, priority=True),
        Binding("home", "ends(0)", show=False, priority=True),
        Binding("end", "ends(1)", show=False, priority=True),
    ]
    KEYS_TEXT = "replay.tui.keys"
    HELP_TEXT = "replay.tui.help"

    def __init__(self, source: ReplaySource, table: Table) -> None:
        super().__init__(source, table)
        self.replay = source

    def advance(self) -> None:
        """A replay moves only when stepped: the screen shows where it is."""
        self.show()

    def action_step(self, steps: int) -> None:
        """→ one answer on, ← one back (nothing at either end)."""
        if steps > 0:
            self.replay.forward()
            self.show()
        elif self.replay.back():
            self.retell()

    def action_ends(self, end: int) -> None:
        """Home: the record's start; End: its last answer."""
        if end:
            self.replay.to_end()
            self.show()
        else:
            self.replay.go_to(0)
            self.retell()

    def retell(self) -> None:
        """After a step back: the log told again from the start to where the replay is."""
        self.query_one(LogPanel).clear()
        self.tell_events(self.replay.all_events())
        self.show()

    def waiting_text(self) -> str:
        """Where the replay is in the record (and, at its end, who won)."""
        step = t("replay.tui.step", self.lang, step=self.replay.position, steps=self.replay.length)
        if self.replay.over and self.replay.finished:
            return f"{step}\n{super().waiting_text()}"
        return step


__all__ = ["ReplayApp", "SourceTableApp"]
