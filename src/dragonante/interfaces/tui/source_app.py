"""The full-screen table over any table source, and the replay viewer built on it.

:class:`SourceTableApp` is the full-screen counterpart of the plain prompts'
:class:`~dragonante.interfaces.cli.plain_table.PlainTable`: it asks a
:class:`~dragonante.interfaces.table_source.TableSource` and nothing else
(wait, the seat's new events, its view and question, the answer), so any
source is played at the full-screen table without a loop of its own.  The
source's ``wait`` runs in a worker thread (the bots of a local source think
there) and the screen's thread alone draws; a
:class:`~dragonante.interfaces.table_source.SteppedSource` (the local game
of ``play``, :class:`~dragonante.interfaces.tui.app.TableApp`) is stepped
one bot at a time instead, each answer worked out in a worker and given on
the screen's thread.  What a front end adds (a cover, a summary, saving)
goes in the hooks, not in a loop of its own.  The panels, keys and pages
are :class:`~dragonante.interfaces.tui.base.TableBase`'s, the one layout
every full-screen table shares.

:class:`ReplayApp` draws a :class:`~dragonante.interfaces.replay_source.ReplaySource`
(``replay FILE --screen``): nothing is asked, and the arrows step through the
record (→ one answer on, ← one back, Home and End its two ends); stepping
back tells the log again from the start, as the seat saw it up to there.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.worker import Worker, WorkerState

from dragonante.engine.state import Event
from dragonante.i18n import t
from dragonante.interfaces.events import Explainer, Table
from dragonante.interfaces.gambit_history import gambit_history
from dragonante.interfaces.narrate import Prompt
from dragonante.interfaces.replay_source import ReplaySource
from dragonante.interfaces.table_source import (
    SourceClosed,
    SourceRefused,
    SteppedSource,
    TableSource,
)
from dragonante.interfaces.tui.base import TableBase
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.question import QuestionPanel
from dragonante.interfaces.tui.snapshot import Snapshot


class SourceTableApp(TableBase):
    """``source``'s seat at the full-screen table; ``table`` gives each event its rule.

    The one full-screen loop: :meth:`advance` lets the others answer, then
    :meth:`show` tells the seat's new events and draws its view.  A front end
    with more to do subclasses it and fills in the hooks, never the loop:
    :meth:`held` (nothing moves while a page waits, a hot-seat cover say),
    :meth:`before_step` (a time limit checked), :meth:`interlude` (a page
    between the events and the question: a gambit's summary, the game's end,
    a cover; True stops there, the page's dismissal advances again),
    :meth:`answered` (a game saved after each answer), :meth:`asked` (no
    answering while a connection is away), :meth:`opponents` (the header's
    bots) and :meth:`waiting_text`.  A
    :class:`~dragonante.interfaces.table_source.SteppedSource` is stepped one
    bot at a time (the header says who is thinking, and the game changes on
    the screen's thread only); any other source's ``wait`` runs whole in a
    worker thread.
    """

    def __init__(self, source: TableSource, table: Table) -> None:
        super().__init__(source.lang)
        self.source = source
        self.table = table
        self.explainer = Explainer(table, source.lang)
        #: The bot seat whose answer is being worked out (a stepped source), or None.
        self.thinking: int | None = None

    def on_mount(self) -> None:
        super().on_mount()
        self.advance()

    # --- the loop ---------------------------------------------------------------

    def advance(self) -> None:
        """Let the others answer, then tell and draw what the seat sees."""
        if self.thinking is not None or self.held():
            return
        source = self.source
        if not isinstance(source, SteppedSource):
            self.run_worker(self._wait, thread=True, exclusive=True, group="source")
            return
        self.before_step()
        if source.thinking() is None:
            source.wait()  # what needs no thinking (a script's answers), on this thread
        self.tell_new()
        if self.interlude():
            return
        self.thinking = source.thinking()
        self.redraw()
        if self.thinking is not None:
            self.run_worker(source.think, thread=True, exclusive=True, group="bot")

    def _wait(self) -> None:
        try:
            self.source.wait()
        except SourceClosed as e:
            self.call_from_thread(self.notify, str(e), severity="error")
            return
        self.call_from_thread(self.show)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A stepped bot's answer, given on the screen's thread; then the next step."""
        if event.worker.group != "bot" or not isinstance(self.source, SteppedSource):
            return
        if event.state == WorkerState.SUCCESS:
            answer, decision_id = event.worker.result  # type: ignore[misc]
            self.thinking = None
            self.source.apply(answer, decision_id)
            self.advance()
        elif event.state == WorkerState.ERROR:
            self.thinking = None
            self.notify(
                t("tui.bot_failed", self.lang, error=str(event.worker.error)), severity="error"
            )
            self.redraw()

    def show(self) -> None:
        """The source's notes and new events told, then every panel drawn from its
        view (unless :meth:`interlude` puts a page up first)."""
        self.before_step()
        self.tell_new()
        if not self.interlude():
            self.redraw()

    def tell_new(self) -> None:
        """What the table said and what happened since the last call, in the log."""
        notes = self.source.notes()
        if notes:
            self.tell(notes)
        self.tell_events(self.source.new_events())

    def tell_events(self, events: list[Event]) -> None:
        """The seat's events in the log, each line with the rule behind it (``w``)."""
        told = self.explainer.lines(self.source.narrator().told(events), events)
        self.tell([line for line, _ in told], whys=[why for _, why in told])

    def retell(self) -> None:
        """The whole log told again, as the seat may see it (a new viewer, a take-back)."""
        self.query_one(LogPanel).clear()
        self.explainer = Explainer(self.table, self.lang)
        self.source.new_events()  # told below: not again after
        self.tell_events(self.source.all_events())

    def redraw(self) -> None:
        """A new snapshot of the source's view, and every panel drawn from it."""
        source = self.source
        view = source.view()
        if view is None:
            return
        history = gambit_history(source.all_events(), source.seat)
        snap = Snapshot(
            view, source.narrator(), self.asked(), self.thinking, self.opponents(), history
        )
        self.draw(snap, self.waiting_text())

    # --- hooks ------------------------------------------------------------------

    def held(self) -> bool:
        """Whether the table waits (for a page to close) before it moves on."""
        return False

    def before_step(self) -> None:
        """Before the events are told: what the front end checks first (a clock)."""

    def interlude(self) -> bool:
        """A page between the events and the question; True: shown, stop here."""
        return False

    def answered(self) -> None:
        """The seat's answer was taken (before the others answer)."""

    def asked(self) -> Prompt | None:
        """The question drawn with its answers (None: none may be answered now)."""
        return self.source.prompt()

    def opponents(self) -> str:
        """The bots at this table as the header names them ("" : not said)."""
        return ""

    def waiting_text(self) -> str:
        """The question box when the seat is not asked: who won, or that others decide."""
        if self.source.over:
            winners = self.source.winners()
            return t("tui.winners", self.lang, names=self.source.narrator().seats(winners))
        return t("tui.waiting", self.lang)

    def on_question_panel_answered(self, message: QuestionPanel.Answered) -> None:
        # Textual calls this handler of every class that defines one: a front end
        # overrides give_answer, never this
        self.give_answer(message.answer, message.decision_id)

    def give_answer(self, answer: int, decision_id: int) -> None:
        """The seat's answer to the source; then the others answer."""
        try:
            self.source.answer(answer, decision_id)
        except SourceRefused as e:
            self.notify(str(e), severity="warning")
            self.redraw()  # the question again, to answer otherwise
            return
        self.answered()
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
        super().retell()
        self.show()

    def waiting_text(self) -> str:
        """Where the replay is in the record (and, at its end, who won)."""
        step = t("replay.tui.step", self.lang, step=self.replay.position, steps=self.replay.length)
        if self.replay.over and self.replay.finished:
            return f"{step}\n{super().waiting_text()}"
        return step


__all__ = ["ReplayApp", "SourceTableApp"]
