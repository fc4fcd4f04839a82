"""Several server processes on one PostgreSQL database: the member and the router.

A table's game lives in the memory of exactly one process, its *owner*.
This module joins the parts that make that work (``docs/web.md``, "The web
package"):

* :mod:`lease`: heartbeats, who owns which table, claims of a dead
  process's tables, and the writer's fence (no answer stored by a process
  that lost its table);
* :mod:`transport`: messages between processes through PostgreSQL
  ``LISTEN/NOTIFY`` (each :class:`~dragonante.interfaces.web.cluster.transport.Kind`
  documented in ``docs/web.md``);
* :mod:`relay`: a request or socket that reached a process not running its
  table, served by the owner;
* :mod:`affinity`: with ``serve --affinity``, the table moves instead.

:class:`ClusterRouter`, an ASGI middleware in front of the app, looks at the
table code in the path (``/ws/CODE``, ``/api/tables/CODE...``,
``/api/games/CODE...``) and asks :meth:`Cluster.route` where it runs.

No accepted answer is lost when a process dies: answers are committed before
they are acknowledged, as with one process.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy import Engine
from sqlalchemy.orm import Session
from starlette.datastructures import Headers

from dragonante.engine.config import ConfigError, config_from_dict
from dragonante.interfaces.web.cluster.affinity import Affinity
from dragonante.interfaces.web.cluster.lease import Lease
from dragonante.interfaces.web.cluster.relay import (
    TABLE_PATH,
    ASGIApp,
    Receive,
    Relay,
    Scope,
    Send,
    respond,
)
from dragonante.interfaces.web.cluster.transport import PREFIX, Transport
from dragonante.interfaces.web.hub import Hub
from dragonante.interfaces.web.shared.limits import client_address
from dragonante.interfaces.web.storage import store
from dragonante.interfaces.web.storage.store import FINISHED, OPEN, PLAYING, StoredTable
from dragonante.interfaces.web.tables.live import abilities_brief

log = logging.getLogger("dragonante.web")


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


class Cluster:
    """This process's membership: its lease, transport, relay and affinity."""

    def __init__(self, hub: Hub, app: Any, settings: ClusterSettings | None = None) -> None:
        self.hub = hub
        self.settings = st = settings or ClusterSettings()
        self.id = secrets.token_hex(8)
        self.channel = PREFIX + self.id
        self.url = libpq_url(hub.writer.engine)
        self.transport = Transport(self.url, self.id)
        self.lease = Lease(hub, self.url, self.id, st.lease)
        self.relay = Relay(self.transport, app, self.route, st.relay_timeout)
        self.affinity = Affinity(
            hub, self.lease, self.transport, st.affinity, st.min_stay, st.relay_timeout
        )
        self._beats: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ life cycle

    async def start(self) -> int:
        """Join: heartbeat row, channel, fence; claim the tables nobody runs."""
        try:
            await self.transport.connect()
            await self.lease.connect()
        except psycopg.Error as e:
            raise ClusterError(f"cannot open the relay connections: {e}") from None
        # Before the first message can arrive: a relayed request or socket
        # reaching a process that no client had reached directly found no
        # app to run in, and its client waited out the relay's time-out.
        self.relay.inner = below_router(self.relay.app)
        self.transport.start()
        await self.lease.look_alive()
        taken = await self.lease.claim_orphans(limit=None)
        self._beats = asyncio.create_task(self._beat_loop())
        log.info("cluster: process %s (pid %d) runs %d tables", self.id, os.getpid(), taken)
        return taken

    async def close(self) -> None:
        """Leave: clients reconnect elsewhere, tables are released at once
        (another process takes them without waiting for the lease)."""
        self.relay.close_all()
        await self.relay.wait_remotes()
        await self.transport.drain()
        await self.lease.leave()
        if self._beats is not None:
            self._beats.cancel()
            await asyncio.gather(self._beats, return_exceptions=True)
        await self.transport.close()
        await self.lease.close()

    async def _beat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.heartbeat)
            try:
                await self.lease.beat()
                self.affinity.forget_old()
                self.relay.close_to(self.lease.alive)
            except psycopg.Error as e:
                log.error("cluster: heartbeat failed: %s", e)
            except Exception:
                log.exception("cluster: heartbeat failed")

    # --------------------------------------------------------------- routing

    async def route(self, code: str) -> str | None:
        """The process to send a request for ``code`` to; None: serve it here
        (this process owns it, claimed it just now, or it is finished or unknown)."""
        code = code.strip().upper()
        lease = self.lease
        for _ in range(3):
            if code in self.hub.tables:
                return None
            rows = await lease.query(
                "SELECT status, owner FROM game_tables WHERE code = %s", (code,)
            )
            if not rows or rows[0][0] == FINISHED:
                return None
            owner = rows[0][1]
            orphan = owner is None or owner not in lease.alive
            if owner == self.id or (orphan and await lease.claim(code)):
                await lease.adopt(code)
                return None
            if owner is not None and owner != self.id:
                if owner not in lease.alive:
                    await lease.look_alive()
                if owner in lease.alive:
                    if self.settings.affinity and await self.affinity.ask(str(owner), code):
                        return None
                    return str(owner)
        return None

    # ----------------------------------------------------------------- lobby

    async def lobby(self) -> dict[str, list[dict[str, Any]]]:
        """Open and playing tables of every process, newest first (from the
        database); invite-only tables are never listed, as with one process."""

        def load(s: Session) -> list[StoredTable]:
            return store.list_live(s, OPEN) + store.list_live(s, PLAYING)

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
            "alive": len(self.lease.alive),
            "relayed_in": len(self.relay.relays),
            "relayed_out": len(self.relay.remotes),
            "relayed_frames": self.relay.relayed_frames,
            "affinity": self.settings.affinity,
            "moved_in": self.affinity.moved_in,
            "moved_out": self.affinity.moved_out,
        }


def below_router(app: Any) -> ASGIApp | None:
    """The app below the app's :class:`ClusterRouter` (what relayed requests run
    through), from the middleware stack Starlette builds on the app's first
    call, the lifespan's; None if there is no such stack or router.

    The router learns it on its first request, but a process may own tables
    before any client reaches it directly (a takeover, or a worker the
    kernel never gives a connection); then every request relayed to it
    found nothing to run and its client waited out the relay's time-out --
    ``test_workers.py``, a worker woken after the other took its table over.
    """
    layer = getattr(app, "middleware_stack", None)
    while layer is not None:
        if isinstance(layer, ClusterRouter):
            return layer.app
        layer = getattr(layer, "app", None)
    return None


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
        cluster.relay.inner = self.app
        path = scope["path"]
        if scope["type"] == "http" and path == "/api/tables" and scope["method"] == "GET":
            await respond(send, 200, await cluster.lobby())
            return
        if scope["type"] == "http" and path == "/api/stats":
            await self._stats(cluster, scope, receive, send)
            return
        match = TABLE_PATH.match(path)
        if match is None or self._guessing(scope):
            # An address that used up its misses (codes no table has) is
            # refused by the app's lookup at once: no query for an owner.
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        while time.monotonic() - started < cluster.settings.relay_timeout:
            owner = await cluster.route(match.group(1))
            if owner is None:
                await self.app(scope, receive, send)
                return
            if scope["type"] == "websocket":
                await cluster.relay.relay_socket(owner, scope, receive, send)
                return
            if await cluster.relay.relay_http(owner, scope, receive, send):
                return
        await respond(send, 503, {"error": "busy", "detail": "the table is moving; retry"})

    @staticmethod
    def _guessing(scope: Scope) -> bool:
        """Whether the caller has used up its misses (``House.check_lookup``)."""
        hub: Hub = scope["app"].state.hub
        peer = scope.get("client")
        where = client_address(peer[0] if peer else None, Headers(scope=scope), hub.trusted)
        return hub.misses_wait(where) > 0

    async def _stats(self, cluster: Cluster, scope: Scope, receive: Receive, send: Send) -> None:
        """The app's figures, plus this process's relay figures."""
        hub: Hub = scope["app"].state.hub
        await respond(send, 200, {**hub.stats(), "cluster": cluster.stats()})
