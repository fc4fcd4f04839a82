"""The HTTP API, the WebSocket endpoint and the static client, as one FastAPI app.

``create_app(db)`` opens (and migrates) the database at start-up, resumes
every unfinished table, and serves:

* ``/``, ``/t/CODE``, ``/r/CODE``: the single-page client (plain ES modules
  and CSS under ``/static``; no build step);
* ``/api/...``: the lobby (create a table, take a seat, add bots, start),
  the card texts, finished games and their replays;
* ``/ws/CODE``: one WebSocket per seat or spectator (``docs/protocol.md``).

Every refusal is a JSON body ``{"error": code, "detail": why}`` with a 4xx
status; nothing a client sends can produce a traceback.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import asdict, fields
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import Engine
from starlette.websockets import WebSocketDisconnect, WebSocketState

from dragonante import RULES_VERSION, __version__
from dragonante.bots import LEVELS, bot_names
from dragonante.cards import ALL_CARDS
from dragonante.engine.abilities.catalog import (
    ABILITIES,
    DEFAULT_PER_CHARACTER,
    MAX_PER_CHARACTER,
    SYSTEMS,
)
from dragonante.engine.abilities.options import VISIBILITIES
from dragonante.engine.config import GOLD_CHOICES, RULE_CHOICES, RULESETS, SELECTIONS, Rules
from dragonante.engine.decks import PRESET_HELP, PRESETS
from dragonante.interfaces.web.chat import CHAT_MAX
from dragonante.interfaces.web.cluster import Cluster, ClusterRouter, ClusterSettings
from dragonante.interfaces.web.db import open_database
from dragonante.interfaces.web.guard import BodyError, BodyLimit, json_object, read_body
from dragonante.interfaces.web.headers import SecurityHeaders
from dragonante.interfaces.web.hub import Hub, HubError, Settings
from dragonante.interfaces.web.limits import client_address
from dragonante.interfaces.web.names import NAME_MAX
from dragonante.interfaces.web.narration import LANGS, ability_name, ability_text, t
from dragonante.interfaces.web.openapi import schema as openapi_schema
from dragonante.interfaces.web.protocol import (
    MAX_MESSAGE,
    PROTOCOL_VERSION,
    Answer,
    Chat,
    HandToBot,
    Hello,
    Lang,
    Ping,
    ProtocolError,
    Sync,
    error,
    parse,
)
from dragonante.interfaces.web.tables import LiveTable
from dragonante.interfaces.web.turns import TURN_MAX
from dragonante.interfaces.web.writer import Writer

STATIC = Path(__file__).resolve().parent / "static"
#: Seconds a new connection has to say hello.
HELLO_TIMEOUT = 10.0
#: Refused messages in a row before a connection is closed.
MAX_STRIKES = 50
#: Close codes of sockets refused by a limit (RFC 6455): an address over its
#: socket cap breaks a policy (1008); a rate limit or a full server passes (1013).
WS_POLICY = 1008
WS_TRY_LATER = 1013
#: Close code for a connection to a table that expired (or expires) unstarted.
WS_EXPIRED = 4410

log = logging.getLogger("dragonante.web")

#: Gold per player of the Pure Roleplay "Play for fun" preset (L Appendix 5).
PLAY_FOR_FUN_GOLD = 8
#: How the lobby lets a table give abilities (``fixed`` lists are a game-master's
#: notes: the command line and scenarios have them, the lobby form does not).
LOBBY_ASSIGNMENTS = ("random", "draft")


@cache
def cards_json() -> bytes:
    """Every card with its texts in every language (the client caches it)."""
    out = []
    for c in ALL_CARDS:
        ty = c.type
        out.append(
            {
                "n": c.index,
                "id": c.id,
                "key": ty.key,
                "set": ty.set,
                "kind": ty.kind,
                "alignment": ty.alignment,
                "colors": list(ty.colors),
                "strength": c.strength,
                "name": {lang: ty.name(lang) for lang in LANGS},
                "type_line": {lang: ty.type_line(lang) for lang in LANGS},
                "power": {lang: ty.text(lang) for lang in LANGS},
                "dragon_god": {lang: ty.dragon_god_text(lang) for lang in LANGS},
                "ante_effect": {lang: ty.ante_effect_text(lang) for lang in LANGS},
                "explanation": {
                    lang: ty.explanations.get(lang) or ty.explanations.get("en") or []
                    for lang in LANGS
                },
            }
        )
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode()


def abilities_json() -> list[dict[str, Any]]:
    """Every D&D ability (public rule text): number, key, system, kind, and its
    name and rule text in every language (the client caches it like the cards)."""
    return [
        {
            "n": a.id,
            "key": a.key,
            "system": a.system,
            "kind": a.kind,
            "name": {lang: ability_name(a.id, lang) for lang in LANGS},
            "text": {lang: ability_text(a.id, lang) for lang in LANGS},
        }
        for a in ABILITIES
    ]


def _default(settings: Settings, name: str, choices: tuple[str, ...]) -> str:
    """A lobby default of the server's (``serve --abilities``, ``--ability-visibility``):
    one of ``choices``, or "" (none / the book's)."""
    value = getattr(settings, name, "")
    return value if isinstance(value, str) and value in choices else ""


def rule_switches() -> list[dict[str, Any]]:
    """Every rule switch of the engine (``Rules``, the ruleset aside) as the lobby
    offers it: ``bool``, ``int`` (with its least value) or ``choice``."""
    out: list[dict[str, Any]] = []
    for f in fields(Rules):
        if f.name == "ruleset":
            continue
        default = getattr(Rules(), f.name)
        if isinstance(default, bool):
            out.append({"key": f.name, "kind": "bool"})
        elif isinstance(default, int):
            least = -1 if f.name == "strength_flight_ante_cards" else 0
            out.append({"key": f.name, "kind": "int", "min": least})
        else:
            out.append({"key": f.name, "kind": "choice", "choices": list(RULE_CHOICES[f.name])})
    return out


def meta(settings: Settings | None = None) -> dict[str, Any]:
    """What the lobby form offers: rulesets, decks, selections, bots, languages,
    the D&D ability options, and the server's defaults for a new table."""
    settings = settings or Settings()
    return {
        "defaults": {
            "ruleset": settings.default_ruleset,
            "preset": settings.default_preset,
            "abilities": _default(settings, "default_abilities", SYSTEMS),
            "ability_visibility": _default(settings, "default_ability_visibility", VISIBILITIES),
        },
        "version": __version__,
        "protocol": PROTOCOL_VERSION,
        "rules_version": RULES_VERSION,
        "rulesets": list(RULESETS),
        "rule_switches": rule_switches(),
        "ruleset_rules": {r: asdict(Rules.preset(r)) for r in RULESETS},
        "presets": [p for p in PRESETS if p != "custom"],
        "preset_help": PRESET_HELP,
        "selections": list(SELECTIONS),
        "gold_choices": list(GOLD_CHOICES),
        "play_for_fun_gold": PLAY_FOR_FUN_GOLD,
        "abilities": {
            "systems": list(SYSTEMS),
            "assign": list(LOBBY_ASSIGNMENTS),
            "visibility": list(VISIBILITIES),
            "per_character": {
                system: {"default": DEFAULT_PER_CHARACTER[system], "max": MAX_PER_CHARACTER[system]}
                for system in SYSTEMS
            },
        },
        "players": [2, 3, 4, 5, 6],
        "bots": bot_names(),
        "levels": list(LEVELS) or bot_names(),
        "langs": list(LANGS),
        "name_max": NAME_MAX,
        "max_message": MAX_MESSAGE,
        "chat_max": CHAT_MAX,
        "turn_timer": {"min": settings.turn_min, "max": TURN_MAX},
    }


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read as a capped stream (``guard.read_body``)."""
    try:
        return json_object(await read_body(request))
    except BodyError as e:
        raise HubError(e.code, e.detail, e.status) from None


async def _table_body(
    request: Request, code: str, who: str | None = None
) -> tuple[LiveTable, dict[str, Any]]:
    """A table endpoint's table and body: the table is looked up, and ``who``
    (``manager``: the host or a seated person; ``host``) checked against the
    bearer token, before a byte of the body is read, so a request refused
    anyway costs no read (issue 22, hole 3).  The hub checks again under the
    table's lock; this is only the cheap early refusal."""
    table = await hub_of(request).table(code)
    token = _token(request)
    if who == "manager" and not (table.may_manage(token) or table.is_host(token)):
        raise HubError("forbidden", "only the table's host or a seated player may do this", 403)
    if who == "host" and not table.is_host(token):
        raise HubError("forbidden", "only the table's host may do this", 403)
    return table, await _body(request)


def hub_of(request: Request | WebSocket) -> Hub:
    """The app's hub (made at start-up)."""
    hub: Hub = request.app.state.hub
    return hub


def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


def _int_param(request: Request, name: str, default: int | None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise HubError("bad_param", f"{name} must be an integer") from None


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
    one of several sharing a PostgreSQL database (``web/cluster.py``).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        writer = Writer(engine if engine is not None else open_database(db))
        hub = Hub(writer, settings)
        member = Cluster(hub, app, cluster) if cluster is not None else None
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
            writer.close()

    app = FastAPI(
        title="dragonante",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )

    @app.exception_handler(RequestValidationError)
    async def bad_param(_request: Request, e: RequestValidationError) -> JSONResponse:
        # A path or query value of the wrong type (``/seats/x``): our error
        # body, not FastAPI's 422 list, so every refusal has one shape.
        where = ".".join(str(p) for p in (e.errors()[0].get("loc") or ())) if e.errors() else ""
        return JSONResponse(
            {"error": "bad_param", "detail": f"{where or 'a parameter'} has the wrong type"},
            status_code=400,
        )

    @app.exception_handler(HubError)
    async def hub_error(_request: Request, e: HubError) -> JSONResponse:
        headers = {"Retry-After": str(e.retry_after)} if e.retry_after is not None else None
        return JSONResponse(
            {"error": e.code, "detail": e.detail}, status_code=e.status, headers=headers
        )

    def address(request: Request | WebSocket) -> str:
        peer = request.client.host if request.client else None
        return client_address(peer, request.headers, hub_of(request).trusted)

    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(index)

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return FileResponse(index)

    @app.get("/r/{code}", include_in_schema=False)
    async def replay_page(code: str) -> FileResponse:
        return FileResponse(index)

    @app.get("/api/openapi.json", include_in_schema=False)
    async def api_openapi() -> dict[str, Any]:
        return openapi_schema()

    @app.get("/api/meta")
    async def api_meta(request: Request) -> dict[str, Any]:
        return meta(request.app.state.hub.settings)

    @app.get("/api/cards")
    async def api_cards() -> Response:
        return Response(
            cards_json(),
            media_type="application/json",
            headers={"Cache-Control": "public, max-age=3600"},
        )

    @app.get("/api/abilities")
    async def api_abilities() -> list[dict[str, Any]]:
        return abilities_json()

    @app.get("/api/stats")
    async def api_stats(request: Request) -> dict[str, Any]:
        return hub_of(request).stats()

    @app.get("/api/tables")
    async def api_tables(request: Request) -> dict[str, Any]:
        return hub_of(request).live()

    @app.post("/api/tables", status_code=201)
    async def api_create(request: Request) -> dict[str, Any]:
        hub_of(request).check_rate("tables", address(request))
        body = await _body(request)
        table, host, gm = await hub_of(request).create_table(
            body.get("config", {}), body.get("turn_seconds"), body.get("unlisted", False)
        )
        made: dict[str, Any] = {"code": table.code, "host_token": host, "table": table.summary()}
        if gm is not None:
            made["gm_token"] = gm
        return made

    @app.get("/api/tables/{code}")
    async def api_table(code: str, request: Request) -> dict[str, Any]:
        table = await hub_of(request).table(code)
        return table.summary()

    @app.post("/api/tables/{code}/seats", status_code=201)
    async def api_take_seat(code: str, request: Request) -> dict[str, Any]:
        hub_of(request).check_rate("seats", address(request))
        _, body = await _table_body(request, code)
        seat, token = await hub_of(request).take_seat(
            code, body.get("seat"), body.get("name"), _token(request), address(request)
        )
        return {"seat": seat, "token": token}

    @app.delete("/api/tables/{code}/seats/{seat}")
    async def api_leave(code: str, seat: int, request: Request) -> dict[str, Any]:
        hub_of(request).check_rate("manage", address(request))
        await hub_of(request).remove_seat(code, _token(request), seat)
        return {"ok": True}

    @app.post("/api/tables/{code}/bots", status_code=201)
    async def api_bots(code: str, request: Request) -> dict[str, Any]:
        hub_of(request).check_rate("manage", address(request))
        _, body = await _table_body(request, code, "manager")
        fill = body.get("fill", False)
        if not isinstance(fill, bool):
            raise HubError("bad_field", "fill must be true or false")
        seats = await hub_of(request).add_bots(
            code, _token(request), body.get("seat"), body.get("level"), fill
        )
        return {"seats": seats}

    @app.post("/api/tables/{code}/listing")
    async def api_listing(code: str, request: Request) -> dict[str, Any]:
        _, body = await _table_body(request, code, "host")
        await hub_of(request).set_listing(code, _token(request), body.get("unlisted"))
        return {"ok": True}

    @app.delete("/api/tables/{code}/bans")
    async def api_clear_bans(code: str, request: Request) -> dict[str, Any]:
        await hub_of(request).clear_bans(code, _token(request))
        return {"ok": True}

    @app.post("/api/tables/{code}/start")
    async def api_start(code: str, request: Request) -> dict[str, Any]:
        hub_of(request).check_rate("manage", address(request))
        await hub_of(request).start(code, _token(request))
        return {"ok": True}

    @app.post("/api/tables/{code}/mute")
    async def api_mute(code: str, request: Request) -> dict[str, Any]:
        hub_of(request).check_rate("manage", address(request))
        _, body = await _table_body(request, code, "host")
        return await hub_of(request).social.mute(code, _token(request), body)

    @app.post("/api/tables/{code}/rematch")
    async def api_rematch(code: str, request: Request, response: Response) -> dict[str, Any]:
        hub = hub_of(request)
        hub.check_rate("tables", address(request))
        table, made, given = await hub.social.rematch(code, _token(request))
        response.status_code = 201 if made else 200
        return {"code": table.code, "table": table.summary(), **given}

    @app.get("/api/games")
    async def api_games(request: Request) -> dict[str, Any]:
        limit = _int_param(request, "limit", 50)
        offset = _int_param(request, "offset", 0)
        if limit is None or offset is None or not 1 <= limit <= 200 or offset < 0:
            raise HubError("bad_param", "limit is 1-200 and offset at least 0")
        return {"games": await hub_of(request).finished(limit, offset)}

    @app.get("/api/games/{code}/replay")
    async def api_replay(code: str, request: Request) -> Response:
        hub_of(request).check_rate("replays", address(request))
        step = _int_param(request, "step", 0)
        seat = _int_param(request, "seat", None)
        lang = request.query_params.get("lang", "en")
        gm = request.query_params.get("gm", "") in ("1", "true")
        text = await hub_of(request).replay(code, step, seat, lang, gm)
        return Response(text, media_type="application/json")

    @app.get("/api/games/{code}/record")
    async def api_record(code: str, request: Request) -> JSONResponse:
        record = await hub_of(request).record(code)
        return JSONResponse(
            record,
            headers={"Content-Disposition": f'attachment; filename="dragonante-{code}.json"'},
        )

    @app.websocket("/ws/{code}")
    async def ws(websocket: WebSocket, code: str) -> None:
        hub = hub_of(websocket)
        where = address(websocket)
        await websocket.accept()
        # Refused before the hello is even read: a refusal costs no lookup.
        try:
            hub.check_rate("sockets", where)
        except HubError as e:
            await _close(websocket, WS_TRY_LATER, e.code)
            return
        why = hub.sockets.open(where)
        if why is not None:
            hub.refused[why] = hub.refused.get(why, 0) + 1
            await _close(websocket, WS_TRY_LATER if why == "server_full" else WS_POLICY, why)
            return
        try:
            await serve_socket(hub, websocket, code)
        finally:
            hub.sockets.close(where)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    if cluster is not None:
        app.add_middleware(ClusterRouter)
    app.add_middleware(BodyLimit)  # an oversized body is refused before any routing
    app.add_middleware(SecurityHeaders)  # outermost: relayed answers carry them too
    return app


async def _receive(websocket: WebSocket) -> str | bytes | None:
    """The next frame's payload, or None when the client has gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else b""


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    if websocket.application_state == WebSocketState.CONNECTED:
        with suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close(code=code, reason=reason)


async def _refuse(websocket: WebSocket, e: ProtocolError, lang: str, close: int) -> None:
    try:
        await websocket.send_text(json.dumps(error(e, t(lang, f"error.{e.code}"))))
    except (RuntimeError, WebSocketDisconnect):
        return
    await _close(websocket, close, e.code)


async def serve_socket(hub: Hub, websocket: WebSocket, code: str) -> None:
    """One connection's life: hello (token or spectator), then answers until it closes."""
    try:
        first = await asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect):
        await _close(websocket, 4408, "no hello")
        return
    if first is None:
        return
    try:
        hello = parse(first)
        if not isinstance(hello, Hello):
            raise ProtocolError("hello_first", "the first message must be a hello")
    except ProtocolError as e:
        await _refuse(websocket, e, "en", 4400)
        return

    async def send(text: str) -> None:
        await websocket.send_text(text)

    try:
        client = await hub.connect(code, hello.token, hello.lang, send)
    except ProtocolError as e:
        await _refuse(websocket, e, hello.lang, 4401)
        return
    except HubError as e:
        close = WS_EXPIRED if e.code == "expired" else 4404
        await _refuse(websocket, ProtocolError(e.code, e.detail), hello.lang, close)
        return
    peer = websocket.client.host if websocket.client else None
    client.address = client_address(peer, websocket.headers, hub.trusted)

    async def pump() -> None:
        with suppress(RuntimeError, WebSocketDisconnect, OSError):
            await client.pump()
        if client.overflowed:
            await _close(websocket, 4429, "too slow")
        elif client.close_code is not None:
            await _close(websocket, *client.close_code)

    pump_task = asyncio.create_task(pump())
    strikes = 0
    try:
        while True:
            try:
                frame = await _receive(websocket)
            except (WebSocketDisconnect, RuntimeError):
                break
            if frame is None or client.overflowed or client.close_code is not None:
                break
            try:
                if not client.allow():
                    raise ProtocolError("busy", "too many messages; slow down")
                msg = parse(frame)
                if isinstance(msg, Answer):
                    await hub.answer(client, msg.decision, msg.answer)
                elif isinstance(msg, Lang):
                    await hub.set_lang(client, msg.lang)
                elif isinstance(msg, Sync):
                    await hub.sync(client, msg.since)
                elif isinstance(msg, Ping):
                    client.push_json({"type": "pong"})
                elif isinstance(msg, HandToBot):
                    await hub.hand_to_bot(client, msg.seat)
                elif isinstance(msg, Chat):
                    await hub.social.post(client, msg.text)
                else:
                    raise ProtocolError("bad_type", "already connected: hello only comes first")
                strikes = 0
            except ProtocolError as e:
                strikes += 1
                client.push_json(error(e, t(client.lang, f"error.{e.code}")))
                if strikes >= MAX_STRIKES:
                    break
    finally:
        hub.disconnect(client)
        try:
            await asyncio.wait_for(pump_task, 5)
        except (TimeoutError, asyncio.CancelledError):
            pump_task.cancel()
        await _close(websocket, 1000, "bye")
