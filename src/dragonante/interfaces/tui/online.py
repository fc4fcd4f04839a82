"""``play --join``: one seat at a server's table, played at the full-screen table.

The same screen as a local game: a
:class:`~dragonante.interfaces.tui.source_app.SourceTableApp`, drawing a
:class:`~dragonante.interfaces.tui.frame_source.FrameSource` fed by the
seat's WebSocket instead of an engine in this process.  A worker on the
screen's own event loop keeps the connection: it says ``hello`` with the
seat's token, hands every frame to the source and has the table show it
(:meth:`SourceTableApp.show`: the new events told, a summary, the panels
drawn); an answer chosen on the screen goes to the source, which sends it
as ``(decision id, answer)``.  Nothing is decided here: the server accepts
or refuses, and the next frame shows which (so the table never moves by
itself: :meth:`OnlineTableApp.held`).

A dropped connection is opened again with the same token (the server
answers with a full ``state``, so the seat finds its hand, question and log
as they are); an answer sent just before the drop was either committed,
and the new state shows the next question, or it was not, and the same
question is asked again.  Only a refusal of the seat itself (its token or
table unknown) ends the session, with one line for the terminal.

Before the start the table shows the lobby (who sits where); the host (the
terminal that made the table with ``play --create``, which holds its host
token) may fill the free seats with bots (``b``) and start (``g``); for
anyone else the server refuses, and the refusal is a note.

The table's chat (:mod:`.chat`) is told in the log among the game's
sentences, in its own style; ``m`` opens a line to write a message (Enter
sends, Escape closes it), and the server's refusals are one note each.
"""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import suppress
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from dragonante.i18n import t
from dragonante.interfaces.events import Table, Why
from dragonante.interfaces.narrate import Prompt
from dragonante.interfaces.tui.base import TableBase
from dragonante.interfaces.tui.chat import (
    ChatInput,
    ChatMessages,
    chat_line,
    mute_note,
    note_line,
    plain,
    refusal,
)
from dragonante.interfaces.tui.chat_line import ChatLine
from dragonante.interfaces.tui.clock import TurnClock, timeout_line
from dragonante.interfaces.tui.frame_source import FrameSource
from dragonante.interfaces.tui.hand import HandPanel
from dragonante.interfaces.tui.lobby import JoinError, Seating, manage
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.question import QuestionPanel
from dragonante.interfaces.tui.remote import RESYNC
from dragonante.interfaces.tui.screens import CardScreen, SummaryScreen
from dragonante.interfaces.tui.seats import SeatsPanel
from dragonante.interfaces.tui.source_app import SourceTableApp

#: Seconds between attempts to reconnect (the last one repeats).
RECONNECT_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)
#: Largest frame read from the server (a full ``state`` late in a long game is big).
MAX_FRAME = 2**24
#: Close codes (and error codes) after which the seat is gone: no reconnecting.
FATAL_CLOSES = {4401: "bad_token", 4404: "unknown_table", 4400: "hello_first"}


class OnlineTableApp(ChatLine, SourceTableApp):
    """One seat at a table on a server; ``failure`` says why it ended, if it failed."""

    KEYS_TEXT = "online.keys"
    HELP_TEXT = "online.help"
    CSS = (
        TableBase.CSS
        + """
    #chat-input { height: 1; padding: 0 1; background: $accent 20%; }
    """
    )
    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("b", "bots", show=False),
        Binding("g", "start", show=False),
        Binding("m", "chat", show=False),
        Binding("h", "hint", show=False),
    ]

    def __init__(
        self,
        seating: Seating,
        lang: str,
        bot_level: str = "medium",
        reconnect_delays: tuple[float, ...] = RECONNECT_DELAYS,
        gambit_summaries: bool = True,
    ) -> None:
        source = FrameSource(lang)
        source.seat = seating.seat
        source.table = seating.table
        # the events' rules come with the frames (each event's ``why``): no table here
        super().__init__(source, Table())
        self.source: FrameSource = source
        self.seating = seating
        self.bot_level = bot_level
        self.reconnect_delays = reconnect_delays
        self.gambit_summaries = gambit_summaries
        self.narrator = self.source.narrator()
        self.ws: ClientConnection | None = None
        #: The one line to print after leaving, when the seat was refused.
        self.failure: str | None = None
        #: Connections opened so far (the first, then every reconnection).
        self.connections = 0
        self.summarized = 0
        self.over_shown = False
        #: The frame being shown: whether its log starts afresh, where its news begins.
        self._fresh, self._start = False, 0
        #: What the question box says instead of a question (connecting...), or None.
        self._note: str | None = None
        #: The chat messages seen, kept to tell them again with the log.
        self.chat = ChatMessages()
        #: The turn timer's clock (``turn`` frames), shown under the question.
        self.clock = TurnClock()

    def compose(self) -> ComposeResult:
        """The table's panels, with the chat's line (hidden until ``m``) above the keys."""
        for widget in super().compose():
            if isinstance(widget, Widget) and widget.id == "keys":
                chat = ChatInput(
                    placeholder=t("online.chat.placeholder", self.lang),
                    max_length=self.seating.chat_max,
                    compact=True,
                    select_on_focus=False,  # back from a new question: keep typing on
                    id="chat-input",
                )
                chat.display = False
                chat.can_focus = False  # a hidden line never takes the keys (nor the first focus)
                yield chat
            yield widget

    def on_mount(self) -> None:
        # the table's own on_mount follows (Textual calls both): nothing moves there
        self.redraw(t("online.connecting", self.lang, server=self.seating.server))
        self.set_interval(0.5, self.tick)
        self.keep_connected()

    def tick(self) -> None:
        """The clock of the question in front of the table, under the question box
        (empty when no clock runs for it)."""
        q = self.source.question
        line = self.clock.line(
            q.get("id") if q is not None else None,
            self.source.seat,
            self.source.names(),
            self.lang,
            time.monotonic(),
        )
        self.query_one(QuestionPanel).border_subtitle = line or ""

    # --- the connection -----------------------------------------------------------

    @work(exclusive=True, group="socket")
    async def keep_connected(self) -> None:
        """Connect, play until the connection drops, and connect again (same token)."""
        failures = 0
        while True:
            code = await self._one_connection()
            if self.failure is not None:
                self.exit(return_code=1)
                return
            if code in FATAL_CLOSES:
                self.fail(
                    t(f"online.closed.{FATAL_CLOSES[code]}", self.lang, code=self.seating.code)
                )
                return
            if self.source.over:
                return  # nothing left to play: the summary stays until the person leaves
            failures = 0 if code == -2 else failures + 1
            delay = self.reconnect_delays[min(failures, len(self.reconnect_delays) - 1)]
            self.redraw(t("online.reconnecting", self.lang))
            await asyncio.sleep(delay)

    async def _one_connection(self) -> int:
        """One connection's life; its close code (-1: never opened, -2: it had worked)."""
        try:
            async with connect(self.seating.ws_url, max_size=MAX_FRAME, open_timeout=10) as ws:
                self.ws = ws
                self.source.outbox = self.send
                await ws.send(
                    json.dumps({"type": "hello", "token": self.seating.token, "lang": self.lang})
                )
                worked = False
                try:
                    async for raw in ws:
                        frame = json.loads(raw)
                        if isinstance(frame, dict):
                            worked = self.on_frame(frame) or worked
                except ConnectionClosed:
                    pass
                except (KeyError, TypeError, ValueError):  # not a server this client understands
                    self.failure = t("online.bad_frame", self.lang)
                code = ws.close_code
                if code in FATAL_CLOSES:
                    return code
                return -2 if worked else (code or -1)
        except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake, InvalidURI):
            return -1
        finally:
            self.ws = None
            self.source.outbox = None

    def fail(self, line: str) -> None:
        """The seat is gone: leave the screen and print ``line``."""
        self.failure = line
        self.exit(return_code=1)

    @work(group="send")
    async def send(self, frame: dict[str, Any]) -> None:
        """Send one frame; if the connection has just dropped, the reconnection's fresh
        state shows whether an answer got through (the same question asked again if not)."""
        ws = self.ws
        if ws is None:
            return
        with suppress(ConnectionClosed):
            await ws.send(json.dumps(frame))

    # --- frames -----------------------------------------------------------------

    def on_frame(self, frame: dict[str, Any]) -> bool:
        """Handle one server frame; True once the server has welcomed this seat."""
        kind = frame.get("type")
        source = self.source
        if kind == "welcome":
            source.welcome(frame)
            self.connections += 1
            if self.connections > 1:
                self.notify(t("online.reconnected", self.lang))
            return True
        if kind == "error":
            self._error(frame)
            return False
        if kind in ("chat", "chat_history", "mute"):
            self._chat(frame)
            return False
        if kind == "notice":
            # The server's word about the table (a bot's move its database
            # refused, then stored: docs/protocol.md), already in our language.
            self.note(str(frame.get("message") or frame.get("code")))
            return False
        if kind == "turn":
            self.clock.start(frame, time.monotonic())
            self.tick()
            return False
        if kind == "timeout":  # a bot answered for a person whose time ran out
            self.note(timeout_line(frame, source.seat, source.names(), self.lang))
            return False
        if kind == "hint":
            self._show_hint(frame)
            return False
        if kind not in ("state", "update", "table"):
            return False  # pong, or a frame a newer server added
        self._fresh, self._start = source.apply(frame)
        self.narrator = source.narrator()
        self.show()
        self.tick()
        return False

    # --- the table's hooks -----------------------------------------------------------

    def held(self) -> bool:
        """The frames move this table (each is shown as it comes), never an answer:
        the server's next frame says whether it was taken."""
        return True

    def tell_new(self) -> None:
        """The frame's new events, each with the rule its frame gave; a fresh state
        tells the whole log again (what happened before is no news for a summary)."""
        source = self.source
        start = source.mark_told()
        if self._fresh:
            self.retell()
            self.summarized = len(source.events)
        else:
            self.tell_told(*source.told(start, self.narrator))

    def interlude(self) -> bool:
        """A gambit's summary once it ends, the game's once it is over (over the
        table drawn first)."""
        return self._summaries(self._start)

    def retell(self) -> None:
        """The log told again from the first event, each chat message where it came."""
        log = self.query_one(LogPanel)
        log.clear()
        source = self.source
        source.mark_told()
        told = 0
        for position, msg in self.chat.placed:
            position = min(position, len(source.events))
            if position > told:
                self.tell_told(*source.told(told, self.narrator, position))
                told = position
            log.write(chat_line(msg, self.lang))
        self.tell_told(*source.told(told, self.narrator))

    def tell_told(self, lines: list[str], whys: list[Why | None]) -> None:
        """Tell the frames' events, each line with the rule behind it (``w``)."""
        self.tell(lines, whys=whys)

    def _chat(self, frame: dict[str, Any]) -> None:
        """A message, the history on joining, or a mute: into the log."""
        log = self.query_one(LogPanel)
        kind = frame["type"]
        position = len(self.source.events)
        if kind == "mute":
            names = self.source.names()
            log.write(note_line(mute_note(frame, self.lang, self.source.seat, names)))
            return
        messages = self.chat.history(frame, position) if kind == "chat_history" else []
        if kind == "chat" and self.chat.add(frame, position):
            messages = [frame]
        for msg in messages:
            log.write(chat_line(msg, self.lang))

    def note(self, text: str) -> None:
        """One line of the chat's own in the log (a refusal, not connected)."""
        self.query_one(LogPanel).write(note_line(text))

    def _error(self, frame: dict[str, Any]) -> None:
        code = frame.get("code")
        message = str(frame.get("message") or code)
        refused = refusal(frame, self.lang)
        if refused is not None:
            self.note(refused)
            return
        if code in ("bad_token", "unknown_table"):
            self.failure = t(f"online.closed.{code}", self.lang, code=self.seating.code)
            return
        if code == "hints_off":
            self.notify(t("hint.off", self.lang), severity="warning")
            return
        if code != "stale":  # a stale answer is simply overtaken: no need to say so
            self.notify(message, severity="warning")
        if code in RESYNC:
            self.send(self.source.sync_request())

    def _summaries(self, start: int) -> bool:
        """A gambit's summary once it ends; the game's once it is over; True if shown."""
        source = self.source
        if source.over and not self.over_shown:
            self.over_shown = True
            self.redraw()
            self.push_screen(
                SummaryScreen(
                    t("tui.game_over", self.lang),
                    source.game_over_lines(self.narrator),
                    t("online.over_keys", self.lang),
                )
            )
            return True
        if not self.gambit_summaries or start < self.summarized:
            return False
        summary = source.gambit_summary(max(start, self.summarized), self.narrator)
        self.summarized = len(source.events)
        if summary is None:
            return False
        gambit, lines = summary
        self.redraw()
        self.push_screen(
            SummaryScreen(
                t("tui.gambit_over", self.lang, gambit=gambit), lines, t("tui.close", self.lang)
            )
        )
        return True

    def redraw(self, note: str | None = None) -> None:
        """The table from the latest frame, or the lobby before the start; ``note``
        (connecting, reconnecting) replaces the question box's text."""
        source = self.source
        self.query_one("#keys", Static).update(self.keys_line())
        if not source.started:
            self.snapshot = None
            lines = source.lobby_lines()
            self.query_one(SeatsPanel).update(Text("\n".join(lines)))
            self.query_one(HandPanel).update("")
            hosting = self.seating.host is not None
            lobby_note = "online.lobby.waiting" if hosting else "online.lobby.waiting_guest"
            waiting = note or t(lobby_note, self.lang)
            self.query_one(QuestionPanel).show(None, self.lang, waiting)
            return
        self._note = note
        super().redraw()
        chat = self.query_one(ChatInput)
        if chat.display and len(self.screen_stack) == 1:
            chat.focus()  # a new question does not take the keys from a message being written

    def asked(self) -> Prompt | None:
        """No answering while the connection is away (the note says so)."""
        return None if self._note is not None else self.source.prompt()

    def waiting_text(self) -> str:
        """The connection's note, the game's end, who still antes face down, or a wait."""
        if self._note is not None:
            return self._note
        if self.source.over:
            return t("tui.header.over", self.lang)
        return self.source.face_down_line() or t("tui.waiting", self.lang)

    def keys_line(self) -> str:
        """Only the keys that work for this seat now: the lobby's ``b`` and ``g`` for
        the host alone (a guest's would be refused), ``h`` where hints are on."""
        source = self.source
        if not source.started:
            hosting = self.seating.host is not None
            return t("online.keys.lobby" if hosting else "online.keys.lobby_guest", self.lang)
        hints = source.table.get("hints_on") is True
        return t("online.keys.hints" if hints else self.KEYS_TEXT, self.lang)

    # --- the person ---------------------------------------------------------------

    def action_hint(self) -> None:
        """``h``: ask the server's best bot about this seat's question (at a table
        whose ``hints_on`` allows it); its page opens when the ``hint`` frame comes."""
        lang = self.lang
        if not self.source.hints_allowed:
            self.notify(t("hint.off", lang))
            return
        if self.source.prompt() is None or self.source.over:
            self.notify(t("hint.none", lang))
            return
        if self.ws is None:
            self.notify(t("online.not_connected", lang), severity="warning")
            return
        self.notify(t("hint.thinking", lang))
        self.source.hint()  # its words come in a hint frame

    def _show_hint(self, frame: dict[str, Any]) -> None:
        """The server's hint, on a page, if its question is still the one asked."""
        prompt = self.source.prompt()
        if prompt is None or frame.get("decision") != prompt.decision_id:
            return  # answered meanwhile: the hint is of a question gone by
        lines = [plain(line) for line in frame.get("lines") or []]
        lang = self.lang
        self.push_screen(
            CardScreen(t("hint.title", lang), lines, t("tui.close", lang), t("tui.scrolls", lang))
        )

    def give_answer(self, answer: int, decision_id: int) -> None:
        """To the server through the source; with no connection, a notice instead."""
        if self.ws is None:
            self.notify(t("online.not_connected", self.lang), severity="warning")
            self.redraw(t("online.reconnecting", self.lang))
            return
        super().give_answer(answer, decision_id)

    def action_bots(self) -> None:
        self._manage("fill_bots")

    def action_start(self) -> None:
        self._manage("start")

    def _manage(self, what: str) -> None:
        """Fill the free seats with bots, or start: the lobby API, off the screen's thread."""
        if self.source.started:
            return
        self.manage(what)

    @work(thread=True, group="lobby")
    def manage(self, what: str) -> None:
        try:
            manage(self.seating, what, self.bot_level)
        except JoinError as e:
            self.call_from_thread(self.notify, e.message(self.lang), severity="warning")
