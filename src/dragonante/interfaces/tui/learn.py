"""The guided first game at the full-screen table: the table app with a coach's panel.

``dragonante learn`` in a terminal.  The tutorial (:mod:`dragonante.tutorial`)
runs the game and says what to do; this is the table every local game
uses (:class:`~dragonante.interfaces.tui.app.TableApp`: the seats, the hand,
the question, the log with "why?", the help, the hint) with the coach's
notes in a panel beside the log, in place of the gambit's history.

The table draws a :class:`TutorialSource`: the tutorial's game, whose
bots answer inside :meth:`Tutorial.advance` (scripted moves and the easy
bot: instant, so no bot thinks in a worker here), and the coach's notes,
shown through the table's ``tell_new`` hook.  Progress is
saved after every answer; ``b`` goes back to the start of the current step,
``n`` leaves for a normal game against easy bots with tips on
(:class:`TipsTableApp`), ``q`` leaves (the progress is kept).
"""

from __future__ import annotations

import secrets

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from dragonante.engine.state import Event
from dragonante.i18n import t
from dragonante.interfaces.hangup import EXIT_HANGUP
from dragonante.interfaces.tui.app import TableApp
from dragonante.interfaces.tui.game_source import GameSource
from dragonante.interfaces.tui.history import HistoryPanel
from dragonante.interfaces.tui.screens import GameOverScreen
from dragonante.interfaces.tui.table import TableGame
from dragonante.tutorial import PLAYER, STEPS, Note, Tips, Tutorial, progress
from dragonante.tutorial.scripted import EASY
from dragonante.tutorial.tips import normal_game
from dragonante.tutorial.tutorial import ASK, INTRO, RULE

#: What a finished (or skipped) tutorial leads to.
NORMAL = "normal"
#: How the coach's parts look.
STYLES = {INTRO: "", ASK: "bold", RULE: "italic"}


class TutorialTable(TableGame):
    """The full-screen table's game over the tutorial's: the same recorder and bots,
    the answers given through the tutorial (so it knows them), no take-back
    (``b`` replays the step instead)."""

    def __init__(self, tut: Tutorial) -> None:
        game = tut.game
        self.tut = tut
        self.config = game.state.config
        self.seed = game.record.seed
        self.humans = (PLAYER,)
        self.bot_specs = dict(game.bot_specs)
        self.recorder = game.recorder
        self.bots = game.bots
        self.names = ()
        self.answered_by = []
        self.bots_before = []
        self.marks = [self._mark()]

    def answer(self, answer: int, decision_id: int | None = None) -> None:
        d = self.state.pending
        assert d is not None
        self.tut.answer(answer)
        self.answered_by.append(d.seat)
        self.marks.append(self._mark())

    @property
    def take_back_allowed(self) -> bool:
        return False

    def can_take_back(self) -> bool:
        return False


class TutorialSource(GameSource):
    """The tutorial as a table source: its game drawn for the player, and the
    coach's notes of each moment kept for the coach's panel (:meth:`coached`).

    A :class:`~dragonante.interfaces.table_source.SteppedSource` with nothing
    to think in a worker: the tutorial's bots (scripted moves, the easy bot)
    answer inside :meth:`Tutorial.advance`, at once, so :meth:`thinking` is
    always None and :meth:`wait` is the tutorial's own step, on the screen's
    thread like every change of the game."""

    def __init__(self, tut: Tutorial, lang: str) -> None:
        super().__init__(TutorialTable(tut), lang, PLAYER)
        self.tut = tut
        #: The coach's notes not yet shown.
        self._coach: list[Note] = []

    def thinking(self) -> int | None:
        return None

    def wait(self) -> None:
        """The tutorial's bots to the player's next question, and what the coach says."""
        self._coach += self.tut.advance()

    def coached(self) -> list[Note]:
        """The coach's notes since the last call."""
        notes, self._coach = self._coach, []
        return notes


class CoachPanel(VerticalScroll):
    """The coach: the step in progress and what it says now."""

    DEFAULT_CSS = """
    CoachPanel { height: 2fr; border: round $accent; padding: 0 1; scrollbar-size-vertical: 1; }
    CoachPanel > Static { width: 1fr; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The text (kept here: the panel may be told before it is mounted).
        self.body = Static(id="coach-text")

    def compose(self) -> ComposeResult:
        yield self.body

    def show(self, title: str, headed: list[tuple[str, Note]]) -> None:
        """Replace the panel's text by the notes (kept when there are none), each
        step's heading over its first note unless it is the panel's title."""
        self.border_title = title
        if not headed:
            return
        text = Text()
        for i, (head, note) in enumerate(headed):
            if i:
                text.append("\n\n" if head or note.kind == INTRO else "\n")
            if head and head != title:
                text.append(head + "\n", style="bold")
            text.append(note.text, style=STYLES.get(note.kind, ""))
        self.body.update(text)
        self.scroll_end(animate=False)  # the question it asks is last


class LearnApp(TableApp):
    """The tutorial at the full-screen table; ``next`` is NORMAL when the player
    asked for a normal game after it (or instead of it)."""

    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        # priority: the game-over page is modal, and they work there too
        Binding("b", "replay_step", show=False, priority=True),
        Binding("n", "normal_game", show=False, priority=True),
        Binding("r", "step_primer", show=False),
    ]

    source: TutorialSource

    def __init__(self, tut: Tutorial, lang: str, opening: list[str] | None = None) -> None:
        source = TutorialSource(tut, lang)
        super().__init__(source.game, lang, gambit_summaries=False, source=source)
        #: Lines said before the first step (where the tutorial goes on from).
        self.opening = list(opening or [])
        self.next: str | None = None
        self.coach = CoachPanel(id="coach")

    def keys_line(self) -> str:
        return t("learn.tui.keys", self.lang)

    @property
    def tut(self) -> Tutorial:
        """The tutorial the source plays (a new one after ``b``)."""
        return self.source.tut

    def on_mount(self) -> None:
        # before the table's own on_mount starts the game (Textual calls both)
        side = self.query_one("#side")
        self.query_one(HistoryPanel).display = False
        side.mount(self.coach, before=0)

    def tell_new(self) -> None:
        """The game's events in the log, and what the coach says in its panel."""
        super().tell_new()
        notes = self.source.coached()
        if self.opening:
            notes = [Note("", "", line) for line in self.opening] + notes
            self.opening = []
        self._coach(notes)
        if self.tut.over:
            self._autosave()  # finished: the next learn starts again

    def _coach(self, notes: list[Note]) -> None:
        tut = self.tut
        step = tut.step
        if step is None:
            title = t("learn.tui.title_done", self.lang)
        else:
            number = min(tut.index + 1, len(STEPS))
            title = t(
                "tutorial.heading", self.lang, step=number, total=len(STEPS), title=tut.title(step)
            )
        self.coach.show(title, tut.headed(notes))

    def _tell_since_last_turn(self, seat: int | None) -> None:
        """Not here: the bots answer inside the tutorial, out of the table's sight,
        so it cannot say which answer moved your hoard; the coach says what happened."""

    def _on_table(self) -> bool:
        """Whether the keys of the tutorial apply now: at the table or on its game-over
        page, not under the help or a card's text."""
        return len(self.screen_stack) == 1 or isinstance(self.screen, GameOverScreen)

    def game_over_lines(self) -> list[str]:
        return [*super().game_over_lines(), "", t("learn.tui.over", self.lang)]

    def _autosave(self) -> None:
        reason = progress.try_save(self.tut.progress())
        if reason:
            self.notify(t("learn.save_failed", self.lang, reason=reason), severity="error")

    # --- keys -------------------------------------------------------------------

    def action_replay_step(self) -> None:
        """``b``: back to the start of the step (the one asking, else the last that asked)."""
        if not self._on_table():
            return
        again = self.tut.replay()
        if again is self.tut:
            self.notify(t("learn.replay.none", self.lang))
            return
        if isinstance(self.screen, GameOverScreen):
            self.pop_screen()  # gone back to from the end: the table again
        self.source = TutorialSource(again, self.lang)
        self._retell()
        self.since_told = None
        self.notify(t("learn.replay.done", self.lang))
        self._autosave()
        self.advance()

    def action_step_primer(self) -> None:
        """``r``: the rules primer at the section of the step in progress."""
        step = self.tut.step
        self.action_primer(step.primer if step is not None else "")

    def action_normal_game(self) -> None:
        """``n``: leave for a normal game against easy bots, tips on (progress kept)."""
        if not self._on_table():
            return
        self.next = NORMAL
        self.exit(0)

    def action_take_back(self) -> None:
        self.notify(t("learn.tui.no_undo", self.lang))

    def action_save(self) -> None:
        self._autosave()
        self.notify(t("learn.tui.saved", self.lang))

    def _leave(self, code: int) -> None:
        """``q``, Ctrl+C: leave at once; the progress is saved after every answer."""
        self._autosave()
        self.exit(code)

    def hang_up(self) -> None:
        self._autosave()
        self.exit(EXIT_HANGUP)


def normal_table() -> TableGame:
    """A normal game against easy bots, the player in seat 0, at the full-screen table."""
    game = normal_game(seed=secrets.randbelow(2**31))
    bots = {p: EASY for p in range(game.state.n) if p != PLAYER}
    return TableGame(game.state.config, game.record.seed, (PLAYER,), bots)


class TipsTableApp(TableApp):
    """A normal game at the full-screen table with tips on: each rule, the first
    time one of its events is told, follows it in the log."""

    def __init__(self, game: TableGame, lang: str) -> None:
        super().__init__(game, lang)
        self.tips = Tips(game.config, lang)

    def tell_events(self, events: list[Event]) -> None:
        super().tell_events(events)
        tips = self.tips.tips(events)
        if tips:
            self.tell(tips, "italic")


__all__ = ["LearnApp", "TipsTableApp", "TutorialTable", "normal_table"]
