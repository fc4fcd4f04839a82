"""A seat on a server as a table source, for front ends that block (``play --join --plain``).

The plain prompts read the person's answer from standard input, which
blocks; the seat's WebSocket must go on meanwhile (the others' moves, the
turn clock, the face-down ante's reveal).  :class:`OnlineSource` therefore
keeps the connection in a thread of its own, with its own event loop, and
puts the :class:`~dragonante.interfaces.table_source.TableSource` seam in
front of it: every frame is read by
:class:`~dragonante.interfaces.tui.remote.RemoteSeat` (the full-screen
table's reading of the same frames, so both tell a seat alike), under one
lock, and ``wait`` sleeps until the seat is asked, the game is over or
the table has something to say (a notice, a refusal, a timeout, the lobby
as it fills).

The server stays the authority and the information barrier: this source
holds only the seat's frames; an answer goes out as ``(decision id,
answer)`` and the server's next frame says whether it was taken (a refused
or overtaken answer asks for a fresh state, and the question is asked
again).  A hint is the server's (``{"type": "hint"}``,
:mod:`dragonante.interfaces.web.tables.hints`), at tables whose ``hints_on`` says
the seat may have one.  A dropped connection is opened again with the
seat's token; only a refusal of the seat itself ends it (:class:`SourceClosed`).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from contextlib import suppress
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from dragonante.engine.state import Event
from dragonante.i18n import t
from dragonante.interfaces.narrate import Narrator, Prompt
from dragonante.interfaces.render import TableView
from dragonante.interfaces.table_source import SourceClosed, SourceRefused
from dragonante.interfaces.tui.chat import author, plain, refusal
from dragonante.interfaces.tui.clock import timeout_line
from dragonante.interfaces.tui.lobby import Seating
from dragonante.interfaces.tui.online import FATAL_CLOSES, MAX_FRAME, RECONNECT_DELAYS
from dragonante.interfaces.tui.remote import RESYNC, RemoteSeat

#: Seconds a hint may take to come back before the person is told it did not.
HINT_TIMEOUT = 60.0
#: Seconds between two looks at the connection while waiting (Ctrl-C stays prompt).
POLL = 0.25
#: Seconds to hold answers back after the server said ``busy`` (too many messages).
BUSY_PAUSE = 1.0
#: Error codes that refuse a hint (the question is then asked again).
HINT_REFUSALS = frozenset({"hints_off", "hint_busy", "rate_limited", "not_seated"})


class OnlineSource:
    """``seating``'s seat at a server's table, its connection kept in a thread."""

    def __init__(
        self,
        seating: Seating,
        lang: str,
        reconnect_delays: tuple[float, ...] = RECONNECT_DELAYS,
        hint_timeout: float = HINT_TIMEOUT,
    ) -> None:
        self.seating = seating
        self._lang = lang
        self.reconnect_delays = reconnect_delays
        self.hint_timeout = hint_timeout
        self.remote = RemoteSeat(lang)
        self.remote.seat = seating.seat
        self.remote.table = seating.table
        self._lock = threading.Condition()
        self._notes: list[str] = []
        #: Events handed out by :meth:`new_events` so far.
        self._told = 0
        #: The question just answered: not asked again unless the server refuses it.
        self._answered: int | None = None
        #: The hint frame (or refusal) for the question asked about.
        self._hint_for: int | None = None
        self._hint: dict[str, Any] | None = None
        self._failure: str | None = None
        #: After a ``busy`` refusal, no answer goes out before this clock time.
        self._calm_until = 0.0
        self._lobby: list[str] = []
        self.connections = 0
        self._ws: ClientConnection | None = None
        self._loop = asyncio.new_event_loop()
        self._task: asyncio.Task[None] | None = None
        self._thread = threading.Thread(target=self._run, name="dragonante-seat", daemon=True)
        self._thread.start()

    # --- the connection's thread -------------------------------------------------

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._task = self._loop.create_task(self._keep_connected())
        with suppress(asyncio.CancelledError):
            self._loop.run_until_complete(self._task)
        self._loop.close()

    async def _keep_connected(self) -> None:
        failures = 0
        while True:
            code = await self._one_connection()
            with self._lock:
                if code in FATAL_CLOSES and self._failure is None:
                    key = f"online.closed.{FATAL_CLOSES[code]}"
                    self._failure = t(key, self._lang, code=self.seating.code)
                if self._failure is not None or self.remote.over:
                    self._lock.notify_all()
                    return
                failures = 0 if code == -2 else failures + 1
                if failures == 1:
                    self._note(t("online.reconnecting", self._lang))
            await asyncio.sleep(
                self.reconnect_delays[min(failures, len(self.reconnect_delays) - 1)]
            )

    async def _one_connection(self) -> int:
        """One connection's life; its close code (-1: never opened, -2: it had worked)."""
        try:
            async with connect(self.seating.ws_url, max_size=MAX_FRAME, open_timeout=10) as ws:
                self._ws = ws
                hello = {"type": "hello", "token": self.seating.token, "lang": self._lang}
                await ws.send(json.dumps(hello))
                worked = False
                try:
                    async for raw in ws:
                        frame = json.loads(raw)
                        if isinstance(frame, dict):
                            worked = self._on_frame(frame) or worked
                        if self.remote.over or self._failure is not None:
                            return -2
                except ConnectionClosed:
                    pass
                except (KeyError, TypeError, ValueError):  # not a server this client understands
                    with self._lock:
                        self._failure = t("online.bad_frame", self._lang)
                code = ws.close_code
                if code in FATAL_CLOSES:
                    return code
                return -2 if worked else (code or -1)
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI):
            return -1
        finally:
            self._ws = None

    def _on_frame(self, frame: dict[str, Any]) -> bool:
        """One frame in, under the lock; True once the server has welcomed the seat."""
        with self._lock:
            try:
                return self._take(frame)
            finally:
                self._lock.notify_all()

    def _take(self, frame: dict[str, Any]) -> bool:
        kind = frame.get("type")
        remote = self.remote
        lang = self._lang
        if kind == "welcome":
            remote.welcome(frame)
            self.connections += 1
            if self.connections > 1:
                self._note(t("online.reconnected", lang))
            return True
        if kind == "error":
            self._error(frame)
        elif kind == "hint":
            if frame.get("decision") == self._hint_for:
                self._hint = frame
        elif kind == "notice":
            self._note(plain(frame.get("message") or frame.get("code")))
        elif kind == "timeout":
            self._note(timeout_line(frame, remote.seat, remote.names(), lang))
        elif kind == "chat":
            who = author(frame, lang, remote.names())
            self._note(f"{who}: {plain(frame.get('text', ''))}")
        elif kind in ("state", "update", "table"):
            remote.apply(frame)
            self._told = min(self._told, len(remote.events))
            if not remote.started:
                lines = remote.lobby_lines()
                if lines != self._lobby:
                    self._lobby = lines
                    self._notes.extend(lines)
        return False

    def _error(self, frame: dict[str, Any]) -> None:
        code = frame.get("code")
        lang = self._lang
        chat = refusal(frame, lang)
        if chat is not None:
            self._note(chat)
            return
        if code in ("bad_token", "unknown_table"):
            self._failure = t(f"online.closed.{code}", lang, code=self.seating.code)
            return
        if self._hint_for is not None and (code in HINT_REFUSALS or code in RESYNC):
            self._hint = frame  # the hint asked for is refused (or its question gone by)
            if code in HINT_REFUSALS:
                return
        self._answered = None  # whatever was refused, the question may be asked again
        if code == "busy":  # answers typed (or piped) faster than the server takes them
            self._calm_until = time.monotonic() + BUSY_PAUSE
            self._loop.call_later(BUSY_PAUSE, self._send, self.remote.sync_request())
            return
        if code != "stale":  # an answer overtaken (a timeout): the next question tells it
            self._note(plain(frame.get("message") or code))
        if code in RESYNC:
            self._send(self.remote.sync_request())

    def _note(self, line: str) -> None:
        self._notes.append(line)

    def _send(self, frame: dict[str, Any]) -> bool:
        """Send ``frame`` from any thread; False when no connection is open."""
        ws = self._ws
        if ws is None or self._loop.is_closed():
            return False

        async def send() -> None:
            with suppress(ConnectionClosed):
                await ws.send(json.dumps(frame))

        if threading.current_thread() is self._thread:
            self._loop.create_task(send())
            return True
        future = asyncio.run_coroutine_threadsafe(send(), self._loop)
        with suppress(TimeoutError, RuntimeError):
            future.result(timeout=10)
        return True

    # --- the seam ------------------------------------------------------------------

    @property
    def lang(self) -> str:
        return self._lang

    @property
    def seat(self) -> int | None:
        return self.remote.seat

    @property
    def over(self) -> bool:
        with self._lock:
            return self.remote.over

    @property
    def started(self) -> bool:
        with self._lock:
            return self.remote.started

    @property
    def hints_allowed(self) -> bool:
        """The table's ``hints_on``: alone among bots, or the host allows them."""
        with self._lock:
            return self.remote.table.get("hints_on") is True

    def narrator(self) -> Narrator:
        with self._lock:
            return self.remote.narrator()

    def _asked(self) -> Prompt | None:
        prompt = self.remote.prompt()
        if prompt is None or prompt.decision_id == self._answered:
            return None
        face_down = self.remote.face_down
        if face_down is not None and self.remote.seat not in (face_down.get("waiting") or []):
            return None  # this seat has chosen its ante card: the reveal is the others'
        return prompt

    def wait(self) -> None:
        with self._lock:
            while True:
                if self._failure is not None:
                    raise SourceClosed(self._failure)
                if self._notes or self.remote.over or self._asked() is not None:
                    return
                if not self._thread.is_alive():
                    raise SourceClosed(t("online.bad_frame", self._lang))
                self._lock.wait(POLL)

    def view(self) -> TableView | None:
        with self._lock:
            snap = self.remote.snapshot(self.remote.narrator())
            return None if snap is None else snap.view

    def prompt(self) -> Prompt | None:
        with self._lock:
            return self._asked()

    def new_events(self) -> list[Event]:
        with self._lock:
            events = self.remote.events[self._told :]
            self._told = len(self.remote.events)
            return events

    def all_events(self) -> list[Event]:
        with self._lock:
            return list(self.remote.events)

    def notes(self) -> list[str]:
        with self._lock:
            notes, self._notes = self._notes, []
            return notes

    def answer(self, answer: int, decision_id: int) -> None:
        with self._lock:
            self._answered = decision_id
            calm = self._calm_until - time.monotonic()
        if calm > 0:  # the server asked this connection to slow down
            time.sleep(calm)
        frame = {"type": "answer", "decision": decision_id, "answer": answer}
        if not self._send(frame):
            with self._lock:
                self._answered = None
            raise SourceRefused(t("online.not_connected", self._lang))

    def hint(self) -> list[str]:
        with self._lock:
            prompt = self._asked()
            if prompt is None:
                raise SourceRefused(t("hint.none", self._lang))
            self._hint_for, self._hint = prompt.decision_id, None
        if not self._send({"type": "hint", "decision": prompt.decision_id}):
            raise SourceRefused(t("online.not_connected", self._lang))
        deadline = time.monotonic() + self.hint_timeout
        with self._lock:
            try:
                while self._hint is None and self._failure is None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise SourceRefused(t("hint.late", self._lang))
                    self._lock.wait(min(left, POLL))
                found = self._hint
            finally:
                self._hint_for = None
        if found is None:
            raise SourceRefused(self._failure or "")
        if found.get("type") == "error":
            if found.get("code") == "hints_off":
                raise SourceRefused(t("hint.off", self._lang))
            raise SourceRefused(plain(found.get("message") or found.get("code")))
        return [plain(line) for line in found.get("lines") or []]

    def winners(self) -> list[int]:
        with self._lock:
            frame = self.remote.frame
            view = frame["view"] if frame is not None else {}
            return [int(w) for w in view.get("winners") or []]

    def close(self) -> None:
        """Close the connection and end its thread (the seat stays the person's)."""
        task = self._task
        if task is not None and not self._loop.is_closed():
            with suppress(RuntimeError):
                self._loop.call_soon_threadsafe(task.cancel)
        self._thread.join(timeout=5)


__all__ = ["OnlineSource"]
