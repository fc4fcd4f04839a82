"""The full-screen local game as a table source: people at one screen, bots in worker steps.

:class:`GameSource` puts a :class:`~dragonante.interfaces.tui.table.TableGame`
(one person against bots, or several people in hot-seat) behind the
:class:`~dragonante.interfaces.table_source.TableSource` seam, so the local
table (:class:`~dragonante.interfaces.tui.app.TableApp`) is a
:class:`~dragonante.interfaces.tui.source_app.SourceTableApp` like every
other full-screen table.  Two things set it apart from
:class:`~dragonante.interfaces.local_source.LocalSource`:

* the seat drawn is the person at the keyboard, and it changes in hot-seat:
  :meth:`GameSource.sit` seats the next person (None: nobody, behind the
  cover, where only public information is drawn and nothing is told);
* it is a :class:`~dragonante.interfaces.table_source.SteppedSource`: a bot's
  answer is worked out by :meth:`think` (reading, never changing, the game:
  safe in a worker thread) and applied by :meth:`apply` on the screen's
  thread, one bot at a time, so the screen says who is thinking and only
  its own thread changes the game (saving, take-back and the hint read it
  there).
"""

from __future__ import annotations

from dragonante.bots import SeatView
from dragonante.bots.hint import HINT_ITERS, hint, hint_seed
from dragonante.engine.decisions import IllegalAnswer
from dragonante.engine.state import Event
from dragonante.engine.views import events_for
from dragonante.i18n import t
from dragonante.interfaces.hint_words import hint_words
from dragonante.interfaces.narrate import Narrator, Prompt, table_names
from dragonante.interfaces.render import TableView, table_view
from dragonante.interfaces.table_source import SourceRefused
from dragonante.interfaces.tui.table import TableGame


class GameSource:
    """``game`` drawn for the person at the keyboard (``seat``), in ``lang``."""

    def __init__(self, game: TableGame, lang: str, seat: int | None = None) -> None:
        self.game = game
        self._lang = lang
        #: Every seat's name as this table calls it (the people's own, if typed in).
        self.names = list(game.names) or table_names(game.config.players, game.humans, lang)
        #: One person against bots is "You"; in hot-seat everyone keeps a name.
        self.you = len(game.humans) == 1
        self._seat = seat
        self._narrator = self._narrator_for(seat)
        #: Log position told so far by :meth:`new_events`.
        self._told = 0
        #: The hint's search budget (tests ask for fewer iterations).
        self.hint_iters = HINT_ITERS

    def _narrator_for(self, seat: int | None) -> Narrator:
        debt = self.game.config.rules.debt_model
        return Narrator(self.names, self._lang, me=seat, debt_model=debt, you=self.you)

    def sit(self, seat: int | None) -> None:
        """``seat``'s person at the keyboard now (None: nobody, behind the cover).

        What is told from here on is for that seat; the caller tells the log
        again (:meth:`all_events`) for a new viewer."""
        self._seat = seat
        self._narrator = self._narrator_for(seat)

    @property
    def lang(self) -> str:
        return self._lang

    @property
    def seat(self) -> int | None:
        return self._seat

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def hints_allowed(self) -> bool:
        """Against bots only: in hot-seat the others at the screen would see it."""
        return len(self.game.humans) == 1

    def narrator(self) -> Narrator:
        return self._narrator

    # --- the bots, one step at a time ----------------------------------------

    def thinking(self) -> int | None:
        """The bot seat whose answer comes next (None: a person's turn, or the end)."""
        seat = self.game.deciding
        return None if seat is None or self.game.is_human(seat) else seat

    def think(self) -> tuple[int, int]:
        """That bot's answer and its question's id; reads the game only (a worker's)."""
        return self.game.bot_answer()

    def apply(self, answer: int, decision_id: int) -> None:
        """A bot's answer from :meth:`think`, on the thread that owns the game."""
        self.game.answer(answer, decision_id)

    def wait(self) -> None:
        """Every bot's answer until a person is asked or the game is over."""
        while self.thinking() is not None:
            self.apply(*self.think())

    # --- what the seat sees ---------------------------------------------------

    def view(self) -> TableView:
        return table_view(self.game.state, self._seat)

    def prompt(self) -> Prompt | None:
        return self._narrator.prompt(self.game.state) if self._seat is not None else None

    def new_events(self) -> list[Event]:
        log = self.game.log()
        events = events_for(log, self._seat, self._told)
        self._told = len(log)
        return events

    def all_events(self) -> list[Event]:
        return events_for(self.game.log(), self._seat)

    def notes(self) -> list[str]:
        """A local table says everything through its events."""
        return []

    def answer(self, answer: int, decision_id: int) -> None:
        game = self.game
        if self._seat is None or game.deciding != self._seat:
            raise SourceRefused(t("tui.waiting", self._lang))  # a stale answer: not its turn
        try:
            game.answer(answer, decision_id)
        except IllegalAnswer as e:  # answers come from the options: only a stale one
            raise SourceRefused(t("play.illegal", self._lang, reason=str(e))) from None

    def hint(self) -> list[str]:
        """The hard bot's hint for the seat's question, at once (the full-screen
        table works it out off its thread instead, on a copy:
        :class:`~dragonante.interfaces.tui.hinting.HintAsking`)."""
        if not self.hints_allowed:
            raise SourceRefused(t("hint.people", self._lang))
        d = self.game.state.pending
        if self.game.over or d is None or self._seat is None or d.seat != self._seat:
            raise SourceRefused(t("hint.none", self._lang))
        view = SeatView(self.game.state, self._seat)
        found = hint(view, hint_seed(self.game.seed, d.id), self.hint_iters)
        return hint_words(found, self._narrator, view.observation()).lines

    def winners(self) -> list[int]:
        return list(self.game.state.winners)

    def close(self) -> None:
        """Nothing is held open: the game stays readable (its record) after the table."""


__all__ = ["GameSource"]
