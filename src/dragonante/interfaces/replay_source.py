"""A saved game as a table source: stepped through answer by answer, asked nothing.

:class:`ReplaySource` puts a :class:`~dragonante.engine.records.GameRecord`
behind the :class:`~dragonante.interfaces.table_source.TableSource` seam, so
``replay`` (and any front end that draws a source) tells a saved game with
the same view and the same events a live table gives.  A replay has no
seat to answer for: :meth:`ReplaySource.prompt` is always None, ``answer``
and ``hint`` are refused, and ``wait`` is one step: the record's next
answer applied to a fresh game (``forward``), as ``wait`` lets the others
answer at a live table.  ``back`` takes one answer back, by replaying the
record again up to the answer before (a game cannot be undone in place).

Whose picture it is follows the ``replay`` command's views exactly, so the
information barrier stays where it is at a live table: a seat's view is the
engine's ``events_for`` for that seat (its own hand and draws, no one
else's), a spectator's the public events, a game-master's
``events_for_gm`` (the hidden D&D abilities, never a hidden card), and only
the omniscient view, asked for by name, tells the whole log.  The table
drawn is ``table_view(state, seat, gm)``: the omniscient view draws the
spectator's table, as ``replay`` always has.
"""

from __future__ import annotations

from dragonante.engine.game import apply, call_last_gambit, new_game
from dragonante.engine.records import GameRecord
from dragonante.engine.state import Event, GameState
from dragonante.engine.views import events_for, events_for_gm
from dragonante.i18n import t
from dragonante.interfaces.narrate import Narrator, Prompt
from dragonante.interfaces.render import TableView, table_view
from dragonante.interfaces.table_source import SourceRefused


class ReplaySource:
    """``record`` told to ``narrator`` as ``seat`` saw it (``gm``: a game-master;
    ``omniscient``: every hidden card), from its first answer on."""

    def __init__(
        self,
        record: GameRecord,
        narrator: Narrator,
        seat: int | None = None,
        gm: bool = False,
        omniscient: bool = False,
    ) -> None:
        if sum((seat is not None, gm, omniscient)) > 1:
            raise ValueError("a replay is one view: a seat, a game-master or everything")
        self.record = record
        self._narrator = narrator
        self._seat = seat
        self.gm = gm
        self.omniscient = omniscient
        self.state = self._fresh()
        #: How many of the record's answers the game has been given.
        self.position = 0
        #: The log position told so far by :meth:`new_events`.
        self._told = 0

    # --- stepping through the record --------------------------------------------

    def _fresh(self) -> GameState:
        state = new_game(self.record.config, self.record.seed, log=True)
        if self.record.last_gambit_called_after == 0:
            call_last_gambit(state)
        return state

    def _step(self) -> None:
        """The record's next answer, and the last gambit's call where the record made it
        (the time limit ran out after that many answers, as the engine's replay does)."""
        apply(self.state, self.record.answers[self.position])
        self.position += 1
        if self.record.last_gambit_called_after == self.position:
            call_last_gambit(self.state)

    @property
    def length(self) -> int:
        """How many steps the record has (its answers)."""
        return len(self.record.answers)

    def forward(self) -> bool:
        """One answer on; False (nothing changes) at the record's end."""
        if self.position >= self.length:
            return False
        self._step()
        return True

    def back(self) -> bool:
        """One answer back; False (nothing changes) at the start.  What was told
        stays told: :meth:`new_events` goes on from the earlier position."""
        if self.position == 0:
            return False
        self.go_to(self.position - 1)
        return True

    def go_to(self, position: int) -> None:
        """The game after ``position`` of the record's answers (clamped to the record)."""
        position = max(0, min(position, self.length))
        if position < self.position:
            self.state = self._fresh()
            self.position = 0
        while self.position < position:
            self._step()
        self._told = min(self._told, len(self.state.log or []))

    def to_end(self) -> None:
        """Every answer of the record given."""
        self.go_to(self.length)

    # --- the table source ------------------------------------------------------------

    @property
    def lang(self) -> str:
        return self._narrator.lang

    @property
    def seat(self) -> int | None:
        return self._seat

    @property
    def over(self) -> bool:
        """At the record's end: nothing more to tell (the game itself may be unfinished,
        :attr:`finished`)."""
        return self.position >= self.length

    @property
    def finished(self) -> bool:
        """Whether the recorded game ended (a record may stop in the middle of one)."""
        return self.state.over

    @property
    def hints_allowed(self) -> bool:
        """Nobody decides in a replay: there is nothing to advise."""
        return False

    def narrator(self) -> Narrator:
        return self._narrator

    def wait(self) -> None:
        """One step: the record's next answer (nothing at its end)."""
        self.forward()

    def view(self) -> TableView:
        return table_view(self.state, self._seat, self.gm)

    def prompt(self) -> Prompt | None:
        """A replay asks nothing."""
        return None

    def _visible(self, start: int) -> list[Event]:
        log = self.state.log or []
        if self.omniscient:
            return log[start:]
        if self.gm:
            return events_for_gm(log, start)
        return events_for(log, self._seat, start)

    def new_events(self) -> list[Event]:
        events = self._visible(self._told)
        self._told = len(self.state.log or [])
        return events

    def all_events(self) -> list[Event]:
        return self._visible(0)

    def notes(self) -> list[str]:
        """A record says everything through its events."""
        return []

    def answer(self, answer: int, decision_id: int) -> None:
        raise SourceRefused(t("replay.no_answers", self.lang))

    def hint(self) -> list[str]:
        raise SourceRefused(t("hint.none", self.lang))

    def winners(self) -> list[int]:
        return list(self.state.winners) if self.state.over else []

    def close(self) -> None:
        """A record holds nothing open."""


__all__ = ["ReplaySource"]
