"""Table affinity (``serve --affinity``): a table moves to the process its requests reach.

Behind a reverse proxy that sends every request naming a table to one
process (a hash of the table code), the relay would carry about (N-1)/N of
all frames for ever, since a table belongs to the process that happened to
create it.  With affinity the process that receives a request for another
live process's table asks the owner to hand it over instead
(``HANDOVER_ASK``/``HANDOVER_REPLY``): the owner, holding the table's lock
so no answer is half-way, moves the row's ``owner`` to the asker, drops the
table from memory and closes its sockets with 1012 (clients reconnect, and
the proxy brings them to the new owner), and the asker rebuilds it from the
database as a takeover does.  A table that moved stays put for ``min_stay``
seconds (asked again sooner, its owner refuses and the request is
relayed), so a proxy that does not route by table cannot make tables
bounce between processes.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from typing import Any

import psycopg

from dragonante.interfaces.web.cluster.lease import Lease
from dragonante.interfaces.web.cluster.transport import PREFIX, Kind, Transport
from dragonante.interfaces.web.hub import Hub
from dragonante.interfaces.web.storage.store import FINISHED, OPEN, PLAYING

log = logging.getLogger("dragonante.web")


class Affinity:
    """Asking for tables, and handing ours over."""

    def __init__(
        self,
        hub: Hub,
        lease: Lease,
        transport: Transport,
        enabled: bool,
        min_stay: float,
        timeout: float,
    ) -> None:
        self.hub = hub
        self.lease = lease
        self.transport = transport
        self.enabled = enabled
        self.min_stay = min_stay
        self.timeout = timeout
        self.moved_in = 0
        self.moved_out = 0
        #: Handovers this process is asking for, by table code (one at a time).
        self._asking: dict[str, asyncio.Future[bool]] = {}
        #: When each table last moved here by a handover (``time.monotonic``).
        self._arrived: dict[str, float] = {}
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._requests: set[asyncio.Task[None]] = set()
        transport.handlers[Kind.HANDOVER_ASK] = self._on_ask
        transport.handlers[Kind.HANDOVER_REPLY] = self._on_reply

    def forget_old(self) -> None:
        """Tables that arrived ``min_stay`` ago may move again."""
        now = time.monotonic()
        for code, at in list(self._arrived.items()):
            if now - at >= self.min_stay:
                del self._arrived[code]

    async def ask(self, owner: str, code: str) -> bool:
        """Ask ``owner`` to hand ``code`` over to this process; True once the
        database says it is ours.  Concurrent requests for one table share
        one question."""
        waiting = self._asking.get(code)
        if waiting is not None:
            return await asyncio.shield(waiting)
        loop = asyncio.get_running_loop()
        asked: asyncio.Future[bool] = loop.create_future()
        self._asking[code] = asked
        rid = secrets.token_hex(8)
        reply: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._pending[rid] = reply
        ok = False
        try:
            self.transport.post(
                owner,
                {"k": Kind.HANDOVER_ASK, "c": rid, "r": self.transport.channel, "code": code},
            )
            answer = await asyncio.wait_for(reply, self.timeout)
            ok = bool(answer.get("ok"))
            if ok:  # ours in the database: run it before anyone is told
                self.moved_in += 1
                self._arrived[code] = time.monotonic()
                await self.lease.adopt(code)
        except TimeoutError:
            log.warning("cluster: process %s did not answer a handover of %s", owner, code)
        finally:
            self._pending.pop(rid, None)
            del self._asking[code]
            asked.set_result(ok)
        return ok

    def _on_reply(self, msg: dict[str, Any]) -> None:
        future = self._pending.pop(msg["c"], None)
        if future is not None and not future.done():
            future.set_result(msg)

    def _on_ask(self, msg: dict[str, Any]) -> None:
        task = asyncio.create_task(self._give(msg))
        self._requests.add(task)
        task.add_done_callback(self._requests.discard)

    async def _give(self, msg: dict[str, Any]) -> None:
        """The owner's side of a handover: move the row, drop the table, say so.

        Under the table's lock no answer is between its check and its commit;
        a write already queued (a seat, a chat line) is refused by the fence
        once the row names the other process, and its client retries there."""
        rid, reply, code = msg["c"], msg["r"], str(msg["code"])
        asker = reply.removeprefix(PREFIX)
        ok = False
        table = self.hub.tables.get(code)
        stayed = time.monotonic() - self._arrived.get(code, -math.inf)
        lease = self.lease
        if self.enabled and asker not in lease.alive:
            await lease.look_alive()  # a process started since the last beat
        if (
            self.enabled
            and table is not None
            and table.status != FINISHED
            and stayed >= self.min_stay
            and asker in lease.alive
        ):
            async with table.lock:
                if self.hub.tables.get(code) is table:
                    try:
                        rows = await lease.query(
                            "UPDATE game_tables SET owner = %s WHERE code = %s AND owner = %s "
                            "AND status IN (%s, %s) RETURNING code",
                            (asker, code, lease.id, OPEN, PLAYING),
                        )
                    except psycopg.Error as e:  # keep it; the asker relays
                        log.error("cluster: handover of %s failed: %s", code, e)
                        rows = []
                    if rows:
                        lease.drop(code, handed=True)
                        self._arrived.pop(code, None)
                        self.moved_out += 1
                        ok = True
        self.transport.post(reply, {"k": Kind.HANDOVER_REPLY, "c": rid, "ok": ok})
