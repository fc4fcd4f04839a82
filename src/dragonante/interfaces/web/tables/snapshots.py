"""Full ``state`` frames, built once per table state and kind of view, and what they cost.

A ``state`` frame holds a seat's view and every event it may see since the
game began, each narrated: 122 KB on a finished game of 286 answers.
Before this cache, every ``{"type":"sync"}`` rebuilt and re-narrated all of
it, so twenty spectator sockets sending sync at the allowed message rate
stalled the event loop for 3.6 s and pushed 417 MB in 12 s (issue 22,
hole 2).  Three things together close that:

* :class:`Snapshots` keeps the encoded view part of a ``state`` frame per
  table, kind of view (seat or spectator, game-master or not), language
  and log length; the next sync of the same kind gets the same text while
  the table's state has not changed.  The cache is one LRU for the whole
  server, bounded in bytes, so finished tables cannot fill memory with it.
* ``sync`` may say ``since`` (the ``log_size`` the client already holds):
  the frame then carries only the events from there, which costs what is
  missing, not the whole history (a client far behind gets the whole,
  cached view instead).
* :func:`cost` weighs a message by the bytes it makes the server send: the
  connection's token bucket (``tables.Client``) is charged one token more
  per :data:`COST_BYTES`, so a client asking for big frames is refused
  (``busy``) long before it can fill the server's pipe.

The first full view of a long game (a table opened, a language or a seat
not seen yet, a view the cache let go) is still a whole history narrated:
about 2 ms of CPU for 190 answers, twice that for 300, and each kind of
view (every seat, the spectator, the game-master, in each language) is one
such build.  :meth:`Snapshots.view_soon` builds a history of
:data:`OFF_LOOP_LOG` log entries or more in a worker thread, at most
:data:`WORKERS` at a time, as ``replays.py`` does, so the other tables'
answers are not held up behind a crowd opening long games.  The caller
holds the table's lock, so nothing changes the state being read meanwhile.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass

from dragonante.interfaces.web.shared.protocol import encode
from dragonante.interfaces.web.tables.live import LiveTable, seat_view

#: Bytes sent that cost one more token of the connection's message allowance.
COST_BYTES = 4096
#: Log entries an incremental ``sync`` narrates at most; a client further
#: behind gets the whole view, from the cache (otherwise ``since: 1`` would
#: rebuild a whole history, uncached, on every request).
INCREMENTAL_MAX = 64
#: Bytes of encoded views the whole server keeps (a few dozen long games' views).
MAX_BYTES = 16 * 1024 * 1024
#: Log entries from which a full view not kept yet is built in a worker thread
#: (a shorter history costs well under a millisecond: a thread would cost more).
OFF_LOOP_LOG = 300
#: Full views built in worker threads at once.
WORKERS = 2


def cost(sent: int) -> int:
    """Tokens a message costs beyond the one it already took: one per
    :data:`COST_BYTES` of frame it made the server send."""
    return sent // COST_BYTES


#: What a kept view was made from (``_Entry.version``).
Version = tuple[int, int, tuple[str, ...], int]


@dataclass(slots=True)
class _Entry:
    #: What the view was made from: answers played, log length, the seats'
    #: names and the take-backs so far (a table's code, config and seed fix
    #: the rest).  No reference to the state itself, so a kept view never
    #: keeps an old state alive.
    version: Version
    text: str
    log_size: int


class Snapshots:
    """Encoded views of ``state`` frames, valid while their table's state stands."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, int | None, bool, str], _Entry] = OrderedDict()
        self._bytes = 0
        #: Views built (misses, and incremental ones) and served from the cache,
        #: and full views built in a worker thread (``view_soon``).
        self.built = 0
        self.hits = 0
        self.off_loop = 0
        self._gate: asyncio.Semaphore | None = None

    def view(
        self, table: LiveTable, seat: int | None, gm: bool, lang: str, since: int = 0
    ) -> tuple[str, int]:
        """The encoded ``seat_view`` (a JSON object's text) of ``table``'s
        current state for this kind of connection, with its events from
        ``since`` on, and the log size it covers.  Only full views (``since``
        0) are kept: an incremental one costs only the events it carries, at
        most :data:`INCREMENTAL_MAX` log entries' worth."""
        since, key, version = self._ask(table, seat, gm, lang, since)
        if since:
            return self._incremental(table, seat, gm, lang, since)
        kept = self._kept(key, version)
        if kept is not None:
            return kept
        text, size = build(table, seat, gm, lang)
        return self._keep(key, version, text, size)

    async def view_soon(
        self, table: LiveTable, seat: int | None, gm: bool, lang: str, since: int = 0
    ) -> tuple[str, int]:
        """:meth:`view`, with a long history not kept yet built in a worker
        thread (the caller holds the table's lock while it waits)."""
        state = table.state
        assert state is not None
        since, key, version = self._ask(table, seat, gm, lang, since)
        if since or len(state.log or []) < OFF_LOOP_LOG:
            return self.view(table, seat, gm, lang, since)
        kept = self._kept(key, version)
        if kept is not None:
            return kept
        if self._gate is None:
            self._gate = asyncio.Semaphore(WORKERS)
        async with self._gate:
            kept = self._kept(key, version)  # built while this one waited
            if kept is not None:
                return kept
            self.off_loop += 1
            text, size = await asyncio.to_thread(build, table, seat, gm, lang)
        return self._keep(key, version, text, size)

    def _ask(
        self, table: LiveTable, seat: int | None, gm: bool, lang: str, since: int
    ) -> tuple[int, tuple[str, int | None, bool, str], Version]:
        """``since`` as it will be served (0: the whole view), the cache key and
        the version of the table's state the view must be of."""
        state = table.state
        assert state is not None
        log_len = len(state.log or [])
        version = (len(table.answers), log_len, tuple(table.names()), table.taken_back)
        since = max(0, min(since, log_len))
        if log_len - since > INCREMENTAL_MAX:
            since = 0  # far behind: the whole (cached) view costs less than narrating it anew
        return since, (table.code, seat, gm, lang), version

    def _incremental(
        self, table: LiveTable, seat: int | None, gm: bool, lang: str, since: int
    ) -> tuple[str, int]:
        state = table.state
        assert state is not None
        self.built += 1
        body = seat_view(table, state, seat, lang, since, gm)
        body["since"] = since
        return encode(body), body["log_size"]

    def _kept(
        self, key: tuple[str, int | None, bool, str], version: Version
    ) -> tuple[str, int] | None:
        entry = self._entries.get(key)
        if entry is not None and entry.version == version:
            self._entries.move_to_end(key)
            self.hits += 1
            return entry.text, entry.log_size
        return None

    def _keep(
        self,
        key: tuple[str, int | None, bool, str],
        version: Version,
        text: str,
        log_size: int,
    ) -> tuple[str, int]:
        self.built += 1
        if key in self._entries:
            self._drop(key)
        if len(text) <= self.max_bytes // 4:
            self._entries[key] = _Entry(version, text, log_size)
            self._bytes += len(text)
            while self._bytes > self.max_bytes:
                self._drop(next(iter(self._entries)))
        return text, log_size

    def _drop(self, key: tuple[str, int | None, bool, str]) -> None:
        entry = self._entries.pop(key)
        self._bytes -= len(entry.text)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size(self) -> int:
        """Bytes of encoded views kept."""
        return self._bytes


def build(table: LiveTable, seat: int | None, gm: bool, lang: str) -> tuple[str, int]:
    """A whole view of ``table``'s state, encoded, and the log size it covers.

    May run in a worker thread: the table's lock, held by the caller, keeps
    its state, answers and seats as they are until it returns."""
    state = table.state
    assert state is not None
    body = seat_view(table, state, seat, lang, 0, gm)
    return encode(body), body["log_size"]
