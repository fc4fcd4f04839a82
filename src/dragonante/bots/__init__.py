"""Bots: players that see only what their seat sees.

``make_bot(name, seed)`` builds a bot by name; :data:`BOT_NAMES` lists the
names a user may type (``--opponents``, ``--seats``).
"""

from __future__ import annotations

from collections.abc import Callable

from dragonante.bots.base import Bot, SeatView
from dragonante.bots.random_bot import RandomBot

#: Bot factories by name: ``factory(seed) -> Bot``.
BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
}
#: Levels for people, mapped onto bots.
LEVELS: dict[str, str] = {}


def bot_names() -> list[str]:
    return [*BOTS, *LEVELS]


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name or level; raises ``KeyError`` naming the choices if unknown."""
    key = LEVELS.get(name, name)
    factory = BOTS.get(key)
    if factory is None:
        raise KeyError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    return factory(seed)


__all__ = ["BOTS", "LEVELS", "Bot", "SeatView", "bot_names", "make_bot"]
