"""The Three-Dragon Ante rules engine (standard library only).

See :mod:`dragonante.engine.game` for the entry points.
"""

from dragonante.engine.config import ConfigError, DeckOptions, GameConfig, Rules
from dragonante.engine.decisions import Decision, IllegalAnswer
from dragonante.engine.game import (
    advance,
    answered,
    apply,
    current_decision,
    draws_on_chance,
    legal_answers,
    new_game,
    run,
)
from dragonante.engine.state import GameState

__all__ = [
    "ConfigError",
    "Decision",
    "DeckOptions",
    "GameConfig",
    "GameState",
    "IllegalAnswer",
    "Rules",
    "advance",
    "answered",
    "apply",
    "current_decision",
    "draws_on_chance",
    "legal_answers",
    "new_game",
    "run",
]
