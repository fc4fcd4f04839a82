"""Bots: players that see only what their seat sees.

``make_bot(spec, seed)`` builds a bot from a name or level with optional
settings, ``name[:key=value[:key=value...]]`` - e.g. ``ismcts:iters=200`` or
``heuristic:samples=5``; :func:`bot_names` lists the names a user may type
(``--opponents``, ``--seats``).

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

from collections.abc import Callable
from typing import Any

from dragonante.bots.base import Bot, SeatView
from dragonante.bots.baseline import BaselineBot
from dragonante.bots.heuristic import HeuristicBot
from dragonante.bots.ismcts import IsmctsBot
from dragonante.bots.random_bot import RandomBot


class _NotAChoice(ValueError):
    """A word setting given a word it does not take (the message lists them)."""


def _choice(*names: str) -> Callable[[str], str]:
    """A setting that takes one of ``names``."""

    def convert(raw: str) -> str:
        if raw not in names:
            raise _NotAChoice(f"choose from {', '.join(names)}")
        return raw

    return convert


#: Bot factories by name: ``factory(seed, **settings) -> Bot``.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "baseline": BaselineBot,
    "heuristic": HeuristicBot,
    "ismcts": IsmctsBot,
}
#: The settings each bot accepts in a spec (``ismcts:iters=200``), with their types.
BOT_SETTINGS: dict[str, dict[str, Callable[[str], Any]]] = {
    "random": {},
    "baseline": {},
    "heuristic": {"samples": int},
    "ismcts": {
        "iters": int,
        "seconds": float,
        "c": float,
        "horizon": int,
        "leaf": _choice("gambit", "turn"),
        "policy": _choice("plan", "simple"),
        "prior": float,
        "value": _choice("win", "margin"),
        "model": _choice("heuristic", "fast"),
    },
}
#: Levels for people, mapped onto bots.
LEVELS: dict[str, str] = {
    "easy": "baseline",
    "medium": "heuristic",
    "hard": "ismcts",
}


class BotSpecError(ValueError):
    """A bot spec with an unknown setting or a value of the wrong kind."""


def bot_names() -> list[str]:
    return [*BOTS, *LEVELS]


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value:...`` into the bot name (levels resolved) and its settings.

    Raises ``KeyError`` for an unknown name and :class:`BotSpecError` for a bad setting.
    """
    name, *parts = spec.strip().split(":")
    key = LEVELS.get(name, name)
    if key not in BOTS:
        raise KeyError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    allowed = BOT_SETTINGS.get(key, {})
    settings: dict[str, Any] = {}
    for part in parts:
        field, sep, raw = part.partition("=")
        if not sep or field not in allowed:
            choices = ", ".join(allowed) or "none"
            raise BotSpecError(f"bot {key!r} has no setting {part!r}; settings: {choices}")
        try:
            value = allowed[field](raw)
        except _NotAChoice as exc:
            raise BotSpecError(f"bad value {raw!r} for {key}:{field}; {exc}") from None
        except ValueError:
            raise BotSpecError(f"bad value {raw!r} for {key}:{field}") from None
        if isinstance(value, int | float) and value <= 0:
            raise BotSpecError(f"{key}:{field} must be positive, got {raw!r}")
        settings[field] = value
    return key, settings


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name, level or spec; raises ``KeyError`` naming the choices if unknown."""
    key, settings = parse_spec(name)
    return BOTS[key](seed, **settings)


__all__ = [
    "BOTS",
    "BOT_SETTINGS",
    "LEVELS",
    "Bot",
    "BotSpecError",
    "SeatView",
    "bot_names",
    "make_bot",
    "parse_spec",
]
