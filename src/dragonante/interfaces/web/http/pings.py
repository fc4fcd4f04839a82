"""WebSocket control frames, bounded: a client flooding pings is closed.

uvicorn's WebSocket protocol answers every ping itself, below the app: the
``websockets`` parser queues the pong as it reads the ping, and uvicorn
writes it out at once.  A data frame stops the reading until the app has
taken it, and the app's per-connection allowance counts it
(``Client.allow``, ``--max-rate``); a ping does neither, so a client could
send pings as fast as its link allows, each one parsed and answered, and
the pongs pile up in the server's memory when it does not read them
(issue 32, hole 4).

:class:`GuardedWebSockets` is uvicorn's protocol with a token bucket per
connection for the control frames a client sends (pings and pongs): a
burst of :data:`CONTROL_BURST`, refilled over :data:`CONTROL_WINDOW`
seconds.  A client that asks for more is closed with 1008 (``too many
pings``) before its excess is answered.  Browsers never send pings, and a
``websockets`` client sends one every 20 s; the server's own keep-alive
pings (``protocol.PING_SECONDS``) are answered by one pong each.  ``serve``
and the tests' server use it (``connection_guard.transport_options``).
"""

from __future__ import annotations

import logging

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import ProtocolError
from websockets.frames import Frame, Opcode

from dragonante.interfaces.web.shared.limits import RateLimiter

log = logging.getLogger("dragonante.web")

#: Control frames (pings and pongs) a connection may send at once ...
CONTROL_BURST = 20
#: ... and then that many per this many seconds (one a second).
CONTROL_WINDOW = 20.0
#: Close code and reason for a connection over it (RFC 6455: a policy broken).
CLOSE_CODE = 1008
CLOSE_REASON = "too many pings"


class GuardedWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, with the client's control frames counted.

    The count is taken where ``websockets`` reads each frame
    (``ServerProtocol.recv_frame``, wrapped on this connection's parser), so
    a flood in one read is stopped at the first frame over the bucket: that
    ping gets no pong, the connection is failed with 1008, and uvicorn's own
    path for a refused frame (``handle_parser_exception``) sends the close,
    tells the app and drops the connection.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.controls = RateLimiter(CONTROL_BURST, CONTROL_WINDOW, clock=self.loop.time)
        read = self.conn.recv_frame

        def recv_frame(frame: Frame) -> None:
            if frame.opcode in (Opcode.PING, Opcode.PONG) and self.controls.hit("") > 0:
                peer = self.client[0] if self.client else "?"
                log.warning("WebSocket from %s closed: over %d pings at once", peer, CONTROL_BURST)
                self.conn.fail(CLOSE_CODE, CLOSE_REASON)
                raise ProtocolError(CLOSE_REASON)  # the parser stops here
            read(frame)

        self.conn.recv_frame = recv_frame  # type: ignore[method-assign]
