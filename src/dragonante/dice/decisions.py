"""The questions a Dice Gambit table asks, in the engine's decision model.

The kernel's :class:`~dragonante.kernel.Decision` and
:class:`~dragonante.kernel.IllegalAnswer`, as in the card game: one
seat, a kind, the tuple of legal answers, every answer one int.  A physical
die is just another question: with dice rolled at a real table, the engine
asks the roller for each die's face (``roll``, options ``1..sides``), so the
game-master's tracker is this same engine with the dice typed in.
"""

from __future__ import annotations

from typing import Final

from dragonante.kernel import PASS, Decision, IllegalAnswer

#: Roll a die at the table: answer the face shown.  ``ctx`` is
#: ``(sides, purpose, die_number, dice_count)``: with advantage the roller
#: rolls two dice (die 1 of 2, die 2 of 2) and the engine keeps the highest.
ROLL: Final = "roll"
#: Your turn: ``PLAY`` a dragon or ``WITHDRAW`` from the gambit.
TURN: Final = "turn"
#: Your good dragon's power: the opponent (a seat) who returns gold to the
#: stakes, or ``PASS``.  ``ctx`` is ``(amount,)``.
DEMAND: Final = "demand"
#: Sacrifice your Bahamut: the seat whose Tiamat it destroys, or ``PASS``.
SACRIFICE: Final = "sacrifice"
KINDS: Final = (ROLL, TURN, DEMAND, SACRIFICE)

# TURN answers.
PLAY: Final = 0
WITHDRAW: Final = 1

# What a roll decides (``ctx[1]`` of a ROLL question, ``purpose`` of roll events).
ORDER_ROLL: Final = 0  # who goes first (d12, advantage)
TYPE_ROLL: Final = 1  # the dragon's type (d12, never advantage)
STRENGTH_ROLL: Final = 2  # the dragon's strength die (advantage)
TIEBREAK_ROLL: Final = 3  # the d20 roll-off (advantage)
PURPOSES: Final = ("turn order", "dragon type", "dragon strength", "tie-breaker")

__all__ = [
    "DEMAND",
    "KINDS",
    "ORDER_ROLL",
    "PASS",
    "PLAY",
    "PURPOSES",
    "ROLL",
    "SACRIFICE",
    "STRENGTH_ROLL",
    "TIEBREAK_ROLL",
    "TURN",
    "TYPE_ROLL",
    "WITHDRAW",
    "Decision",
    "IllegalAnswer",
]
