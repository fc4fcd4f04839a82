"""The relay: a request that reached a process not running its table, served by the owner.

Any process accepts any client.  When another live process owns the table a
request names, the whole ASGI conversation travels through the transport
(``transport.py``): the accepting process sends the request (or the
socket's frames) to the owner, which runs it through its own app as if the
client were connected to it, so token checks, rate limits and every refusal
are the owner's, with the client's real address.  A relayed socket is one
connection id between two processes: the owner's frames for it are the
frames of the seat whose token that socket presented, sent only to the one
process that holds that socket, which writes them only to that socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from dragonante.interfaces.web.cluster.transport import Kind, Transport

log = logging.getLogger("dragonante.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
#: Which process runs a table now (None: this one): ``Cluster.route``.
Route = Callable[[str], Awaitable[str | None]]

#: Frames queued for one relayed client before it is disconnected as too slow.
RELAY_QUEUE = 1000
#: Largest relayed HTTP request body (the app itself refuses far smaller ones).
MAX_RELAY_BODY = 65536
#: Close code sent to a client whose table moves to another process: reconnect.
SERVICE_RESTART = 1012
#: Paths naming a table: the requests that go to its owner.
TABLE_PATH = re.compile(r"^/(?:ws|api/tables|api/games)/([^/]{1,16})(?:/|$)")


def pack(scope: Scope) -> dict[str, Any]:
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


def unpack(d: dict[str, Any], app: Any) -> Scope:
    """The owner's ASGI scope for a relayed request (:func:`pack`'s inverse)."""
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


async def respond(send: Send, status: int, body: dict[str, Any]) -> None:
    """A whole JSON HTTP answer."""
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


class Relay:
    """Both sides of relayed requests and sockets, for one process."""

    def __init__(self, transport: Transport, app: Any, route: Route, timeout: float) -> None:
        self.transport = transport
        self.app = app
        self.route = route
        self.timeout = timeout
        #: The app below the router (set by ``ClusterRouter``): relayed
        #: requests run through it, never through the router again.
        self.inner: ASGIApp | None = None
        #: Sockets of clients here whose table another process runs, by id.
        self.relays: dict[str, _Relay] = {}
        #: Sockets of clients elsewhere whose table runs here, by id.
        self.remotes: dict[str, _Remote] = {}
        self.relayed_frames = 0
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._requests: set[asyncio.Task[None]] = set()
        transport.on_frame = self.on_frame
        transport.handlers.update(
            {
                Kind.HTTP_REQUEST: self._on_request,
                Kind.HTTP_REPLY: self._on_reply,
                Kind.SOCKET_OPEN: self._open_remote,
                Kind.SOCKET_ACCEPT: lambda m: self.to_relay(m["c"], {"type": "websocket.accept"}),
                Kind.SOCKET_CLOSE: self._on_close,
                Kind.SOCKET_IN: self._on_bytes,
                Kind.SOCKET_GONE: self._on_gone,
            }
        )

    def close_all(self) -> None:
        """This process leaves: every relayed socket, both sides, is told to reconnect."""
        for remote in list(self.remotes.values()):
            self.transport.post(
                remote.reply, {"k": Kind.SOCKET_CLOSE, "c": remote.cid, "code": SERVICE_RESTART}
            )
            remote.queue.put_nowait({"type": "websocket.disconnect", "code": SERVICE_RESTART})
        for relay in list(self.relays.values()):
            relay.queue.put_nowait({"type": "websocket.close", "code": SERVICE_RESTART})

    async def wait_remotes(self, timeout: float = 5) -> None:
        """Let the owner's side of relayed sockets end."""
        tasks = [r.task for r in self.remotes.values() if r.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    def close_to(self, alive: set[str]) -> None:
        """Close the relayed sockets to owners that are gone (clients reconnect)."""
        for relay in list(self.relays.values()):
            if relay.owner not in alive:
                relay.queue.put_nowait({"type": "websocket.close", "code": SERVICE_RESTART})

    # -------------------------------------------------------- receiving

    def on_frame(self, kind: Kind, cid: str, text: str) -> None:
        """A text frame: to our client (``FRAME_OUT``) or to the owner's app (``FRAME_IN``)."""
        if kind == Kind.FRAME_OUT:
            self.to_relay(cid, {"type": "websocket.send", "text": text})
            return
        remote = self.remotes.get(cid)
        if remote is not None:
            remote.queue.put_nowait({"type": "websocket.receive", "text": text})

    def to_relay(self, cid: str, message: Message) -> None:
        """An ASGI message for our client's relayed socket ``cid`` (too slow: closed)."""
        relay = self.relays.get(cid)
        if relay is None:
            return
        if relay.queue.qsize() >= RELAY_QUEUE:
            relay.queue.put_nowait({"type": "websocket.close", "code": 4429, "reason": "too slow"})
            return
        relay.queue.put_nowait(message)

    def _on_request(self, msg: dict[str, Any]) -> None:
        task = asyncio.create_task(self._serve_http(msg))
        self._requests.add(task)
        task.add_done_callback(self._requests.discard)

    def _on_reply(self, msg: dict[str, Any]) -> None:
        future = self._pending.pop(msg["c"], None)
        if future is not None and not future.done():
            future.set_result(msg)

    def _on_close(self, msg: dict[str, Any]) -> None:
        self.to_relay(
            msg["c"],
            {"type": "websocket.close", "code": msg.get("code", 1000), "reason": msg.get("r")},
        )

    def _on_bytes(self, msg: dict[str, Any]) -> None:
        remote = self.remotes.get(msg["c"])
        if remote is not None:
            raw = msg["b"].encode("latin-1")
            remote.queue.put_nowait({"type": "websocket.receive", "bytes": raw})

    def _on_gone(self, msg: dict[str, Any]) -> None:
        remote = self.remotes.get(msg["c"])
        if remote is not None:
            remote.queue.put_nowait({"type": "websocket.disconnect", "code": msg["code"]})

    # ------------------------------------------------------ the owner's side

    async def _serve_http(self, msg: dict[str, Any]) -> None:
        """Run a relayed lobby request through this process's app."""
        reply, cid = msg["r"], msg["c"]
        scope = unpack(msg["s"], self.app)
        match = TABLE_PATH.match(scope["path"])
        if match and await self.route(match.group(1)) is not None:
            self.transport.post(reply, {"k": Kind.HTTP_REPLY, "c": cid, "moved": True})
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

        try:
            assert self.inner is not None, "no app to run relayed requests in"
            await self.inner(scope, receive, send)
        except Exception:
            log.exception("cluster: relayed request failed")
            status, headers, chunks = 500, [], [b'{"error":"internal","detail":"server error"}']
        answer = {"k": Kind.HTTP_REPLY, "c": cid, "st": status, "h": headers}
        self.transport.post(reply, {**answer, "b": b"".join(chunks).decode("latin-1")})

    def _open_remote(self, msg: dict[str, Any]) -> None:
        """A client connected to another process for a table of ours: run its
        socket here; what the app sends goes back to that process only."""
        cid, reply = msg["c"], msg["r"]
        scope = unpack(msg["s"], self.app)
        remote = _Remote(cid, reply)
        remote.queue.put_nowait({"type": "websocket.connect"})
        self.remotes[cid] = remote
        post = self.transport.post

        async def send(message: Message) -> None:
            kind = message["type"]
            if kind == "websocket.send":
                text = message.get("text")
                if text is None:
                    text = bytes(message.get("bytes") or b"").decode("utf-8", "replace")
                self.relayed_frames += 1
                self.transport.frame(reply, Kind.FRAME_OUT, cid, text)
            elif kind == "websocket.accept":
                post(reply, {"k": Kind.SOCKET_ACCEPT, "c": cid})
            elif kind == "websocket.close":
                post(
                    reply,
                    {"k": Kind.SOCKET_CLOSE, "c": cid, "code": message.get("code", 1000),
                     "r": message.get("reason") or ""},
                )  # fmt: skip

        async def run() -> None:
            # Inside the try: a failure here must close the client's socket,
            # not leave it waiting for an accept that never comes.
            try:
                assert self.inner is not None, "no app to run relayed sockets in"
                match = TABLE_PATH.match(scope["path"])
                if match and await self.route(match.group(1)) is not None:
                    post(reply, {"k": Kind.SOCKET_CLOSE, "c": cid, "code": SERVICE_RESTART})
                    return
                await self.inner(scope, remote.queue.get, send)
            except Exception:
                log.exception("cluster: relayed socket failed")
                post(reply, {"k": Kind.SOCKET_CLOSE, "c": cid, "code": 1011})
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
                await respond(send, 413, {"error": "too_large", "detail": "request too large"})
                return True
            if not message.get("more_body"):
                break
        cid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[cid] = future
        request = {"k": Kind.HTTP_REQUEST, "c": cid, "r": self.transport.channel, "s": pack(scope)}
        self.transport.post(owner, {**request, "b": body.decode("latin-1")})
        try:
            answer = await asyncio.wait_for(future, self.timeout)
        except TimeoutError:
            await respond(
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
        post = self.transport.post
        post(
            owner, {"k": Kind.SOCKET_OPEN, "c": cid, "r": self.transport.channel, "s": pack(scope)}
        )
        gone = asyncio.Event()

        async def inbound() -> None:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    post(
                        owner, {"k": Kind.SOCKET_GONE, "c": cid, "code": message.get("code", 1000)}
                    )
                    gone.set()
                    # Wake the loop below: it may be waiting for a frame the
                    # owner will never send, and would hold the relay for ever.
                    relay.queue.put_nowait({"type": "relay.gone"})
                    return
                if message.get("text") is not None:
                    self.transport.frame(owner, Kind.FRAME_IN, cid, message["text"])
                else:
                    raw = bytes(message.get("bytes") or b"")
                    post(owner, {"k": Kind.SOCKET_IN, "c": cid, "b": raw.decode("latin-1")})

        reader: asyncio.Task[None] | None = None
        accepted = False
        try:
            while not gone.is_set():
                try:
                    timeout = None if accepted else self.timeout
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
                        post(owner, {"k": Kind.SOCKET_GONE, "c": cid, "code": message["code"]})
                    return
        except OSError:
            post(owner, {"k": Kind.SOCKET_GONE, "c": cid, "code": 1006})
        finally:
            self.relays.pop(cid, None)
            if reader is not None:
                reader.cancel()
                await asyncio.gather(reader, return_exceptions=True)
