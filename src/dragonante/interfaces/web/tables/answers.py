"""The answer pipeline, and who answers besides people: bots, clocks, time limits.

The order of an answer's life is what makes the server safe to kill at any
moment:

1. check it against the pending question (stale, someone else's, illegal
   answers are refused and change nothing), and against who holds the seat
   *now* (a connection demoted meanwhile speaks for nobody);
2. play it on a copy of the state;
3. commit it to the database (with the game's end, if it ended);
4. only then make the copy the table's state, acknowledge, and send every
   connection its own seat's view and new events (``frames.broadcast``).

A face-down ante round (``face_down.py``: every seat asked its ante at
once) goes through the same steps at its reveal: each seat's choice is
only kept (``_choose``) until the last one, which plays and commits the
whole round in one transaction, in the engine's seat order (``_play``).

Every change of the question passes :meth:`Answers.schedule_bot`, which
starts a bot's move when a bot must answer and (re)arms the turn timer
(``turns.py``).  The game's own time limit (``ending.time_limit_minutes``)
is here too: it calls the last gambit.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from dragonante.bots import Bot, SeatView
from dragonante.engine.decisions import Decision, IllegalAnswer
from dragonante.engine.game import apply, call_last_gambit
from dragonante.engine.records import digest
from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.shared.protocol import ProtocolError
from dragonante.interfaces.web.storage.interface import Transaction
from dragonante.interfaces.web.storage.store import FINISHED, OPEN, PLAYING, SeatInfo
from dragonante.interfaces.web.storage.writer import StorageError
from dragonante.interfaces.web.tables.face_down import FaceDown, round_choice
from dragonante.interfaces.web.tables.frames import broadcast, broadcast_table, notice
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.kept_bots import keep_bots
from dragonante.interfaces.web.tables.live import Client, LiveTable
from dragonante.interfaces.web.tables.turns import TurnClock
from dragonante.kernel import RunawayGame

#: ``ended`` of a table stopped by the engine's bound on one answer's work
#: (``docs/web.md``, "A table that cannot finish"): that table stops, never the process.
RUNAWAY = "runaway"

log = logging.getLogger("dragonante.web")

#: What rates a finished game in the transaction that stores its end: the
#: transaction, the table's code, its seats, hoards and winners (the hub passes
#: ``players.ratings.rate_table``; the tables do not import the players' room).
Rater = Callable[[Transaction, str, dict[int, SeatInfo], Sequence[int], Sequence[int]], object]


def check(d: Decision, seat: int, answer: int) -> None:
    """Refuse an answer to question ``d`` from another seat, or not among its options."""
    if d.seat != seat:
        raise ProtocolError("not_your_turn", f"question {d.id} is for seat {d.seat}", current=d.id)
    if answer not in d.options:
        raise ProtocolError(
            "illegal",
            f"{answer} is not a legal answer to {d.kind}; legal: {list(d.options)}",
            current=d.id,
        )


class Answers:
    """Checks, commits and plays answers; moves bots; runs clocks and time limits."""

    def __init__(self, house: House, rate: Rater) -> None:
        self.house = house
        self._rate = rate
        #: Answers accepted since the start (``/api/stats``).
        self.accepted = 0
        self._inflight: set[asyncio.Future[None]] = set()
        self.turns = TurnClock(house, self.submit)
        #: Tables whose bot's answer the database refused, by code: the seat
        #: (its people were told, and are told again when it is stored).
        self.unstored: dict[str, int] = {}

    async def answer(self, client: Client, decision: int, answer: int) -> None:
        """A connection answers; raises :class:`ProtocolError` if refused (also
        when its seat is no longer held with the token it connected with:
        checked again under the table's lock)."""
        if client.seat is None:
            raise ProtocolError("not_seated", "spectators cannot answer")
        await self.submit(client.table, client.seat, decision, answer, client)

    async def submit(
        self, table: LiveTable, seat: int, decision: int, answer: int, client: Client | None
    ) -> None:
        """Check, commit and play one answer (``client`` None: a bot or a clock's).

        Shielded from cancellation: once an answer is on its way to the
        database, the table's state must follow it, even if the connection
        that sent it closes or the server is stopping (:meth:`settle` waits).
        """
        task = asyncio.ensure_future(self._submit_now(table, seat, decision, answer, client))
        self._inflight.add(task)
        task.add_done_callback(self._settled)
        await asyncio.shield(task)

    async def settle(self) -> None:
        """Wait for every answer on its way to the database (the server is stopping)."""
        if self._inflight:
            await asyncio.gather(*list(self._inflight), return_exceptions=True)

    def _settled(self, task: asyncio.Future[None]) -> None:
        self._inflight.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: a refusal nobody waits for is not an error

    async def _submit_now(
        self, table: LiveTable, seat: int, decision: int, answer: int, client: Client | None
    ) -> None:
        async with table.lock:
            if client is not None and (client.seat != seat or not table.holds(client)):
                raise ProtocolError("not_seated", "this connection holds no seat any more")
            state = table.state
            if table.status == OPEN or state is None:
                raise ProtocolError("not_started", "the game has not started yet")
            d = state.pending
            if table.status == FINISHED or d is None:
                raise ProtocolError("game_over", "the game is over")
            face_down = table.round()
            if face_down is not None and (q := face_down.question(decision)) is not None:
                if not self._choose(table, face_down, q, seat, answer, client):
                    answers = face_down.answers()
                    await self._play(table, client, answers, decision)
            else:
                if decision != d.id:
                    raise ProtocolError(
                        "stale",
                        f"question {decision} is not the current question ({d.id})",
                        current=d.id,
                    )
                check(d, seat, answer)
                await self._play(table, client, [(decision, seat, answer)], decision)
        self.schedule_bot(table)

    def _choose(
        self,
        table: LiveTable,
        face_down: FaceDown,
        q: Decision,
        seat: int,
        answer: int,
        client: Client | None,
    ) -> bool:
        """A choice in the face-down round (``face_down.py``): kept, and shown
        only as "chosen" to the others (nothing at all when it is a change).
        False when it was the last: the round is revealed (the caller plays it)."""
        check(q, seat, answer)
        first = seat not in face_down.chosen
        face_down.chosen[seat] = answer
        if client is not None:
            table.acted = time.monotonic()
        if face_down.ready():
            return False
        broadcast(table, client, q.id, None if first else seat)
        return True

    async def _play(
        self,
        table: LiveTable,
        client: Client | None,
        answers: list[tuple[int, int, int]],
        acked: int,
    ) -> None:
        """Play ``(decision, seat, answer)`` in order on a copy, commit them in
        one transaction, then show them (the caller holds the table's lock and
        checked the first against the pending question).  A face-down round
        plays every seat's answer here at once; should the engine ask anything
        else than the round said (it cannot, ``tests/engine/test_face_down.py``),
        the answers up to there are played and the rest asked again."""
        state = table.state
        assert state is not None and state.pending is not None
        first = state.pending.id
        log_ = state.log
        assert log_ is not None
        mark = len(log_)
        trial = state.clone()
        trial.log = log_
        played: list[tuple[int, int, int]] = []
        for decision, seat, answer in answers:
            d = trial.pending
            if d is None or d.id != decision or d.seat != seat:
                log.error("table %s: the face-down round went astray at %d", table.code, decision)
                break
            runaway: RunawayGame | None = None
            try:
                apply(trial, answer, decision)
            except IllegalAnswer as e:  # checked before; kept so a rules bug cannot corrupt
                del log_[mark:]
                raise ProtocolError("illegal", str(e), current=first) from None
            except RunawayGame as e:  # the engine's bound on one answer's work
                del log_[mark:]
                log.error("table %s: answer %d stopped the game: %s", table.code, decision, e)
                runaway = e
            if runaway is not None:
                await self._end_locked(table, RUNAWAY)
                raise ProtocolError("runaway", str(runaway), current=first)
            played.append((decision, seat, answer))
        n = len(table.answers)
        over = trial.over
        final = digest(trial) if over else ""
        winners = list(trial.winners)
        hoards = list(trial.hoards)
        seats = dict(table.seats)

        def commit(tx: Transaction) -> None:
            for i, (decision, seat, answer) in enumerate(played):
                tx.add_answer(table.code, n + i, decision, seat, answer)
            if over:
                tx.finish_table(table.code, winners, final)
                self._rate(tx, table.code, seats, hoards, winners)  # the keys' ratings

        try:
            await self.house.storage.run(commit)
        except StorageError as e:
            del log_[mark:]
            log.error("table %s: answer %d not stored: %s", table.code, n, e)
            raise ProtocolError("storage", str(e), current=first) from None
        table.state = trial
        table.answers.extend(answer for _, _, answer in played)
        self.accepted += len(played)
        if client is not None:
            table.acted = time.monotonic()
        if over:
            table.status = FINISHED
            table.finished_at = datetime.now(UTC)
            table.touched = time.monotonic()
            if table.timer_task is not None:
                table.timer_task.cancel()
        broadcast(table, client, acked)
        if over:
            broadcast_table(table)

    async def end_early(self, table: LiveTable, ended: str) -> bool:
        """End a started table before its game does (``ended``: ``idle``, ``runaway``).

        Stored as finished (``ended`` says why, no winners) with its answers,
        so its record and replay stay and a rematch can be offered from it;
        its bots and clocks stop, and it leaves memory at once unless someone
        is still looking (then like any finished table).  False if the table
        was not being played.
        """
        async with table.lock:
            return await self._end_locked(table, ended)

    async def _end_locked(self, table: LiveTable, ended: str) -> bool:
        state = table.state
        if table.status != PLAYING or state is None:
            return False
        final = digest(state)
        await self.house.write(
            lambda tx: tx.finish_table(code=table.code, winners=[], digest=final, ended=ended)
        )
        table.status = FINISHED
        table.ended = ended
        table.finished_at = datetime.now(UTC)
        table.touched = time.monotonic()
        for task in (table.bot_task, table.timer_task):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self.turns.stop(table)
        if not table.clients:
            self.house.tables.pop(table.code, None)
        broadcast_table(table)
        return True

    # ------------------------------------------------------------------- bots

    def schedule_bot(self, table: LiveTable) -> None:
        """After every change of the question: re-arm the turn timer, and let a
        bot move if the question is a bot's (one bot task per table).

        Nothing for a table this process no longer runs (``Hub.evict``:
        another process took it over): a bot retrying a refused answer
        (below) has let go of its task, so the eviction could not cancel it,
        and it would answer the lost table once a second for ever."""
        if self.house.tables.get(table.code) is not table:
            return
        keep_bots(table)  # before any bot moves: what a take-back puts back
        self.turns.arm(table)  # every change of the question passes here
        state = table.state
        if table.status != PLAYING or state is None or state.pending is None:
            return
        face_down = table.round()
        if face_down is not None:
            bots = table.bots
            if not any(
                q.seat in bots and q.seat not in face_down.chosen for q in face_down.questions
            ):
                return
        elif state.pending.seat not in table.bots:
            return
        running = table.bot_task
        if running is not None and not running.done():
            return
        table.bot_task = asyncio.create_task(
            self._bot_move(table, state.pending.id)
            if face_down is None
            else self._round_bots(table, face_down)
        )

    async def _round_bots(self, table: LiveTable, face_down: FaceDown) -> None:
        """The bots of a face-down round choose at once, each from its own
        question (``face_down.asked_alone``), then hand their choices in; the
        last hands in the reveal."""
        try:
            if self.house.settings.bot_delay > 0:
                await asyncio.sleep(self.house.settings.bot_delay)
            picks: list[tuple[Decision, Bot, int]] = []
            for q in face_down.questions:
                bot = table.bots.get(q.seat)
                if bot is None or q.seat in face_down.chosen or table.round() is not face_down:
                    continue
                picks.append((q, bot, await round_choice(table.code, face_down, q, bot)))
            for q, bot, choice in picks:
                while table.round() is face_down and table.bots.get(q.seat) is bot:
                    try:
                        await self.submit(table, q.seat, q.id, choice, None)
                    except ProtocolError as e:
                        if e.code in ("stale", "game_over"):
                            break
                        log.error("table %s: bot choice refused: %s", table.code, e.detail)
                        if e.code != "storage" or self.house.tables.get(table.code) is not table:
                            break
                        self._unstored(table, q.seat)  # its people are told why they wait
                        await asyncio.sleep(1.0)  # the reveal's commit failed: again
                        continue
                    if self.unstored.pop(table.code, None) is not None:
                        notice(table, "bot_stored", q.seat)
                    break
        finally:
            if table.bot_task is asyncio.current_task():
                table.bot_task = None
        self.schedule_bot(table)

    async def _bot_move(self, table: LiveTable, decision: int) -> None:
        if self.house.settings.bot_delay > 0:
            await asyncio.sleep(self.house.settings.bot_delay)
        state = table.state
        if state is None or state.pending is None or state.pending.id != decision:
            return
        d = state.pending
        bot = table.bots.get(d.seat)
        if bot is None:  # the seat's person came back while the bot waited
            if table.bot_task is asyncio.current_task():
                table.bot_task = None
            return
        snapshot = state.clone()
        snapshot.log = list(state.log or [])
        try:
            choice = await asyncio.to_thread(bot.choose, SeatView(snapshot, d.seat))
        except Exception:
            log.exception("table %s: bot %s failed; it answers option 0", table.code, bot.name)
            choice = d.options[0]
        if choice not in d.options:
            log.error("table %s: bot %s answered illegally (%r)", table.code, bot.name, choice)
            choice = d.options[0]
        if table.bot_task is asyncio.current_task():
            table.bot_task = None  # this move is made: the next question may start another
        if table.bots.get(d.seat) is not bot:
            return  # the person took the seat back while the bot thought: theirs to answer
        try:
            await self.submit(table, d.seat, decision, choice, None)
        except ProtocolError as e:
            if e.code not in ("stale", "game_over"):
                log.error("table %s: bot answer refused: %s", table.code, e.detail)
                if e.code == "storage":
                    self._unstored(table, d.seat)
                    await asyncio.sleep(1.0)
                    self.schedule_bot(table)
            return
        if self.unstored.pop(table.code, None) is not None:
            log.warning("table %s: the bot's answer is stored again; the game goes on", table.code)
            notice(table, "bot_stored", d.seat)

    def _unstored(self, table: LiveTable, seat: int) -> None:
        """A bot's answer was refused by the database: the table's people are
        told once (not at every retry) why their game waits, in their language
        (issue 32, hole 4); the bot retries every second."""
        if table.code not in self.unstored:
            self.unstored[table.code] = seat
            notice(table, "bot_unstored", seat)

    # ------------------------------------------------------------ time limits

    def start_timer(self, table: LiveTable) -> None:
        """Run the game's time limit (``ending.time_limit_minutes``), measured
        from the stored start, so it keeps running across restarts."""
        minutes = table.config.ending.time_limit_minutes
        if not minutes or table.started_at is None or table.last_gambit_at is not None:
            return
        if table.status != PLAYING:
            return
        due = table.started_at + timedelta(minutes=minutes)
        delay = max(0.0, (due - datetime.now(UTC)).total_seconds())
        table.timer_task = asyncio.create_task(self._time_up(table, delay))

    def begin(self, table: LiveTable) -> None:
        """A playing table just loaded or started: its time limit runs, a bot moves."""
        if table.status == PLAYING:
            self.start_timer(table)
            self.schedule_bot(table)

    async def _time_up(self, table: LiveTable, delay: float) -> None:
        await asyncio.sleep(delay)
        async with table.lock:
            state = table.state
            if state is None or state.over or table.last_gambit_at is not None:
                return
            n = len(table.answers)
            try:
                await self.house.write(lambda tx: tx.set_last_gambit(code=table.code, n=n))
            except HubError:
                return
            table.last_gambit_at = n
            call_last_gambit(state)
        broadcast_table(table)
