"""A table's life in memory: loading at start-up, taking over, expiry, idleness, leaving.

* At start-up every open or unfinished table is rebuilt from config + seed
  + stored answers (:meth:`Lifecycle.resume`), and its bots and time limit
  start (:meth:`Lifecycle.begin`); a table another process ran is rebuilt
  the same way (:meth:`Lifecycle.adopt`, ``web/cluster/member.py``).
* The sweep (every ``sweep_interval``) expires open tables nobody started,
  forgets finished ones nobody looks at, ends started ones nobody plays
  (``idle_after``) and tells tables whose seats became away.
* :meth:`Lifecycle.evict` drops a table another process runs now.
* The server's load figures (``/api/stats``) and the event-loop watch.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any

from dragonante.engine.config import ConfigError
from dragonante.engine.decisions import IllegalAnswer
from dragonante.interfaces.web.shared.errors import old_rules
from dragonante.interfaces.web.shared.narration import t
from dragonante.interfaces.web.shared.protocol import ProtocolError, error
from dragonante.interfaces.web.shared.stats import GcWatch, copied, percentile
from dragonante.interfaces.web.storage.store import EXPIRED, FINISHED, OPEN, PLAYING, StoredTable
from dragonante.interfaces.web.tables.answers import Answers
from dragonante.interfaces.web.tables.frames import broadcast_table
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.live import LiveTable
from dragonante.interfaces.web.tables.turns import idle_limit

log = logging.getLogger("dragonante.web")

#: Close code of a connection whose table moved to another process: reconnect.
SERVICE_RESTART = 1012


class Lifecycle:
    """Loading, taking over, sweeping and dropping tables; the server's figures."""

    def __init__(self, house: House, answers: Answers) -> None:
        self.house = house
        self.answers = answers
        st = house.settings
        self.loop_lag_ms: deque[float] = deque(maxlen=5000)
        self.gc = GcWatch(
            st.refreeze,
            st.thaw_after,
            young=st.young_threshold if st.refreeze else None,
            full_every=st.full_every if st.refreeze else None,
            freeze_young=st.freeze_young,
        )
        #: Open tables expired unstarted, and started tables ended because
        #: nobody played (``idle_after``).
        self.expired = 0
        self.ended_idle = 0

    # ---------------------------------------------------------------- start-up

    def _load(self, stored: StoredTable, why: str) -> LiveTable | None:
        """A stored table rebuilt (None, logged, if it cannot be)."""
        old = old_rules(stored)
        if old is not None:
            # Replaying its answers under other rules would silently play
            # another game: left in the database, refused when visited.
            log.error("table %s cannot be %s: %s", stored.code, why, old.detail)
            return None
        try:
            return self.house.fit(LiveTable(stored))
        except (ConfigError, IllegalAnswer, KeyError) as e:
            log.error("table %s cannot be %s: %s", stored.code, why, e)
            return None

    def resume(self) -> int:
        """Load every open or unfinished table from the database (at start-up)."""
        stored = self.house.storage.run_sync(lambda tx: tx.load_live())
        for st in stored:
            table = self._load(st, "resumed")
            if table is not None:
                self.house.tables[table.code] = table
        return len(stored)

    def begin(self) -> None:
        """Start what the resumed tables need: bots to move, time limits to run."""
        for table in self.house.tables.values():
            self.answers.begin(table)

    def adopt(self, stored: StoredTable) -> LiveTable | None:
        """Take over one table another server process owned (``web/cluster/member.py``):
        rebuilt from the database like :meth:`resume`, then started like :meth:`begin`.

        None (and nothing replaced) if the table is live here already: a
        heartbeat's claim can see a table this process has just committed
        before ``create_table`` puts it in memory, and a copy loaded
        meanwhile must not replace the table that holds the connections (they
        would get no frame again) and the seats taken since.
        """
        if stored.code in self.house.tables:
            return None
        table = self._load(stored, "taken over")
        if table is None:
            return None
        self.house.tables[table.code] = table
        self.answers.begin(table)
        return table

    def evict(self, code: str, handed: bool = False) -> LiveTable | None:
        """Another process runs this table now: stop ours, send its clients away.

        ``handed``: we gave it away (affinity), so its sockets close with
        1012 ("reconnect") rather than as too slow (4429); either way clients
        reconnect, and the router or the proxy takes them to the new owner.
        Returns the table dropped (None if it was not here)."""
        table = self.house.tables.pop(code, None)
        if table is None:
            return None
        for task in (table.bot_task, table.timer_task, table.turn_task):
            if task is not None:
                task.cancel()
        for client in list(table.clients):
            if handed:
                client.close_with(SERVICE_RESTART, "the table moved; reconnect")
            else:
                client.overflowed = True
                client.stop()
        return table

    async def close(self) -> None:
        """Stop bots and timers, let answers being committed finish, drop clients."""
        self.gc.close()
        tables = self.house.tables
        for table in tables.values():
            for task in (table.bot_task, table.timer_task, table.turn_task):
                if task is not None:
                    task.cancel()
        await self.answers.settle()
        for table in tables.values():
            for client in list(table.clients):
                client.stop()

    # ------------------------------------------------------------------ load

    def stats(self) -> dict[str, Any]:
        """Load figures (no game content): tables, connections, commits, latencies."""
        house = self.house
        storage = house.storage
        commits = sorted(copied(storage.commit_ms))
        lags = sorted(copied(self.loop_lag_ms))
        pauses = copied(self.gc.pauses_ms)
        full = sorted(ms for ms, gen in pauses if gen == 2)
        young = sorted(ms for ms, gen in pauses if gen != 2)
        tables = house.tables.values()

        pct = percentile

        return {
            "tables": {
                status: sum(1 for t in tables if t.status == status)
                for status in (OPEN, PLAYING, FINISHED)
            },
            "connections": sum(len(t.clients) for t in tables),
            "sockets": house.sockets.total,
            "expired": self.expired,
            "ended_idle": self.ended_idle,
            "refused": dict(house.refused),
            "answers_accepted": self.answers.accepted,
            "commits": storage.commits,
            "jobs_committed": storage.jobs,
            "commit_ms": {
                "p50": pct(commits, 50),
                "p99": pct(commits, 99),
                "max": pct(commits, 100),
            },
            "loop_lag_ms": {"p50": pct(lags, 50), "p99": pct(lags, 99), "max": pct(lags, 100)},
            "gc_pause_ms": {
                "young": {
                    "count": len(young),
                    "p50": pct(young, 50),
                    "p99": pct(young, 99),
                    "max": pct(young, 100),
                    "total": round(self.gc.total_ms[0] + self.gc.total_ms[1], 1),
                },
                "full": {
                    "count": len(full),
                    "p50": pct(full, 50),
                    "max": pct(full, 100),
                    "total": round(self.gc.total_ms[2], 1),
                },
                "frozen": gc.get_freeze_count(),
                "thaws": self.gc.thaws,
                "thaw_log": [list(t) for t in self.gc.thaw_log],
                "growth_factor": self.gc.factor,
                "blocks": sys.getallocatedblocks(),
            },
        }

    async def watch_loop(self, interval: float = 0.05) -> None:
        """Measure how late the event loop wakes up (its lag is every client's latency)."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(interval)
            self.loop_lag_ms.append(max(0.0, (loop.time() - before - interval) * 1000))
            self.gc.collect_if_due()

    # ---------------------------------------------------------------- expiry

    async def sweep_loop(self) -> None:
        """Every ``sweep_interval`` seconds: expire, forget, and announce away seats."""
        while True:
            await asyncio.sleep(self.house.settings.sweep_interval)
            try:
                await self.sweep()
            except Exception:  # one bad sweep must not end the sweeping
                log.exception("sweep failed")

    async def sweep(self) -> None:
        """Expire open tables past ``open_table_ttl``, forget finished ones nobody
        has looked at for ``finished_grace``, and tell tables whose seats
        became away (so the others see the hand-to-bot button)."""
        st = self.house.settings
        now = datetime.now(UTC)
        mono = time.monotonic()
        for table in list(self.house.tables.values()):
            if table.status == OPEN:
                age = (now - table.created_at).total_seconds()
                if st.open_table_ttl > 0 and age >= st.open_table_ttl:
                    await self._expire(table)
            elif table.status == FINISHED:
                if not table.clients and mono - table.touched >= st.finished_grace:
                    self.house.tables.pop(table.code, None)
            elif table.status == PLAYING:
                idle = idle_limit(st.idle_after, table.turn_seconds)
                if idle > 0 and mono - table.acted >= idle:
                    await self._end_idle(table)
                    continue
                away = table.away_seats(mono)
                if away != table.away_shown:
                    table.away_shown = away
                    broadcast_table(table)

    async def _end_idle(self, table: LiveTable) -> None:
        """End a started table nobody has played for ``idle_after`` seconds
        (``Answers.end_early``).  Without this, one address could fill
        ``max_tables`` with started games nobody plays."""
        if await self.answers.end_early(table, "idle"):
            self.ended_idle += 1

    async def _expire(self, table: LiveTable) -> None:
        """Mark an open table expired (in the database first), drop it from
        memory and close its connections with 4410; its links answer ``expired``."""
        async with table.lock:
            if table.status != OPEN:
                return
            await self.house.write(lambda tx: tx.expire_table(code=table.code))
            table.status = EXPIRED
            self.house.tables.pop(table.code, None)
            self.expired += 1
            refusal = ProtocolError("expired", f"table {table.code} expired before it started")
            for c in list(table.clients):
                c.push_json(error(refusal, t(c.lang, f"error.{refusal.code}")))
                c.close_with(4410, "expired")
            table.clients.clear()
