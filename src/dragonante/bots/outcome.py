"""The chance of winning the game, judged at the start of a gambit.

The search (:mod:`dragonante.bots.ismcts`) plays each iteration to the end of
the current gambit and must then say how good the position is.  Gold alone
is not enough - a hand of strong dragons wins the gambits to come - and a
gold *margin* is not the goal either: the game is won by having the most
gold when the first hoard runs dry, so a lead counts for more as the end
nears and a risky line is worth more to a player who is behind.

This module answers with a model fitted to games of the heuristic player
against itself (``tools/fit_outcome.py``; the numbers are in
``outcome.json``).  At the start of a gambit each seat ``i`` has a *worth*

    worth_i = gold_i - owed_i + sum of card_worth[strength] over its hand

and the chance that seat ``i`` wins the game is a softmax over the seats
still playing,

    P(i) = exp(worth_i / T) / sum_j exp(worth_j / T),
    T = t0 + t1 * (the poorest hoard),

a conditional logit whose *temperature* shrinks as the poorest player nears
an empty hoard (the game is about to end and the leader about to win).
Both the card worths and the temperature are fitted separately for each
player count: a strong card wins bigger stakes at a bigger table.

For the seat being judged its own hand is known; every other hand is
counted at the average worth of the cards that seat has not seen (card
counting), so nothing hidden is ever read, even on a determinized state.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

from dragonante.bots.abilities import readiness
from dragonante.bots.evaluate import Tail
from dragonante.engine.state import GameState
from dragonante.engine.tables import STRENGTH

#: Exponents beyond this are clipped (a certain win or loss).
_CLIP = 50.0


@dataclass(frozen=True, slots=True)
class OutcomeModel:
    """Fitted parameters for one player count."""

    players: int
    #: Gold worth of holding a card of each strength (index = strength).
    card_worth: tuple[float, ...]
    #: Temperature ``t0 + t1 * poorest hoard``.
    t0: float
    t1: float

    def worth_of(self, strength: int) -> float:
        table = self.card_worth
        return table[min(max(strength, 0), len(table) - 1)]

    def unknown_worth(self, q: Tail) -> float:
        """Average worth of a card drawn from the strength distribution ``q``
        (``q[v]`` = share of cards with strength >= v)."""
        total = 0.0
        last = len(q) - 1
        for v in range(len(q)):
            share = q[v] - (q[v + 1] if v < last else 0.0)
            if share > 0.0:
                total += share * self.worth_of(v)
        return total

    def temperature(self, poorest: float) -> float:
        return self.t0 + self.t1 * max(poorest, 0.0)


@cache
def _models() -> dict[int, OutcomeModel]:
    raw = json.loads(resources.files("dragonante.bots").joinpath("outcome.json").read_text())
    out: dict[int, OutcomeModel] = {}
    for key, entry in raw["models"].items():
        out[int(key)] = OutcomeModel(
            players=int(key),
            card_worth=tuple(float(x) for x in entry["card_worth"]),
            t0=float(entry["t0"]),
            t1=float(entry["t1"]),
        )
    return out


def model_for(players: int) -> OutcomeModel:
    """The model fitted for ``players`` seats (the nearest fitted count otherwise)."""
    models = _models()
    if players in models:
        return models[players]
    nearest = min(models, key=lambda k: (abs(k - players), k))
    return models[nearest]


def worths(s: GameState, seat: int, q: Tail, model: OutcomeModel) -> dict[int, float]:
    """Each playing seat's worth as ``seat`` may judge it (see the module doc)."""
    unknown = model.unknown_worth(q)
    owed = s.hole_owed
    out: dict[int, float] = {}
    for p in range(s.n):
        if (s.out >> p) & 1:
            continue
        gold: float = s.hoards[p] - owed[p]
        if s.abilities is not None:  # abilities still usable are worth some gold
            gold += readiness(s, p)
        if p == seat:
            cards = sum(model.worth_of(STRENGTH[c]) for c in s.hands[p])
        else:
            cards = unknown * len(s.hands[p])
        out[p] = gold + cards
    return out


def win_chance(s: GameState, seat: int, q: Tail, model: OutcomeModel | None = None) -> float:
    """The chance that ``seat`` wins the game from ``s``, as far as it can know.

    A finished game is certain (a shared win is split); otherwise the
    fitted softmax over the seats' worths.
    """
    if s.over:
        return 1.0 / len(s.winners) if seat in s.winners else 0.0
    if (s.out >> seat) & 1:
        return 0.0
    m = model or model_for(s.n)
    values = worths(s, seat, q, m)
    poorest = min(s.hoards[p] - s.hole_owed[p] for p in values)
    t = m.temperature(poorest)
    mine = values[seat]
    z = 1.0
    for p, v in values.items():
        if p != seat:
            z += math.exp(max(-_CLIP, min(_CLIP, (v - mine) / t)))
    return 1.0 / z
