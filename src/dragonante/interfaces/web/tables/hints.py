"""Hints from the best bot at a web table: asked by a seat, searched off the loop, sent to it alone.

A seated person may ask (``{"type": "hint", "decision": N}``,
``docs/protocol.md``) what the hard bot would answer to their current
question, and what its best answers are worth to it
(:mod:`dragonante.bots.hint`, in words by
:mod:`dragonante.interfaces.hint_words`).  Who may, and how often:

* only at a table whose hints are on (``LiveTable.hints_on``): always while
  the person is the only one among bots, else only if the host allows them
  (the ``hints`` table option, chosen at creation or later by the host,
  shown to everyone in the table's summary);
* only the seat whose question it is, for that very question (a stale or
  someone else's question is refused, as an answer would be);
* one at a time per seat (``hint_busy``), a per-address limit
  (``Settings.limit_hints`` per ``hint_window``: a hint costs about half a
  second of a core), and at most ``Settings.hint_workers`` searched at once
  on the whole server, so a hostile client cannot burn the server's CPU;
  the same question asked again is answered from what was kept, at no cost.

The search runs in a worker thread (``asyncio.to_thread``, as the bots'
moves do, ``answers.py``), started by a task of its own so that the
connection's next messages (its answer) do not wait for it, on a copy of
the state taken on the loop, through the seat's own window (``SeatView``):
nothing of the others' hands reaches it, and the frame goes to the asking
connection only (while it still holds the seat).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from dragonante.bots import SeatView
from dragonante.bots.hint import Hint, hint, hint_seed
from dragonante.engine.state import GameState
from dragonante.engine.views import Observation, observe
from dragonante.interfaces.hint_words import hint_words
from dragonante.interfaces.narrate import Narrator
from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.shared.limits import retry_after
from dragonante.interfaces.web.shared.protocol import ProtocolError
from dragonante.interfaces.web.storage.store import OPEN, PLAYING
from dragonante.interfaces.web.tables.frames import broadcast_table
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.live import Client, LiveTable

log = logging.getLogger("dragonante.web")

#: Hints kept, by (table, seat, question): asked again, they cost nothing.
KEEP = 512


def _search(state: GameState, seat: int, seed: int, iters: int) -> tuple[Hint, Observation]:
    """The hint and the seat's observation it was made from (in a worker thread)."""
    view = SeatView(state, seat)
    return hint(view, seed, iters), observe(state, seat)


class Hints:
    """Hints asked by seats, and the host's ``hints`` option."""

    def __init__(self, house: House) -> None:
        self.house = house
        self._gate = asyncio.Semaphore(max(1, house.settings.hint_workers))
        #: (table, seat) of the hints being searched now: one at a time per seat.
        self._busy: set[tuple[str, int]] = set()
        self._kept: OrderedDict[tuple[str, int, int], tuple[Hint, Observation]] = OrderedDict()
        #: The searches running (kept here so that none is collected midway).
        self._tasks: set[asyncio.Task[None]] = set()
        #: Hints searched, and answered from what was kept.
        self.searched = 0
        self.reused = 0

    async def ask(self, client: Client, decision: int) -> None:
        """Send ``client`` the hint for its seat's question ``decision``; raises
        :class:`ProtocolError` (nothing searched) when it may not have one now.

        A hint kept is sent at once; a new one is searched by a task of its
        own, so the connection's other messages (its answer) do not wait."""
        table = client.table
        seat = client.seat
        if seat is None or not table.holds(client):
            raise ProtocolError("not_seated", "only a seated player may ask for a hint")
        state = self._question(table, seat, decision)
        kept = self._kept.get((table.code, seat, decision))
        if kept is not None:
            self._kept.move_to_end((table.code, seat, decision))
            self.reused += 1
            self._send(client, decision, *kept)
            return
        busy = (table.code, seat)
        if busy in self._busy:
            raise ProtocolError("hint_busy", "a hint for this seat is being worked out already")
        wait = self.house.limiters["hints"].hit(client.address)
        if wait > 0:
            self.house.count_refusal("hints")
            seconds = retry_after(wait)
            raise ProtocolError(
                "rate_limited",
                f"too many hints asked from your address; try again in {seconds} s",
                retry_after=seconds,
            )
        snapshot = state.clone()
        snapshot.log = list(state.log or [])
        self._busy.add(busy)
        task = asyncio.create_task(self._search(table, client, seat, decision, snapshot))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _send(self, client: Client, decision: int, found: Hint, obs: Observation) -> None:
        """The ``hint`` frame, in the connection's language, to that connection only."""
        table = client.table
        assert client.seat is not None
        narrator = Narrator(
            table.names(), client.lang, me=client.seat, debt_model=table.config.rules.debt_model
        )
        words = hint_words(found, narrator, obs)
        client.push_json(
            {
                "type": "hint",
                "decision": decision,
                "seat": client.seat,
                "answer": found.choice,
                "label": words.choice,
                "how": found.how,
                "iterations": found.iterations,
                "lines": words.lines,
                "answers": words.answers,
            }
        )

    def _question(self, table: LiveTable, seat: int, decision: int) -> GameState:
        """The table's state, if ``decision`` is ``seat``'s question now and hints are on."""
        state = table.state
        if table.status == OPEN or state is None:
            raise ProtocolError("not_started", "the game has not started yet")
        d = state.pending
        if table.status != PLAYING or d is None:
            raise ProtocolError("game_over", "the game is over")
        if not table.hints_on():
            raise ProtocolError(
                "hints_off",
                "hints are off at this table: other people play and the host has not allowed them",
            )
        if decision != d.id:
            raise ProtocolError(
                "stale", f"question {decision} is not the current question ({d.id})", current=d.id
            )
        if d.seat != seat:
            raise ProtocolError(
                "not_your_turn", f"question {d.id} is for seat {d.seat}", current=d.id
            )
        return state

    async def _search(
        self, table: LiveTable, client: Client, seat: int, decision: int, snapshot: GameState
    ) -> None:
        """Search on ``snapshot`` (a copy: the table goes on meanwhile), keep it, send it."""
        seed = hint_seed(table.seed, decision)
        try:
            async with self._gate:
                found, obs = await asyncio.to_thread(
                    _search, snapshot, seat, seed, self.house.settings.hint_iters
                )
        except Exception:
            log.exception("table %s: the hint for seat %d failed", table.code, seat)
            return
        finally:
            self._busy.discard((table.code, seat))
        self.searched += 1
        self._kept[table.code, seat, decision] = (found, obs)
        while len(self._kept) > KEEP:
            self._kept.popitem(last=False)
        if client.seat == seat and table.holds(client):
            self._send(client, decision, found, obs)

    async def set_option(self, code: str, token: Any, hints: Any) -> None:
        """The host allows hints at the table even with other people, or stops them."""
        table = await self.house.table(code)
        if not isinstance(hints, bool):
            raise HubError("bad_field", "hints must be true or false")
        async with table.lock:
            if not table.is_host(token):
                raise HubError("forbidden", "only the table's host may do this", 403)
            if table.status not in (OPEN, PLAYING):
                raise HubError("game_over", "the table is not in play any more", 409)
            await self.house.write(lambda tx: tx.set_hints(code=table.code, hints=hints))
            table.hints = hints
        broadcast_table(table)
