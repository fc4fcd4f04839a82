"""Questions the books have answered face down at the same time: the ante.

"Each player chooses one card from his or her hand and puts it face down in
the center of the table. [...] Once all players have chosen ante cards,
reveal them."  The engine asks one seat at a time, in seat order from the
leader (its record is one answer per question, so a game replays the same
whoever chose first); a table of people would wait on each in turn.

:func:`ante_round` is the hook an interface uses to ask them all at once:
the ante questions still to come before the reveal whose content is
already certain.  A seat's ante question is its own hand, which no other
seat's ante card changes, so the round is found by answering each
question, on a copy, with a stand-in (its first option) and reading the
next.  The round stops at anything else: the reveal, or an ability window
of a later seat (its ability may change its hand, so its ante question
comes after it, one at a time).  The interface collects every seat's
choice and then answers the engine in the round's order, each answer with
its question's id, as if the seats had answered one after another: the
record, the digests and the rules are unchanged.

Nothing here changes a state it is given; the engine stays the only judge
of an answer (a round fed out of order, or a stale one, is refused by
``apply`` with its question's id).
"""

from __future__ import annotations

from dragonante.engine.decisions import ANTE, Decision
from dragonante.engine.game import apply
from dragonante.engine.state import GameState

#: The kinds asked face down at once (the books: the ante; the ability
#: draft is not: "a chosen ability is taken", so each pick waits on the last).
FACE_DOWN = frozenset({ANTE})


def ante_round(s: GameState) -> tuple[Decision, ...]:
    """The ante questions from the pending one up to the reveal, in the order
    the engine asks them; empty unless an ante question is pending.

    Each question is exactly the one the engine will ask when the questions
    before it are answered, whatever the answers (``tests/engine/test_face_down.py``
    replays whole games to check it)."""
    d = s.pending
    if d is None or d.kind not in FACE_DOWN:
        return ()
    found = [d]
    seats = {d.seat}
    probe = s.clone()
    while True:
        apply(probe, found[-1].options[0], found[-1].id)
        nxt = probe.pending
        if nxt is None or nxt.kind != d.kind or nxt.seat in seats:
            break
        if any(probe.ante_choice[p] < 0 for p in seats):
            break  # revealed and anted again (every card tied): the next round
        found.append(nxt)
        seats.add(nxt.seat)
    return tuple(found)


def asked_alone(s: GameState, round_: tuple[Decision, ...], seat: int) -> GameState:
    """A copy of ``s`` with ``seat``'s question of ``round_`` pending, the
    seats before it answered with stand-ins (their first option): the
    position a bot of ``seat`` decides from.  What it may see of it
    (``bots.SeatView``) hides every other seat's ante card, as it hides any
    face-down card, so the stand-ins tell it nothing; the event log is
    copied, so the bot reads the game's history."""
    probe = s.clone()
    probe.log = list(s.log) if s.log is not None else None
    for d in round_:
        if d.seat == seat:
            return probe
        apply(probe, d.options[0], d.id)
    raise ValueError(f"seat {seat} has no question in this round")
