"""Take-back at the web table: one person among bots takes their last answer back.

As at the terminal's table (``tui/table.py``, ``TableGame.take_back``), and
for the same reason: only a person whose every other seat is a bot may take
an answer back (with another person at the table, that person has seen what
followed; spectators only watch).  Nothing is built into the engine for it:
the game is deterministic from config, seed and answers, so the table is
replayed from its stored answers up to the person's last question, the
answers from there on are deleted from the database, and every connection
gets a fresh ``state`` of the earlier game, each from its own seat's view
(the same ``seat_view`` as any other frame: no hidden card reaches anyone).

So that a take-back cannot fish for luck, the bots are put back exactly as
they were when that question was asked, random generators included
(``kept_bots.py`` copies them each time the person is asked): the same
answer again meets the same bot choices and the same draws.  Those copies
live in memory only, the last :data:`~.kept_bots.TAKE_BACKS` of them; after a
restart the answers from before it are not taken back (as a resumed
terminal game's), and a refusal says so.

A face-down round (every seat's ante at once) is one step: taking back your
ante takes back the whole round, which opens again.
"""

from __future__ import annotations

import logging

from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.shared.protocol import ProtocolError
from dragonante.interfaces.web.storage.store import PLAYING
from dragonante.interfaces.web.tables.answers import Answers
from dragonante.interfaces.web.tables.frames import notice, send_state_soon
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.kept_bots import last_asked, lone_person, restore_bots
from dragonante.interfaces.web.tables.live import Client, LiveTable, replay_state

log = logging.getLogger("dragonante.web")


class TakeBacks:
    """Undo a lone person's last answer (``{"type": "take_back"}``, ``docs/protocol.md``)."""

    def __init__(self, house: House, answers: Answers) -> None:
        self.house = house
        self.answers = answers

    async def take_back(self, client: Client) -> None:
        """Take back the last answer of ``client``'s seat and everything after it;
        raises :class:`ProtocolError` (``take_back_people``, ``take_back_none``,
        ``take_back_over``: saying why) and changes
        nothing when it may not."""
        table = client.table
        seat = client.seat
        if seat is None or client.gm:
            raise ProtocolError("not_seated", "spectators cannot take an answer back")
        async with table.lock:
            if not table.holds(client):
                raise ProtocolError("not_seated", "this connection holds no seat any more")
            state = table.state
            if table.status != PLAYING or state is None or state.over:
                raise ProtocolError("take_back_over", "only a game in play has answers to undo")
            if lone_person(table) != seat:
                raise ProtocolError(
                    "take_back_people",
                    "another person sits at this table: they have seen what followed",
                )
            n = last_asked(table)
            if n is None:
                raise ProtocolError(
                    "take_back_none", "no answer of yours since this table was loaded"
                )
            await self._go_back(table, seat, n)
        self.answers.schedule_bot(table)

    async def _go_back(self, table: LiveTable, seat: int, n: int) -> None:
        """The table as it was before its ``n``-th answer (the caller holds the lock)."""
        called = table.last_gambit_at
        # The game's time limit ran out at or after the answer taken back: it still has.
        keep_called = None if called is None else min(called, n)
        state = replay_state(table.config, table.seed, table.answers[:n], keep_called)
        try:
            await self.house.write(
                lambda tx: tx.take_back_answers(code=table.code, n=n, last_gambit_at=keep_called)
            )
        except HubError as e:
            raise ProtocolError("storage", e.detail) from None
        if table.bot_task is not None:
            table.bot_task.cancel()  # a bot thinking about a question that is gone
            table.bot_task = None
        self.answers.turns.stop(table)
        restore_bots(table, n)
        table.state = state
        table.answers = table.answers[:n]
        table.last_gambit_at = keep_called
        table.face_down = None
        table.taken_back += 1  # the full views kept for the old game are stale now
        log.info("table %s: seat %d took back answers from %d on", table.code, seat, n)
        for c in list(table.clients):
            c.log_pos = 0
            await send_state_soon(self.house.snapshots, table, c)
        notice(table, "taken_back", seat)
