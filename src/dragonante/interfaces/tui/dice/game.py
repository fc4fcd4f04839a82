"""The Dice Gambit game behind the full-screen table: who answers each question.

One :class:`~dragonante.dice.records.Recorder` (every answer recorded, so a
tracker's save file resumes and an answer can be undone by replaying the
others) and a bot or a person in every seat.  With seeded dice the engine
rolls by itself and only asks people the real decisions; with physical dice
(the game-master's tracker) every seat is a person, because the one at the
keyboard types every die's face and every player's choice.

Nothing here knows about the screen.  :meth:`DiceTableGame.bot_answer` only
reads the state (a bot works on a clone), so the screen may call it from a
worker thread; every change happens on the screen's own thread.
"""

from __future__ import annotations

import os
from pathlib import Path

from dragonante.bots.dice import DiceBot, DiceSeatView
from dragonante.dice.decisions import Decision
from dragonante.dice.records import Recorder
from dragonante.dice.state import PHYSICAL, DiceState, Event


class DiceTableGame:
    """A recorded game with a bot (or None: a person) per seat, and its save file if any."""

    def __init__(
        self,
        rec: Recorder,
        names: list[str],
        bots: list[DiceBot | None],
        save: Path | None = None,
    ) -> None:
        if len(names) != rec.state.n or len(bots) != rec.state.n:
            raise ValueError(f"need a name and a bot (or None) for each of {rec.state.n} seats")
        self.rec = rec
        self.names = names
        self.bots = bots
        self.save = save

    @property
    def state(self) -> DiceState:
        return self.rec.state

    @property
    def tracking(self) -> bool:
        """The game-master's tracker: real dice, every face typed in, undo allowed."""
        return self.state.dice == PHYSICAL

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(p for p, b in enumerate(self.bots) if b is None)

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def pending(self) -> Decision | None:
        return None if self.state.over else self.state.pending

    def is_human(self, seat: int) -> bool:
        return self.bots[seat] is None

    def bot_answer(self) -> tuple[int, int]:
        """The pending bot's answer and the question's id, without applying it (thread-safe)."""
        d = self.state.pending
        assert d is not None
        bot = self.bots[d.seat]
        assert bot is not None
        return bot.choose(DiceSeatView(self.state, d.seat)), d.id

    def answer(self, answer: int, decision_id: int | None = None) -> None:
        """Apply and record one answer; ``IllegalAnswer`` leaves everything unchanged."""
        self.rec.answer(answer, decision_id)

    def undo(self) -> bool:
        """The tracker's undo: the last answer taken back (the game replayed); False if none."""
        return self.tracking and self.rec.undo()

    def log(self) -> list[Event]:
        return self.state.log or []

    def write_save(self) -> None:
        """The save file, replaced whole (a crash mid-write leaves the previous one).

        ``OSError`` reaches the caller, which says so on the screen.
        """
        if self.save is None:
            return
        tmp = self.save.with_name(self.save.name + ".tmp")
        tmp.write_text(self.rec.record.dumps() + "\n", encoding="utf-8")
        os.replace(tmp, self.save)
