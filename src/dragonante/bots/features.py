"""What the learned bot sees of a position: a short, fixed list of numbers.

The learned bot (:mod:`dragonante.bots.learned`) judges a position by a
value function fitted to self-play (:mod:`dragonante.sim.value_fit`), and
that value function reads only these features, computed for one seat from
what the seat may know: its own hand, every hoard, the hand *sizes* of the
others, the flights on the table and the strength distribution of the cards
it has not seen (card counting).  Nothing hidden is read, so the features
are safe on a determinized state.

The features are the pieces of the heuristic's gold judgement
(:mod:`dragonante.bots.evaluate`) taken apart, so that self-play can weigh
them instead of a person: the gold margins (also scaled by how near the
poorest hoard is to empty: a lead counts for more as the end nears), the
stakes margin of the contend and fold plans, the special flights in reach,
and the seat's hand counted by strength bands (self-play finds a strong
dragon kept worth far more than its strength suggests).  Positions at an
ante and in the middle of a gambit are different games for a hand, so every
feature but the bias has one weight for each (two blocks; the other block
is zero).

:data:`LAYOUT_VERSION` names this layout.  A model file records the version
and the feature names it was trained on; a model of another layout is
refused (:class:`StaleModelError`), never played as nonsense.  Change the
version with any change here.
"""

from __future__ import annotations

from dragonante.bots.abilities import readiness
from dragonante.bots.evaluate import (
    Tail,
    evaluate,
    flight_prospects,
    outlook,
    plays_left,
    stakes_share,
    tail_mean,
    win_chance,
)
from dragonante.engine.flow import may_win
from dragonante.engine.state import PLAY_PHASE, GameState
from dragonante.engine.tables import STRENGTH

#: The version of the feature layout below; model files must match it.
LAYOUT_VERSION = 1
#: Hand strength bands: a card of strength ``st`` counts in the first band
#: whose upper bound is at least ``st`` (the last band takes everything above).
BANDS = (3, 5, 7, 8, 9, 10, 11, 12, 99)
#: Gold scale of the "near the end" factor: ``ENDGAME / (ENDGAME + poorest)``.
ENDGAME = 10.0

_BLOCK = (
    "heuristic_gold",
    "margin_mean",
    "margin_max",
    "margin_mean_endgame",
    "margin_max_endgame",
    "stakes_contend",
    "stakes_fold",
    "flights_in_reach",
    "plays_left",
    "hand_size_others",
    "unseen_mean_strength",
    "abilities_ready",
    *(f"hand_band_{b}" for b in BANDS),
)
#: Every feature's name, in order: the bias, then the ante block, then the play block.
FEATURE_NAMES: tuple[str, ...] = (
    "bias",
    *(f"ante.{name}" for name in _BLOCK),
    *(f"play.{name}" for name in _BLOCK),
)
BLOCK_SIZE = len(_BLOCK)


class StaleModelError(ValueError):
    """A model file made for another feature layout (or not a model file)."""


def _band(strength: int) -> int:
    for i, top in enumerate(BANDS):
        if strength <= top:
            return i
    return len(BANDS) - 1


def features(s: GameState, seat: int, q: Tail) -> list[float]:
    """The features of ``s`` for ``seat`` (``q``: the strength tail of the cards
    the seat has not seen), in the order of :data:`FEATURE_NAMES`."""
    owed = s.hole_owed
    live = [o for o in range(s.n) if not (s.out >> o) & 1]
    mine = s.hoards[seat] - owed[seat]
    others = [s.hoards[o] - owed[o] for o in live if o != seat]
    margin_mean = mine - sum(others) / len(others) if others else 0.0
    margin_max = mine - max(others) if others else 0.0
    poorest = min(mine, min(others)) if others else mine
    endgame = ENDGAME / (ENDGAME + max(poorest, 0))
    hand = s.hands[seat]
    in_play = s.phase == PLAY_PHASE and s.stakes > 0
    contend = fold = reach = 0.0
    plays = 0
    if in_play:
        plays = plays_left(s, seat)
        view = outlook(s, seat, q)
        # The plans' stakes margins alone (the cards kept are the hand bands).
        ordered = sorted(hand, key=lambda c: STRENGTH[c])
        k = min(plays, len(ordered))
        total = view.totals[seat] + (plays - k) * tail_mean(q)
        eligible = may_win(s, seat)
        strong = total + sum(STRENGTH[c] for c in ordered[len(ordered) - k :])
        weak = total + sum(STRENGTH[c] for c in ordered[:k])
        contend = stakes_share(s.stakes, win_chance(view, strong, eligible), s.n)
        fold = stakes_share(s.stakes, win_chance(view, weak, eligible), s.n)
        reach = flight_prospects(s, seat, plays)
    bands = [0.0] * len(BANDS)
    for c in hand:
        bands[_band(STRENGTH[c])] += 1.0
    sizes = [len(s.hands[o]) for o in live if o != seat]
    block = [
        evaluate(s, seat, q),
        margin_mean,
        margin_max,
        margin_mean * endgame,
        margin_max * endgame,
        contend,
        fold,
        reach,
        float(plays),
        sum(sizes) / len(sizes) if sizes else 0.0,
        tail_mean(q),
        readiness(s, seat) if s.abilities is not None else 0.0,
        *bands,
    ]
    zeros = [0.0] * BLOCK_SIZE
    return [1.0, *(zeros if in_play else block), *(block if in_play else zeros)]


__all__ = [
    "BANDS",
    "BLOCK_SIZE",
    "FEATURE_NAMES",
    "LAYOUT_VERSION",
    "StaleModelError",
    "features",
]
