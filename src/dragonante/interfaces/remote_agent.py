"""An agent at a web table, over the protocol people's clients speak.

``play --join`` seats a person at a server's table; this seats an agent
there, the same way (``docs/protocol.md``): the lobby's HTTP calls take a
seat (:mod:`dragonante.interfaces.tui.lobby`), the WebSocket says ``hello``
with the seat's token, every frame is read by
:class:`~dragonante.interfaces.tui.remote.RemoteSeat` (the seat's view, its
events, its question and the legal answers the server sent), and when the
seat is asked the agent's answer goes out as ``(decision id, answer)``.
The server stays the authority and the information barrier: the agent sees
what the seat's frames carry and nothing else, and an answer it refuses
changes nothing.

The agent is a function of a :class:`RemoteTurn`, returning the answer's
value, or text (its number or words, read by
:func:`~dragonante.interfaces.text.read_answer`); :func:`text_agent` makes
one from a language model's ``respond(text) -> reply``.  It runs in a thread,
so a slow model does not stop the connection.  A dropped connection is
opened again with the same token (the server's fresh ``state`` shows the
question still open, or the next one).  An answer the server refuses (sent
faster than its message limit, ``busy``; overtaken, ``stale``) is forgotten:
the agent asks for the table again (``sync``, after a pause when ``busy``) and
answers the question the fresh frame shows, so a fast agent is slowed, never
left waiting for a question it believes it answered.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from dragonante.engine.views import Observation
from dragonante.i18n import t
from dragonante.interfaces.narrate import Narrator, Prompt
from dragonante.interfaces.render import TableView
from dragonante.interfaces.text import (
    NotAnAnswer,
    Respond,
    TextAgentGaveUp,
    TextAnswer,
    prompt_answers,
    read_answer,
    turn_text,
)
from dragonante.interfaces.tui.lobby import Seating
from dragonante.interfaces.tui.remote import RESYNC, RemoteSeat

#: The largest frame accepted (a full ``state`` of a long game), as ``play --join``.
MAX_FRAME = 2**24
#: Close codes after which the seat is gone for good (its token or table unknown).
FATAL_CLOSES = frozenset({4400, 4401, 4404})
#: Seconds an agent refused for sending too fast (``busy``) waits before it asks again.
BUSY_PAUSE = 1.0


class RemoteAgentError(RuntimeError):
    """The seat could not be played: refused by the server, or never reached."""


@dataclass(slots=True)
class RemoteTurn:
    """What the agent is given when its seat is asked (only the seat's frames)."""

    seat: int
    decision: int
    kind: str
    #: The seat's view as the engine's typed observation (totals and hints included).
    observation: Observation
    #: The legal answers: each engine value with the server's label.
    prompt: Prompt
    #: The same answers named in words and numbered (the text interface's).
    answers: list[TextAnswer]
    #: The turn as text: the story since the last turn, the table, the question.
    text: str
    narrator: Narrator = field(repr=False)

    @property
    def options(self) -> list[int]:
        return [o.answer for o in self.prompt.options]


#: An agent: the turn in, the answer out (a value, or its number or words as text).
RemoteChoose = Callable[[RemoteTurn], int | str]


def text_agent(respond: Respond, tries: int = 3) -> RemoteChoose:
    """A text agent (``respond(text) -> reply``) for a web seat: a reply that names
    no legal answer is answered with the refusal, up to ``tries`` replies, then
    :class:`~dragonante.interfaces.text.TextAgentGaveUp`."""

    def choose(turn: RemoteTurn) -> int:
        text = turn.text
        lang = turn.narrator.lang
        for _ in range(tries):
            try:
                return read_answer(respond(text), turn.answers, lang).answer
            except NotAnAnswer as refused:
                text = str(refused)
        raise TextAgentGaveUp(t("text.gave_up", lang, tries=tries))

    return choose


class RemoteAgent:
    """One agent at one web seat, until the game is over."""

    def __init__(
        self, seating: Seating, choose: RemoteChoose, lang: str = "en", reconnects: int = 5
    ) -> None:
        self.seating = seating
        self.choose = choose
        self.lang = lang
        self.reconnects = reconnects
        self.source = RemoteSeat(lang)
        #: Decisions answered (each question is answered once).
        self.answered: set[int] = set()
        #: The server's refusals of this seat's answers (``error`` frames but ``busy``).
        self.refusals: list[dict[str, Any]] = []
        #: Times the server said the agent sent faster than its message limit.
        self.slowed = 0
        #: The decision of the answer sent last (forgotten if the server refuses it).
        self._last: int | None = None
        self._told = 0

    async def play(self) -> dict[str, Any]:
        """Play the seat to the end of the game; the final view's winners and hoards."""
        failures = 0
        while not self.source.over:
            code = await self._one_connection()
            if self.source.over:
                break
            if code in FATAL_CLOSES:
                raise RemoteAgentError(f"the server refused the seat (close code {code})")
            failures = 0 if code == -2 else failures + 1
            if failures > self.reconnects:
                raise RemoteAgentError(f"no connection to {self.seating.ws_url}")
            await asyncio.sleep(min(0.2 * 2**failures, 5.0))
        assert self.source.frame is not None
        view = self.source.frame["view"]
        return {
            "seat": self.source.seat,
            "winners": list(view.get("winners") or []),
            "hoards": list(view.get("hoards") or []),
            "answered": len(self.answered),
            "refused": len(self.refusals),
            "slowed": self.slowed,
        }

    async def _one_connection(self) -> int:
        """One connection's life: its close code (-1: never opened, -2: it had worked)."""
        try:
            async with connect(self.seating.ws_url, max_size=MAX_FRAME, open_timeout=10) as ws:
                hello = {"type": "hello", "token": self.seating.token, "lang": self.lang}
                await ws.send(json.dumps(hello))
                worked = False
                with suppress(ConnectionClosed):
                    async for raw in ws:
                        frame = json.loads(raw)
                        if not isinstance(frame, dict):
                            continue
                        worked = worked or frame.get("type") == "welcome"
                        answer = await self.on_frame(frame)
                        if answer is not None:
                            await ws.send(json.dumps(answer))
                        if self.source.over:
                            return -2
                code = ws.close_code
                return code if code in FATAL_CLOSES else (-2 if worked else (code or -1))
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI):
            return -1

    async def on_frame(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """Take one frame in; the answer frame to send if the seat is asked now."""
        kind = frame.get("type")
        source = self.source
        if kind == "welcome":
            source.welcome(frame)
            return None
        if kind == "error":
            return await self.on_refusal(frame)
        if kind not in ("state", "update", "table"):
            return None
        fresh, _start = source.apply(frame)
        if fresh:
            self._told = 0
        turn = self.turn()
        if turn is None or turn.decision in self.answered:
            return None
        self.answered.add(turn.decision)
        self._last = turn.decision
        chosen = await asyncio.to_thread(self.choose, turn)
        if isinstance(chosen, str):  # text: its number or words (NotAnAnswer if neither)
            value = read_answer(chosen, turn.answers, self.lang).answer
        elif isinstance(chosen, int) and not isinstance(chosen, bool) and chosen in turn.options:
            value = int(chosen)
        else:
            raise RemoteAgentError(
                f"the agent answered {chosen!r} to {turn.kind!r}; "
                f"legal answers: {', '.join(map(str, turn.options))}"
            )
        return {"type": "answer", "decision": turn.decision, "answer": value}

    async def on_refusal(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """An ``error`` frame: the answer sent last is forgotten (its question may
        still be open) and, unless nothing can change, the table asked for again."""
        code = frame.get("code")
        if code == "busy":
            self.slowed += 1
        else:
            self.refusals.append(frame)
        if self._last is not None:
            self.answered.discard(self._last)
            self._last = None
        if code == "busy":
            await asyncio.sleep(BUSY_PAUSE)  # the server's bucket refills meanwhile
            return self.source.sync_request()
        return self.source.sync_request() if code in RESYNC else None

    def turn(self) -> RemoteTurn | None:
        """The seat's turn now (None unless it is asked)."""
        source = self.source
        prompt = source.prompt()
        if prompt is None or source.seat is None:
            return None
        narrator = source.narrator()
        snapshot = source.snapshot(narrator)
        assert snapshot is not None
        story = source.tell(self._told, narrator)
        self._told = len(source.events)
        answers = prompt_answers(prompt, narrator)
        view: TableView = snapshot.view
        return RemoteTurn(
            seat=source.seat,
            decision=prompt.decision_id,
            kind=prompt.kind,
            observation=view.obs,
            prompt=prompt,
            answers=answers,
            text=turn_text(view, narrator, prompt, answers, story),
            narrator=narrator,
        )


def sit(seating: Seating, choose: RemoteChoose, lang: str = "en") -> dict[str, Any]:
    """Play ``seating``'s seat with ``choose`` until the game ends (blocking)."""
    return asyncio.run(RemoteAgent(seating, choose, lang).play())


__all__ = [
    "RemoteAgent",
    "RemoteAgentError",
    "RemoteChoose",
    "RemoteTurn",
    "sit",
    "text_agent",
]
