"""The turn timer: a person who lets a decision's time run out has a bot answer it.

A table created with ``turn_seconds`` gives each person that long for each
decision.  The game's own time limit (``ending.time_limit_minutes``,
``Answers.start_timer``) ends a whole game; this clock is per decision, so
it is a separate task on the table (``turn_task``), armed whenever the hub
looks for a bot to move (``Answers.schedule_bot`` runs after every change
of the question).

Every connection gets a ``turn`` frame when a clock starts: the seat, the
question's number (already public in every view) and the seconds left, so
pages count down from their own clock (no clock skew).  When it runs out a
bot of the server's ``away_bot`` level decides on the server from that
seat's own view (``SeatView``: nothing of the hand leaves the server), the
answer goes through the same checks and commit as a person's, and a
``timeout`` frame tells everyone which seat a bot answered for.  Only that
one decision: the next is the person's again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from dragonante.bots import SeatView, make_bot
from dragonante.interfaces.web.shared.protocol import ProtocolError
from dragonante.interfaces.web.storage.store import PLAYING
from dragonante.interfaces.web.tables.face_down import FaceDown, round_choice
from dragonante.interfaces.web.tables.frames import announce
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.live import Client, LiveTable

log = logging.getLogger("dragonante.web")

#: The widest turn timer a table may ask for (seconds): fourteen days, for
#: games played like Board Game Arena's turn-based mode (issue 32, section
#: 4); the narrowest is the server's ``--min-turn-timer``.
TURN_MAX = 14 * 86400.0
#: A table with a turn timer ends as idle (``serve --idle-timeout``) only
#: once this many whole turns have passed with no person acting: a game of
#: one move a day is not idle after the server's hour.
IDLE_TURNS = 3
#: After a restart, a decision that has already waited most of its time gets
#: at least this long (or its whole timer, if shorter) before a bot answers.
RESUME_GRACE = 60.0

#: How a clock's bot answers: the answer pipeline's ``submit(table, seat,
#: decision, answer, client)`` (``Answers.submit``), given to the clock so
#: that this module needs nothing of the pipeline's.
Submit = Callable[[LiveTable, int, int, int, Client | None], Awaitable[None]]


def check_turn_seconds(seconds: Any, low: float) -> float | None:
    """A requested ``turn_seconds``: None or 0 for no timer, else within ``low``-``TURN_MAX``."""
    if seconds is None or seconds == 0:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ValueError("turn_seconds must be a number of seconds")
    if not low <= seconds <= TURN_MAX:
        raise ValueError(f"turn_seconds is 0 (no timer) or {low:g} to {TURN_MAX:.0f}")
    return float(seconds)


def idle_limit(idle_after: float, turn_seconds: float | None) -> float:
    """Seconds a started table may go with no person acting before it ends
    as idle: the server's ``idle_after`` (0: never), or :data:`IDLE_TURNS`
    whole turns of the table's timer if that is longer."""
    if idle_after <= 0:
        return 0.0
    return max(idle_after, IDLE_TURNS * (turn_seconds or 0.0))


class TurnClock:
    """Arms, re-arms and fires the turn timers of a hub's tables."""

    def __init__(self, house: House, submit: Submit) -> None:
        self.house = house
        self.submit = submit
        self.timeouts = 0

    def check(self, seconds: Any) -> float | None:
        """A requested ``turn_seconds``: None or 0 for no timer, else within the range."""
        return check_turn_seconds(seconds, self.house.settings.turn_min)

    def arm(self, table: LiveTable) -> None:
        """Start the clock of the pending decision if a person must answer it
        (idempotent: an already running clock for the same decision is kept)."""
        state = table.state
        if not table.turn_seconds:
            return
        d = state.pending if state is not None and table.status == PLAYING else None
        if d is None or not self.people(table):
            self.stop(table)
            return
        if table.turn_decision == d.id:
            return  # running, or fired and its bot is answering
        self.stop(table)
        table.turn_decision = d.id
        seconds = table.turn_seconds
        since, table.waiting_since = table.waiting_since, None
        if since is not None:  # resumed after a restart: it has waited since then
            waited = (datetime.now(UTC) - since).total_seconds()
            seconds = max(seconds - waited, min(seconds, RESUME_GRACE))
        table.turn_deadline = time.monotonic() + seconds
        table.turn_task = asyncio.create_task(self._run(table, d.id, d.seat))
        announce(table, self.frame(table) or {})

    @staticmethod
    def people(table: LiveTable) -> list[int]:
        """The seats the running question waits on that a person holds: its
        seat, or every seat of a face-down round (``face_down.py``): one
        clock for them all, from the round's first question."""
        face_down = table.round()
        state = table.state
        if face_down is not None:
            return [q.seat for q in face_down.questions if q.seat not in table.bots]
        if state is None or state.pending is None or state.pending.seat in table.bots:
            return []
        return [state.pending.seat]

    def stop(self, table: LiveTable) -> None:
        task = table.turn_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        table.turn_task = None
        table.turn_decision = None

    def frame(self, table: LiveTable) -> dict[str, Any] | None:
        """The ``turn`` frame of the running clock (None: none runs)."""
        state = table.state
        if table.turn_decision is None or state is None or state.pending is None:
            return None
        left = max(0.0, table.turn_deadline - time.monotonic())
        msg: dict[str, Any] = {
            "type": "turn",
            "seat": state.pending.seat,
            "decision": table.turn_decision,
            "seconds": round(left, 2),
            "of": table.turn_seconds,
        }
        face_down = table.round()
        if face_down is not None:  # the same clock for every seat of the round
            people = self.people(table)
            msg["seat"] = people[0] if people else msg["seat"]  # a person's, as ever
            msg["seats"] = [q.seat for q in face_down.questions]
            msg["decisions"] = [q.id for q in face_down.questions]
        return msg

    def welcome(self, client: Client) -> None:
        """Tell a new connection about the clock already running."""
        msg = self.frame(client.table)
        if msg is not None:
            client.push_json(msg)

    async def _run(self, table: LiveTable, decision: int, seat: int) -> None:
        await asyncio.sleep(max(0.0, table.turn_deadline - time.monotonic()))
        state = table.state
        if state is None or state.pending is None or state.pending.id != decision:
            return
        if table.turn_decision == decision:
            table.turn_task = None
        face_down = table.round()
        if face_down is not None:
            await self._round_up(table, face_down)
            return
        level = self.house.settings.away_bot
        bot = make_bot(level, (table.seed + 104729 * (decision + 1)) & 0x7FFFFFFF)
        d = state.pending
        snapshot = state.clone()
        snapshot.log = list(state.log or [])
        try:
            choice = await asyncio.to_thread(bot.choose, SeatView(snapshot, seat))
        except Exception:
            log.exception("table %s: timeout bot failed; it answers option 0", table.code)
            choice = d.options[0]
        if choice not in d.options:
            choice = d.options[0]
        try:
            await self.submit(table, seat, decision, choice, None)
        except ProtocolError as e:
            if e.code not in ("stale", "game_over"):
                log.error("table %s: timeout answer refused: %s", table.code, e.detail)
            return
        self.timeouts += 1
        announce(table, {"type": "timeout", "seat": seat, "decision": decision, "bot": level})

    async def _round_up(self, table: LiveTable, face_down: FaceDown) -> None:
        """A face-down round's time ran out: a bot chooses for every person who
        has not chosen yet (their choices, and those made, are revealed)."""
        level = self.house.settings.away_bot
        late = [q for q in face_down.questions if q.seat not in face_down.chosen]
        late = [q for q in late if q.seat not in table.bots]
        picks = []
        for q in late:
            bot = make_bot(level, (table.seed + 104729 * (q.id + 1)) & 0x7FFFFFFF)
            picks.append((q, await round_choice(table.code, face_down, q, bot)))
        for q, choice in picks:
            if table.round() is not face_down or q.seat in face_down.chosen:
                continue  # revealed meanwhile, or the person chose at the last moment
            try:
                await self.submit(table, q.seat, q.id, choice, None)
            except ProtocolError as e:
                if e.code not in ("stale", "game_over"):
                    log.error("table %s: timeout choice refused: %s", table.code, e.detail)
                return
            self.timeouts += 1
            announce(table, {"type": "timeout", "seat": q.seat, "decision": q.id, "bot": level})
