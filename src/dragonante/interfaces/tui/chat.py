"""Table chat at the terminal's online table: the messages in the log, a line to write.

The server's chat (``docs/protocol.md``, "Chat") is the browser's: every
connection gets the ``chat`` frames, a ``chat_history`` on joining, the
host's ``mute`` frames, and its own refusals.  Here:

* a message is one log line, "Name: text", in its own style so it never
  reads as the game's narration; a spectator is named as the web names
  them ("Spectator 2"), a seat without a name by its number;
* everything another person typed is shown as plain text: the line is a
  Rich :class:`~rich.text.Text` (never parsed for markup, so ``[bold]``
  stays ``[bold]``), and control, bidirectional and other format characters
  are dropped again here, whatever the server did, so a message cannot
  move the cursor, reorder the text around it or upset the columns;
* :class:`ChatMessages` remembers each message with the place in the game's
  log where it arrived, so when a full ``state`` retells the log (a
  reconnection, a resync) the messages come back where they were, and the
  history sent again after a reconnection adds only what was missed;
* a refusal (muted, too many messages, too long, empty) is one note in the
  player's language, with the wait or the limit the server gave.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

from dragonante.i18n import t

#: The server's limit when it does not say (``chat_max`` of ``GET /api/meta``).
CHAT_MAX = 300
#: Characters of an author's name shown (the server's names are shorter).
NAME_MAX = 40
#: Messages kept for retelling (the server keeps 50 for newcomers).
KEPT = 500
#: Unicode categories never shown: controls, format characters (bidirectional
#: marks and overrides, zero-width joiners), surrogates, private use.
HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co"})
#: How chat lines look in the log, apart from the narration.
AUTHOR_STYLE = "bold magenta"
TEXT_STYLE = "magenta"
NOTE_STYLE = "italic magenta"


def plain(text: Any, limit: int = 0) -> str:
    """One line of text that is safe on a terminal: whitespace runs become one space,
    hidden characters go, and at most ``limit`` characters stay (0: no limit)."""
    line = " ".join(str(text).split())
    kept = "".join(ch for ch in line if unicodedata.category(ch) not in HIDDEN)
    kept = " ".join(kept.split())
    return kept[:limit] if limit > 0 else kept


def is_seat(msg: dict[str, Any]) -> bool:
    return isinstance(msg.get("seat"), int)


def author(msg: dict[str, Any], lang: str, names: list[str] | None = None) -> str:
    """Who wrote ``msg`` (or whom a ``mute`` frame names): a seat's public name (from
    the message, else the table), else its number; a spectator by the server's number."""
    if is_seat(msg):
        seat = int(msg["seat"])
        name = plain(msg.get("name") or "", NAME_MAX)
        if not name and names is not None and 0 <= seat < len(names):
            name = plain(names[seat], NAME_MAX)
        return name or f"#{seat + 1}"
    return t("online.chat.spectator", lang, n=plain(msg.get("spectator") or "?", NAME_MAX))


def chat_line(msg: dict[str, Any], lang: str) -> Text:
    """A message as the log shows it: "Name: text", never read as markup."""
    line = Text(end="")
    line.append(author(msg, lang), style=AUTHOR_STYLE)
    line.append(": ", style=TEXT_STYLE)
    line.append(plain(msg.get("text", "")), style=TEXT_STYLE)
    return line


def note_line(text: str) -> Text:
    """A line of the chat's own (a refusal, a mute), styled apart from the narration."""
    return Text(text, style=NOTE_STYLE, end="")


def refusal(frame: dict[str, Any], lang: str) -> str | None:
    """The note for a chat refusal (an ``error`` frame) in ``lang``; None for another error."""
    code = frame.get("code")
    if code == "muted":
        return t("online.chat.refused.muted", lang)
    if code == "chat_rate":
        return t("online.chat.refused.rate", lang, seconds=plain(frame.get("retry_after", "?")))
    if code == "chat_too_long":
        return t("online.chat.refused.too_long", lang, limit=plain(frame.get("limit", "?")))
    if code == "chat_empty":
        return t("online.chat.refused.empty", lang)
    return None


def mute_note(frame: dict[str, Any], lang: str, me: int | None, names: list[str]) -> str:
    """A ``mute`` frame as one sentence: who the host muted or let speak again."""
    muted = frame.get("muted") is not False
    if me is not None and frame.get("seat") == me:
        if muted:
            return t("online.chat.muted_you", lang)
        return t("online.chat.unmuted_you", lang)
    who = author(frame, lang, names)
    if muted:
        return t("online.chat.muted", lang, name=who)
    return t("online.chat.unmuted", lang, name=who)


@dataclass
class ChatMessages:
    """The messages seen so far, each with the number of game events told before it."""

    #: ``(position, message)`` in arrival order; ``position`` indexes the seat's events.
    placed: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    ids: set[Any] = field(default_factory=set)

    def add(self, msg: dict[str, Any], position: int) -> bool:
        """Keep ``msg`` (arrived after ``position`` events); False if already kept."""
        key = msg.get("id")
        if key is not None and key in self.ids:
            return False
        if key is not None:
            self.ids.add(key)
        self.placed.append((position, msg))
        if len(self.placed) > KEPT:
            _, old = self.placed.pop(0)
            self.ids.discard(old.get("id"))
        return True

    def history(self, frame: dict[str, Any], position: int) -> list[dict[str, Any]]:
        """The messages of a ``chat_history`` frame not seen yet (kept at ``position``)."""
        messages = frame.get("messages")
        if not isinstance(messages, list):
            return []
        return [m for m in messages if isinstance(m, dict) and self.add(m, position)]


class ChatInput(Input):
    """The one line to write a message on: Enter sends, Escape closes it unsent."""

    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("escape", "cancel", show=False),
    ]

    class Cancelled(Message):
        """The person closed the line without sending."""

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())
