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
        self.stop()  # no server left behind, serving nobody, when a loaded machine was slow
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


class PageWatch:
    """What a page saw, kept so a failing browser test can say why it failed.

    A browser test that times out says only which selector never appeared;
    the page's own errors, its console, the last frames it received and the
    server's log are what explain it, and a flaky failure seen once in CI
    cannot be rerun to ask.  ``conftest.py`` adds this to a failed report.
    """

    def __init__(self, page: Any) -> None:
        self.page = page
        self.lines: list[str] = []
        page.on("pageerror", lambda e: self._note(f"page error: {e}"))
        page.on("console", lambda m: self._note(f"console {m.type}: {m.text}"))
        page.on("websocket", self._on_socket)

    def _note(self, line: str) -> None:
        self.lines.append(f"{time.monotonic():.3f} {line[:300]}")
        del self.lines[:-60]

    def _on_socket(self, ws: Any) -> None:
        self._note(f"socket open {ws.url}")
        ws.on("framereceived", lambda p: self._note(f"<- {frame_summary(p)}"))
        ws.on("framesent", lambda p: self._note(f"-> {frame_summary(p)}"))
        ws.on("close", lambda _ws: self._note("socket closed"))

    def report(self) -> str:
        """The page's last events and, while it is open, what it shows."""
        shown = ""
        try:
            if not self.page.is_closed():
                shown = self.page.evaluate(
                    """() => ['#question', '#turn', '.banner', '.toast']
                        .map((s) => [s, document.querySelector(s)])
                        .map(([s, el]) => `${s}: ${el ? el.outerHTML.slice(0, 400) : '(none)'}`)
                        .join('\\n')"""
                )
        except Exception as e:  # the page may be gone or hung: the history still helps
            shown = f"(not readable: {e})"
        return "\n".join([*self.lines, "-- shown now --", shown])


def frame_summary(payload: str | bytes) -> str:
    """One WebSocket frame in a line: its type and the question it carries."""
    text = payload if isinstance(payload, str) else payload.decode(errors="replace")
    try:
        msg = json.loads(text)
    except ValueError:
        return text[:120]
    if not isinstance(msg, dict):
        return text[:120]
    view = msg.get("view") if isinstance(msg.get("view"), dict) else {}
    q = view.get("question") if isinstance(view, dict) else None
    asked = f" question={q.get('id')}@{q.get('seat')}" if isinstance(q, dict) else ""
    extra = {k: msg[k] for k in ("code", "decision", "answer", "message") if k in msg}
    return f"{msg.get('type')}{asked} {json.dumps(extra)[:160] if extra else ''}".rstrip()


class WatchedBrowser:
    """The Playwright browser, with a :class:`PageWatch` on every page it opens."""

    def __init__(self, browser: Any, watches: list[PageWatch]) -> None:
        self._browser = browser
        self._watches = watches

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.on("page", lambda page: self._watches.append(PageWatch(page)))
        return context

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)
        self._watches.append(PageWatch(page))
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)
