"""The face-down ante at a web table: every seat asked at once, revealed together.

The books: "Each player chooses one card from his or her hand and puts it
face down in the center of the table. [...] Once all players have chosen
ante cards, reveal them."  The engine asks one seat after another
(:mod:`dragonante.engine.face_down`); a table of people would queue behind
"Ann is deciding".  So when an ante question is pending, the table opens a
:class:`FaceDown` round from ``ante_round(state)``: every seat of it sees
its own question at once (``tables.seat_view`` puts it in that seat's view
only), people and bots choose in any order, and when the last has chosen
the answers are played and committed together, in the engine's seat order,
each with its own question's id (``Answers``): the record is the one the
engine always kept, and the events of the reveal reach everyone in one
``update``, in seat order, so their order tells nothing of who chose first.

What a seat's frame says of the round (:meth:`FaceDown.part`): who is asked
and who has not chosen yet (the books' face-down card in the center is seen
by everyone: that a card lies there, never which), and, in that seat's own
frames only, the card it chose.  A seat may choose again until the last
seat chooses (a card face down may be taken back before the reveal); that
changes nothing in anyone else's frames, so nobody can tell it happened.

Choices are kept in memory only, until the reveal commits them with the
last: a server that stops mid-round loses them, and the table, replayed
from its stored answers, asks the whole round again (``docs/web.md``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from dragonante.bots import Bot, SeatView
from dragonante.engine.decisions import Decision
from dragonante.engine.face_down import ante_round, asked_alone
from dragonante.engine.state import GameState

log = logging.getLogger("dragonante.web")


@dataclass(slots=True)
class FaceDown:
    """A round of questions answered at once, and the choices made so far."""

    #: The state the round was found in: a new state (an answer played, a
    #: replay) finds its round anew.
    state: GameState
    #: The question pending then (a state changed in place is looked at anew).
    pending: Decision | None
    #: The questions, in the order the engine asks them (empty: no round).
    questions: tuple[Decision, ...]
    #: Seat -> its chosen answer (memory only; committed at the reveal).
    chosen: dict[int, int] = field(default_factory=dict)
    #: The encoded views of the round's broadcasts, without its part, by kind
    #: of connection, and what they were made under (``frames.round_views``).
    views: dict[tuple[Any, ...], tuple[str, int]] = field(default_factory=dict)
    views_made_under: tuple[Any, ...] = ()

    @classmethod
    def of(cls, state: GameState) -> FaceDown:
        """The round pending in ``state``; one question alone is no round
        (it is asked as any other)."""
        found = ante_round(state)
        return cls(state, state.pending, found if len(found) > 1 else ())

    def holds(self, state: GameState) -> bool:
        """Whether this is the round of ``state`` as it is now."""
        return self.state is state and self.pending is state.pending

    def question(self, decision: int) -> Decision | None:
        """The round's question with this id (None: not one of the round's)."""
        for q in self.questions:
            if q.id == decision:
                return q
        return None

    def asked(self, seat: int | None) -> Decision | None:
        """``seat``'s question in the round (None: it is not asked)."""
        for q in self.questions:
            if q.seat == seat:
                return q
        return None

    def waiting(self) -> list[int]:
        """The seats still to choose, in the round's order."""
        return [q.seat for q in self.questions if q.seat not in self.chosen]

    def ready(self) -> bool:
        """Every seat has chosen: the reveal."""
        return all(q.seat in self.chosen for q in self.questions)

    def answers(self) -> list[tuple[int, int, int]]:
        """``(decision, seat, answer)`` in the engine's order (all chosen)."""
        return [(q.id, q.seat, self.chosen[q.seat]) for q in self.questions]

    def part(self, seat: int | None) -> dict[str, Any]:
        """What a frame of ``seat`` (None: a spectator or a game-master) says of
        the round: the same for everyone but the ``chosen`` card of the seat's
        own, present only in that seat's frames."""
        out: dict[str, Any] = {
            "kind": self.questions[0].kind,
            "seats": [q.seat for q in self.questions],
            "waiting": self.waiting(),
        }
        if seat is not None and seat in self.chosen:
            out["chosen"] = self.chosen[seat]
        return out


async def round_choice(code: str, face_down: FaceDown, q: Decision, bot: Bot) -> int:
    """A bot's choice for ``q`` of a face-down round, from that seat's own
    view of a position where ``q`` is pending (the seats before it answered
    with stand-ins it cannot see); a bot that fails answers option 0."""
    state = face_down.state
    try:
        probe = asked_alone(state, face_down.questions, q.seat)
        choice = await asyncio.to_thread(bot.choose, SeatView(probe, q.seat))
    except Exception:
        log.exception("table %s: bot %s failed; it chooses option 0", code, bot.name)
        return q.options[0]
    if choice not in q.options:
        log.error("table %s: bot %s chose illegally (%r)", code, bot.name, choice)
        return q.options[0]
    return int(choice)
