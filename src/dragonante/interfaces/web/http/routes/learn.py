"""The "Learn to play" socket: one tutorial per connection (``lessons.py``, ``docs/protocol.md``).

It passes every guard a table's socket does before anything is read (the
address's socket rate and cap), then the first message must be ``learn``
(the language and the saved answers) within the hello's time; starting the
lesson is a ``tables`` request of the address's rate limit and counts
against ``max_tables`` until the socket closes.  Its path names no table,
so in a cluster it is served where it lands: the lesson lives with its
socket, and a page that reconnects elsewhere rebuilds it from its answers.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import suppress

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from dragonante.interfaces.web.http.routes.common import address, hub_of
from dragonante.interfaces.web.http.routes.socket import (
    HELLO_TIMEOUT,
    MAX_STRIKES,
    WS_TRY_LATER,
    admitted,
    close_socket,
    receive,
    refuse,
)
from dragonante.interfaces.web.hub import Hub
from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.shared.narration import t
from dragonante.interfaces.web.shared.protocol import (
    Answer,
    Lang,
    Learn,
    Ping,
    ProtocolError,
    Replay,
    Restart,
    Sync,
    error,
    parse,
)
from dragonante.interfaces.web.tables.lessons import Lesson, LessonTable, begin
from dragonante.interfaces.web.tables.live import Client

#: The path: outside ``/ws/CODE``, so no cluster router takes it for a table.
PATH = "/learn/ws"

router = APIRouter()


@router.websocket(PATH)
async def learn_ws(websocket: WebSocket) -> None:
    hub = hub_of(websocket)
    where = address(websocket)
    if not await admitted(hub, websocket, where, lookup=False):  # no table named
        return
    try:
        await serve_lesson(hub, websocket, where)
    finally:
        hub.sockets.close(where)


async def _first(websocket: WebSocket) -> Learn | None:
    """The ``learn`` message that opens a lesson (None: the socket was refused)."""
    try:
        first = await asyncio.wait_for(receive(websocket), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect):
        await close_socket(websocket, 4408, "no hello")
        return None
    if first is None:
        return None
    try:
        msg = parse(first)
        if not isinstance(msg, Learn):
            raise ProtocolError("learn_first", "the first message must be learn")
    except ProtocolError as e:
        await refuse(websocket, e, "en", 4400)
        return None
    return msg


async def serve_lesson(hub: Hub, websocket: WebSocket, where: str) -> None:
    """One lesson's life: ``learn``, then answers, replays and restarts until it closes."""
    hello = await _first(websocket)
    if hello is None:
        return
    try:
        hub.check_rate("tables", where)
        hub.house.check_room()
    except HubError as e:
        await refuse(websocket, ProtocolError(e.code, e.detail), hello.lang, WS_TRY_LATER)
        return

    async def send(text: str) -> None:
        await websocket.send_text(text)

    tut, notes, resumed = await asyncio.to_thread(begin, hello.lang, hello.answers)
    st = hub.settings
    client = Client(LessonTable(tut), 0, hello.lang, send, st.max_queue, st.rate)
    client.address = where
    client.table.clients.add(client)  # its seat shows as connected, not away
    lesson = Lesson(tut, notes, client)
    hub.house.lessons.add(lesson)
    pump_task = asyncio.create_task(_pump(websocket, client))
    try:
        lesson.welcome(resumed)
        await _messages(websocket, lesson)
    finally:
        hub.house.lessons.discard(lesson)
        client.stop()
        try:
            await asyncio.wait_for(pump_task, 5)
        except (TimeoutError, asyncio.CancelledError):
            pump_task.cancel()
        await close_socket(websocket, 1000, "bye")


async def _pump(websocket: WebSocket, client: Client) -> None:
    with suppress(RuntimeError, WebSocketDisconnect, OSError):
        await client.pump()
    if client.overflowed:
        await close_socket(websocket, 4429, "too slow")


async def _messages(websocket: WebSocket, lesson: Lesson) -> None:
    """Every message after ``learn``, each parsed, rate-limited and played;
    a refusal is an ``error`` frame, :data:`MAX_STRIKES` in a row close the socket."""
    client = lesson.client
    strikes = 0
    while True:
        try:
            frame = await receive(websocket)
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame is None or client.overflowed:
            return
        try:
            if not client.allow():
                raise ProtocolError("busy", "too many messages; slow down")
            msg = parse(frame)
            if isinstance(msg, Answer):
                await lesson.answer(msg.decision, msg.answer)
            elif isinstance(msg, Replay):
                await lesson.replay()
            elif isinstance(msg, Restart):
                await lesson.restart()
            elif isinstance(msg, Lang):
                await lesson.set_lang(msg.lang)
            elif isinstance(msg, Sync):
                await lesson.sync()
            elif isinstance(msg, Ping):
                client.push_json({"type": "pong"})
            else:
                raise ProtocolError(
                    "bad_type", "a lesson takes answer, replay, restart, lang, sync and ping"
                )
            strikes = 0
        except ProtocolError as e:
            strikes += 1
            client.push(json.dumps(error(e, t(client.lang, f"error.{e.code}"))))
            if strikes >= MAX_STRIKES:
                return
