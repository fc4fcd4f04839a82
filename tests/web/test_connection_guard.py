"""The HTTP connection below the app: bounded heads, a deadline, a cap per address.

Issue 32, holes 1 and 2, reproduced against a real server over raw sockets:
a request head that never ends (it used to be buffered for ever: 300 MB of
header kept 458 MB of memory, three such connections stalled every table
for a minute), and connections that never finish a request (1,100 of them
from three addresses used up the file descriptors).  Each test states what
a client must see; without ``connection_guard`` every one of them fails
(the server waits for the end of the head for ever, and accepts every
connection).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from dragonante.interfaces.web.http.connection_guard import ConnectionLimits
from tests.web.helpers import LiveServer, Seat, make_table

LIMITS = ConnectionLimits(max_head_bytes=4096, head_timeout=1.0, per_address=8)


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("guard") / "web.sqlite3"
    live = LiveServer(str(db), limits=LIMITS).start()
    yield live
    live.stop()


def _connect(server: LiveServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return sock


def _read_all(sock: socket.socket, limit: float = 10.0) -> bytes:
    """What the server sends until it closes the connection (or ``limit`` seconds)."""
    sock.settimeout(limit)
    data = b""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        data += chunk
    return data


def _status(data: bytes) -> int:
    assert data.startswith(b"HTTP/1.1 "), data[:80]
    return int(data.split(b" ", 2)[1])


def test_a_head_over_the_limit_gets_431_and_is_closed(guarded: LiveServer) -> None:
    sock = _connect(guarded)
    sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Filler: ")
    try:  # a header that never ends: the server must stop reading it
        for _ in range(400):
            sock.sendall(b"a" * 1024)
    except (BrokenPipeError, ConnectionResetError):
        pass  # closed by the server mid-send: the 431 may still be waiting to be read
    data = _read_all(sock)
    sock.close()
    assert _status(data) == 431


def test_a_head_just_under_the_limit_is_served(guarded: LiveServer) -> None:
    filler = "a" * 3000
    r = httpx.get(f"{guarded.base}/api/meta", headers={"X-Filler": filler}, timeout=10)
    assert r.status_code == 200


def test_many_small_headers_count_together(guarded: LiveServer) -> None:
    headers = {f"X-H{i}": "b" * 60 for i in range(80)}  # ~5.5 KiB in all, none large
    r = httpx.get(f"{guarded.base}/api/meta", headers=headers, timeout=10)
    assert r.status_code == 431


def test_a_connection_that_sends_nothing_is_closed_after_the_deadline(
    guarded: LiveServer,
) -> None:
    sock = _connect(guarded)
    start = time.monotonic()
    data = _read_all(sock, limit=8)
    elapsed = time.monotonic() - start
    sock.close()
    assert _status(data) == 408
    assert elapsed < 6


def test_a_head_sent_one_line_at_a_time_is_cut_at_the_deadline(guarded: LiveServer) -> None:
    sock = _connect(guarded)
    sock.sendall(b"GET /api/meta HTTP/1.1\r\n")
    start = time.monotonic()
    closed = False
    for i in range(40):  # a header line every 0.2 s, each well inside any per-read timeout
        time.sleep(0.2)
        try:
            sock.sendall(f"X-Line-{i}: y\r\n".encode())
        except (BrokenPipeError, ConnectionResetError):
            closed = True
            break
        sock.settimeout(0.01)
        try:
            if sock.recv(65536).startswith(b"HTTP/1.1 408"):
                closed = True
                break
        except TimeoutError:
            pass
    sock.close()
    assert closed, "the server kept reading a head for 8 seconds"
    assert time.monotonic() - start < 6


def test_keep_alive_requests_each_get_their_own_deadline(guarded: LiveServer) -> None:
    with httpx.Client(base_url=guarded.base, timeout=10) as client:
        for _ in range(3):
            assert client.get("/api/meta").status_code == 200
            time.sleep(0.6)  # under the deadline each time, over it in all


def test_one_address_may_hold_only_its_share_of_connections(guarded: LiveServer) -> None:
    held = [_connect(guarded) for _ in range(LIMITS.per_address)]
    try:
        for sock in held:  # each is busy sending a slow head: all are admitted
            sock.sendall(b"GET /api/meta HTTP/1.1\r\n")
        extra = _connect(guarded)
        data = _read_all(extra, limit=5)
        extra.close()
        assert _status(data) == 503
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.2)  # the server sees them close
    r = httpx.get(f"{guarded.base}/api/meta", timeout=10)
    assert r.status_code == 200


def test_websockets_count_toward_the_cap_and_play_on(guarded: LiveServer) -> None:
    with guarded.http() as http:
        code, tokens, _ = make_table(http, {"players": 2}, ["Ann"], bots=1)
    seats = [Seat(guarded, code, None) for _ in range(LIMITS.per_address - 1)]
    player = Seat(guarded, code, tokens[0])
    try:
        assert player.welcome["type"] == "welcome"
        blocked = _connect(guarded)
        assert _status(_read_all(blocked, limit=5)) == 503
        blocked.close()
        assert player.state["type"] == "state"  # the seated socket plays on
    finally:
        player.close()
        for seat in seats:
            seat.close()


def test_a_stalled_head_does_not_stall_a_table(guarded: LiveServer) -> None:
    """Three never-finished heads at once; a request at the same time is answered at once."""
    socks = [_connect(guarded) for _ in range(3)]
    try:
        for sock in socks:
            sock.sendall(b"GET / HTTP/1.1\r\nX-Filler: " + b"c" * 3000)
        start = time.monotonic()
        r = httpx.get(f"{guarded.base}/api/meta", timeout=10)
        assert r.status_code == 200
        assert time.monotonic() - start < 2
    finally:
        for sock in socks:
            sock.close()


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError):
        ConnectionLimits(max_head_bytes=10)
    with pytest.raises(ValueError):
        ConnectionLimits(head_timeout=0)
    with pytest.raises(ValueError):
        ConnectionLimits(per_address=-1)
    with pytest.raises(ValueError):
        ConnectionLimits(trusted_proxies=("not an address",))
