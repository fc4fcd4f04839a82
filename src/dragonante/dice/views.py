"""What the table sees: the player tracker sheet and the whole-table view.

Dice Gambit has no hidden information - every roll is made in the open - so
every seat sees the same thing.  :func:`sheet` is the seed's Player Tracker
for one player (their dragons with type, alignment and strength, the total
strength, the four special-flight check boxes, the dragon hoard and the
debts owed); :func:`observe` is everything a player or bot may look at.
"""

from __future__ import annotations

from typing import Any

from dragonante.dice.core import debt_owed
from dragonante.dice.flights import total_strength
from dragonante.dice.state import FLIGHTS, DiceState
from dragonante.dice.table import EMPTY, dragon


def dragon_row(face: int, strength: int) -> dict[str, Any]:
    t = dragon(face)
    return {
        "face": face,
        "type": t.name,
        "alignment": t.alignment,
        "god": t.god,
        "strength": strength,
        "pending": face == EMPTY,
    }


def sheet(s: DiceState, seat: int) -> dict[str, Any]:
    """The Player Tracker of one seat, as data."""
    flight = s.flights[seat]
    return {
        "seat": seat,
        "dragons": [dragon_row(face, strength) for face, strength in flight],
        "total_strength": total_strength(flight),
        "flights": {name: name in s.flights_earned[seat] for name in FLIGHTS},
        "hoard": s.hoards[seat],
        "debts_owed": debt_owed(s, seat),
        "debts": [
            {"to": creditor, "amount": amount}
            for debtor, creditor, amount in s.debts
            if debtor == seat
        ],
        "withdrawn": s.withdrawn[seat],
        "in_session": s.in_session[seat],
        "gods_played": s.gods_played[seat],
        "gaming_set": s.config.has_gaming_set(seat),
        "combined_hoard": s.totals[seat],
    }


def tracker(s: DiceState) -> dict[str, Any]:
    """Every player's sheet and the stakes: the table's tracker at this moment.

    ``round_end`` and ``gambit_end`` events carry one, so an interface can
    show the sheets as they were then even if the game has moved on since.
    """
    return {
        "gambit": s.gambit,
        "gambits": s.config.gambits,
        "round": s.round,
        "rounds": s.config.rounds_per_gambit,
        "first": s.first,
        "order": list(s.order),
        "stakes": s.stakes,
        "combined": s.config.multi_gambit and s.config.multi_gambit_hoard == "reset",
        "sheets": [sheet(s, p) for p in range(s.n)],
    }


def observe(s: DiceState) -> dict[str, Any]:
    """The whole table as every seat sees it."""
    d = s.pending
    return {
        **tracker(s),
        "first_rolls": list(s.first_rolls),
        "pending": None if d is None else d.to_dict(),
        "over": s.over,
        "winners": list(s.winners),
        "gambit_winners": list(s.gambit_winners),
    }
