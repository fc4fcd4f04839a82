"""Settling debts and naming the gambit winner (options.md §8.10).

After the special flights every debt is repaid "in the order they were
incurred": by default one ledger for the whole table in that order
(``settlement_order=incurred``); ``turn_order`` settles player by player,
each player's debts in the order incurred.  A player whose hoard is empty,
or runs out during settlement, "does not owe anything else": their remaining
debts are cancelled.  Debts to the stakes - already emptied by the Leader
Flight - are paid to the player who won them (``stake_debt_payee=winner``),
leave play (``lost``) or are forgiven (``forgiven``); the stakes' winner
does not pay themself.  The gambit winner is then the player still in the
gambit with the largest hoard (ties: §8.9 without the hoard criterion).
"""

from __future__ import annotations

from dragonante.dice.core import emit, players_in, push, step
from dragonante.dice.state import OUT_OF_PLAY, STAKES, DiceState
from dragonante.kernel import Step


@step("settle")
def _settle(s: DiceState, st: Step) -> None:
    debts = list(s.debts)
    emit(s, "settle", debts=[list(d) for d in debts])
    if s.config.settlement_order == "turn_order":
        rank = {p: i for i, p in enumerate(s.order)}
        debts.sort(key=lambda d: rank[d[0]])  # stable: each player's debts stay in order
    payee = s.config.stake_debt_payee
    broke: set[int] = set()
    for debtor, creditor, amount in debts:
        if creditor == STAKES and (
            payee == "forgiven" or (payee == "winner" and debtor == s.stake_winner)
        ):
            s.debt_cancelled += amount
            emit(s, "debt_cancelled", seat=debtor, to=creditor, owed=amount, why="forgiven")
            continue
        if debtor in broke or s.hoards[debtor] == 0:
            broke.add(debtor)
            s.debt_cancelled += amount
            emit(s, "debt_cancelled", seat=debtor, to=creditor, owed=amount, why="no gold")
            continue
        paid = min(amount, s.hoards[debtor])
        s.hoards[debtor] -= paid
        to = creditor
        if creditor == STAKES:
            if payee == "winner":
                to = s.stake_winner
                s.hoards[to] += paid
            else:
                to = OUT_OF_PLAY
                s.out_of_play += paid
        else:
            s.hoards[creditor] += paid
        s.debt_paid += paid
        s.debt_cancelled += amount - paid
        if s.hoards[debtor] == 0:
            broke.add(debtor)
        emit(s, "debt_paid", seat=debtor, to=to, owed=amount, paid=paid, reason="settle")
    s.debts = []


@step("winner")
def _winner(s: DiceState, st: Step) -> None:
    seats = players_in(s)
    best = max(s.hoards[p] for p in seats)
    tied = [p for p in seats if s.hoards[p] == best]
    if len(tied) == 1:
        push(s, ("gambit_won", tied[0]))
    else:
        push(s, ("tiebreak", "winner", 1, *tied))


@step("gambit_won", "seat")
def _gambit_won(s: DiceState, st: Step) -> None:
    seat = st[1]
    s.gambit_winner = seat
    s.gambit_winners.append(seat)
    emit(s, "gambit_won", gambit=s.gambit, winner=seat, hoards=list(s.hoards))
