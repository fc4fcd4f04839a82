"""The bots as they were when a lone person was asked: what a take-back puts back.

A person whose every other seat is a bot may take an answer back
(``take_back.py``).  The engine replays the game itself from config, seed
and answers; the bots' random generators are not in it, and a bot that went
on from where it was would answer differently the second time, so a
take-back could fish for luck.  So each time such a person is asked,
before any bot moves, the bots are copied (:func:`keep_bots`), keyed by the
number of answers then; a take-back to that point restores the copy
(:func:`restore_bots`).  The last :data:`TAKE_BACKS` copies are kept, in
memory only; a table of several people keeps none.
"""

from __future__ import annotations

import copy

from dragonante.interfaces.web.storage.store import HUMAN, PLAYING
from dragonante.interfaces.web.tables.live import LiveTable

#: A person may step back this many of their answers (the copies kept).
TAKE_BACKS = 30


def lone_person(table: LiveTable) -> int | None:
    """The seat of the table's only person when every other seat is a bot
    (None: several people, or seats still free)."""
    if len(table.seats) != table.players:
        return None
    people = [p for p, info in table.seats.items() if info.kind == HUMAN]
    return people[0] if len(people) == 1 else None


def keep_bots(table: LiveTable) -> None:
    """Copy the bots (random generators included) when the table's only person
    is asked, before any bot answers or chooses.  Called at every change of
    the question (``Answers.schedule_bot``), so once per question: a copy
    already kept for this many answers stays (bots of a face-down round may
    have chosen since)."""
    state = table.state
    if table.status != PLAYING or state is None or state.pending is None:
        return
    n = len(table.answers)
    person = None if n in table.bots_at else lone_person(table)
    if person is None or person in table.bots:  # kept, several people, or handed to a bot
        return
    r = table.round()
    asked = r.questions if r is not None else (state.pending,)
    if any(q.seat == person for q in asked):
        table.bots_at[n] = copy.deepcopy(table.bots)
        while len(table.bots_at) > TAKE_BACKS:
            del table.bots_at[min(table.bots_at)]


def last_asked(table: LiveTable) -> int | None:
    """The number of answers when the lone person was last asked a question
    answered since (None: no copy kept for one)."""
    n = len(table.answers)
    return max((k for k in table.bots_at if k < n), default=None)


def restore_bots(table: LiveTable, n: int) -> None:
    """The bots as they were at ``n`` answers (a copy: the kept one stays as it
    is, for a later take-back); the copies of later questions go."""
    table.bots = copy.deepcopy(table.bots_at[n])
    for k in [k for k in table.bots_at if k > n]:
        del table.bots_at[k]
