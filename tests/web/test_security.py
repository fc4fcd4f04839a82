"""Issue 22's holes in the web server's limits, each reproduced against a real server.

Every test here failed before its fix: it does what an attacker with a
browser console (or ``curl``) would do, and checks that the server refuses
it at once, clearly, and without anyone else noticing.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from tests.web.helpers import LiveServer

SMALL = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(str(tmp_path_factory.mktemp("sec") / "web.sqlite3")).start()
    yield live
    live.stop()


def raw_request(server: LiveServer, head: str, body: bytes = b"", wait: float = 3.0) -> str:
    """Send a hand-made HTTP/1.1 request (the body may be shorter than announced)
    and return the answer's status code, or "" if none came within ``wait``."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=wait) as s:
        s.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        got = b""
        deadline = time.monotonic() + wait
        while b"\r\n" not in got and time.monotonic() < deadline:
            try:
                chunk = s.recv(4096)
            except TimeoutError:
                break
            if not chunk:
                break
            got += chunk
        line = got.split(b"\r\n", 1)[0].decode(errors="replace")
        return line.split(" ")[1] if line.startswith("HTTP/") else ""


# ------------------------------------------------------- hole 3: the body


def test_an_oversized_content_length_is_refused_before_the_body_arrives(serve):
    """Hole 3: a 300 MB POST to a table that does not exist, with no token, was
    read whole before anything was checked (memory 141 MB -> 728 MB).  Now the
    announced size alone is refused, before a byte of the body is sent."""
    for path in ("/api/tables", "/api/tables/NOPE22/seats", "/api/tables/NOPE22/bots"):
        head = (
            f"POST {path} HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\n"
            "Content-Length: 300000000\n"
        )
        assert raw_request(serve, head) == "413", path


def test_a_table_endpoint_looks_up_the_table_and_token_before_reading(serve):
    """A body under the cap, announced but never sent: the unknown table, or the
    missing token, is answered at once instead of waiting for the body."""
    head = (
        "POST /api/tables/NOPE22/seats HTTP/1.1\nHost: 127.0.0.1\n"
        "Content-Type: application/json\nContent-Length: 9000\n"
    )
    assert raw_request(serve, head) == "404"
    with serve.http() as http:
        code = http.post("/api/tables", json={"config": SMALL}).json()["code"]
    for what in ("bots", "mute"):
        head = (
            f"POST /api/tables/{code}/{what} HTTP/1.1\nHost: 127.0.0.1\n"
            "Content-Type: application/json\nContent-Length: 9000\n"
        )
        assert raw_request(serve, head) == "403", what


def test_a_chunked_body_is_read_as_a_capped_stream(serve):
    """Without a Content-Length (chunked), the body is read only up to the cap."""
    head = (
        "POST /api/tables HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\n"
        "Transfer-Encoding: chunked\n"
    )
    chunk = b"a" * 8192
    body = (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * 4  # 32 KB, no end chunk
    assert raw_request(serve, head, body) == "413"
    with serve.http() as http:
        r = http.post("/api/tables", json={"config": SMALL})
        assert r.status_code == 201  # the server is fine
