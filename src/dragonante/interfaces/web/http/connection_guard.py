"""The HTTP connection itself, guarded: bounded request heads, a deadline, a cap per address.

The limits in :mod:`.limits` and :mod:`.guard` act once a request has reached
the app.  Below them, uvicorn's HTTP protocol reads whatever a client sends
for as long as it likes: an audit (issue 32, holes 1 and 2) found that

* a request head has no size limit: httptools buffers a header it has not
  seen the end of, so three connections each sending a never-finished
  100 MB header stalled every table for 65 s, and one 300 MB header kept
  458 MB of memory after its connection closed;
* a connection that never finishes its request is never closed (a header
  line every few seconds, or nothing at all): 1,100 such connections from
  3 addresses used up the usual file-descriptor limit and locked every new
  client out.

:class:`GuardedHttp` is uvicorn's httptools protocol with three checks,
each decided before the parser or the app sees a byte:

* the request line and headers of a request may take at most
  ``max_head_bytes``; past that the client gets **431** and the connection
  is closed, so at most that much (plus one read) is ever buffered;
* they must arrive within ``head_timeout`` seconds of the connection (or of
  the previous response): a client that dawdles gets **408** and is closed;
* one address (an IPv6 client by its /64, as :func:`.limits.limit_key`
  counts) may hold at most ``per_address`` connections at once, WebSockets
  included; the next one is answered **503** and closed at accept.  A
  trusted proxy's own address is not capped (every client behind it shares
  it); the proxy must cap them (``docs/security.md`` has the recipe).

Each server gets its own subclass with its limits and its census
(:func:`protocol_for`); ``serve --workers N``, whose processes uvicorn starts
by import string, names :data:`IMPORT_PATH` instead and each worker sets the
limits of that class from its configuration (:func:`configure`).
:func:`transport_options` is the whole of how uvicorn carries a server's
connections (this guard, the pings, the frame and keep-alive limits).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import weakref
from dataclasses import dataclass
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from dragonante.interfaces.web.shared.limits import limit_key, parse_networks
from dragonante.interfaces.web.shared.protocol import PING_SECONDS, TRANSPORT_MAX

LOG = logging.getLogger("dragonante.web")

#: uvicorn's ``http=`` value for :class:`GuardedHttp` (``serve --workers``).
IMPORT_PATH = "dragonante.interfaces.web.http.connection_guard:GuardedHttp"

_END_OF_HEAD = b"\r\n\r\n"


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """What one HTTP connection may cost (``serve --max-header-bytes`` and friends)."""

    #: Largest request line plus headers (bytes).  Browsers send well under
    #: 2 KiB to this server (it sets no cookies); nginx's own default is 8 KiB
    #: a line.
    max_head_bytes: int = 8192
    #: Seconds a request head may take to arrive.
    head_timeout: float = 10.0
    #: Connections one address may hold at once (0: no cap).  Above the
    #: per-address WebSocket cap (40) plus a browser's few HTTP connections.
    per_address: int = 64
    #: Peers not capped: the ``--trusted-proxy`` addresses or networks.
    trusted_proxies: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.max_head_bytes < 1024:
            raise ValueError("max_head_bytes must be at least 1024")
        if self.head_timeout <= 0:
            raise ValueError("head_timeout must be positive")
        if self.per_address < 0:
            raise ValueError("per_address must be 0 (no cap) or more")
        parse_networks(self.trusted_proxies)


def _response(status: bytes) -> bytes:
    body = status.split(b" ", 1)[1]
    return (
        b"HTTP/1.1 " + status + b"\r\n"
        b"content-type: text/plain; charset=utf-8\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\n"
        b"connection: close\r\n\r\n" + body
    )


TOO_LARGE = _response(b"431 Request Header Fields Too Large")
TOO_SLOW = _response(b"408 Request Timeout")
TOO_MANY = _response(b"503 Too many connections from your address")


class _Census:
    """The open connections of each address (weakly held: a closed one is dropped)."""

    def __init__(self) -> None:
        self._open: dict[str, weakref.WeakSet[asyncio.BaseTransport]] = {}

    def admit(self, key: str, transport: asyncio.BaseTransport, cap: int) -> bool:
        """Count ``transport`` under ``key`` unless ``key`` already holds ``cap``."""
        held = self._open.get(key)
        if held is None:
            held = self._open[key] = weakref.WeakSet()
        else:
            for t in [t for t in held if t.is_closing()]:
                held.discard(t)
        if len(held) >= cap:
            return False
        held.add(transport)
        if len(self._open) > 4 * cap + 1024:
            self._sweep()
        return True

    def count(self, key: str) -> int:
        held = self._open.get(key)
        return 0 if held is None else sum(1 for t in held if not t.is_closing())

    def _sweep(self) -> None:
        for key in [
            k for k, held in self._open.items() if not any(not t.is_closing() for t in held)
        ]:
            del self._open[key]


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a bounded, timed request head and a cap per address."""

    limits: ClassVar[ConnectionLimits] = ConnectionLimits()
    census: ClassVar[_Census] = _Census()
    _trusted: ClassVar[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True
        self._head_bytes = 0
        self._tail = b""
        self._deadline: asyncio.TimerHandle | None = None

    # --- the connection ---------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        cap = self.limits.per_address
        peer = self.client[0] if self.client is not None else None
        capped = bool(cap) and peer is not None and not self._is_trusted(peer)
        if capped and peer is not None and not self.census.admit(limit_key(peer), transport, cap):
            LOG.warning("refused a connection from %s: %d open", peer, cap)
            self._refuse(TOO_MANY)
            return
        self._arm_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._in_head and not self.transport.is_closing():
            seen = self._tail + data
            end = seen.find(_END_OF_HEAD)
            size = self._head_bytes + (len(data) if end < 0 else end + 4 - len(self._tail))
            if size > self.limits.max_head_bytes:
                self._refuse(TOO_LARGE)
                return
            self._head_bytes += len(data)
            self._tail = seen[-3:]
        super().data_received(data)

    # --- the parser's milestones ------------------------------------------------

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head_bytes = 0
        self._tail = b""
        self._disarm_deadline()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head = True  # whatever comes next is the next request's head

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._in_head and not self.transport.is_closing():
            self._arm_deadline()

    # --- helpers ----------------------------------------------------------------

    def _arm_deadline(self) -> None:
        self._disarm_deadline()
        self._deadline = self.loop.call_later(self.limits.head_timeout, self._too_slow)

    def _disarm_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self._in_head and not self.transport.is_closing():
            self._refuse(TOO_SLOW)

    def _refuse(self, response: bytes) -> None:
        self._disarm_deadline()
        self._in_head = False
        self.transport.write(response)
        self.transport.close()

    @classmethod
    def _is_trusted(cls, address: str) -> bool:
        if not cls._trusted:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in cls._trusted)


def protocol_for(limits: ConnectionLimits) -> type[GuardedHttp]:
    """A :class:`GuardedHttp` of one server: its own limits and its own census."""
    attrs = {
        "limits": limits,
        "census": _Census(),
        "_trusted": parse_networks(limits.trusted_proxies),
    }
    return type("GuardedHttp", (GuardedHttp,), attrs)


def configure(limits: ConnectionLimits) -> None:
    """Set the limits of :data:`IMPORT_PATH`'s class in this process (a ``--workers`` process)."""
    GuardedHttp.limits = limits
    GuardedHttp._trusted = parse_networks(limits.trusted_proxies)


def transport_options(
    host: str,
    port: int,
    log_level: str = "info",
    compression: bool = False,
    limits: ConnectionLimits | None = None,
    by_name: bool = False,
) -> dict[str, Any]:
    """How uvicorn carries the sockets (``serve``, and the tests' live server).

    ``compression``: negotiate permessage-deflate when the browser offers it.
    Off by default: a frame is a seat's whole view (~1.3 kB), and deflating
    each one for each socket took ~10 % of the server's CPU at a thousand
    tables, plus a zlib state per socket (``docs/web.md``, "Compression").

    Every connection goes through :class:`GuardedHttp` with ``limits``
    (bounded request heads, a deadline, a cap per address).  ``by_name``:
    the protocol is named by import path, for ``--workers`` processes, which
    set its limits themselves (:func:`configure`).
    """
    http: Any = IMPORT_PATH if by_name else protocol_for(limits or ConnectionLimits())
    return {
        "http": http,
        # uvicorn's own keep-alive: an idle connection between requests.
        "timeout_keep_alive": 5,
        "host": host,
        "port": port,
        "ws_max_size": TRANSPORT_MAX,
        "log_level": log_level,
        "ws_ping_interval": PING_SECONDS,
        "ws_ping_timeout": PING_SECONDS,
        # uvicorn would otherwise believe X-Forwarded-For from any loopback
        # peer and rewrite the client address the limits count; the server
        # decides itself, from --trusted-proxy (``limits.client_address``).
        "proxy_headers": False,
        "ws_per_message_deflate": compression,
        # uvicorn's WebSocket protocol with the client's pings counted (``pings.py``)
        "ws": "dragonante.interfaces.web.http.pings:GuardedWebSockets",
    }
