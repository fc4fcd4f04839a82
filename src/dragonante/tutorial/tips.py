"""Tips on: a normal game that explains each rule the first time it comes up.

After the tutorial (or instead of it: "skip") the player plays a normal game
against easy bots.  With tips on, the first time an event of a rule is told
to the player, the rule follows it in the events table's words
(``why.<rule>``, :mod:`dragonante.interfaces.events`); later events of the
same rule pass without a tip, so the tips thin out as the player learns.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from dragonante.engine.config import GameConfig
from dragonante.engine.state import Event
from dragonante.i18n import t
from dragonante.interfaces.events import Explainer, table_of
from dragonante.interfaces.session import LocalGame
from dragonante.tutorial.deal import PLAYER
from dragonante.tutorial.scripted import EASY

#: Rules not worth a tip: the program's own shortcut, a card's power (the card says it).
QUIET = frozenset({"why.auto_answer", "why.power", "why.power_step", "why.setup"})


class Tips:
    """The first-time rule of each event told; ``lang`` as the table's.

    Feed it every event the player is told, in order (the explainer follows
    the running power through them)."""

    def __init__(self, config: GameConfig, lang: str) -> None:
        self.explainer = Explainer(table_of(config), lang)
        self.lang = lang
        #: The rules already told (their ``why.*`` texts).
        self.told: set[str] = set()

    def tips(self, events: Iterable[Event]) -> list[str]:
        """The rules these events rest on that the player has not been told yet."""
        out: list[str] = []
        for e in events:
            cite = self.explainer.cite(e)  # every event, in order: it tracks the running power
            if cite is None or cite.rule in self.told:
                continue
            self.told.add(cite.rule)
            if cite.rule not in QUIET:
                out.append(t("tutorial.tip", self.lang, rule=t(cite.rule, self.lang)))
        return out


def normal_game(players: int = 3, seed: int | None = None) -> LocalGame:
    """A normal game (a fresh deal, the default rules) against easy bots, the player in seat 0."""
    config = GameConfig(players=players)
    seed = secrets.randbelow(2**31) if seed is None else seed
    return LocalGame(config, seed, PLAYER, [EASY] * (players - 1))


__all__ = ["QUIET", "Tips", "normal_game"]
