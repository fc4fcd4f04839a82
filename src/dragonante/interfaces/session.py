"""A game at this computer: one person's seat, bots in the others, every answer recorded.

Front ends draw it through the table-source seam
(:class:`~dragonante.interfaces.local_source.LocalSource`,
:mod:`dragonante.interfaces.table_source`): the plain prompts of ``play``
today, and any game built on it (the tutorial) the same way.  Bots are
given only ``SeatView(state, seat)``, so they see what their seat may see;
the person is shown only
``events_for(log, seat)`` and ``observe(state, seat)`` through the narrator
and renderer.  Every answer goes through a
:class:`~dragonante.engine.records.Recorder`, so the game can be saved at
any moment and replayed exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from dragonante.bots import Bot, SeatView, make_bot
from dragonante.engine.config import GameConfig
from dragonante.engine.decisions import Decision, IllegalAnswer
from dragonante.engine.records import GameRecord, Recorder, RecordError
from dragonante.engine.state import Event, GameState
from dragonante.engine.views import events_for


def bot_seed(seed: int, seat: int) -> int:
    """Each bot's own seed: a (game seed, seat) pair replays the same bot choices."""
    return seed * 31 + seat + 1


class ResumableGame(Protocol):
    """What :func:`replay_record` needs of a game: the plain and the full-screen
    tables both have it."""

    @property
    def state(self) -> GameState: ...

    @property
    def bots(self) -> dict[int, Bot]: ...

    @property
    def recorder(self) -> Recorder: ...

    def call_last_gambit(self) -> None: ...


def replay_record(
    game: ResumableGame, record: GameRecord, answered: Callable[[int], None] | None = None
) -> None:
    """Give ``game`` the record's answers again (the last gambit called where it
    was), calling ``answered(seat)`` after each.  Each bot is asked its recorded
    questions again (its answer is the record's), so its random generator is
    where it was when the game was saved: the game goes on as if never left.
    :class:`RecordError` if an answer does not replay."""
    called = record.last_gambit_called_after
    for i, answer in enumerate(record.answers):
        if i == called:
            game.call_last_gambit()
        d = game.state.pending
        if game.state.over or d is None:
            raise RecordError(f"answer #{i + 1} comes after the end of the game")
        if d.seat in game.bots:
            game.bots[d.seat].choose(SeatView(game.state, d.seat))  # as it was asked
        try:
            game.recorder.answer(answer)
        except IllegalAnswer as e:
            raise RecordError(f"answer #{i + 1} does not replay: {e}") from None
        if answered is not None:
            answered(d.seat)
    if called is not None and called == len(record.answers):
        game.call_last_gambit()


class LocalGame:
    """One person (``human``) against bots; ``bot_specs`` has one spec per other seat."""

    def __init__(self, config: GameConfig, seed: int, human: int, bot_specs: Sequence[str]) -> None:
        others = [p for p in range(config.players) if p != human]
        if len(bot_specs) != len(others):
            raise ValueError(f"need {len(others)} bot specs, got {len(bot_specs)}")
        self.human = human
        self.recorder = Recorder(config, seed)
        self.bots: dict[int, Bot] = {
            p: make_bot(spec, bot_seed(seed, p)) for p, spec in zip(others, bot_specs, strict=True)
        }
        self.bot_specs = dict(zip(others, bot_specs, strict=True))
        #: Log position up to which events have been handed out by :meth:`new_events`.
        self._shown = 0

    @property
    def state(self) -> GameState:
        return self.recorder.state

    @property
    def record(self) -> GameRecord:
        return self.recorder.record

    @property
    def over(self) -> bool:
        return self.state.over

    def run_bots(self) -> None:
        """Let the bots answer until the person must decide or the game is over."""
        s = self.state
        while not s.over:
            d = s.pending
            assert d is not None
            if d.seat == self.human:
                return
            answer = self.bots[d.seat].choose(SeatView(s, d.seat))
            self.recorder.answer(answer, d.id)

    def question(self) -> Decision | None:
        """The person's pending question (None while bots play or when over)."""
        d = self.state.pending
        return d if d is not None and d.seat == self.human else None

    def answer(self, answer: int, decision_id: int | None = None) -> None:
        """The person's answer; raises ``IllegalAnswer`` (state unchanged) if illegal."""
        self.recorder.answer(answer, decision_id)

    def call_last_gambit(self) -> None:
        """The table's time limit ran out: one more gambit after this one."""
        self.recorder.call_last_gambit()

    def new_events(self) -> list[Event]:
        """What the person may see of what happened since the last call."""
        log = self.state.log or []
        events = events_for(log, self.human, self._shown)
        self._shown = len(log)
        return events

    def all_events(self) -> list[Event]:
        """Everything the person may see since the game began."""
        return events_for(self.state.log or [], self.human)
