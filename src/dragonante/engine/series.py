"""A series of games scored by combined gold (Emperor's Gambit optional rule 1).

"Play a set number of games in a row (such as three).  The player who has
the highest ending gold total from all those games combined is the winner."
Each game starts fresh (starting gold, new deck) with its own seed derived
from the series seed; a game's final hoards include the hole gold its
winner received (options.md §4 suggestion).  Tied totals share the win.
"""

from __future__ import annotations

from dragonante.engine.config import GameConfig
from dragonante.engine.game import new_game
from dragonante.engine.state import GameState


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a series started with ``seed``."""
    return seed * 1_000_003 + index


class Series:
    """Successive games at the same table; ``current`` is the game being played."""

    def __init__(self, config: GameConfig, seed: int, games: int | None = None, log: bool = True):
        self.config = config.validate()
        self.seed = seed
        self.games = games if games is not None else max(1, config.ending.series_games)
        if self.games < 1:
            raise ValueError("a series has at least one game")
        self.log = log
        #: Final hoards of each finished game.
        self.results: list[list[int]] = []
        self.current: GameState = new_game(config, game_seed(seed, 0), log=log)

    @property
    def index(self) -> int:
        """0-based number of the game being played."""
        return len(self.results)

    @property
    def over(self) -> bool:
        return len(self.results) == self.games

    def next_game(self) -> GameState:
        """Record the finished current game and deal the next one."""
        if not self.current.over:
            raise ValueError("the current game is not over yet")
        if self.over:
            raise ValueError("the series is over")
        self.results.append(list(self.current.hoards))
        if not self.over:
            self.current = new_game(self.config, game_seed(self.seed, self.index), log=self.log)
        return self.current

    def totals(self) -> list[int]:
        """Combined final gold per seat over the finished games."""
        n = self.config.players
        return [sum(r[p] for r in self.results) for p in range(n)]

    def winners(self) -> tuple[int, ...]:
        """Seats with the highest combined total (only once the series is over)."""
        if not self.over:
            return ()
        totals = self.totals()
        top = max(totals)
        return tuple(p for p, t in enumerate(totals) if t == top)
