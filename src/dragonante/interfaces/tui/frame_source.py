"""A seat on a server as a table source fed by the screen's own connection (``play --join``).

:class:`~dragonante.interfaces.online_source.OnlineSource` keeps its
connection in a thread of its own, for the plain prompts, which block on
standard input.  The full-screen table does not block: its WebSocket lives
in a worker on the screen's own event loop
(:class:`~dragonante.interfaces.tui.online.OnlineTableApp`), which hands
each frame to this source (:meth:`FrameSource.apply`, the
:class:`~dragonante.interfaces.tui.remote.RemoteSeat` reading) and then has
the table show it.  So this source is *fed*: ``wait`` has nothing to wait
for (the frames come by themselves), and what goes back to the server (an
answer, a hint request) goes out through ``outbox``, the connection's send,
set by the screen while it is connected (None: no answer can go out now).

The server stays the authority and the information barrier: this source
holds only the seat's frames, an answer is only sent, never applied here,
and the server's next frame says whether it was taken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dragonante.engine.state import Event
from dragonante.i18n import t
from dragonante.interfaces.table_source import SourceRefused
from dragonante.interfaces.tui.remote import RemoteSeat

#: What sends a frame to the server (the screen's connection).
Outbox = Callable[[dict[str, Any]], object]


class FrameSource(RemoteSeat):
    """The seat's frames as a table source; ``outbox`` sends to the server."""

    def __init__(self, lang: str, outbox: Outbox | None = None) -> None:
        super().__init__(lang)
        self.outbox = outbox
        #: Events told so far (:meth:`mark_told`, :meth:`new_events`).
        self._told = 0

    def apply(self, frame: dict[str, Any]) -> tuple[bool, int]:
        """The frame taken in; its new events (from ``start``) are news to tell."""
        fresh, start = super().apply(frame)
        self._told = start
        return fresh, start

    def mark_told(self) -> int:
        """Where the events not yet told begin; from now on they are told."""
        start = min(self._told, len(self.events))
        self._told = len(self.events)
        return start

    # --- the table-source seam ------------------------------------------------------

    @property
    def hints_allowed(self) -> bool:
        """Only at a table whose host allows hints (``hints_on``)."""
        return self.table.get("hints_on") is True

    def wait(self) -> None:
        """Nothing to wait for: the screen's connection feeds the frames in."""

    def new_events(self) -> list[Event]:
        return self.events[self.mark_told() :]

    def all_events(self) -> list[Event]:
        return list(self.events)

    def notes(self) -> list[str]:
        """The server's notices are told by the screen as their frames come."""
        return []

    def _send(self, frame: dict[str, Any]) -> None:
        if self.outbox is None:
            raise SourceRefused(t("online.not_connected", self.lang))
        self.outbox(frame)

    def answer(self, answer: int, decision_id: int) -> None:
        """Sent as ``(decision id, answer)``; the server's next frame says if it was taken."""
        self._send({"type": "answer", "decision": decision_id, "answer": answer})

    def hint(self) -> list[str]:
        """Asked of the server's best bot; its words come in a ``hint`` frame (the
        screen opens them then), so there is nothing to show yet."""
        prompt = self.prompt()
        if not self.hints_allowed:
            raise SourceRefused(t("hint.off", self.lang))
        if prompt is None or self.over:
            raise SourceRefused(t("hint.none", self.lang))
        self._send({"type": "hint", "decision": prompt.decision_id})
        return []

    def winners(self) -> list[int]:
        view = self.frame["view"] if self.frame is not None else {}
        return [int(w) for w in view.get("winners") or []]

    def close(self) -> None:
        """The connection is the screen's: it closes it."""


__all__ = ["FrameSource", "Outbox"]
