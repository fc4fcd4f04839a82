"""A game in this process as a table source: one person's seat, bots in the others.

:class:`LocalSource` puts a :class:`~dragonante.interfaces.session.LocalGame`
behind the :class:`~dragonante.interfaces.table_source.TableSource` seam:
``wait`` lets the bots answer, the view is ``table_view(state, seat)``, the
events are the engine's ``events_for`` for the seat (what
:meth:`LocalGame.new_events` hands out), and a hint is the hard bot's search
on the seat's own window (``SeatView``), as at every other table.  The
game itself stays reachable as :attr:`LocalSource.game` for what only a
local table has: its record, the time limit's last gambit.
"""

from __future__ import annotations

from dragonante.bots import SeatView
from dragonante.bots.hint import HINT_ITERS, hint, hint_seed
from dragonante.engine.decisions import IllegalAnswer
from dragonante.engine.state import Event
from dragonante.i18n import t
from dragonante.interfaces.hint_words import hint_words
from dragonante.interfaces.narrate import Narrator, Prompt
from dragonante.interfaces.render import TableView, table_view
from dragonante.interfaces.session import LocalGame
from dragonante.interfaces.table_source import SourceRefused


class LocalSource:
    """``game``'s person's seat, told by ``narrator`` (its ``me`` is the person)."""

    def __init__(self, game: LocalGame, narrator: Narrator, hint_iters: int = HINT_ITERS) -> None:
        self.game = game
        self._narrator = narrator
        #: The hint's search budget (tests ask for fewer iterations).
        self.hint_iters = hint_iters

    @property
    def lang(self) -> str:
        return self._narrator.lang

    @property
    def seat(self) -> int:
        return self.game.human

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def hints_allowed(self) -> bool:
        """One person against bots: a hint is always there to ask for."""
        return True

    def narrator(self) -> Narrator:
        return self._narrator

    def wait(self) -> None:
        self.game.run_bots()

    def view(self) -> TableView:
        return table_view(self.game.state, self.seat)

    def prompt(self) -> Prompt | None:
        if self.game.question() is None:
            return None
        return self._narrator.prompt(self.game.state)

    def new_events(self) -> list[Event]:
        return self.game.new_events()

    def all_events(self) -> list[Event]:
        return self.game.all_events()

    def notes(self) -> list[str]:
        """A local table says everything through its events."""
        return []

    def answer(self, answer: int, decision_id: int) -> None:
        try:
            self.game.answer(answer, decision_id)
        except IllegalAnswer as e:  # answers come from the options: only a stale one
            raise SourceRefused(t("play.illegal", self.lang, reason=str(e))) from None

    def hint(self) -> list[str]:
        d = self.game.question()
        if d is None:
            raise SourceRefused(t("hint.none", self.lang))
        view = SeatView(self.game.state, self.seat)
        found = hint(view, hint_seed(self.game.record.seed, d.id), self.hint_iters)
        return hint_words(found, self._narrator, view.observation()).lines

    def winners(self) -> list[int]:
        return list(self.game.state.winners)

    def close(self) -> None:
        """Nothing is held open: the game stays readable (its record) after the table."""


__all__ = ["LocalSource"]
