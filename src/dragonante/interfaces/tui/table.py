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

from collections.abc import Mapping

from dragonante.bots import Bot, SeatView, make_bot
from dragonante.engine.config import GameConfig
from dragonante.engine.records import GameRecord, Recorder
from dragonante.engine.state import Event, GameState
from dragonante.interfaces.session import bot_seed


class TableGame:
    """A game with people in ``humans`` and a bot spec in every other seat (``bot_specs``)."""

    def __init__(
        self,
        config: GameConfig,
        seed: int,
        humans: tuple[int, ...],
        bot_specs: Mapping[int, str],
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
        #: The seat that gave each recorded answer (what take-back looks for).
        self.answered_by: list[int] = []

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
        self.recorder.answer(answer, decision_id)
        self.answered_by.append(d.seat)

    def call_last_gambit(self) -> None:
        """The table's time limit ran out: one more gambit after this one (recorded)."""
        self.recorder.call_last_gambit()

    def can_take_back(self) -> bool:
        """Only a single person against bots may take an answer back (in hot-seat,
        the others at the table have seen what followed), and only one given."""
        return len(self.humans) == 1 and any(p in self.humans for p in self.answered_by)

    def take_back(self) -> bool:
        """Undo the person's last answer and everything after it; False if none.

        The engine is deterministic from config, seed and answers, so the game
        is replayed from the recorded answers before that one; the bots start
        afresh, so what they answer next may differ from the first time.
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
        self.bots = self._make_bots()
        return True

    def log(self) -> list[Event]:
        return self.state.log or []
