"""Several server processes on one PostgreSQL database.

A table's game lives in the memory of exactly one process, its *owner*
(``game_tables.owner``).  Every process keeps a heartbeat row in
``server_processes``; a process whose heartbeat is older than the lease is
gone, and any other process may then claim its tables and rebuild them from
config + seed + stored answers (:meth:`Hub.adopt`), exactly as a restart does.

Any process accepts any client.  :class:`ClusterRouter`, an ASGI middleware
in front of the app, looks at the table code in the path (``/ws/CODE``,
``/api/tables/CODE...``, ``/api/games/CODE...``) and, when another live
process owns that table, relays the request there instead of serving it:

* the whole ASGI conversation travels through PostgreSQL ``NOTIFY`` on the
  channel of the owner (client to owner) and of the accepting process (owner
  to client); the owner runs it through its own app as if the client were
  connected to it (so token checks, rate limits and every refusal are the
  owner's, with the client's real address);
* a relayed socket is one connection id between two processes: the owner's
  frames for it are the frames of the seat whose token that socket presented,
  sent only to the one process that holds that socket, which writes them only
  to that socket.  Nothing is ever broadcast on a shared channel;
* a message over PostgreSQL's 8,000-byte payload limit is cut into numbered
  parts and put together again on arrival (one sender per process and
  per-session delivery order keep the parts in order).

Why PostgreSQL and not a sidecar: the database is already the one thing every
process shares and must reach; ``LISTEN/NOTIFY`` costs no new service to run.

**Table affinity** (``serve --affinity``, :meth:`Cluster.route`): behind a
reverse proxy that sends every request naming a table to one process (a hash
of the table code), the relay would carry about (N-1)/N of all frames for
ever, since a table belongs to the process that happened to create it.  With
affinity the process that receives a request for another live process's
table asks the owner to hand it over instead (``gq``/``gr`` messages): the
owner, holding the table's lock so no answer is half-way, moves the row's
``owner`` to the asker, drops the table from memory and closes its sockets
with 1012 (clients reconnect, and the proxy brings them to the new owner),
and the asker rebuilds it from the database as a takeover does.  A table
that moved stays put for ``min_stay`` seconds (asked again sooner, its owner
refuses and the request is relayed), so a proxy that does not route by table
cannot make tables bounce between processes.

No accepted answer is lost when a process dies: answers are committed before
they are acknowledged, as with one process.  A process that is only *slow*
(its lease expired, the table was taken over) cannot corrupt the game: every
transaction that adds an answer or a seat checks, with the table row locked,
that this process still owns the table (:meth:`Cluster._fence`), and the
process drops tables it no longer owns at its next heartbeat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import re
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from dragonante.engine.config import ConfigError, config_from_dict
from dragonante.interfaces.web import store
from dragonante.interfaces.web.db import TableRow
from dragonante.interfaces.web.hub import Hub
from dragonante.interfaces.web.store import FINISHED, OPEN, PLAYING, StoredTable
from dragonante.interfaces.web.tables import abilities_brief
from dragonante.interfaces.web.writer import Batch, StorageError

log = logging.getLogger("dragonante.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more; parts stay below.
PART = 7800
#: Notifications sent in one statement (one round trip for a burst of frames).
BATCH = 256
#: Frames queued for one relayed client before it is disconnected as too slow.
RELAY_QUEUE = 1000
#: Largest relayed HTTP request body (the app itself refuses far smaller ones).
MAX_RELAY_BODY = 65536
#: Close code sent to a client whose table moves to another process: reconnect.
SERVICE_RESTART = 1012
#: Channels are ``PREFIX + process id`` (ids are hex, so always valid names).
PREFIX = "dragonante_"
#: Paths naming a table: the requests that go to its owner.
TABLE_PATH = re.compile(r"^/(?:ws|api/tables|api/games)/([^/]{1,16})(?:/|$)")


class ClusterError(RuntimeError):
    """The cluster cannot run as configured (one line for the command line)."""


@dataclass(slots=True)
class ClusterSettings:
    """How processes share tables (``serve --workers``, ``--lease``)."""

    #: Seconds without a heartbeat after which a process's tables are taken over.
    lease: float = 10.0
    #: Seconds a relayed HTTP request waits for the owner's answer.
    relay_timeout: float = 10.0
    #: Move a table to the process its requests reach instead of relaying
    #: them (``serve --affinity``: a proxy routes each table to one process).
    affinity: bool = False
    #: Seconds a table that moved stays before it may move again.
    min_stay: float = 30.0

    @property
    def heartbeat(self) -> float:
        """Beat four times per lease: one late beat never loses a table."""
        return max(0.1, self.lease / 4)


def libpq_url(engine: Engine) -> str:
    """The engine's URL as psycopg wants it (no SQLAlchemy driver suffix)."""
    if engine.dialect.name != "postgresql":
        raise ClusterError(
            "several server processes need PostgreSQL (--db postgresql://...); "
            "SQLite serves one process"
        )
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


def _pack(scope: Scope) -> dict[str, Any]:
    """What the owner needs of a request's ASGI scope (bytes as latin-1 text)."""
    client = scope.get("client")
    return {
        "type": scope["type"],
        "path": scope["path"],
        "qs": bytes(scope.get("query_string", b"")).decode("latin-1"),
        "h": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope.get("headers", [])],
        "client": list(client) if client else None,
        "scheme": scope.get("scheme", "http"),
        "method": scope.get("method"),
        "sp": list(scope.get("subprotocols", [])),
    }


def _unpack(d: dict[str, Any], app: Any) -> Scope:
    scope: Scope = {
        "type": d["type"],
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "scheme": d["scheme"],
        "path": d["path"],
        "raw_path": d["path"].encode(),
        "root_path": "",
        "query_string": d["qs"].encode("latin-1"),
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in d["h"]],
        "client": tuple(d["client"]) if d["client"] else None,
        "server": ("relay", 0),
        "app": app,
        "state": {},
    }
    if d["type"] == "http":
        scope["method"] = d["method"]
    else:
        scope["subprotocols"] = d["sp"]
    return scope


async def _respond(send: Send, status: int, body: dict[str, Any]) -> None:
    raw = json.dumps(body, separators=(",", ":")).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": raw})


class _Relay:
    """The accepting side of one relayed WebSocket: frames from the owner."""

    __slots__ = ("cid", "owner", "queue")

    def __init__(self, cid: str, owner: str) -> None:
        self.cid = cid
        self.owner = owner
        self.queue: asyncio.Queue[Message] = asyncio.Queue()


class _Remote:
    """The owner's side of one relayed WebSocket: what the client sent."""

    __slots__ = ("cid", "queue", "reply", "task")

    def __init__(self, cid: str, reply: str) -> None:
        self.cid = cid
        self.reply = reply
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None


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


class Cluster:
    """This process's membership: heartbeat, table ownership, and the relay."""

    def __init__(self, hub: Hub, app: Any, settings: ClusterSettings | None = None) -> None:
        self.hub = hub
        self.app = app
        self.settings = settings or ClusterSettings()
        self.id = secrets.token_hex(8)
        self.channel = PREFIX + self.id
        self.url = libpq_url(hub.writer.engine)
        #: The app below the router (set by :class:`ClusterRouter`): relayed
        #: requests run through it, never through the router again.
        self.inner: ASGIApp | None = None
        self.alive: set[str] = set()
        self.relays: dict[str, _Relay] = {}
        self.remotes: dict[str, _Remote] = {}
        self.relayed_frames = 0
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._parts: dict[str, list[str | None]] = {}
        self._outbox: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        self._adopting: dict[str, asyncio.Future[None]] = {}
        #: Handovers this process is asking for, by table code (one at a time).
        self._asking: dict[str, asyncio.Future[bool]] = {}
        #: When each table last moved here by a handover (``time.monotonic``).
        self._arrived: dict[str, float] = {}
        self.moved_in = 0
        self.moved_out = 0
        self._query_lock = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._requests: set[asyncio.Task[None]] = set()
        self._listen: psycopg.AsyncConnection[Any] | None = None
        self._send: psycopg.AsyncConnection[Any] | None = None
        self._query: psycopg.AsyncConnection[Any] | None = None

    # ------------------------------------------------------------ life cycle

    async def start(self) -> int:
        """Join: heartbeat row, channel, fence; claim the tables nobody runs."""
        try:
            self._listen = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            self._send = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            self._query = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        except psycopg.Error as e:
            raise ClusterError(f"cannot open the relay connections: {e}") from None
        await self._listen.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        await self._q(
            "INSERT INTO server_processes (id, host, pid, started_at, beat_at) "
            "VALUES (%s, %s, %s, now(), now())",
            (self.id, socket.gethostname()[:255], os.getpid()),
        )
        self.hub.writer.add_fence(self._fence)
        self._tasks = [
            asyncio.create_task(self._listen_loop()),
            asyncio.create_task(self._send_loop()),
        ]
        self.alive = await self._alive()
        taken = await self._claim_orphans(limit=None)
        self._tasks.append(asyncio.create_task(self._beat_loop()))
        log.info("cluster: process %s (pid %d) runs %d tables", self.id, os.getpid(), taken)
        return taken

    async def close(self) -> None:
        """Leave: clients reconnect elsewhere, tables are released at once
        (another process takes them without waiting for the lease)."""
        for remote in list(self.remotes.values()):
            self._post(remote.reply, {"k": "wc", "c": remote.cid, "code": SERVICE_RESTART})
            remote.queue.put_nowait({"type": "websocket.disconnect", "code": SERVICE_RESTART})
        for relay in list(self.relays.values()):
            relay.queue.put_nowait({"type": "websocket.close", "code": SERVICE_RESTART})
        tasks = [r.task for r in self.remotes.values() if r.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=5)
        self._outbox.put_nowait(None)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._tasks[1], 5)
        with contextlib.suppress(psycopg.Error):
            await self._q(
                "UPDATE game_tables SET owner = NULL WHERE owner = %s AND status IN (%s, %s)",
                (self.id, OPEN, PLAYING),
            )
            await self._q("DELETE FROM server_processes WHERE id = %s", (self.id,))
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.hub.writer.remove_fence(self._fence)
        for conn in (self._listen, self._send, self._query):
            if conn is not None:
                with contextlib.suppress(psycopg.Error):
                    await conn.close()

    # ------------------------------------------------------------- ownership

    def _fence(self, session: Session, batch: Batch) -> None:
        """The writer's fence (:meth:`Writer.add_fence`), on the database thread."""
        ownership_fence(session, batch, self.id)

    async def _q(self, query: str, params: Any = ()) -> list[tuple[Any, ...]]:
        """One statement on the control connection (heartbeat, lookups, claims)."""
        assert self._query is not None
        async with self._query_lock:
            cur = await self._query.execute(query.encode(), params)
            return await cur.fetchall() if cur.description else []

    async def _alive(self) -> set[str]:
        rows = await self._q(
            "SELECT id FROM server_processes WHERE beat_at > now() - make_interval(secs => %s)",
            (self.settings.lease,),
        )
        return {r[0] for r in rows}

    _ORPHAN = (
        "status IN ('open', 'playing') AND (owner IS NULL OR owner = %(me)s OR NOT EXISTS ("
        "SELECT 1 FROM server_processes p WHERE p.id = game_tables.owner "
        "AND p.beat_at > now() - make_interval(secs => %(lease)s)))"
    )

    async def _claim_orphans(self, limit: int | None) -> int:
        """Claim live tables whose owner is gone (at most ``limit``, so that
        several survivors share a dead process's tables), and run them."""
        rows = await self._q(
            "UPDATE game_tables SET owner = %(me)s WHERE code IN ("
            "SELECT code FROM game_tables WHERE " + self._ORPHAN + " AND NOT code = ANY(%(have)s) "
            "ORDER BY code LIMIT %(n)s FOR UPDATE SKIP LOCKED) RETURNING code",
            {
                "me": self.id,
                "lease": self.settings.lease,
                "have": [c for c, t in self.hub.tables.items() if t.status != FINISHED],
                "n": limit,
            },
        )
        for (code,) in rows:
            await self._adopt(code)
        return len(rows)

    async def _claim(self, code: str) -> bool:
        rows = await self._q(
            "UPDATE game_tables SET owner = %(me)s WHERE code = %(code)s AND "
            + self._ORPHAN
            + " RETURNING code",
            {"me": self.id, "code": code, "lease": self.settings.lease},
        )
        return bool(rows)

    async def _adopt(self, code: str) -> None:
        """Rebuild a claimed table from the database (once, however many ask)."""
        if code in self.hub.tables:
            return
        waiting = self._adopting.get(code)
        if waiting is not None:
            await asyncio.shield(waiting)
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._adopting[code] = done
        try:
            stored: StoredTable | None = await self.hub.writer.run(
                partial(store.load_table, code=code)
            )
            if stored is not None and stored.status != FINISHED and self.hub.adopt(stored):
                log.info("cluster: took over table %s", code)
        finally:
            del self._adopting[code]
            done.set_result(None)

    def _drop(self, code: str, handed: bool = False) -> None:
        """Another process runs this table now: stop ours, send clients there.

        ``handed``: we gave it away (affinity), so its sockets close with
        1012 ("reconnect") rather than as too slow (4429); either way clients
        reconnect, and the router or the proxy takes them to the new owner."""
        table = self.hub.tables.pop(code, None)
        if table is None:
            return
        if handed:
            log.info("cluster: table %s handed over", code)
        else:
            log.warning("cluster: table %s is run by another process now", code)
        for task in (table.bot_task, table.timer_task, table.turn_task):
            if task is not None:
                task.cancel()
        for client in list(table.clients):
            if handed:
                client.close_with(SERVICE_RESTART, "the table moved; reconnect")
            else:
                client.overflowed = True
                client.stop()

    async def _ask_handover(self, owner: str, code: str) -> bool:
        """Ask ``owner`` to hand ``code`` over to this process (affinity);
        True once the database says it is ours.  Concurrent requests for one
        table share one question."""
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
            self._post(owner, {"k": "gq", "c": rid, "r": self.channel, "code": code})
            answer = await asyncio.wait_for(reply, self.settings.relay_timeout)
            ok = bool(answer.get("ok"))
            if ok:  # ours in the database: run it before anyone is told
                self.moved_in += 1
                self._arrived[code] = time.monotonic()
                await self._adopt(code)
        except TimeoutError:
            log.warning("cluster: process %s did not answer a handover of %s", owner, code)
        finally:
            self._pending.pop(rid, None)
            del self._asking[code]
            asked.set_result(ok)
        return ok

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
        if self.settings.affinity and asker not in self.alive:
            self.alive = await self._alive()  # a process started since the last beat
        if (
            self.settings.affinity
            and table is not None
            and table.status != FINISHED
            and stayed >= self.settings.min_stay
            and asker in self.alive
        ):
            async with table.lock:
                if self.hub.tables.get(code) is table:
                    try:
                        rows = await self._q(
                            "UPDATE game_tables SET owner = %s WHERE code = %s AND owner = %s "
                            "AND status IN (%s, %s) RETURNING code",
                            (asker, code, self.id, OPEN, PLAYING),
                        )
                    except psycopg.Error as e:  # keep it; the asker relays
                        log.error("cluster: handover of %s failed: %s", code, e)
                        rows = []
                    if rows:
                        self._drop(code, handed=True)
                        self._arrived.pop(code, None)
                        self.moved_out += 1
                        ok = True
        self._post(reply, {"k": "gr", "c": rid, "ok": ok})

    async def route(self, code: str) -> str | None:
        """The process to send a request for ``code`` to; None: serve it here
        (this process owns it, claimed it just now, or it is finished or unknown)."""
        code = code.strip().upper()
        for _ in range(3):
            if code in self.hub.tables:
                return None
            rows = await self._q("SELECT status, owner FROM game_tables WHERE code = %s", (code,))
            if not rows or rows[0][0] == FINISHED:
                return None
            owner = rows[0][1]
            orphan = owner is None or owner not in self.alive
            if owner == self.id or (orphan and await self._claim(code)):
                await self._adopt(code)
                return None
            if owner is not None and owner != self.id:
                if owner not in self.alive:
                    self.alive = await self._alive()
                if owner in self.alive:
                    if self.settings.affinity and await self._ask_handover(str(owner), code):
                        return None
                    return str(owner)
        return None

    async def _beat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.heartbeat)
            try:
                await self._beat()
            except psycopg.Error as e:
                log.error("cluster: heartbeat failed: %s", e)
            except Exception:
                log.exception("cluster: heartbeat failed")

    async def _beat(self) -> None:
        """Prove this process alive; give up tables taken from it; take over
        tables of processes that stopped beating; close relays to them."""
        rows = await self._q(
            "UPDATE server_processes SET beat_at = now() WHERE id = %s RETURNING id", (self.id,)
        )
        if not rows:
            await self._q(
                "INSERT INTO server_processes (id, host, pid, started_at, beat_at) "
                "VALUES (%s, %s, %s, now(), now())",
                (self.id, socket.gethostname()[:255], os.getpid()),
            )
        self.alive = await self._alive()
        live = [c for c, t in self.hub.tables.items() if t.status != FINISHED]
        if live:
            still = await self._q(
                "SELECT code FROM game_tables WHERE code = ANY(%s) AND owner = %s", (live, self.id)
            )
            for code in set(live) - {r[0] for r in still} - set(self._adopting):
                self._drop(code)
        await self._claim_orphans(limit=50)
        now = time.monotonic()
        for code, at in list(self._arrived.items()):
            if now - at >= self.settings.min_stay:
                del self._arrived[code]
        for relay in list(self.relays.values()):
            if relay.owner not in self.alive:
                relay.queue.put_nowait({"type": "websocket.close", "code": SERVICE_RESTART})
        await self._q(
            "DELETE FROM server_processes WHERE beat_at < now() - make_interval(secs => %s)",
            (self.settings.lease * 100,),
        )

    # ------------------------------------------------------------- transport

    def _frame(self, owner: str, kind: str, cid: str, text: str) -> None:
        """Queue one WebSocket text frame: ``kind`` (``o`` to the client, ``i``
        to the owner), the connection id, a space, the frame as it is.  Most
        frames go this way: no second JSON encoding of an already encoded frame."""
        raw = f"{kind}{cid} {text}"
        if "\x00" in raw:
            # PostgreSQL text holds no NUL, and one refused notification
            # would fail its whole batch (other clients' frames too): as JSON,
            # the character travels escaped.
            self._post(owner, {"k": "w" + kind, "c": cid, "t": text})
        elif len(raw) <= PART // 4 or len(raw.encode()) <= PART:
            channel = owner if owner.startswith(PREFIX) else PREFIX + owner
            self._outbox.put_nowait((channel, raw))
        else:
            self._post(owner, {"k": "w" + kind, "c": cid, "t": text})

    def _post(self, owner: str, msg: dict[str, Any]) -> None:
        """Queue ``msg`` for the process ``owner`` (cut into parts if large)."""
        text = json.dumps(msg, separators=(",", ":"))  # ASCII: characters are bytes
        channel = PREFIX + owner if not owner.startswith(PREFIX) else owner
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

    async def _listen_loop(self) -> None:
        assert self._listen is not None
        async for note in self._listen.notifies():
            try:
                self._receive(note.payload)
            except Exception:
                log.exception("cluster: bad relay message")

    def _receive(self, payload: str) -> None:
        if payload[0] in "oi":
            cid, _, text = payload[1:].partition(" ")
            self._receive_frame(payload[0], cid, text)
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
        kind, cid = msg["k"], msg["c"]
        if kind in ("hq", "gq"):
            work = self._serve_http(msg) if kind == "hq" else self._give(msg)
            task = asyncio.create_task(work)
            self._requests.add(task)
            task.add_done_callback(self._requests.discard)
        elif kind in ("hr", "gr"):
            future = self._pending.pop(cid, None)
            if future is not None and not future.done():
                future.set_result(msg)
        elif kind in ("wo", "wi") and "t" in msg:
            self._receive_frame(kind[1], cid, msg["t"])
        elif kind == "wa":
            self._to_relay(cid, {"type": "websocket.accept"})
        elif kind == "wc":
            self._to_relay(
                cid,
                {"type": "websocket.close", "code": msg.get("code", 1000), "reason": msg.get("r")},
            )
        elif kind == "wn":
            self._open_remote(msg)
        elif kind in ("wi", "wg"):
            remote = self.remotes.get(cid)
            if remote is None:
                return
            if kind == "wg":
                remote.queue.put_nowait({"type": "websocket.disconnect", "code": msg["code"]})
            else:
                raw = msg["b"].encode("latin-1")
                remote.queue.put_nowait({"type": "websocket.receive", "bytes": raw})

    def _receive_frame(self, kind: str, cid: str, text: str) -> None:
        if kind == "o":
            self._to_relay(cid, {"type": "websocket.send", "text": text})
            return
        remote = self.remotes.get(cid)
        if remote is not None:
            remote.queue.put_nowait({"type": "websocket.receive", "text": text})

    def _to_relay(self, cid: str, message: Message) -> None:
        relay = self.relays.get(cid)
        if relay is None:
            return
        if relay.queue.qsize() >= RELAY_QUEUE:
            relay.queue.put_nowait({"type": "websocket.close", "code": 4429, "reason": "too slow"})
            return
        relay.queue.put_nowait(message)

    # ------------------------------------------------------ the owner's side

    async def _serve_http(self, msg: dict[str, Any]) -> None:
        """Run a relayed lobby request through this process's app."""
        reply, cid = msg["r"], msg["c"]
        scope = _unpack(msg["s"], self.app)
        match = TABLE_PATH.match(scope["path"])
        if match and await self.route(match.group(1)) is not None:
            self._post(reply, {"k": "hr", "c": cid, "moved": True})
            return
        body = msg["b"].encode("latin-1")
        sent = False
        status = 500
        headers: list[list[str]] = []
        chunks: list[bytes] = []

        async def receive() -> Message:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: Message) -> None:
            nonlocal status, headers
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [
                    [bytes(k).decode("latin-1"), bytes(v).decode("latin-1")]
                    for k, v in message.get("headers", [])
                ]
            elif message["type"] == "http.response.body":
                chunks.append(bytes(message.get("body", b"")))

        assert self.inner is not None
        try:
            await self.inner(scope, receive, send)
        except Exception:
            log.exception("cluster: relayed request failed")
            status, headers, chunks = 500, [], [b'{"error":"internal","detail":"server error"}']
        answer = {"k": "hr", "c": cid, "st": status, "h": headers}
        self._post(reply, {**answer, "b": b"".join(chunks).decode("latin-1")})

    def _open_remote(self, msg: dict[str, Any]) -> None:
        """A client connected to another process for a table of ours: run its
        socket here; what the app sends goes back to that process only."""
        cid, reply = msg["c"], msg["r"]
        scope = _unpack(msg["s"], self.app)
        remote = _Remote(cid, reply)
        remote.queue.put_nowait({"type": "websocket.connect"})
        self.remotes[cid] = remote

        async def send(message: Message) -> None:
            kind = message["type"]
            if kind == "websocket.send":
                text = message.get("text")
                if text is None:
                    text = bytes(message.get("bytes") or b"").decode("utf-8", "replace")
                self.relayed_frames += 1
                self._frame(reply, "o", cid, text)
            elif kind == "websocket.accept":
                self._post(reply, {"k": "wa", "c": cid})
            elif kind == "websocket.close":
                self._post(
                    reply,
                    {"k": "wc", "c": cid, "code": message.get("code", 1000),
                     "r": message.get("reason") or ""},
                )  # fmt: skip

        async def run() -> None:
            assert self.inner is not None
            try:
                match = TABLE_PATH.match(scope["path"])
                if match and await self.route(match.group(1)) is not None:
                    self._post(reply, {"k": "wc", "c": cid, "code": SERVICE_RESTART})
                    return
                await self.inner(scope, remote.queue.get, send)
            except Exception:
                log.exception("cluster: relayed socket failed")
                self._post(reply, {"k": "wc", "c": cid, "code": 1011})
            finally:
                self.remotes.pop(cid, None)

        remote.task = asyncio.create_task(run(), name=f"relay {scope['path']}")

    # -------------------------------------------------- the accepting side

    async def relay_http(self, owner: str, scope: Scope, receive: Receive, send: Send) -> bool:
        """Forward a lobby request to the table's owner; False: it moved, route again."""
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return True
            body += bytes(message.get("body", b""))
            if len(body) > MAX_RELAY_BODY:
                await _respond(send, 413, {"error": "too_large", "detail": "request too large"})
                return True
            if not message.get("more_body"):
                break
        cid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[cid] = future
        request = {"k": "hq", "c": cid, "r": self.channel, "s": _pack(scope)}
        self._post(owner, {**request, "b": body.decode("latin-1")})
        try:
            answer = await asyncio.wait_for(future, self.settings.relay_timeout)
        except TimeoutError:
            await _respond(
                send, 503, {"error": "busy", "detail": "the table's server did not answer; retry"}
            )
            return True
        finally:
            self._pending.pop(cid, None)
        if answer.get("moved"):
            return False
        await send(
            {
                "type": "http.response.start",
                "status": answer["st"],
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["h"]],
            }
        )
        await send({"type": "http.response.body", "body": answer["b"].encode("latin-1")})
        return True

    async def relay_socket(self, owner: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Carry one WebSocket between this process's client and the table's owner."""
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        cid = secrets.token_hex(12)
        relay = _Relay(cid, owner)
        self.relays[cid] = relay
        self._post(owner, {"k": "wn", "c": cid, "r": self.channel, "s": _pack(scope)})
        gone = asyncio.Event()

        async def inbound() -> None:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    self._post(owner, {"k": "wg", "c": cid, "code": message.get("code", 1000)})
                    gone.set()
                    # Wake the loop below: it may be waiting for a frame the
                    # owner will never send, and would hold the relay for ever.
                    relay.queue.put_nowait({"type": "relay.gone"})
                    return
                if message.get("text") is not None:
                    self._frame(owner, "i", cid, message["text"])
                else:
                    raw = bytes(message.get("bytes") or b"")
                    self._post(owner, {"k": "wi", "c": cid, "b": raw.decode("latin-1")})

        reader: asyncio.Task[None] | None = None
        accepted = False
        try:
            while not gone.is_set():
                try:
                    timeout = None if accepted else self.settings.relay_timeout
                    message = await asyncio.wait_for(relay.queue.get(), timeout)
                except TimeoutError:
                    message = {"type": "websocket.close", "code": 1013, "reason": "try again"}
                if message["type"] == "websocket.accept" and not accepted:
                    accepted = True
                    await send(message)
                    reader = asyncio.create_task(inbound())
                elif message["type"] == "websocket.send" and accepted:
                    await send(message)
                elif message["type"] == "websocket.close":
                    with contextlib.suppress(OSError, RuntimeError):
                        await send(
                            {"type": "websocket.close", "code": message["code"],
                             "reason": message.get("reason", "")}
                        )  # fmt: skip
                    if not gone.is_set():
                        self._post(owner, {"k": "wg", "c": cid, "code": message["code"]})
                    return
        except OSError:
            self._post(owner, {"k": "wg", "c": cid, "code": 1006})
        finally:
            self.relays.pop(cid, None)
            if reader is not None:
                reader.cancel()
                await asyncio.gather(reader, return_exceptions=True)

    # ----------------------------------------------------------------- lobby

    async def lobby(self) -> dict[str, list[dict[str, Any]]]:
        """Open and playing tables of every process, newest first (from the database)."""

        def load(s: Session) -> list[StoredTable]:
            out: list[StoredTable] = []
            for status in (OPEN, PLAYING):
                rows = s.scalars(
                    select(TableRow)
                    .where(TableRow.status == status)
                    .order_by(TableRow.created_at.desc())
                    .limit(100)
                )
                tables = [store._stored(r) for r in rows]
                store._fill(s, tables, with_answers=False)
                out.extend(tables)
            return out

        listed: dict[str, list[dict[str, Any]]] = {"open": [], "playing": []}
        for st in await self.hub.writer.run(load):
            try:
                cfg = config_from_dict(st.config)
            except ConfigError:
                continue
            listed[st.status].append(
                {
                    "code": st.code,
                    "players": cfg.players,
                    "ruleset": cfg.rules.ruleset,
                    "preset": cfg.deck.preset,
                    "abilities": abilities_brief(cfg),
                    "taken": len(st.seats),
                    "names": [st.seats[p].name for p in sorted(st.seats)],
                }
            )
        return listed

    def stats(self) -> dict[str, Any]:
        """This process's share of the relay (for ``/api/stats``)."""
        return {
            "process": self.id,
            "pid": os.getpid(),
            "alive": len(self.alive),
            "relayed_in": len(self.relays),
            "relayed_out": len(self.remotes),
            "relayed_frames": self.relayed_frames,
            "affinity": self.settings.affinity,
            "moved_in": self.moved_in,
            "moved_out": self.moved_out,
        }


class ClusterRouter:
    """ASGI middleware: requests for a table another process owns go there.

    Added to the app only when it runs as one of several processes; the app's
    ``state.cluster`` is the running :class:`Cluster` (set at start-up).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = scope.get("app")
        cluster: Cluster | None = getattr(app.state, "cluster", None) if app else None
        if cluster is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        cluster.inner = self.app
        path = scope["path"]
        if scope["type"] == "http" and path == "/api/tables" and scope["method"] == "GET":
            await _respond(send, 200, await cluster.lobby())
            return
        if scope["type"] == "http" and path == "/api/stats":
            await self._stats(cluster, scope, receive, send)
            return
        match = TABLE_PATH.match(path)
        if match is None:
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        while time.monotonic() - started < cluster.settings.relay_timeout:
            owner = await cluster.route(match.group(1))
            if owner is None:
                await self.app(scope, receive, send)
                return
            if scope["type"] == "websocket":
                await cluster.relay_socket(owner, scope, receive, send)
                return
            if await cluster.relay_http(owner, scope, receive, send):
                return
        await _respond(send, 503, {"error": "busy", "detail": "the table is moving; retry"})

    async def _stats(self, cluster: Cluster, scope: Scope, receive: Receive, send: Send) -> None:
        """The app's figures, plus this process's relay figures."""
        hub: Hub = scope["app"].state.hub
        await _respond(send, 200, {**hub.stats(), "cluster": cluster.stats()})


#: ``serve --workers N`` hands each worker its configuration in this variable
#: (uvicorn starts workers by import string, so they cannot take arguments).
WORKER_ENV = "DRAGONANTE_SERVE_WORKER"


def worker_config(db: str, settings: Any, cluster: ClusterSettings) -> str:
    """The JSON a worker reads back in :func:`worker_app`."""
    from dataclasses import asdict

    return json.dumps({"db": db, "settings": asdict(settings), "lease": cluster.lease})


def worker_app() -> Any:
    """The app of one ``serve --workers`` process (uvicorn's factory)."""
    from dragonante.interfaces.web.app import create_app
    from dragonante.interfaces.web.hub import Settings

    raw = os.environ.get(WORKER_ENV)
    if not raw:
        raise ClusterError(f"{WORKER_ENV} is unset: workers are started by serve --workers")
    conf = json.loads(raw)
    fields = conf["settings"]
    # JSON has no tuples: give back the ones Settings declares.
    fields["trusted_proxies"] = tuple(fields.get("trusted_proxies", ()))
    return create_app(conf["db"], Settings(**fields), cluster=ClusterSettings(lease=conf["lease"]))
