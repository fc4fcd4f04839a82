"""Shared helpers for the bot tests."""

from __future__ import annotations

from dragonante.bots import make_bot
from dragonante.bots.base import SeatView
from dragonante.engine.config import DeckOptions, GameConfig, Rules
from dragonante.engine.game import apply, new_game

#: Every bot, with search budgets small enough for unit tests.
BOT_SPECS = ("random", "baseline", "heuristic", "ismcts:iters=12")


def play_checked(spec: str, ruleset: str, players: int, seed: int, limit: int) -> None:
    """Up to ``limit`` questions of a game at which every seat is ``spec``, each
    answer checked to be one of the legal ones (both books' rulesets)."""
    config = GameConfig(players=players)
    if ruleset == "emperors_gambit":
        config = GameConfig(
            players=players, deck=DeckOptions(preset="eg_full"), rules=Rules.preset(ruleset)
        )
    s = new_game(config, seed)
    bots = [make_bot(spec, p) for p in range(players)]
    for _ in range(limit):
        if s.over:
            break
        d = s.pending
        assert d is not None
        answer = bots[d.seat].choose(SeatView(s, d.seat))
        assert answer in d.options
        apply(s, answer, d.id)
