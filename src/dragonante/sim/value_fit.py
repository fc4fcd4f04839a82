"""Train the learned bot's value function (:mod:`dragonante.bots.learned`) by self-play.

Two steps:

1. **Positions** (pure Python).  Games of the project's bots against
   themselves on the default table (Legendary rules and deck): round one
   the heuristic, each later round the learned bot with the model of the
   round before (so the model learns the positions its own play leads to).
   At every play and ante question the asked seat's features
   (:func:`dragonante.bots.features.features`, from what that seat may
   know) are recorded with its share of the final win (``1/k`` for each of
   ``k`` tied winners).  Game ``g`` of a player count is deal
   ``game_seed(seed * 10 + n, g)``, so a seed names the whole data set.
2. **Fit** (numpy, the ``agents`` extra; never needed to play).  A logistic
   regression of the win share on the features, one per player count, by
   Newton's method with a light ridge penalty (not on the bias) so that
   features that never vary (abilities at a table without them) keep a
   zero weight.  The last fifth of the games is held out and its log loss
   reported beside the training one.

``tools/train_learned.py`` runs both for 2-6 players and writes the model
file the package ships (``src/dragonante/bots/learned.json``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from dragonante.bots import make_bot
from dragonante.bots.base import SeatView
from dragonante.bots.evaluate import strength_tail
from dragonante.bots.features import features
from dragonante.bots.heuristic import unseen_cards
from dragonante.engine import decisions as D
from dragonante.engine.config import GameConfig
from dragonante.engine.game import apply, new_game
from dragonante.engine.series import game_seed

#: Ridge penalty on every weight but the bias.
RIDGE = 1.0
#: Share of the games held out to measure the fit.
HOLD_OUT = 0.2
#: A game that asks more questions than this is dropped (it would be stuck).
_MAX_DECISIONS = 100_000
_TURNS = frozenset({D.PLAY, D.ANTE})


@dataclass(frozen=True, slots=True)
class Position:
    """One seat's features at one of its plays or antes, and its share of the win."""

    game: int
    x: tuple[float, ...]
    win: float


def play_positions(players: int, seed: int, game: int, bot: str) -> list[Position]:
    """Play game ``game`` of the data set ``seed`` with ``bot`` at every seat."""
    s = new_game(GameConfig().with_(players=players), game_seed(seed * 10 + players, game))
    bots = [make_bot(bot, game_seed(seed, game) * 7 + p) for p in range(players)]
    seen: list[tuple[int, tuple[float, ...]]] = []
    decisions = 0
    while not s.over:
        if decisions >= _MAX_DECISIONS:
            return []
        d = s.pending
        assert d is not None
        if d.kind in _TURNS:
            q = strength_tail(unseen_cards(s, d.seat))
            seen.append((d.seat, tuple(features(s, d.seat, q))))
        apply(s, bots[d.seat].choose(SeatView(s, d.seat)), d.id)
        decisions += 1
    k = len(s.winners)
    return [Position(game, x, (1.0 / k) if seat in s.winners else 0.0) for seat, x in seen]


def _play_many(players: int, seed: int, games: Sequence[int], bot: str) -> list[Position]:
    out: list[Position] = []
    for g in games:
        out.extend(play_positions(players, seed, g, bot))
    return out


def collect(players: int, games: int, seed: int, bot: str, workers: int = 1) -> list[Position]:
    """The positions of ``games`` self-play games (the same for any ``workers``)."""
    chunks = [list(range(g, min(g + 20, games))) for g in range(0, games, 20)]
    if workers <= 1:
        return [p for c in chunks for p in _play_many(players, seed, c, bot)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = pool.map(
            _play_many, [players] * len(chunks), [seed] * len(chunks), chunks, [bot] * len(chunks)
        )
        return [p for part in parts for p in part]


@dataclass(frozen=True, slots=True)
class Fit:
    """Fitted weights and how well they predict."""

    weights: list[float]
    positions: int
    train_log_loss: float
    held_out_log_loss: float
    #: Log loss of a constant guess (the base rate), for comparison.
    base_log_loss: float

    def summary(self) -> dict[str, Any]:
        return {
            "positions": self.positions,
            "train_log_loss": round(self.train_log_loss, 5),
            "held_out_log_loss": round(self.held_out_log_loss, 5),
            "base_log_loss": round(self.base_log_loss, 5),
        }


def fit(data: Sequence[Position], games: int, ridge: float = RIDGE, steps: int = 30) -> Fit:
    """Logistic regression of the win share on the features (Newton's method)."""
    import numpy as np

    cut = int(games * (1 - HOLD_OUT))
    train = [p for p in data if p.game < cut]
    test = [p for p in data if p.game >= cut] or train
    x = np.array([p.x for p in train], dtype=float)
    y = np.array([p.win for p in train], dtype=float)
    k = x.shape[1]
    penalty = np.full(k, ridge)
    penalty[0] = 0.0
    w = np.zeros(k)
    for _ in range(steps):
        z = np.clip(x @ w, -30.0, 30.0)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break

    def log_loss(rows: Sequence[Position]) -> float:
        xs = np.array([r.x for r in rows], dtype=float)
        ys = np.array([r.win for r in rows], dtype=float)
        ps = np.clip(1.0 / (1.0 + np.exp(-np.clip(xs @ w, -30.0, 30.0))), 1e-9, 1 - 1e-9)
        return float(-np.mean(ys * np.log(ps) + (1 - ys) * np.log(1 - ps)))

    rate = float(np.mean(y))
    tys = [r.win for r in test]
    base = -sum(t * math.log(rate) + (1 - t) * math.log(1 - rate) for t in tys) / len(tys)
    return Fit(
        weights=[float(v) for v in w],
        positions=len(train),
        train_log_loss=log_loss(train),
        held_out_log_loss=log_loss(test),
        base_log_loss=base,
    )
