"""The Three-Dragon Ante rules engine (standard library only).

See :mod:`dragonante.engine.game` for the entry points.
"""

from dragonante.engine.config import ConfigError, DeckOptions, GameConfig, Rules
from dragonante.engine.decisions import Decision, IllegalAnswer
from dragonante.engine.game import apply, current_decision, legal_answers, new_game, run
from dragonante.engine.state import GameState

__all__ = [
    "ConfigError",
    "Decision",
    "DeckOptions",
    "GameConfig",
    "GameState",
    "IllegalAnswer",
    "Rules",
    "apply",
    "current_decision",
    "legal_answers",
    "new_game",
    "run",
]
