"""Messages between server processes, through PostgreSQL ``LISTEN/NOTIFY``.

Each process listens on its own channel, ``PREFIX + process id``; a message
to a process is a notification on that channel.  Nothing is ever sent on a
shared channel.  What travels, and who sends each :class:`Kind`, is in
``docs/web.md`` ("Messages between processes"); in short:

* a WebSocket text frame goes *raw*: one letter (``o`` owner to client, ``i``
  client to owner), the connection id, a space and the frame as it is, so
  the most common message is never JSON-encoded a second time;
* everything else is a JSON object ``{"k": kind, "c": id, ...}``;
* a message over PostgreSQL's 8,000-byte payload limit is cut into numbered
  parts, ``~ID~I~N~PIECE``, and put together again on arrival (one sender
  per process and per-session delivery order keep the parts in order).

Why PostgreSQL and not a sidecar: the database is already the one thing every
process shares and must reach; ``LISTEN/NOTIFY`` costs no new service to run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from enum import StrEnum
from typing import Any

import psycopg
from psycopg import sql

log = logging.getLogger("dragonante.web")

#: PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more; parts stay below.
PART = 7800
#: Notifications sent in one statement (one round trip for a burst of frames).
BATCH = 256
#: Channels are ``PREFIX + process id`` (ids are hex, so always valid names).
PREFIX = "dragonante_"


class Kind(StrEnum):
    """What a message between processes is (``docs/web.md`` documents each:
    sender, payload, what the receiver does).  The values are the wire's."""

    #: Owner to accepting process, raw: a text frame for the relayed client.
    FRAME_OUT = "o"
    #: Accepting process to owner, raw: a text frame the relayed client sent.
    FRAME_IN = "i"
    #: ``FRAME_OUT`` as JSON (``t``): a frame holding a NUL or too big to go raw.
    SOCKET_OUT = "wo"
    #: ``FRAME_IN`` as JSON: text (``t``, with a NUL or too big) or bytes (``b``).
    SOCKET_IN = "wi"
    #: Accepting to owner: a client opened a socket to the owner's table (``s``
    #: scope, ``r`` reply channel).
    SOCKET_OPEN = "wn"
    #: Owner to accepting: the owner's app accepted the socket.
    SOCKET_ACCEPT = "wa"
    #: Owner to accepting: close the client's socket (``code``, ``r`` reason).
    SOCKET_CLOSE = "wc"
    #: Accepting to owner: the client's socket is gone (``code``).
    SOCKET_GONE = "wg"
    #: Accepting to owner: an HTTP request for the owner's table (``s``, ``b`` body, ``r``).
    HTTP_REQUEST = "hq"
    #: Owner to accepting: its answer (``st``, ``h``, ``b``), or ``moved``.
    HTTP_REPLY = "hr"
    #: Affinity: a process asks the owner to hand a table over (``code``, ``r``).
    HANDOVER_ASK = "gq"
    #: Affinity: the owner's answer (``ok``: the table is the asker's now).
    HANDOVER_REPLY = "gr"


#: The JSON form of each raw frame kind.
AS_JSON = {Kind.FRAME_OUT: Kind.SOCKET_OUT, Kind.FRAME_IN: Kind.SOCKET_IN}
#: Receives one JSON message (by its kind).
Handler = Callable[[dict[str, Any]], None]
#: Receives one raw frame: its kind (``FRAME_OUT`` or ``FRAME_IN``), connection id, text.
FrameHandler = Callable[[Kind, str, str], None]


def channel_of(process: str) -> str:
    """A process's channel, from its id (or its channel, given back)."""
    return process if process.startswith(PREFIX) else PREFIX + process


class Transport:
    """This process's channel: one listening and one sending connection."""

    def __init__(self, url: str, process: str) -> None:
        self.url = url
        self.channel = channel_of(process)
        #: What to do with each kind of JSON message (set by the cluster).
        self.handlers: dict[Kind, Handler] = {}
        #: What to do with a raw frame (set by the relay).
        self.on_frame: FrameHandler = lambda _kind, _cid, _text: None
        self._parts: dict[str, list[str | None]] = {}
        self._outbox: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        self._listen: psycopg.AsyncConnection[Any] | None = None
        self._send: psycopg.AsyncConnection[Any] | None = None
        self._tasks: list[asyncio.Task[None]] = []

    async def connect(self) -> None:
        """Open the two connections and listen on this process's channel."""
        self._listen = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        self._send = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await self._listen.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))

    def start(self) -> None:
        """Start receiving and sending."""
        self._tasks = [
            asyncio.create_task(self._listen_loop()),
            asyncio.create_task(self._send_loop()),
        ]

    async def drain(self, timeout: float = 5) -> None:
        """Send what is queued, then stop sending."""
        self._outbox.put_nowait(None)
        if len(self._tasks) > 1:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._tasks[1], timeout)

    async def close(self) -> None:
        """Stop both loops and close the connections."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for conn in (self._listen, self._send):
            if conn is not None:
                with contextlib.suppress(psycopg.Error):
                    await conn.close()

    # ------------------------------------------------------------- sending

    def frame(self, to: str, kind: Kind, cid: str, text: str) -> None:
        """Queue one WebSocket text frame: ``kind`` (``FRAME_OUT`` to the client,
        ``FRAME_IN`` to the owner), the connection id, a space, the frame as it
        is.  Most frames go this way: no second JSON encoding of an already
        encoded frame."""
        raw = f"{kind.value}{cid} {text}"
        if "\x00" in raw:
            # PostgreSQL text holds no NUL, and one refused notification
            # would fail its whole batch (other clients' frames too): as JSON,
            # the character travels escaped.
            self.post(to, {"k": AS_JSON[kind], "c": cid, "t": text})
        elif len(raw) <= PART // 4 or len(raw.encode()) <= PART:
            self._outbox.put_nowait((channel_of(to), raw))
        else:
            self.post(to, {"k": AS_JSON[kind], "c": cid, "t": text})

    def post(self, to: str, msg: dict[str, Any]) -> None:
        """Queue ``msg`` (``{"k": kind, "c": id, ...}``) for the process ``to``,
        cut into parts if large."""
        text = json.dumps(msg, separators=(",", ":"))  # ASCII: characters are bytes
        channel = channel_of(to)
        if len(text) <= PART:
            self._outbox.put_nowait((channel, text))
            return
        mid = secrets.token_hex(6)
        n = (len(text) + PART - 1) // PART
        for i in range(n):
            self._outbox.put_nowait((channel, f"~{mid}~{i}~{n}~{text[i * PART : (i + 1) * PART]}"))

    async def _send_loop(self) -> None:
        """The one sender: every waiting notification in one statement.

        A statement is one transaction, and PostgreSQL delivers identical
        notifications of one transaction once: a batch ends before a
        notification it already holds (a client's same frame twice, say the
        same chat line), which then opens the next batch.
        """
        assert self._send is not None
        carry: tuple[str, str] | None = None
        while True:
            first = carry if carry is not None else await self._outbox.get()
            carry = None
            if first is None:
                return
            batch = [first]
            held = {first}
            stop = False
            while len(batch) < BATCH and not self._outbox.empty():
                nxt = self._outbox.get_nowait()
                if nxt is None:
                    stop = True
                    break
                if nxt in held:
                    carry = nxt
                    break
                held.add(nxt)
                batch.append(nxt)
            try:
                await self._send.execute(
                    "SELECT pg_notify(c, p) FROM unnest(%s::text[], %s::text[]) AS m(c, p)",
                    ([c for c, _ in batch], [p for _, p in batch]),
                )
            except psycopg.Error as e:
                log.error("cluster: %d relay messages not sent: %s", len(batch), e)
            if stop:
                return

    # ----------------------------------------------------------- receiving

    async def _listen_loop(self) -> None:
        assert self._listen is not None
        async for note in self._listen.notifies():
            try:
                self.receive(note.payload)
            except Exception:
                log.exception("cluster: bad relay message")

    def receive(self, payload: str) -> None:
        """One notification: a raw frame, a part, or a whole JSON message."""
        if payload[0] in "oi":
            cid, _, text = payload[1:].partition(" ")
            self.on_frame(Kind(payload[0]), cid, text)
            return
        if payload.startswith("~"):
            _, mid, i, n, piece = payload.split("~", 4)
            parts = self._parts.setdefault(mid, [None] * int(n))
            parts[int(i)] = piece
            if any(p is None for p in parts):
                return
            del self._parts[mid]
            payload = "".join(p for p in parts if p is not None)
        msg: dict[str, Any] = json.loads(payload)
        kind = Kind(msg["k"])
        if kind in AS_JSON.values() and "t" in msg:
            self.on_frame(Kind(kind.value[1]), msg["c"], msg["t"])
            return
        handler = self.handlers.get(kind)
        if handler is not None:
            handler(msg)
