"""Three-Dragon Ante: Dice Gambit - the tavern variant played with polyhedral dice.

A separate, small rules engine (options.md §8) in the card game's decision
model: a state is either over or waiting on one :class:`Decision` for one
seat, and every answer is one int.  Dice come from a seeded SplitMix64
stream (reproducible: same config, seed and answers give the same game) or
from a real table, where each roll is a ``roll`` question whose legal
answers are the die's faces - that is the game-master's tracker.

    from dragonante.dice import DiceConfig, new_game, apply

    state = new_game(DiceConfig(players=3), seed=1)
    while not state.over:
        d = state.pending
        apply(state, d.options[0], d.id)

Modules: ``config`` (settings and rulings), ``table`` (the d12 dragon
table), ``state``, ``rolls`` (dice sources), ``powers`` (playing dragons,
evil/good powers, Bahamut), ``flights`` (special flights), ``tiebreak``,
``settlement`` (debts, gambit winner), ``flow`` (gambits, turns,
withdrawal), ``game`` (entry points), ``views`` (the player tracker),
``records`` (save and resume), ``invariants``.  Only the rules live here:
the Dice Gambit's bots are :mod:`dragonante.bots.dice` and its bot-against-bot
games :mod:`dragonante.sim.dice_selfplay`.  Standard library only.
"""

from __future__ import annotations

from dragonante.dice.config import ConfigError, DiceConfig
from dragonante.dice.decisions import Decision, IllegalAnswer
from dragonante.dice.game import advance, answered, apply, draws_on_chance, new_game, run
from dragonante.dice.records import DICE_RULES_VERSION
from dragonante.dice.state import PHYSICAL, SEEDED, DiceState

__all__ = [
    "DICE_RULES_VERSION",
    "PHYSICAL",
    "SEEDED",
    "ConfigError",
    "Decision",
    "DiceConfig",
    "DiceState",
    "IllegalAnswer",
    "advance",
    "answered",
    "apply",
    "draws_on_chance",
    "new_game",
    "run",
]
