"""Browser-test plumbing: Debian's Chromium through Playwright, and the server as a process.

Playwright never downloads a browser here: it drives ``/usr/bin/chromium``
(``.ci/run`` installs it).  The server runs as a real ``dragonante serve``
process so a test can kill it (SIGKILL, no goodbye) and start it again.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.web.helpers import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class ServerProcess:
    """``dragonante serve`` on a loopback port and a SQLite file."""

    def __init__(
        self,
        db: Path,
        port: int | None = None,
        bot_delay: float = 0.05,
        args: tuple[str, ...] = (),
    ) -> None:
        self.db = db
        self.args = args
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.parent / f"server-{self.port}.log"

    def start(self) -> ServerProcess:
        cmd = [
            sys.executable,
            "-c",
            "from dragonante.interfaces.cli import main; main()",
            "serve",
            "--port",
            str(self.port),
            "--db",
            str(self.db),
            "--bot-delay",
            str(self.bot_delay),
            "--log-level",
            "warning",
            *self.args,
        ]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=out, env={**os.environ})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.base + "/api/meta", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start in 30 s")

    def kill(self) -> None:
        """Kill -9: no shutdown, no flushing, exactly like a crash."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=20)


def record_frames(page: Any) -> list[dict[str, Any]]:
    """Every WebSocket frame the page receives, parsed."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: str | bytes) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            frames.append(json.loads(text))

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return frames
