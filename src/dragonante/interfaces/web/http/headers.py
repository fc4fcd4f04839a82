"""The security headers every HTTP response carries, as a plain ASGI middleware.

Starlette's ``@app.middleware("http")`` (``BaseHTTPMiddleware``) runs each
request in an anyio task group and left a reference cycle behind for every
request with a body (task group, cancel scope, a cancelled error with its
traceback: ``tests/web/test_headers.py``); the load test sends six per
table.  The garbage collector must find those; the server freezes the
survivors of full collections (``stats.GcWatch``), so such cycles pile up
until a collection that examines the whole heap, the longest pause there
is.  Adding headers to the ``http.response.start`` message needs none of
that machinery.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: What the pages may load: only the server's own scripts, styles and sockets.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)

#: Headers of every response (names in lower case, as ASGI sends them).
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)

#: The client's files are revalidated on every load, so an upgrade shows at once.
NO_CACHE = (b"cache-control", b"no-cache")


class SecurityHeaders:
    """Sets :data:`SECURITY_HEADERS` (replacing any the app set) on every HTTP
    response, and ``Cache-Control: no-cache`` on ``/static/`` files."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith("/static/")
        replaced = {name for name, _ in SECURITY_HEADERS}
        if static:
            replaced.add(NO_CACHE[0])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [
                    (name, value)
                    for name, value in message.get("headers", ())
                    if name.lower() not in replaced
                ]
                kept.extend(SECURITY_HEADERS)
                if static:
                    kept.append(NO_CACHE)
                message = {**message, "headers": kept}
            await send(message)

        await self.app(scope, receive, send_with_headers)
