"""The HTTP API, the WebSocket endpoint and the static client, as one FastAPI app.

``create_app(db)`` opens (and migrates) the database at start-up, resumes
every unfinished table, and serves the routers of :mod:`.routes`, one per
concern:

* ``/``, ``/t/CODE``, ``/r/CODE``: the single-page client (``routes/pages.py``;
  plain ES modules and CSS under ``/static``, no build step);
* ``/api/meta``, ``/api/cards``, ``/api/abilities``, ``/api/stats``,
  ``/api/openapi.json`` (``routes/info.py``);
* ``/api/tables...``: the lobby (create a table, take a seat, add bots,
  start, mutes, rematches; ``routes/lobby.py``);
* ``/api/games...``: finished games and their replays (``routes/games.py``);
* ``/api/players...``, ``/api/leaderboard``: player keys, My games, ratings
  (``routes/players.py``);
* ``/ws/CODE``: one WebSocket per seat or spectator (``routes/socket.py``,
  ``docs/protocol.md``).

Every refusal is a JSON body ``{"error": code, "detail": why}`` with a 4xx
status; nothing a client sends can produce a traceback.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import Engine

from dragonante import __version__
from dragonante.interfaces.web.cluster.member import Cluster, ClusterRouter, ClusterSettings
from dragonante.interfaces.web.http.guard import BodyLimit
from dragonante.interfaces.web.http.headers import SecurityHeaders
from dragonante.interfaces.web.http.routes import games, info, learn, lobby, pages, players, socket
from dragonante.interfaces.web.hub import Hub
from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.shared.settings import Settings
from dragonante.interfaces.web.storage.db import open_database
from dragonante.interfaces.web.storage.writer import Writer

log = logging.getLogger("dragonante.web")


def create_app(
    db: str | None = None,
    settings: Settings | None = None,
    engine: Engine | None = None,
    cluster: ClusterSettings | None = None,
) -> FastAPI:
    """The web server app.

    ``engine`` is an already opened (and migrated) database, as ``serve``
    passes so a bad ``--db`` fails before the server starts; otherwise ``db``
    is opened and migrated when the app starts.  ``cluster``: this process is
    one of several sharing a PostgreSQL database (``web/cluster/member.py``).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        writer = Writer(engine if engine is not None else open_database(db))
        hub = Hub(writer, settings)
        member = Cluster(hub, app, cluster) if cluster is not None else None
        try:
            async with running(app, hub, member):
                yield
        finally:
            writer.close()

    app = FastAPI(
        title="dragonante",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.add_exception_handler(RequestValidationError, bad_param)  # type: ignore[arg-type]
    app.add_exception_handler(HubError, hub_error)  # type: ignore[arg-type]
    for routes in (pages, info, lobby, games, players, socket, learn):
        app.include_router(routes.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    if cluster is not None:
        app.add_middleware(ClusterRouter)
    app.add_middleware(BodyLimit)  # an oversized body is refused before any routing
    app.add_middleware(SecurityHeaders)  # outermost: relayed answers carry them too
    return app


@asynccontextmanager
async def running(app: FastAPI, hub: Hub, member: Cluster | None) -> AsyncIterator[None]:
    """The server's life: tables resumed (or claimed, in a cluster), the loop
    watched and swept while it serves, everything stopped in order after."""
    resumed = hub.resume() if member is None else await member.start()
    if resumed:
        log.info("resumed %d tables", resumed)
    if member is None:
        hub.begin()
    app.state.hub = hub
    app.state.cluster = member
    # What is loaded by now (modules, cards, resumed games: ~100,000
    # objects) lives as long as the server.  Frozen, it is left out of
    # the garbage collector's full scans, each of which would otherwise
    # stop every table for ~70 ms on a small machine.
    gc.collect()
    gc.freeze()
    watcher = asyncio.create_task(hub.watch_loop())
    sweeper = asyncio.create_task(hub.sweep_loop())
    try:
        yield
    finally:
        watcher.cancel()
        sweeper.cancel()
        await hub.close()
        if member is not None:
            await member.close()


async def bad_param(_request: Request, e: RequestValidationError) -> JSONResponse:
    """A path or query value of the wrong type (``/seats/x``): our error
    body, not FastAPI's 422 list, so every refusal has one shape."""
    where = ".".join(str(p) for p in (e.errors()[0].get("loc") or ())) if e.errors() else ""
    return JSONResponse(
        {"error": "bad_param", "detail": f"{where or 'a parameter'} has the wrong type"},
        status_code=400,
    )


async def hub_error(_request: Request, e: HubError) -> JSONResponse:
    """A refusal of the hub's: its code, detail, status and ``Retry-After``."""
    headers = {"Retry-After": str(e.retry_after)} if e.retry_after is not None else None
    return JSONResponse(
        {"error": e.code, "detail": e.detail}, status_code=e.status, headers=headers
    )
