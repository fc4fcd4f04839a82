"""Primitive table operations every Dice Gambit rule is built from.

Asking a question, logging an event, paying with a debt for the shortfall,
taking from the stakes without one, and who is still in the gambit.  Each of
these rules is stated once in the seed and lives here once.  The game's
registry (:data:`RULES`, on the kernel's interpreter) maps step names and
decision kinds to their handlers, so the state holds only data (a queue of
small tuples) and can be cloned or saved mid-turn.
"""

from __future__ import annotations

from typing import Any, Never

from dragonante.dice.decisions import ROLL, Decision
from dragonante.dice.state import STAKES, DiceState, Dragon
from dragonante.dice.table import DRAGONS, TIAMAT
from dragonante.kernel import Registry, Step


def _explain(d: Decision, answer: object) -> str:
    """A refused answer in the tracker's words (a die face out of range)."""
    if d.kind == ROLL:
        sides = d.ctx[0]
        return f"a d{sides} shows 1 to {sides}; {answer!r} is impossible"
    return f"{answer!r} is not an answer to {d.kind!r}; choose from {list(d.options)}"


#: Safety net for the interpreter: no real gambit takes anywhere near this many
#: steps between two questions.
MAX_STEPS_PER_ANSWER = 100_000

#: The Dice Gambit's interpreter: its steps and resolvers (its dragons' powers
#: are steps, so it registers no powers), and the ``apply`` / ``advance`` that
#: run them (:mod:`dragonante.dice.game` publishes those).  The card game has
#: its own registry, so the two games' names never meet.
RULES: Registry[DiceState, Never] = Registry(
    "dice game", max_steps=MAX_STEPS_PER_ANSWER, explain=_explain
)
step = RULES.step
resolver = RULES.resolver


def push(s: DiceState, *steps: Step) -> None:
    """Queue steps to run next, in the order given (the queue is a stack)."""
    s.queue.extend(reversed(steps))


def emit(s: DiceState, kind: str, **data: Any) -> None:
    if s.log is not None:
        s.log.append((kind, data))


def ask(
    s: DiceState, seat: int, kind: str, options: tuple[int, ...], ctx: tuple[int, ...] = ()
) -> None:
    """Put one question to ``seat``; the interpreter stops until it is answered."""
    s.decision_count += 1
    s.pending = Decision(s.decision_count, seat, kind, options, -1, ctx)


def players_in(s: DiceState) -> list[int]:
    """Seats still in the gambit, in turn order."""
    return [p for p in s.order if not s.withdrawn[p]]


def opponents(s: DiceState, seat: int) -> list[int]:
    """The other seats still in the gambit, in turn order starting after ``seat``
    (a seat that plays or earns a flight is always in the turn order)."""
    order = s.order
    i = order.index(seat)
    return [p for p in order[i + 1 :] + order[:i] if not s.withdrawn[p]]


def flight_in_play(s: DiceState, seat: int) -> list[Dragon]:
    """A seat's dragons that are in play: a withdrawn player's flight has left the table."""
    return [] if s.withdrawn[seat] else s.flights[seat]


def tiamat_in_play(s: DiceState) -> bool:
    return any(d[0] == TIAMAT for p in range(s.n) for d in flight_in_play(s, p))


def has_evil_dragon(s: DiceState, seat: int) -> bool:
    """Tiamat counts: "dragon gods still count as dragons" (§8.6)."""
    return any(DRAGONS[face].evil for face, _ in flight_in_play(s, seat))


def credit(s: DiceState, to: int, amount: int) -> None:
    if to == STAKES:
        s.stakes += amount
    else:
        s.hoards[to] += amount


def pay(s: DiceState, payer: int, to: int, amount: int, reason: str) -> int:
    """``payer`` pays ``amount`` to a seat or the stakes; the shortfall becomes a debt.

    "they pay as much as they can now and owe a debt ... for the remaining
    gold amount" - the same for antes, good-dragon demands and Triplet Flight
    rewards; the debt's creditor is whoever was to be paid.
    """
    paid = min(amount, s.hoards[payer])
    s.hoards[payer] -= paid
    credit(s, to, paid)
    short = amount - paid
    if short:
        s.debts.append((payer, to, short))
        s.debt_incurred += short
    emit(s, "pay", payer=payer, to=to, amount=amount, paid=paid, debt=short, reason=reason)
    return paid


def take_from_stakes(s: DiceState, seat: int, amount: int, reason: str) -> int:
    """Take up to ``amount`` from the stakes: "the stakes is not responsible for any debt"."""
    taken = min(amount, s.stakes)
    s.stakes -= taken
    s.hoards[seat] += taken
    emit(s, "take", seat=seat, amount=amount, taken=taken, reason=reason)
    return taken


def debt_owed(s: DiceState, seat: int) -> int:
    return sum(amount for debtor, _, amount in s.debts if debtor == seat)


def pay_debts_now(s: DiceState, seat: int, reason: str) -> None:
    """Pay ``seat``'s debts in the order incurred until none are left or the hoard is empty.

    Used on withdrawal (§8.8).  Whatever cannot be paid is cancelled: the
    player has no gold left, and at settlement "they do not owe anything else".
    """
    keep: list[tuple[int, int, int]] = []
    for debt in s.debts:
        if debt[0] != seat:
            keep.append(debt)
            continue
        _, creditor, amount = debt
        paid = min(amount, s.hoards[seat])
        s.hoards[seat] -= paid
        credit(s, creditor, paid)
        s.debt_paid += paid
        s.debt_cancelled += amount - paid
        emit(s, "debt_paid", seat=seat, to=creditor, owed=amount, paid=paid, reason=reason)
    s.debts = keep
