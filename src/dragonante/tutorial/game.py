"""The tutorial's game: a :class:`~dragonante.interfaces.session.LocalGame` on the prepared deal.

``LocalGame`` deals a new game from a seed; the tutorial's starts from the
deal's position instead and its bots follow their scripts.  Everything else
(the player's question, the events the player may see, the bots answering
through their seats' views) is ``LocalGame``'s own, so every front end that
drives a local game drives this one the same way.
"""

from __future__ import annotations

from dragonante.engine.records import GameRecord, Recorder
from dragonante.interfaces.session import LocalGame, bot_seed
from dragonante.tutorial.deal import PLAYER, Deal
from dragonante.tutorial.scripted import EASY, ScriptedBot


class DealRecorder(Recorder):
    """A recorder whose game starts from the deal's position (not a fresh deal).

    Its record lists every answer, but ``replay`` deals from the seed and cannot
    replay it: the tutorial saves its own progress (:mod:`.progress`)."""

    def __init__(self, deal: Deal) -> None:
        self.record = GameRecord(deal.config, deal.seed)
        self.state = deal.start()


class TutorialGame(LocalGame):
    """The player in seat 0 against two scripted bots on the prepared deal."""

    def __init__(self, deal: Deal) -> None:
        others = [p for p in range(deal.config.players) if p != PLAYER]
        super().__init__(deal.config, deal.seed, PLAYER, [EASY] * len(others))
        self.recorder = DealRecorder(deal)
        self.bots = {
            p: ScriptedBot(deal.scripts.get(p, ()), bot_seed(deal.seed, p)) for p in others
        }


__all__ = ["DealRecorder", "TutorialGame"]
