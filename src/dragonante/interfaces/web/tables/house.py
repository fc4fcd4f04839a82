"""The house: what every part of the hub shares, and the only way they reach it.

The hub is split by concern (``docs/web.md``, "The web package"): seats
(:mod:`seats`), the lobby (:mod:`lobby`), answers and bots (:mod:`answers`),
connections (:mod:`connections`), a table's life and expiry
(:mod:`lifecycle`), chat and rematches (:mod:`social`), turn timers
(:mod:`turns`).  Each of them gets the :class:`House` and uses only its
public methods: the tables in memory, storage writes, loading a table, the
per-address limits and the full-view cache.  None of them imports another
part's module just to reach its state, so there is no import circle (a test
checks it, ``tests/web/test_package_shape.py``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from dragonante.interfaces.web.shared.errors import HubError, expired, old_rules
from dragonante.interfaces.web.shared.limits import (
    RateLimiter,
    SocketCounter,
    parse_networks,
    retry_after,
)
from dragonante.interfaces.web.shared.settings import Settings
from dragonante.interfaces.web.storage.interface import Storage, Transaction
from dragonante.interfaces.web.storage.store import EXPIRED, FINISHED, OPEN, PLAYING
from dragonante.interfaces.web.storage.writer import StorageError
from dragonante.interfaces.web.tables.live import LiveTable
from dragonante.interfaces.web.tables.snapshots import Snapshots

log = logging.getLogger("dragonante.web")

T = TypeVar("T")


class House:
    """Every live table of this process, its storage, its limits and its caches."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        #: Where the tables are kept (``storage/interface.py``): the database
        #: thread in the server, dictionaries in fast tests.
        self.storage = storage
        self.settings = settings
        #: The tables in memory, by code: open, playing, and recently finished.
        self.tables: dict[str, LiveTable] = {}
        #: Full views, built once per table state and kind of view (``snapshots.py``).
        self.snapshots = Snapshots()
        st = settings
        self.limiters = {
            "tables": RateLimiter(st.limit_tables, st.limit_window),
            "seats": RateLimiter(st.limit_seats, st.limit_window),
            "sockets": RateLimiter(st.limit_sockets, st.limit_window),
            "manage": RateLimiter(st.limit_manage, st.limit_window),
            "replays": RateLimiter(st.limit_replays, st.replay_window),
            "lookups": RateLimiter(st.limit_lookups, st.lookup_window),
            "misses": RateLimiter(st.limit_misses, st.limit_window),
            "hints": RateLimiter(st.limit_hints, st.hint_window),
            "players": RateLimiter(st.limit_players, st.limit_window),
        }
        self.sockets = SocketCounter(st.max_sockets, st.max_sockets_per_address)
        self.trusted = parse_networks(st.trusted_proxies)
        #: Refusals by kind (``/api/stats``).
        self.refused: dict[str, int] = {}
        #: The "Learn to play" lessons running, one per socket (``lessons.py``):
        #: each counts against ``max_tables`` while it lives.
        self.lessons: set[object] = set()

    # ---------------------------------------------------------------- storage

    async def write(self, fn: Callable[[Transaction], T]) -> T:
        """Run ``fn`` in a storage transaction (the writer thread); a storage
        failure becomes a 503 :class:`HubError` ("try again")."""
        try:
            return await self.storage.run(fn)
        except StorageError as e:
            log.error("storage: %s", e)
            raise HubError("storage", "the server could not store this; try again", 503) from None

    # ----------------------------------------------------------------- tables

    def fit(self, table: LiveTable) -> LiveTable:
        """Give a table loaded or made now the server's per-table settings."""
        # Away (the others may hand the seat to a bot) after a whole turn at
        # a table with a long turn timer: a turn-based game waits for its people.
        away = self.settings.away_after
        table.away_after = max(away, table.turn_seconds or 0.0) if away > 0 else 0.0
        table.chat.resize(self.settings.chat_history)
        return table

    def live_count(self) -> int:
        """Tables in memory that count against ``max_tables``: open or playing
        ones, and the lessons of "Learn to play" running now."""
        live = sum(1 for t in self.tables.values() if t.status in (OPEN, PLAYING))
        return live + len(self.lessons)

    def check_room(self) -> None:
        """Refuse a new table when ``max_tables`` open or playing ones are in memory."""
        cap = self.settings.max_tables
        if cap and self.live_count() >= cap:
            self.count_refusal("server_full")
            raise HubError("server_full", f"the server holds {cap} tables already", 503, 60)

    async def table(self, code: str) -> LiveTable:
        """A table by code, loading a finished one from the database if needed."""
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is not None:
            table.touched = time.monotonic()
            return table
        if not code or len(code) > 16:
            raise HubError("unknown_table", f"no table {code!r}", 404)
        stored = await self.write(lambda tx: tx.load_table(code))
        if stored is None:
            raise HubError("unknown_table", f"no table {code!r}", 404)
        if stored.status == EXPIRED:
            raise expired(code)
        old = old_rules(stored)
        if old is not None:
            raise old
        table = self.fit(LiveTable(stored))
        self.tables[code] = table
        self._forget_old_finished()
        return table

    async def finished_table(self, code: str) -> LiveTable:
        """A table whose game is over (records and replays open only then)."""
        table = await self.table(code)
        if table.status != FINISHED or table.state is None:
            raise HubError("not_finished", "replays open when the game is over", 409)
        return table

    def _forget_old_finished(self) -> None:
        done = [t for t in self.tables.values() if t.status == FINISHED and not t.clients]
        for old in sorted(done, key=lambda t: t.finished_at or t.created_at)[
            : max(0, len(done) - self.settings.keep_finished)
        ]:
            del self.tables[old.code]

    # ----------------------------------------------------------------- limits

    def check_rate(self, kind: str, address: str) -> None:
        """Count one ``kind`` request (tables, seats, sockets, manage, replays) of ``address``;
        raises a 429 :class:`HubError` with the seconds to wait when over its limit."""
        wait = self.limiters[kind].hit(address)
        if wait > 0:
            self.count_refusal(kind)
            raise HubError(
                "rate_limited",
                f"too many requests of this kind ({kind}) from your address; "
                f"try again in {retry_after(wait)} s",
                429,
                retry_after(wait),
            )

    def check_lookup(self, address: str) -> None:
        """Count one lookup of a table by its code; a 429 :class:`HubError`
        when ``address`` is over its lookups, or has used up its misses
        (codes no table has: what guessing an invite code looks like)."""
        self.check_rate("lookups", address)
        wait = self.misses_wait(address)
        if wait > 0:
            self.count_refusal("misses")
            raise HubError(
                "rate_limited",
                "too many table codes that do not exist from your address; "
                f"try again in {retry_after(wait)} s",
                429,
                retry_after(wait),
            )

    def misses_wait(self, address: str) -> float:
        """Seconds until ``address`` may look a code up again after using up
        its misses (0.0: it may now); takes nothing."""
        return self.limiters["misses"].wait(address)

    def missed(self, address: str) -> None:
        """``address`` looked up a code no table has: one of its misses is used."""
        self.limiters["misses"].hit(address)

    async def lookup(self, code: str, address: str) -> LiveTable:
        """A table by code for a request from ``address``, counted against its
        lookups, a miss against its misses (:meth:`check_lookup`)."""
        self.check_lookup(address)
        try:
            return await self.table(code)
        except HubError as e:
            if e.code == "unknown_table":
                self.missed(address)
            raise

    def count_refusal(self, kind: str) -> None:
        """One more refusal of ``kind`` in ``/api/stats``."""
        self.refused[kind] = self.refused.get(kind, 0) + 1
