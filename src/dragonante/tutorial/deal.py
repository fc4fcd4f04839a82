"""The tutorial's prepared deal: a real table, and the answers the guided game is built on.

The deal is a rules scenario (``deal.toml``, the format of
``docs/scenarios.md``): its ``[table]`` is the position the game starts
from (hands, the top of the deck, the hoards) and its ``[[step]]`` answers
are, for the bots' seats, their scripted first moves and, for the player's
seat, the answers the tutorial suggests.  Writing it as a scenario keeps one
way of saying "this table, these answers" in the project, and lets
``dragonante scenario run`` play the suggested game through.

The game is deterministic from the deal alone (the position's seed shuffles
the rest of the deck), so a tutorial in progress is saved as the player's
answers only (:mod:`.progress`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from dragonante.engine.config import GameConfig
from dragonante.engine.position import Position, build_position
from dragonante.engine.state import GameState
from dragonante.scenarios.format import parse

#: The player's seat; the bots sit on the left (1) and on the right (2).
PLAYER = 0
#: The deal's file, beside this module.
DEAL_FILE = "deal.toml"


@dataclass(frozen=True, slots=True)
class Scripted:
    """One scripted answer: to a question of this kind, this answer."""

    kind: str
    answer: int


@dataclass(frozen=True, slots=True)
class Deal:
    """The prepared table and the scripted answers of every seat, in order."""

    config: GameConfig
    position: Position
    seed: int
    scripts: dict[int, tuple[Scripted, ...]]

    def start(self) -> GameState:
        """A fresh game on this deal, waiting for its first question."""
        return build_position(self.config, self.position, self.seed)

    @property
    def suggested(self) -> tuple[Scripted, ...]:
        """The answers the tutorial suggests to the player, in order."""
        return self.scripts.get(PLAYER, ())


@cache
def deal() -> Deal:
    """The tutorial's deal, read once from ``deal.toml``."""
    text = files("dragonante.tutorial").joinpath(DEAL_FILE).read_text(encoding="utf-8")
    sc = parse(text, DEAL_FILE)
    assert sc.position is not None, "the tutorial's deal is a position"
    scripts: dict[int, list[Scripted]] = {p: [] for p in range(sc.config.players)}
    for st in sc.steps:
        scripts[st.seat].append(Scripted(st.ask, st.answer))
    return Deal(sc.config, sc.position, sc.seed, {p: tuple(v) for p, v in scripts.items()})


__all__ = ["DEAL_FILE", "PLAYER", "Deal", "Scripted", "deal"]
