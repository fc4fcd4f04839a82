"""The game behind the full-screen table: people and bots at one terminal, every answer recorded.

:class:`~dragonante.interfaces.session.LocalGame` seats one person; the
full-screen table also seats several (hot-seat) and takes answers back, so
it keeps its own small controller over the same engine API: a
:class:`~dragonante.engine.records.Recorder` (every answer recorded, the
record ``replay`` reads) and bots made by :func:`~dragonante.bots.make_bot`
with the same per-seat seeds as ``LocalGame``.

Nothing here knows about the screen.  The screen asks a bot for its answer
in a worker thread through :meth:`TableGame.bot_answer`, which reads the
state but never changes it; every change (:meth:`TableGame.answer`,
:meth:`TableGame.take_back`) happens on the screen's own thread.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

from dragonante.bots import Bot, SeatView, make_bot
from dragonante.engine.config import GameConfig
from dragonante.engine.records import GameRecord, Recorder
from dragonante.engine.state import Event, GameState
from dragonante.interfaces.session import bot_seed, replay_record
from dragonante.interfaces.table_record import TableSeats, record_text


class TableGame:
    """A game with people in ``humans`` and a bot spec in every other seat (``bot_specs``)."""

    def __init__(
        self,
        config: GameConfig,
        seed: int,
        humans: tuple[int, ...],
        bot_specs: Mapping[int, str],
        names: Sequence[str] = (),
    ) -> None:
        expected = set(range(config.players)) - set(humans)
        if not humans or set(bot_specs) != expected:
            raise ValueError(f"need a bot spec for each of seats {sorted(expected)}")
        self.config = config
        self.seed = seed
        self.humans = tuple(sorted(humans))
        self.bot_specs = dict(bot_specs)
        self.recorder = Recorder(config, seed)
        self.bots = self._make_bots()
        #: Every seat's name when the people typed theirs in (saved with the
        #: record, so a replay or a resumed game uses them); empty: the table's own.
        self.names = tuple(names)
        #: The seat that gave each recorded answer (what take-back looks for).
        self.answered_by: list[int] = []
        #: The bots as they were just before each person's answer (a copy, their
        #: random generators included): a take-back puts them back exactly.
        self.bots_before: list[dict[int, Bot]] = []
        #: (log length, every hoard) at the start and after each answer: what
        #: "since your last turn" compares.
        self.marks: list[tuple[int, tuple[int, ...]]] = [self._mark()]

    def _mark(self) -> tuple[int, tuple[int, ...]]:
        return len(self.log()), tuple(self.state.hoards)

    def _make_bots(self) -> dict[int, Bot]:
        return {p: make_bot(spec, bot_seed(self.seed, p)) for p, spec in self.bot_specs.items()}

    @property
    def state(self) -> GameState:
        return self.recorder.state

    @property
    def record(self) -> GameRecord:
        return self.recorder.record

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def deciding(self) -> int | None:
        """The seat the pending question is for (None once the game is over)."""
        d = self.state.pending
        return None if self.state.over or d is None else d.seat

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and seat in self.humans

    def bot_answer(self) -> tuple[int, int]:
        """The pending bot's answer and the question's id, without applying it.

        Safe in a worker thread: the bot sees the state through its seat's
        window and the state is not changed until :meth:`answer`.
        """
        d = self.state.pending
        assert d is not None and d.seat in self.bots
        return self.bots[d.seat].choose(SeatView(self.state, d.seat)), d.id

    def answer(self, answer: int, decision_id: int | None = None) -> None:
        """Apply the pending seat's answer; ``IllegalAnswer`` leaves everything unchanged."""
        d = self.state.pending
        assert d is not None
        before = copy.deepcopy(self.bots) if d.seat in self.humans else None
        self.recorder.answer(answer, decision_id)
        self.answered_by.append(d.seat)
        self.marks.append(self._mark())
        if before is not None:
            self.bots_before.append(before)

    def call_last_gambit(self) -> None:
        """The table's time limit ran out: one more gambit after this one (recorded)."""
        self.recorder.call_last_gambit()

    def can_take_back(self) -> bool:
        """Only a single person against bots may take an answer back (in hot-seat,
        the others at the table have seen what followed), and only one given."""
        return len(self.humans) == 1 and any(p in self.humans for p in self.answered_by)

    @property
    def take_back_allowed(self) -> bool:
        """Whether this table offers take-back at all (not in hot-seat)."""
        return len(self.humans) == 1

    def take_back(self) -> bool:
        """Undo the person's last answer and everything after it; False if none.

        The engine is deterministic from config, seed and answers, so the game
        is replayed from the recorded answers before that one, and the bots
        are put back as they were when that answer was given (their random
        generators too): the same answer again meets the same bot choices and
        the same draws, so a take-back cannot fish for luck.
        """
        if not self.can_take_back():
            return False
        last = max(i for i, p in enumerate(self.answered_by) if p in self.humans)
        answers = self.record.answers[:last]
        called = self.record.last_gambit_called_after
        fresh = Recorder(self.config, self.seed)
        for i, a in enumerate(answers):
            if i == called:
                fresh.call_last_gambit()
            fresh.answer(a)
        if called is not None and called >= len(answers):
            # the time ran out at or after the answer taken back: it still has
            fresh.call_last_gambit()
        self.recorder = fresh
        self.answered_by = self.answered_by[:last]
        self.marks = self.marks[: last + 1]
        self.bots = self.bots_before.pop()
        return True

    @property
    def seating(self) -> TableSeats:
        """Who sits where, saved beside the record (``play --resume``, ``replay``)."""
        return TableSeats(self.humans, dict(self.bot_specs), self.names)

    def record_text(self) -> str:
        """The record as a file: the engine's record and the seating."""
        return record_text(self.record, self.seating)

    @classmethod
    def resume(
        cls,
        record: GameRecord,
        humans: tuple[int, ...],
        bot_specs: Mapping[int, str],
        names: Sequence[str] = (),
    ) -> TableGame:
        """A saved game continued: its answers given again, then the table plays on.

        Each bot is asked its recorded questions again as the game is rebuilt
        (its answer is the record's), so its random generator is where it was
        when the game was saved: the game goes on as if never left.
        :class:`RecordError` if an answer does not replay.
        """
        game = cls(record.config, record.seed, humans, bot_specs, names)

        def answered(seat: int) -> None:
            game.answered_by.append(seat)
            game.marks.append(game._mark())

        replay_record(game, record, answered)
        # answers from before the resume are not taken back (the bots were not kept)
        game.answered_by = [-1] * len(game.answered_by)
        return game

    def log(self) -> list[Event]:
        return self.state.log or []

    def since_last_turn(self, seat: int) -> list[tuple[int, list[Event]]] | None:
        """How ``seat``'s hoard moved since its last answer: for each answer after
        it that moved that hoard, the change and that answer's events (the
        caller keeps those the seat may see).  None before the seat's first answer.
        """
        mine = [i for i, p in enumerate(self.answered_by) if p == seat]
        if not mine:
            return None
        log = self.log()
        changes: list[tuple[int, list[Event]]] = []
        for j in range(mine[-1] + 2, len(self.marks)):
            (start, before), (end, after) = self.marks[j - 1], self.marks[j]
            if after[seat] != before[seat]:
                changes.append((after[seat] - before[seat], log[start:end]))
        return changes

    def hoard_at_last_turn(self, seat: int) -> int | None:
        """``seat``'s hoard just after its last answer (None before its first)."""
        mine = [i for i, p in enumerate(self.answered_by) if p == seat]
        return self.marks[mine[-1] + 1][1][seat] if mine else None
