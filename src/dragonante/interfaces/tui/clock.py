"""The turn timer in the terminal: the server's ``turn`` frames, counted down here.

A table with a turn timer gives each person that many seconds per decision;
when they run out the server's bot answers for them (``docs/web.md``, "Turn
timer").  The server sends a ``turn`` frame when a person's clock starts,
with the seconds left; like the browser, this counts down from its own
clock (no clock skew), and shows the time only while the question it was
sent for is the one in front of the table.  A face-down ante round has one
clock for every seat at once (``decisions``: each seat's question).
"""

from __future__ import annotations

import math
from typing import Any

from dragonante.i18n import t


class TurnClock:
    """The last ``turn`` frame and when its time runs out (``time.monotonic``)."""

    def __init__(self) -> None:
        self.seat = -1
        self.decisions: list[int] = []
        self.together = False
        self.ends = 0.0

    def start(self, frame: dict[str, Any], now: float) -> None:
        """Take a ``turn`` frame in (a malformed one is ignored)."""
        seconds, seat, decision = frame.get("seconds"), frame.get("seat"), frame.get("decision")
        if not isinstance(seconds, int | float) or type(seat) is not int:
            return
        decisions = frame.get("decisions")
        if decisions is not None:
            if not isinstance(decisions, list) or not all(type(d) is int for d in decisions):
                return
            self.decisions, self.together = list(decisions), True
        elif type(decision) is int:
            self.decisions, self.together = [decision], False
        else:
            return
        self.seat = seat
        self.ends = now + max(0.0, float(seconds))

    def line(
        self, question: int | None, me: int | None, names: list[str], lang: str, now: float
    ) -> str | None:
        """The clock as the question box shows it, or None: no clock runs for
        ``question`` (the id of the question in front of the table)."""
        if question is None or question not in self.decisions:
            return None
        left = max(0, math.ceil(self.ends - now))
        if self.together:
            return t("online.clock.all", lang, seconds=left)
        if self.seat == me:
            return t("online.clock.yours", lang, seconds=left)
        name = names[self.seat] if 0 <= self.seat < len(names) else str(self.seat)
        return t("online.clock.other", lang, name=name, seconds=left)


def timeout_line(frame: dict[str, Any], me: int | None, names: list[str], lang: str) -> str:
    """The note a ``timeout`` frame is: whose time ran out (a bot answered)."""
    seat = frame.get("seat")
    if seat == me:
        return t("online.timeout.you", lang)
    name = names[seat] if type(seat) is int and 0 <= seat < len(names) else "?"
    return t("online.timeout", lang, name=name)
