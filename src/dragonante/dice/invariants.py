"""Conservation laws a Dice Gambit game must keep after every answer.

Gold is conserved: hoards + stakes + gold out of play equals what the
gambit started with.  Debts are accounted: every gold piece ever owed is
paid, cancelled or still owed.  Nobody holds negative gold; nobody owes a
debt after settlement; a withdrawn player owes nothing; a flight never
holds more dragons than turns taken; a slot awaits a replacement, and a
rolled value waits on ``state.rolls``, only while a roll is being asked;
and gold comes in whole pieces.  :func:`violations` returns a description
of each broken law (empty when all hold), for the soak tests and simulations.
"""

from __future__ import annotations

from dragonante.dice.decisions import ROLL
from dragonante.dice.state import STAKES, DiceState
from dragonante.dice.table import EMPTY


def violations(s: DiceState) -> list[str]:
    out: list[str] = []
    n = s.n
    if any(type(h) is not int for h in s.hoards) or type(s.stakes) is not int:
        # Gold comes in whole pieces: halves are "rounded up" (the first ante) or
        # "rounded down" (the God Flight), and every other amount is a die's.
        out.append(f"gold in fractions: hoards {s.hoards}, stakes {s.stakes}")
    if s.rolls and (s.pending is None or s.pending.kind != ROLL):
        # Each roll's value waits on the stack only for the step that asked for
        # it, which takes it at once: between questions of other kinds it is empty.
        out.append(f"roll values {s.rolls} left over with no roll asked")
    if any(h < 0 for h in s.hoards):
        out.append(f"negative hoard: {s.hoards}")
    if s.stakes < 0:
        out.append(f"negative stakes: {s.stakes}")
    gold = sum(s.hoards) + s.stakes + s.out_of_play
    if gold != s.gold_total:
        out.append(
            f"gold not conserved: hoards {s.hoards} + stakes {s.stakes} + out of play "
            f"{s.out_of_play} = {gold}, expected {s.gold_total}"
        )
    outstanding = 0
    for debtor, creditor, amount in s.debts:
        outstanding += amount
        if amount <= 0:
            out.append(f"non-positive debt {amount} of seat {debtor}")
        if not 0 <= debtor < n or not (creditor == STAKES or 0 <= creditor < n):
            out.append(f"debt between unknown parties {debtor} -> {creditor}")
        if debtor == creditor:
            out.append(f"seat {debtor} owes itself")
        if s.withdrawn[debtor]:
            out.append(f"withdrawn seat {debtor} still owes {amount}")
    if s.debt_incurred != s.debt_paid + s.debt_cancelled + outstanding:
        out.append(
            f"debts not accounted: incurred {s.debt_incurred} != paid {s.debt_paid} + "
            f"cancelled {s.debt_cancelled} + outstanding {outstanding}"
        )
    for p in range(n):
        if len(s.flights[p]) > s.turns_taken[p]:
            out.append(f"seat {p} has {len(s.flights[p])} dragons after {s.turns_taken[p]} turns")
        if s.turns_taken[p] > s.config.rounds_per_gambit:
            out.append(f"seat {p} took {s.turns_taken[p]} turns")
        waiting = any(face == EMPTY for face, _ in s.flights[p])
        if waiting and (s.pending is None or s.pending.kind != ROLL):
            out.append(f"seat {p} has an empty slot but no replacement roll is asked")
    if s.over:
        if s.debts:
            out.append("debts outstanding after the game")
        if s.stakes:
            out.append(f"{s.stakes} gold left in the stakes after the game")
        if len(s.winners) != 1:
            out.append(f"game over with winners {s.winners}")
        if s.pending is not None:
            out.append("game over with a question pending")
    elif s.pending is None:
        out.append("game not over and no question pending")
    elif not s.pending.options:
        out.append(f"question {s.pending.kind} has no legal answer")
    return out
