"""Learn to play in the browser: the guided first game (:mod:`dragonante.tutorial`) over one socket.

A lesson is the tutorial's game drawn as any table is: a :class:`LessonTable`
(a :class:`~dragonante.interfaces.web.tables.live.LiveTable` that lives in memory
only) whose frames come from the same :func:`~.tables.seat_view` as every
seat's, so the browser reuses the table's drawing, and nothing reaches the
page that ``observe`` and ``events_for`` do not give the player's seat.
Beside the views, the seat alone gets ``coach`` frames: the coach's notes in
the seat's language (from the server's catalogues), the suggested answer,
the step reached and the player's answers.

Why a socket of its own, and no stored table:

* the tutorial is deterministic from the player's answers alone
  (``tutorial.progress``), so the browser keeps them (``localStorage``) and
  a lesson is rebuilt from them whenever the page comes back: after a
  reload, a restart, or in another process of a cluster.  Nothing to store,
  nothing to expire, and no code a stranger could look up or join;
* the lesson ends with its socket, so its memory is bounded by the
  socket limits every connection passes (per address and in total), and it
  counts against ``max_tables`` while it lives (``House.lessons``); each
  start is a ``tables`` request of the address's rate limit.

The player's answers from a page are untrusted: at most
``protocol.MAX_LEARN_ANSWERS``, each checked by the engine as it is
replayed; saved answers that do not replay start the tutorial afresh and
say so (``bad_progress``).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from dragonante.engine.config import config_to_dict
from dragonante.engine.decisions import IllegalAnswer
from dragonante.interfaces.narrate import table_names
from dragonante.interfaces.web.shared.narration import t
from dragonante.interfaces.web.shared.protocol import ProtocolError, encode, error
from dragonante.interfaces.web.storage.store import (
    BOT,
    FINISHED,
    HUMAN,
    OPEN,
    PLAYING,
    SeatInfo,
    StoredTable,
)
from dragonante.interfaces.web.tables.live import Client, LiveTable, seat_view
from dragonante.tutorial import PLAYER, STEPS, Note, ProgressError, Tutorial
from dragonante.tutorial.scripted import EASY
from dragonante.tutorial.tutorial import DONE

#: What a lesson's table is called in its frames: not a table code (codes
#: never hold a dash), so no lookup, link or replay can ever name it.
LESSON_CODE = "LEARN-1"

#: Allowance charged for a message that replays the tutorial from its start
#: (a step replayed, a restart, a language switch): a page cannot make the
#: server replay it in a loop faster than the socket's rate refills.
REPLAY_COST = 4


class LessonTable(LiveTable):
    """The tutorial's game as a table the frames can be made from: the player
    in seat 0, the tutorial's bots in the others; in memory only.

    Its state is the tutorial's own (``show``); it is never rebuilt from a
    seed, has no face-down round (the tutorial asks the player's ante as the
    engine does, alone), and no lobby lists it."""

    def __init__(self, tut: Tutorial) -> None:
        cfg = tut.deal.config
        super().__init__(
            StoredTable(
                code=LESSON_CODE,
                config=config_to_dict(cfg),
                seed=tut.deal.seed,
                status=OPEN,  # not rebuilt from the seed: the tutorial's state is shown
                created_at=datetime.now(UTC),
                unlisted=True,
            )
        )
        self.status = PLAYING
        self.started_at = self.created_at
        self.show(tut)

    def round(self) -> None:
        return None

    def rebuild(self, answers: list[int]) -> None:
        raise NotImplementedError("a lesson's game is the tutorial's, never replayed from a seed")

    def show(self, tut: Tutorial) -> None:
        """Draw ``tut``'s game from now on (its seats named in its language)."""
        cfg = tut.deal.config
        names = table_names(cfg.players, (PLAYER,), tut.lang)
        self.seats = {
            p: SeatInfo(p, names[p], HUMAN) if p == PLAYER else SeatInfo(p, names[p], BOT, EASY)
            for p in range(cfg.players)
        }
        self.state = tut.game.state
        self.answers = list(tut.game.record.answers)
        self.status = FINISHED if tut.over else PLAYING


def coach_frame(tut: Tutorial, notes: list[Note]) -> dict[str, Any]:
    """What the coach says now, for the player's seat alone: the notes of this
    moment, the suggested answer to the question in front of the player (one
    of its own options), the step and the answers to save."""
    step = tut.step
    d = tut.question
    return {
        "type": "coach",
        "notes": [n.to_dict() for n in notes],
        "decision": d.id if d is not None else None,
        "suggestion": tut.suggestion if d is not None else None,
        "step": None
        if step is None
        else {"id": step.id, "title": tut.title(step), "index": STEPS.index(step) + 1},
        "steps": len(STEPS),
        "replayable": tut.replayable() is not None,
        "over": tut.over,
        "finished": any(n.kind == DONE for n in notes) or (tut.over and tut.index >= len(STEPS)),
        "progress": tut.progress().to_dict(),
    }


def begin(lang: str, answers: tuple[int, ...]) -> tuple[Tutorial, list[Note], bool]:
    """A tutorial in ``lang`` resumed from ``answers`` (a new one if none), its
    first notes, and False if the answers did not replay (then it starts afresh).
    Runs bots and replays: call it off the event loop."""
    resumed = True
    try:
        # the page sends only the answers (no step to check them against): a
        # replay the game accepts is the tutorial where the player left it
        tut = Tutorial(lang, answers)
    except (ProgressError, IllegalAnswer):
        tut, resumed = Tutorial(lang), False
    return tut, tut.advance(), resumed


def replayed(tut: Tutorial) -> tuple[Tutorial, list[Note]]:
    """``tut`` back at the start of its step, and what the coach says there."""
    back = tut.replay()
    return back, back.advance()


def answered(tut: Tutorial, answer: int) -> list[Note]:
    """The player's answer played, and the bots up to the next question."""
    tut.answer(answer)
    return tut.advance()


class Lesson:
    """One page's tutorial: its game, its table, and its one connection."""

    def __init__(self, tut: Tutorial, notes: list[Note], client: Client) -> None:
        self.tut = tut
        self.notes = notes
        self.client = client
        self.lock = asyncio.Lock()

    @property
    def table(self) -> LessonTable:
        table = self.client.table
        assert isinstance(table, LessonTable)
        return table

    def welcome(self, resumed: bool) -> None:
        """The first frames: ``welcome``, the seat's ``state``, the coach."""
        c = self.client
        c.push_json({"type": "welcome", "table": LESSON_CODE, "seat": PLAYER, "lang": c.lang})
        if not resumed:
            e = ProtocolError("bad_progress", "the saved tutorial does not replay; it starts again")
            c.push_json(error(e, t(c.lang, f"error.{e.code}")))
        self.send_state()

    def send_state(self) -> None:
        """The whole view again (a new tutorial, a step replayed, a language,
        a ``sync``) and what the coach says now."""
        table, c = self.table, self.client
        state = table.state
        assert state is not None
        view = seat_view(table, state, PLAYER, c.lang, 0)
        c.log_pos = view["log_size"]
        c.push(encode({"type": "state", "table": table.summary(PLAYER)} | view))
        c.push_json(coach_frame(self.tut, self.notes))

    def _update(self, decision: int) -> None:
        table, c = self.table, self.client
        state = table.state
        assert state is not None
        body = seat_view(table, state, PLAYER, c.lang, c.log_pos)
        c.log_pos = body["log_size"]
        body["type"] = "update"
        body["ack"] = decision
        c.push(encode(body))
        if self.tut.over:
            c.push_json({"type": "table", "table": table.summary(PLAYER)})
        c.push_json(coach_frame(self.tut, self.notes))

    async def answer(self, decision: int, answer: int) -> None:
        """The player answers the question in front of them (refused, nothing
        changed, if it is not that question or not one of its answers)."""
        async with self.lock:
            d = self.tut.question
            if d is None:
                raise ProtocolError("game_over", "the tutorial's game is over")
            if decision != d.id:
                raise ProtocolError(
                    "stale",
                    f"question {decision} is not the current question ({d.id})",
                    current=d.id,
                )
            if answer not in d.options:
                raise ProtocolError(
                    "illegal",
                    f"{answer} is not a legal answer to {d.kind}; legal: {list(d.options)}",
                    current=d.id,
                )
            try:
                self.notes = await asyncio.to_thread(answered, self.tut, answer)
            except IllegalAnswer as e:  # checked above; kept so a rules bug changes nothing
                raise ProtocolError("illegal", str(e), current=d.id) from None
            self.table.show(self.tut)
            self._update(decision)

    async def replay(self) -> None:
        """Back to the start of the step in progress (or the last one that asked)."""
        async with self.lock:
            self.client.charge(REPLAY_COST)
            self.tut, self.notes = await asyncio.to_thread(replayed, self.tut)
            self.table.show(self.tut)
            self.send_state()

    async def restart(self) -> None:
        """The tutorial again from the first step."""
        await self.again(self.client.lang, ())

    async def set_lang(self, lang: str) -> None:
        """The coach and the table in ``lang`` from now on (the same game, replayed)."""
        await self.again(lang, tuple(self.tut.answers))

    async def again(self, lang: str, answers: tuple[int, ...]) -> None:
        async with self.lock:
            self.client.charge(REPLAY_COST)
            self.client.lang = lang
            self.tut, self.notes, _ = await asyncio.to_thread(begin, lang, answers)
            self.table.show(self.tut)
            self.send_state()

    async def sync(self) -> None:
        async with self.lock:
            self.send_state()


__all__ = [
    "LESSON_CODE",
    "REPLAY_COST",
    "Lesson",
    "LessonTable",
    "answered",
    "begin",
    "coach_frame",
    "replayed",
]
