"""The chat's line at the terminal's online table: ``m`` opens it, Enter sends, Escape closes.

Kept apart from :mod:`.online` (the connection and the table's hooks) as a
mixin of the online table: it needs only the seat's chat limit, whether
the connection is up, a way to send a frame and a way to note a line in
the log.  The messages themselves are :mod:`.chat`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.widgets import Input, OptionList

from dragonante.i18n import t
from dragonante.interfaces.tui.chat import ChatInput, plain

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

    from dragonante.interfaces.tui.lobby import Seating


class ChatLine(App[int]):
    """Mixed into the online table (``seating``, ``ws``, ``lang``, ``send``, ``note``)."""

    seating: Seating
    ws: ClientConnection | None
    lang: str

    if TYPE_CHECKING:  # provided by the table itself (not defined here: they would shadow it)

        def send(self, frame: dict[str, Any]) -> Any: ...

        def note(self, text: str) -> None: ...

    def action_chat(self) -> None:
        """Open the line to write a chat message (at the table, not over a page)."""
        if len(self.screen_stack) > 1:
            return
        chat = self.query_one(ChatInput)
        chat.display = True
        chat.can_focus = True
        chat.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: send the message (an empty line just closes)."""
        event.stop()
        text = plain(event.value, self.seating.chat_max)
        self.close_chat()
        if not text:
            return
        if self.ws is None:
            self.note(t("online.chat.not_connected", self.lang))
            return
        self.send({"type": "chat", "text": text})

    def on_chat_input_cancelled(self, event: ChatInput.Cancelled) -> None:
        event.stop()
        self.close_chat()

    def close_chat(self) -> None:
        """Hide and empty the chat line; the keys go back to the answers."""
        chat = self.query_one(ChatInput)
        chat.value = ""
        chat.display = False
        chat.can_focus = False
        self.query_one("#answers", OptionList).focus()


__all__ = ["ChatLine"]
