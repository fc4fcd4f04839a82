"""Fit the search's win-chance model (:mod:`dragonante.bots.outcome`) to self-play.

Two steps, both pure Python:

1. **Snapshots.**  Games of the heuristic player against itself (the
   default table: Legendary rules and deck) are played to the end; at the
   start of every gambit after the first - exactly where a search iteration
   stops - each seat's gold (less what it owes the hole) and the strengths
   of the cards in its hand are recorded, together with who finally won.
2. **Fit.**  A conditional logit: seat ``i`` wins with probability
   ``softmax_i((gold_i + sum card_worth[strength]) / (t0 + t1 * poorest))``.
   The card worths (one per strength) and the two temperature terms are
   found by maximum likelihood (L-BFGS), with a light smoothness penalty
   between neighbouring strengths so that rare strengths borrow from their
   neighbours.  A shared win counts ``1/k`` to each winner.

``tools/fit_outcome.py`` runs both for 2-6 players and writes
``src/dragonante/bots/outcome.json``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from dragonante.bots import make_bot
from dragonante.bots.base import SeatView
from dragonante.engine.config import GameConfig
from dragonante.engine.game import apply, new_game
from dragonante.engine.series import game_seed
from dragonante.engine.tables import STRENGTH

#: Strengths 0..MAX_STRENGTH get a worth each (stronger cards count as the strongest).
MAX_STRENGTH = 13
#: Weight of the smoothness penalty between neighbouring strengths.
SMOOTHING = 0.5
#: A game that asks more questions than this is dropped (it would be stuck).
_MAX_DECISIONS = 100_000


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One seat-by-seat picture at the start of a gambit, and who won in the end."""

    gold: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # strengths of each seat's cards
    wins: tuple[float, ...]  # 1/k for each of k final winners

    @property
    def poorest(self) -> int:
        return min(self.gold)


def play_snapshots(players: int, seed: int, bot: str = "heuristic") -> list[Snapshot]:
    """Play one self-play game and return its snapshots (empty if it got stuck)."""
    s = new_game(GameConfig().with_(players=players), seed)
    bots = [make_bot(bot, seed * 7 + p) for p in range(players)]
    seen = 0
    pictures: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = []
    decisions = 0
    while not s.over:
        if decisions >= _MAX_DECISIONS:
            return []
        if s.gambit != seen:
            seen = s.gambit
            if s.gambit >= 2:
                live = [p for p in range(players) if not (s.out >> p) & 1]
                pictures.append(
                    (
                        tuple(s.hoards[p] - s.hole_owed[p] for p in live),
                        tuple(tuple(STRENGTH[c] for c in s.hands[p]) for p in live),
                    )
                )
        d = s.pending
        assert d is not None
        apply(s, bots[d.seat].choose(SeatView(s, d.seat)), d.id)
        decisions += 1
    if s.out or not s.winners:  # only the default ending: the first empty hoard
        return []
    share = 1.0 / len(s.winners)
    wins = tuple(share if p in s.winners else 0.0 for p in range(players))
    return [Snapshot(gold, hands, wins) for gold, hands in pictures]


def _play_many(players: int, seeds: list[int], bot: str) -> list[Snapshot]:
    out: list[Snapshot] = []
    for seed in seeds:
        out.extend(play_snapshots(players, seed, bot))
    return out


def collect(
    players: int, games: int, seed: int = 0, workers: int = 1, bot: str = "heuristic"
) -> list[Snapshot]:
    """Snapshots of ``games`` self-play games (seeds derived from ``seed``)."""
    seeds = [game_seed(seed * 10 + players, g) for g in range(games)]
    if workers <= 1:
        return _play_many(players, seeds, bot)
    parts = [seeds[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = pool.map(_play_many, [players] * workers, parts, [bot] * workers)
        return [snap for part in results for snap in part]


# --- the fit ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fit:
    card_worth: tuple[float, ...]
    t0: float
    t1: float
    log_likelihood: float  # per snapshot, without the penalty
    snapshots: int


def _unpack(x: Sequence[float]) -> tuple[list[float], float, float]:
    worth = list(x[: MAX_STRENGTH + 1])
    return worth, x[MAX_STRENGTH + 1], x[MAX_STRENGTH + 2]


def objective(
    x: Sequence[float], data: Sequence[Snapshot], smoothing: float = SMOOTHING
) -> tuple[float, list[float]]:
    """Negative penalised log-likelihood and its gradient at ``x`` =
    (worth[0..MAX_STRENGTH], t0, t1)."""
    worth, t0, t1 = _unpack(x)
    k = MAX_STRENGTH + 1
    grad = [0.0] * (k + 2)
    nll = 0.0
    for snap in data:
        t = t0 + t1 * max(snap.poorest, 0)
        values = [
            g + sum(worth[min(v, MAX_STRENGTH)] for v in hand)
            for g, hand in zip(snap.gold, snap.hands, strict=True)
        ]
        top = max(values)
        exps = [math.exp((v - top) / t) for v in values]
        z = sum(exps)
        log_z = math.log(z) + top / t
        d_t = 0.0
        for i, v in enumerate(values):
            p = exps[i] / z
            y = snap.wins[i]
            if y:
                nll -= y * (v / t - log_z)
            r = p - y  # d(nll)/d(u_i): the wins add up to 1
            if r:
                for strength in snap.hands[i]:
                    grad[min(strength, MAX_STRENGTH)] += r / t
                d_t -= r * v / (t * t)
        grad[k] += d_t
        grad[k + 1] += d_t * max(snap.poorest, 0)
    for s in range(k - 1):
        diff = worth[s + 1] - worth[s]
        nll += smoothing * diff * diff
        grad[s + 1] += 2 * smoothing * diff
        grad[s] -= 2 * smoothing * diff
    return nll, grad


def lbfgs(
    f: Callable[[list[float]], tuple[float, list[float]]],
    x0: Sequence[float],
    lower: Sequence[float],
    iterations: int = 300,
    memory: int = 8,
    tolerance: float = 1e-7,
) -> list[float]:
    """Minimise ``f`` (value, gradient) from ``x0`` with L-BFGS, keeping ``x >= lower``
    by projection (the bounds here - positive temperatures - are never active at
    the optimum, so the projection only guards the line search)."""
    x = list(x0)
    fx, g = f(x)
    s_hist: list[list[float]] = []
    y_hist: list[list[float]] = []
    for _ in range(iterations):
        # Two-loop recursion for the search direction.
        q = g[:]
        alphas = []
        for s_k, y_k in reversed(list(zip(s_hist, y_hist, strict=True))):
            rho = 1.0 / sum(a * b for a, b in zip(y_k, s_k, strict=True))
            alpha = rho * sum(a * b for a, b in zip(s_k, q, strict=True))
            q = [qi - alpha * yi for qi, yi in zip(q, y_k, strict=True)]
            alphas.append((rho, alpha))
        if s_hist:
            s_k, y_k = s_hist[-1], y_hist[-1]
            gamma = sum(a * b for a, b in zip(s_k, y_k, strict=True)) / sum(a * a for a in y_k)
        else:
            gamma = 1.0 / max(math.sqrt(sum(a * a for a in g)), 1e-12)
        r = [gamma * qi for qi in q]
        for (s_k, y_k), (rho, alpha) in zip(
            zip(s_hist, y_hist, strict=True), reversed(alphas), strict=True
        ):
            beta = rho * sum(a * b for a, b in zip(y_k, r, strict=True))
            r = [ri + (alpha - beta) * si for ri, si in zip(r, s_k, strict=True)]
        direction = [-ri for ri in r]
        slope = sum(a * b for a, b in zip(g, direction, strict=True))
        if slope >= 0:  # not a descent direction: restart from steepest descent
            s_hist.clear()
            y_hist.clear()
            direction = [-gi for gi in g]
            slope = -sum(gi * gi for gi in g)
        step = 1.0
        while True:
            x_new = [
                max(lo, xi + step * di) for xi, di, lo in zip(x, direction, lower, strict=True)
            ]
            f_new, g_new = f(x_new)
            if f_new <= fx + 1e-4 * step * slope or step < 1e-10:
                break
            step *= 0.5
        s_vec = [a - b for a, b in zip(x_new, x, strict=True)]
        y_vec = [a - b for a, b in zip(g_new, g, strict=True)]
        improvement = fx - f_new
        x, fx, g = x_new, f_new, g_new
        if sum(a * b for a, b in zip(s_vec, y_vec, strict=True)) > 1e-12:
            s_hist.append(s_vec)
            y_hist.append(y_vec)
            if len(s_hist) > memory:
                s_hist.pop(0)
                y_hist.pop(0)
        if abs(improvement) <= tolerance * max(1.0, abs(fx)):
            break
    return x


def fit(data: Sequence[Snapshot], smoothing: float = SMOOTHING) -> Fit:
    """Maximum-likelihood card worths and temperature for ``data``."""
    if not data:
        raise ValueError("no snapshots to fit")
    x0 = [1.5 + 0.5 * s for s in range(MAX_STRENGTH + 1)] + [20.0, 0.5]
    lower = [-math.inf] * (MAX_STRENGTH + 1) + [1.0, 0.0]
    x = lbfgs(lambda v: objective(v, data, smoothing), x0, lower)
    worth, t0, t1 = _unpack(x)
    nll, _ = objective(x, data, 0.0)
    return Fit(tuple(worth), t0, t1, -nll / len(data), len(data))
