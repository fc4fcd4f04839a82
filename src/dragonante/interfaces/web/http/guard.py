"""Request bodies read safely: refused by their announced size, read as a capped stream.

A lobby request is a small JSON object (a table's config is the largest,
well under a kilobyte).  Starlette's ``await request.body()`` reads
whatever arrives into memory before the route sees a byte of it, so one
300 MB POST to a table that does not exist raised the server's memory by
600 MB (issue 22, hole 3).  Here:

* :class:`BodyLimit` answers 413 to any request whose ``Content-Length``
  is over :data:`MAX_BODY` before the body is read (the client may still be
  sending it: the server never waits for it);
* :func:`read_body` reads a body without a length (chunked) chunk by chunk
  and stops at the cap;
* the routes look up the table and check the token before they read
  (``app.py``), so a request that would be refused anyway costs no read.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.types import ASGIApp, Receive, Scope, Send

#: Largest HTTP request body the lobby reads (bytes).
MAX_BODY = 16384


class BodyError(Exception):
    """A body refused before or while reading it: ``status``, ``code``, ``detail``."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail


def _too_large() -> BodyError:
    return BodyError(413, "too_large", f"request body over {MAX_BODY} bytes")


def announced_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The request's ``Content-Length`` (None when absent); BodyError if it is garbled."""
    for name, value in headers:
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            if not text.isdigit() or len(text) > 18:
                raise BodyError(400, "malformed", "the Content-Length header is not a number")
            return int(text)
    return None


class BodyLimit:
    """Refuse (413) an HTTP request announcing a body over :data:`MAX_BODY` at once."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            try:
                length = announced_length(scope.get("headers", []))
                if length is not None and length > MAX_BODY:
                    raise _too_large()
            except BodyError as e:
                await _answer(send, e)
                return
        await self.app(scope, receive, send)


async def _answer(send: Send, e: BodyError) -> None:
    body = json.dumps({"error": e.code, "detail": e.detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": e.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                # the unread body stays on the connection: it must not be reused
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def read_body(request: Request) -> bytes:
    """The request's body, read chunk by chunk: BodyError once it passes the cap
    (or when the client went away mid-body)."""
    if announced_length(list(request.scope.get("headers", []))) == 0:
        return b""
    parts: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise _too_large()
            parts.append(chunk)
    except ClientDisconnect:
        raise BodyError(400, "malformed", "the request body ended early") from None
    return b"".join(parts)


def json_object(raw: bytes) -> dict[str, Any]:
    """A body as a JSON object ({} when empty); BodyError otherwise."""
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise BodyError(400, "malformed", "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BodyError(400, "malformed", "the request body must be a JSON object")
    return data
