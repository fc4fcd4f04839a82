"""The WebSocket: one per seat or spectator (``docs/protocol.md``).

A socket is refused before its hello is read when its address is over its
rate or socket cap; then it must say hello (a seat's token, or none to
watch) within :data:`HELLO_TIMEOUT`, and every message after that is
parsed, rate-limited and handed to the hub.  Refusals are error frames;
:data:`MAX_STRIKES` of them in a row close the socket.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import suppress

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from dragonante.interfaces.web.http import pings
from dragonante.interfaces.web.http.routes.common import address, hub_of
from dragonante.interfaces.web.hub import Hub
from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.shared.narration import t
from dragonante.interfaces.web.shared.protocol import (
    Answer,
    AskHint,
    Chat,
    HandToBot,
    Hello,
    Lang,
    Ping,
    ProtocolError,
    Sync,
    TakeBack,
    error,
    parse,
)

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

router = APIRouter()


@router.websocket("/ws/{code}")
async def ws(websocket: WebSocket, code: str) -> None:
    hub = hub_of(websocket)
    where = address(websocket)
    if not await admitted(hub, websocket, where, lookup=True):  # the path names a table
        return
    try:
        await serve_socket(hub, websocket, code)
    finally:
        hub.sockets.close(where)


async def admitted(hub: Hub, websocket: WebSocket, where: str, lookup: bool) -> bool:
    """Accept a socket, and close it at once if ``where`` is over its socket
    rate (and, with ``lookup``, its lookups by code) or socket cap: refused
    before its first message is even read, so a refusal costs nothing.
    True: it is open and counted (the caller closes the count)."""
    await websocket.accept()
    try:
        hub.check_rate("sockets", where)
        if lookup:
            hub.check_lookup(where)
    except HubError as e:
        await close_socket(websocket, WS_TRY_LATER, e.code)
        return False
    why = hub.sockets.open(where)
    if why is not None:
        hub.refused[why] = hub.refused.get(why, 0) + 1
        await close_socket(websocket, WS_TRY_LATER if why == "server_full" else WS_POLICY, why)
        return False
    return True


async def receive(websocket: WebSocket) -> str | bytes | None:
    """The next frame's payload, or None when the client has gone (counted in
    ``/api/stats`` when the transport closed it for its pings: ``pings.py``)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        if message.get("reason") == pings.CLOSE_REASON:
            hub_of(websocket).count_refusal("pings")
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else b""


async def close_socket(websocket: WebSocket, code: int, reason: str) -> None:
    if websocket.application_state == WebSocketState.CONNECTED:
        with suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close(code=code, reason=reason)


async def refuse(websocket: WebSocket, e: ProtocolError, lang: str, close: int) -> None:
    try:
        await websocket.send_text(json.dumps(error(e, t(lang, f"error.{e.code}"))))
    except (RuntimeError, WebSocketDisconnect):
        return
    await close_socket(websocket, close, e.code)


async def serve_socket(hub: Hub, websocket: WebSocket, code: str) -> None:
    """One connection's life: hello (token or spectator), then answers until it closes."""
    try:
        first = await asyncio.wait_for(receive(websocket), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect):
        await close_socket(websocket, 4408, "no hello")
        return
    if first is None:
        return
    try:
        hello = parse(first)
        if not isinstance(hello, Hello):
            raise ProtocolError("hello_first", "the first message must be a hello")
    except ProtocolError as e:
        await refuse(websocket, e, "en", 4400)
        return

    async def send(text: str) -> None:
        await websocket.send_text(text)

    try:
        client = await hub.connect(code, hello.token, hello.lang, send, hello.key)
    except ProtocolError as e:
        await refuse(websocket, e, hello.lang, 4401)
        return
    except HubError as e:
        if e.code == "unknown_table":
            hub.missed(address(websocket))
        close = WS_EXPIRED if e.code == "expired" else 4404
        await refuse(websocket, ProtocolError(e.code, e.detail), hello.lang, close)
        return
    client.address = address(websocket)

    async def pump() -> None:
        with suppress(RuntimeError, WebSocketDisconnect, OSError):
            await client.pump()
        if client.overflowed:
            await close_socket(websocket, 4429, "too slow")
        elif client.close_code is not None:
            await close_socket(websocket, *client.close_code)

    pump_task = asyncio.create_task(pump())
    strikes = 0
    try:
        while True:
            try:
                frame = await receive(websocket)
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
                elif isinstance(msg, AskHint):
                    await hub.hints.ask(client, msg.decision)
                elif isinstance(msg, TakeBack):
                    await hub.take_back(client)
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
        await close_socket(websocket, 1000, "bye")
