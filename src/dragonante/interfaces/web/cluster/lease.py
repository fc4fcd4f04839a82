"""Who runs which table: heartbeats, ownership, claims and the writer's fence.

A table's game lives in the memory of exactly one process, its *owner*
(``game_tables.owner``).  Every process keeps a heartbeat row in
``server_processes``; a process whose heartbeat is older than the lease is
gone, and any other process may then claim its tables and rebuild them from
config + seed + stored answers (``Hub.adopt``), exactly as a restart does.

A process that is only *slow* (its lease expired, the table was taken over)
cannot corrupt the game: every transaction that adds an answer or a seat
checks, with the table row locked, that this process still owns the table
(:func:`ownership_fence`), and the process drops tables it no longer owns at
its next heartbeat (:meth:`Lease.beat`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from functools import partial
from typing import Any

import psycopg
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from dragonante.interfaces.web.hub import Hub
from dragonante.interfaces.web.storage import store
from dragonante.interfaces.web.storage.db import TableRow
from dragonante.interfaces.web.storage.store import FINISHED, OPEN, PLAYING, StoredTable
from dragonante.interfaces.web.storage.writer import Batch, StorageError

log = logging.getLogger("dragonante.web")

#: Live tables whose owner is gone (or none, or this process): claimable.
ORPHAN = (
    "status IN ('open', 'playing') AND (owner IS NULL OR owner = %(me)s OR NOT EXISTS ("
    "SELECT 1 FROM server_processes p WHERE p.id = game_tables.owner "
    "AND p.beat_at > now() - make_interval(secs => %(lease)s)))"
)


def ownership_fence(session: Session, batch: Batch, me: str) -> None:
    """Inside a transaction, before its commit: the tables it creates become
    process ``me``'s, and it may write answers or seats only of tables ``me``
    still owns.  The row locks (``FOR UPDATE``) make a concurrent takeover
    wait for this commit, and a takeover that committed first is seen, so no
    answer or seat is ever stored by a process that lost its table."""
    if batch.made:
        session.execute(
            update(TableRow)
            .where(TableRow.code.in_(batch.made), TableRow.owner.is_(None))
            .values(owner=me)
        )
    touched = batch.touched - batch.made
    if not touched:
        return
    owned = set(
        session.scalars(
            select(TableRow.code)
            .where(TableRow.code.in_(sorted(touched)), TableRow.owner == me)
            .with_for_update()
        )
    )
    lost = touched - owned
    if lost:
        raise StorageError(f"table {', '.join(sorted(lost))} is now run by another process")


class Lease:
    """This process's heartbeat row, the tables it owns, and claims of orphans."""

    def __init__(self, hub: Hub, url: str, process: str, lease: float) -> None:
        self.hub = hub
        self.url = url
        self.id = process
        self.lease = lease
        #: Processes whose heartbeat is fresh (as of the last look).
        self.alive: set[str] = set()
        #: Tables being rebuilt here, by code (one load however many ask).
        self.adopting: dict[str, asyncio.Future[None]] = {}
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._lock = asyncio.Lock()

    async def connect(self) -> None:
        """Open the control connection and write this process's heartbeat row."""
        self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await self._join()
        self.hub.writer.add_fence(self.fence)

    async def _join(self) -> None:
        await self.query(
            "INSERT INTO server_processes (id, host, pid, started_at, beat_at) "
            "VALUES (%s, %s, %s, now(), now())",
            (self.id, socket.gethostname()[:255], os.getpid()),
        )

    async def leave(self) -> None:
        """Release this process's live tables at once (another process takes
        them without waiting for the lease) and delete its heartbeat row."""
        with contextlib.suppress(psycopg.Error):
            await self.query(
                "UPDATE game_tables SET owner = NULL WHERE owner = %s AND status IN (%s, %s)",
                (self.id, OPEN, PLAYING),
            )
            await self.query("DELETE FROM server_processes WHERE id = %s", (self.id,))

    async def close(self) -> None:
        """Remove the fence and close the control connection."""
        self.hub.writer.remove_fence(self.fence)
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                await self._conn.close()

    def fence(self, session: Session, batch: Batch) -> None:
        """The writer's fence (``Writer.add_fence``), on the database thread."""
        ownership_fence(session, batch, self.id)

    async def query(self, query: str, params: Any = ()) -> list[tuple[Any, ...]]:
        """One statement on the control connection (heartbeat, lookups, claims)."""
        assert self._conn is not None
        async with self._lock:
            cur = await self._conn.execute(query.encode(), params)
            return await cur.fetchall() if cur.description else []

    async def look_alive(self) -> set[str]:
        """The processes whose heartbeat is within the lease (also kept in :attr:`alive`)."""
        rows = await self.query(
            "SELECT id FROM server_processes WHERE beat_at > now() - make_interval(secs => %s)",
            (self.lease,),
        )
        self.alive = {r[0] for r in rows}
        return self.alive

    # ----------------------------------------------------------------- claims

    async def claim_orphans(self, limit: int | None) -> int:
        """Claim live tables whose owner is gone (at most ``limit``, so that
        several survivors share a dead process's tables), and run them."""
        rows = await self.query(
            "UPDATE game_tables SET owner = %(me)s WHERE code IN ("
            "SELECT code FROM game_tables WHERE " + ORPHAN + " AND NOT code = ANY(%(have)s) "
            "ORDER BY code LIMIT %(n)s FOR UPDATE SKIP LOCKED) RETURNING code",
            {
                "me": self.id,
                "lease": self.lease,
                "have": [c for c, t in self.hub.tables.items() if t.status != FINISHED],
                "n": limit,
            },
        )
        for (code,) in rows:
            await self.adopt(code)
        return len(rows)

    async def claim(self, code: str) -> bool:
        """Claim one table if it is an orphan; True if it is this process's now."""
        rows = await self.query(
            "UPDATE game_tables SET owner = %(me)s WHERE code = %(code)s AND "
            + ORPHAN
            + " RETURNING code",
            {"me": self.id, "code": code, "lease": self.lease},
        )
        return bool(rows)

    async def adopt(self, code: str) -> None:
        """Rebuild a claimed table from the database (once, however many ask)."""
        if code in self.hub.tables:
            return
        waiting = self.adopting.get(code)
        if waiting is not None:
            await asyncio.shield(waiting)
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.adopting[code] = done
        try:
            stored: StoredTable | None = await self.hub.writer.run(
                partial(store.load_table, code=code)
            )
            if stored is not None and stored.status != FINISHED and self.hub.adopt(stored):
                log.info("cluster: took over table %s", code)
        finally:
            del self.adopting[code]
            done.set_result(None)

    def drop(self, code: str, handed: bool = False) -> None:
        """Another process runs this table now: stop ours, send clients there
        (``Hub.evict``; ``handed``: we gave it away, clients reconnect)."""
        if self.hub.evict(code, handed) is None:
            return
        if handed:
            log.info("cluster: table %s handed over", code)
        else:
            log.warning("cluster: table %s is run by another process now", code)

    # -------------------------------------------------------------- heartbeat

    async def beat(self) -> None:
        """Prove this process alive; give up tables taken from it; take over
        tables of processes that stopped beating; forget long-gone processes."""
        rows = await self.query(
            "UPDATE server_processes SET beat_at = now() WHERE id = %s RETURNING id", (self.id,)
        )
        if not rows:
            await self._join()
        await self.look_alive()
        live = [c for c, t in self.hub.tables.items() if t.status != FINISHED]
        if live:
            still = await self.query(
                "SELECT code FROM game_tables WHERE code = ANY(%s) AND owner = %s", (live, self.id)
            )
            for code in set(live) - {r[0] for r in still} - set(self.adopting):
                self.drop(code)
        await self.claim_orphans(limit=50)
        await self.query(
            "DELETE FROM server_processes WHERE beat_at < now() - make_interval(secs => %s)",
            (self.lease * 100,),
        )
