"""A real server in a thread, and WebSocket seats that record every frame.

The API and protocol tests run the actual uvicorn server (on a free
loopback port, with a temporary SQLite file) rather than an in-memory test
client, so frame-size limits, close codes and commit-before-acknowledge are
exercised exactly as in production.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from typing import Any

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from dragonante.interfaces.web.http.app import create_app
from dragonante.interfaces.web.http.connection_guard import ConnectionLimits, transport_options
from dragonante.interfaces.web.hub import Hub, Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """``dragonante serve`` in a background thread; stop() and start again to restart."""

    def __init__(
        self,
        db: str,
        settings: Settings | None = None,
        port: int | None = None,
        compression: bool = False,
        limits: ConnectionLimits | None = None,
    ) -> None:
        self.db = db
        self.compression = compression
        self.limits = limits
        self.settings = settings or Settings(bot_delay=0)
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None
        self.app: Any = None

    def start(self) -> LiveServer:
        self.app = create_app(self.db, self.settings)
        config = uvicorn.Config(
            self.app,
            **transport_options(
                "127.0.0.1", self.port, "warning", self.compression, limits=self.limits
            ),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.thread.join(20)
        self.server = None

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=20)


def make_table(
    http: httpx.Client,
    config: dict[str, Any],
    humans: list[str],
    bots: int = 0,
    level: str = "random",
    start: bool = True,
) -> tuple[str, list[str], str]:
    """Create a table, seat ``humans`` (seats 0..), fill the rest with bots, start it."""
    r = http.post("/api/tables", json={"config": config})
    assert r.status_code == 201, r.text
    code, host = r.json()["code"], r.json()["host_token"]
    tokens = []
    for i, name in enumerate(humans):
        r = http.post(f"/api/tables/{code}/seats", json={"name": name, "seat": i})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    if bots:
        r = http.post(
            f"/api/tables/{code}/bots",
            json={"fill": True, "level": level},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert r.status_code == 201, r.text
    if start:
        r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
        assert r.status_code == 200, r.text
    return code, tokens, host


class Seat:
    """A WebSocket connection that keeps every frame it received."""

    def __init__(
        self,
        server: LiveServer,
        code: str,
        token: str | None,
        lang: str = "en",
        key: str | None = None,
    ) -> None:
        # 30 s, not the library's 10: a TLS handshake through nginx on a loaded
        # 2-core CI machine once took longer (a fresh clone's run, 3 December).
        self._connect = connect(f"{server.ws_base}/ws/{code}", max_size=2**24, open_timeout=30)
        self.ws: ClientConnection = self._connect.__enter__()
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.last: dict[str, Any] | None = None
        self.closed = False
        hello = {"type": "hello", "token": token, "lang": lang}
        if key is not None:  # a player key (``players/``)
            hello["key"] = key
        self.send(hello)
        self.welcome = self.wait(lambda m: m["type"] in ("welcome", "error"))
        self.seat = self.welcome.get("seat")
        if self.welcome["type"] == "welcome":
            self.state = self.wait(lambda m: m["type"] == "state")

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def recv(self, timeout: float) -> dict[str, Any] | None:
        try:
            raw = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        except ConnectionClosed:
            self.closed = True
            return None
        text = raw if isinstance(raw, str) else raw.decode()
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        self.frames.append(msg)
        if "view" in msg:
            self.last = msg
        return msg

    def wait(self, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if msg is not None and pred(msg):
                return msg
            if self.closed:
                break
        raise AssertionError(f"no matching frame within {timeout} s (closed={self.closed})")

    def drain(self, timeout: float = 0.02) -> list[dict[str, Any]]:
        out = []
        while (msg := self.recv(timeout)) is not None:
            out.append(msg)
        return out

    def wait_over(self, timeout: float = 60.0) -> dict[str, Any]:
        """The final view (it may have arrived already)."""
        if self.last is not None and self.last["view"]["phase"] == "over":
            return self.last
        return self.wait(lambda m: m.get("view", {}).get("phase") == "over", timeout)

    def drain_until_closed(self, timeout: float = 10.0) -> None:
        """Read raw frames until the server closes (raises ConnectionClosed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.ws.recv(timeout=deadline - time.monotonic())

    @property
    def question(self) -> dict[str, Any] | None:
        if self.last is None:
            return None
        q: dict[str, Any] | None = self.last["view"]["question"]
        return q

    def close(self) -> None:
        self._connect.__exit__(None, None, None)


def play(
    seats: list[Seat], rng: random.Random, until_step: int | None = None, timeout: float = 120
) -> None:
    """Answer every question put to these seats at random until the game ends
    (or ``until_step`` answers have been accepted)."""
    deadline = time.monotonic() + timeout
    answered: set[int] = set()
    while time.monotonic() < deadline:
        for seat in seats:
            seat.drain(0.005)
        fresh = max((s.last for s in seats if s.last), key=lambda m: m["step"], default=None)
        if fresh is not None:
            if fresh["view"]["phase"] == "over":
                return
            if until_step is not None and fresh["step"] >= until_step:
                return
        for seat in seats:
            q = seat.question
            last = seat.last
            if not (q and q.get("options") and last and fresh) or q["id"] in answered:
                continue
            if last["step"] == fresh["step"]:
                answered.add(q["id"])
                choice = rng.choice(q["options"])
                seat.send({"type": "answer", "decision": q["id"], "answer": choice})
        time.sleep(0.002)
    raise AssertionError("the game did not finish in time")
