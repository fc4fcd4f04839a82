"""Table chat: plain text from seats and spectators, limited, mutable by the host.

Why each rule:

* The text is stored and sent exactly as cleaned here (raw, not
  HTML-escaped): escaping is the page's job, which puts every message in a
  text node, so nothing typed can become markup there, and other clients
  (the terminal) get the words as typed.
* Whitespace runs collapse to one space and control and format characters
  are dropped (bidirectional controls, zero-width spaces and joiners, tag
  characters, the invisible Hangul and Braille fillers): a message is one
  line of visible text, cannot reorder the text around it to impersonate
  someone, and cannot hide words from one reader but not another.  An emoji
  sequence joined by a zero-width joiner shows as its separate emoji.
* A letter keeps at most :data:`MAX_MARKS` combining marks: longer stacks
  ("Zalgo" text) draw over the lines above and below.
* A message has at most :data:`CHAT_MAX` characters and each connection
  (and each address, across its connections) a token bucket, so a table
  cannot be flooded; the general per-frame limit of the socket still applies.
* The author is named only by the server: a seat by its public name, a
  spectator by a number the server gave its connection.  The server adds
  nothing else, so chat carries no game information beyond what people type.
* History is the last :data:`CHAT_HISTORY` messages, sent to whoever
  connects.  Chat is table talk, not part of the game's record (replays and
  records never show it), but the recent messages and the host's mutes are
  kept in the database beside the table (``chat_messages``, ``chat_mutes``):
  the process that takes a table over from one that died (``cluster.py``),
  or a restarted server, shows the same history and keeps the same people muted.
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from typing import Any

from dragonante.interfaces.web.shared.limits import RateLimiter, retry_after
from dragonante.interfaces.web.shared.protocol import ProtocolError

#: Characters of one message (after cleaning).
CHAT_MAX = 300
#: Messages a table keeps for people who connect later.
CHAT_HISTORY = 50
#: Bidirectional formatting characters (they could reorder what others see).
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Letters that draw nothing (Hangul fillers, the blank Braille pattern).
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Combining marks kept on one letter, decomposed (Vietnamese needs two).
MAX_MARKS = 2
#: Character categories dropped: controls, format characters (zero-width,
#: bidi, tags), lone surrogates.
DROPPED = frozenset(("Cc", "Cf", "Cs"))


def clean_text(text: str) -> str:
    """One line of visible text: whitespace collapsed; control, format and
    filler characters dropped; stacks of combining marks cut to :data:`MAX_MARKS`."""
    line = " ".join(text.split())  # first: tabs and newlines become spaces
    kept: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFD", line):  # a precomposed letter counts its marks
        if ch in BIDI or ch in FILLERS or unicodedata.category(ch) in DROPPED:
            continue
        if unicodedata.category(ch) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(ch)
    return " ".join(unicodedata.normalize("NFC", "".join(kept)).split())


class ChatRoom:
    """One table's chat: recent messages and who is muted."""

    def __init__(self, history: int = CHAT_HISTORY) -> None:
        self.messages: deque[dict[str, Any]] = deque(maxlen=max(1, history))
        self.next_id = 1
        #: Seats the host muted.
        self.muted_seats: set[int] = set()
        #: Spectator numbers the host muted, and their addresses: a muted
        #: spectator reconnecting (a new number) from there stays muted.
        self.muted_spectators: set[int] = set()
        self.muted_addresses: set[str] = set()
        #: The number the next spectator connection gets.
        self.next_spectator = 1

    def resize(self, history: int) -> None:
        """Keep the last ``history`` messages (the server's setting)."""
        self.messages = deque(self.messages, maxlen=max(1, history))

    def restore(self, messages: list[dict[str, Any]], mutes: list[tuple[str, str]]) -> None:
        """Take back what the database kept of this room (``store.add_chat``,
        ``store.set_mutes``): messages oldest first, mutes as ``(kind, value)``.

        Numbering goes on after the kept messages; spectator numbers after
        every number the messages and mutes name, so a new spectator is never
        given the number of a muted one or of someone in the history.
        """
        self.messages.extend(messages)
        for kind, value in mutes:
            if kind == "seat":
                self.muted_seats.add(int(value))
            elif kind == "spectator":
                self.muted_spectators.add(int(value))
            elif kind == "address":
                self.muted_addresses.add(value)
        self.next_id = max([self.next_id, *(int(m["id"]) + 1 for m in messages)])
        named = {int(m["spectator"]) for m in messages if m.get("spectator")}
        self.next_spectator = max(
            [self.next_spectator, *(n + 1 for n in named | self.muted_spectators)]
        )

    def is_muted(self, seat: int | None, spectator: int, address: str) -> bool:
        if seat is not None:
            return seat in self.muted_seats
        return spectator in self.muted_spectators or address in self.muted_addresses

    def history(self) -> dict[str, Any]:
        """The frame a new connection gets: recent messages and the mutes in force."""
        return {
            "type": "chat_history",
            "messages": list(self.messages),
            "muted_seats": sorted(self.muted_seats),
            "muted_spectators": sorted(self.muted_spectators),
        }


class ChatLimits:
    """The server's chat limits: per connection and per address token buckets."""

    def __init__(
        self, burst: int, window: float, address_burst: int, address_window: float
    ) -> None:
        self.per_connection = RateLimiter(burst, window)
        self.per_address = RateLimiter(address_burst, address_window)

    def check(self, connection: str, address: str) -> None:
        """Count one message; raises ``chat_rate`` (with ``retry_after``) when over a limit."""
        wait = self.per_connection.hit(connection)
        if wait <= 0:
            wait = self.per_address.hit(address)
        if wait > 0:
            seconds = retry_after(wait)
            raise ProtocolError(
                "chat_rate",
                f"too many chat messages; wait {seconds} s",
                retry_after=seconds,
            )


def message(
    room: ChatRoom,
    text: Any,
    seat: int | None,
    name: str | None,
    spectator: int,
) -> dict[str, Any]:
    """Check and clean one message into its ``chat`` frame (not yet kept or sent).

    Raises ``bad_field`` (not a string), ``chat_empty`` or ``chat_too_long``.
    """
    if not isinstance(text, str):
        raise ProtocolError("bad_field", "'text' must be a string")
    cleaned = clean_text(text)
    if not cleaned:
        raise ProtocolError("chat_empty", "a chat message needs some text")
    if len(cleaned) > CHAT_MAX:
        raise ProtocolError(
            "chat_too_long", f"a chat message has at most {CHAT_MAX} characters", limit=CHAT_MAX
        )
    msg: dict[str, Any] = {
        "type": "chat",
        "id": room.next_id,
        "seat": seat,
        "spectator": None if seat is not None else spectator,
        "name": name,
        "text": cleaned,
        "at": int(time.time() * 1000),
    }
    room.next_id += 1
    return msg
