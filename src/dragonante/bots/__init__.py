"""Bots: players that see only what their seat sees.

``make_bot(spec, seed)`` builds a bot from a name or level with optional
settings, ``name[:key=value[:key=value...]]`` - e.g. ``ismcts:iters=200`` or
``heuristic:samples=5`` - or an outside agent, ``module:function`` or
``policy:PATH``; :func:`bot_names` lists the names a user may type
(``--opponents``, ``--seats``).  Every bot registers itself in
:mod:`dragonante.bots.registry` (outside packages by the entry point group
``dragonante.bots``); ``dragonante bots`` lists them.

=========  ==========================================================  =====
name       what it is                                                  level
=========  ==========================================================  =====
random     uniform over the legal answers
baseline   fixed yardstick: median ante, strongest triggering card     easy
heuristic  card counting, ante planning, one-turn lookahead            medium
ismcts     information-set Monte Carlo tree search                     hard
=========  ==========================================================  =====

The Dice Gambit's bots (``random``, ``basic``) are :mod:`dragonante.bots.dice`:
they answer that game's questions, so they have their own registry.
"""

from __future__ import annotations

from dragonante.bots.base import Bot, SeatView

# Each module registers its bot on import, in this order (the order of the lists).
# isort: off
from dragonante.bots.random_bot import RandomBot  # noqa: F401 - registers "random"
from dragonante.bots.baseline import BaselineBot  # noqa: F401 - registers "baseline"
from dragonante.bots.heuristic import HeuristicBot  # noqa: F401 - registers "heuristic"
from dragonante.bots.ismcts import IsmctsBot  # noqa: F401 - registers "ismcts"
from dragonante.bots.learned import LearnedBot  # noqa: F401 - registers "learned"

# isort: on
from dragonante.bots.registry import (
    BOTS,
    LEVELS,
    BotEntry,
    BotSpecError,
    Strength,
    bot_names,
    entries,
    make_bot,
    offer,
    parse_spec,
    register,
)

__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "BotEntry",
    "BotSpecError",
    "SeatView",
    "Strength",
    "bot_names",
    "entries",
    "make_bot",
    "offer",
    "parse_spec",
    "register",
]
