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
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from dragonante.interfaces.web.protocol import encode
from dragonante.interfaces.web.tables import LiveTable, seat_view

#: Bytes sent that cost one more token of the connection's message allowance.
COST_BYTES = 4096
#: Log entries an incremental ``sync`` narrates at most; a client further
#: behind gets the whole view, from the cache (otherwise ``since: 1`` would
#: rebuild a whole history, uncached, on every request).
INCREMENTAL_MAX = 64
#: Bytes of encoded views the whole server keeps (a few dozen long games' views).
MAX_BYTES = 16 * 1024 * 1024


def cost(sent: int) -> int:
    """Tokens a message costs beyond the one it already took: one per
    :data:`COST_BYTES` of frame it made the server send."""
    return sent // COST_BYTES


@dataclass(slots=True)
class _Entry:
    #: What the view was made from: answers played, log length and the seats'
    #: names (a table's code, config and seed fix the rest).  No reference to
    #: the state itself, so a kept view never keeps an old state alive.
    version: tuple[int, int, tuple[str, ...]]
    text: str
    log_size: int


class Snapshots:
    """Encoded views of ``state`` frames, valid while their table's state stands."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, int | None, bool, str], _Entry] = OrderedDict()
        self._bytes = 0
        #: Views built (misses, and incremental ones) and served from the cache.
        self.built = 0
        self.hits = 0

    def view(
        self, table: LiveTable, seat: int | None, gm: bool, lang: str, since: int = 0
    ) -> tuple[str, int]:
        """The encoded ``seat_view`` (a JSON object's text) of ``table``'s
        current state for this kind of connection, with its events from
        ``since`` on, and the log size it covers.  Only full views (``since``
        0) are kept: an incremental one costs only the events it carries, at
        most :data:`INCREMENTAL_MAX` log entries' worth."""
        state = table.state
        assert state is not None
        log_len = len(state.log or [])
        version = (len(table.answers), log_len, tuple(table.names()))
        since = max(0, min(since, log_len))
        if log_len - since > INCREMENTAL_MAX:
            since = 0  # far behind: the whole (cached) view costs less than narrating it anew
        if since:
            self.built += 1
            body = seat_view(table, state, seat, lang, since, gm)
            body["since"] = since
            return encode(body), body["log_size"]
        key = (table.code, seat, gm, lang)
        entry = self._entries.get(key)
        if entry is not None and entry.version == version:
            self._entries.move_to_end(key)
            self.hits += 1
            return entry.text, entry.log_size
        self.built += 1
        body = seat_view(table, state, seat, lang, 0, gm)
        text = encode(body)
        if entry is not None:
            self._drop(key)
        if len(text) <= self.max_bytes // 4:
            self._entries[key] = _Entry(version, text, body["log_size"])
            self._bytes += len(text)
            while self._bytes > self.max_bytes:
                self._drop(next(iter(self._entries)))
        return text, body["log_size"]

    def _drop(self, key: tuple[str, int | None, bool, str]) -> None:
        entry = self._entries.pop(key)
        self._bytes -= len(entry.text)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size(self) -> int:
        """Bytes of encoded views kept."""
        return self._bytes
