"""How good a position is for one seat, in gold: the judgement the heuristic
and the search share.

A position is worth the seat's gold advantage over the average opponent,
plus what the seat can expect from the stakes still on the table, plus the
cards it keeps for later gambits, plus the special flights it is close to.
Everything is measured in gold because gold is how the game is won and
every trade-off in it (give a card or pay 5, ante high or low, spend a
strong card now or keep it) is a trade between gold and cards.

The stakes part is the heart of it.  Each player's flight at scoring is
projected: what is on the table now plus the cards still to be played this
gambit.  For the evaluated seat both plans are weighed - *contend* (play the
strongest cards left: more likely to win the stakes, fewer good cards kept)
and *fold* (play the weakest: keep the strong ones) - and the better plan
counts.  Opponents' unknown cards are drawn from the strength distribution
of the cards the seat has not seen (card counting), assuming each opponent
contends with its best cards.

Only the evaluated seat's own hand and public facts are read, so the
function is safe on a determinized state (the hidden cards it could read
are never read).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from dragonante.bots.abilities import readiness
from dragonante.engine.flow import may_win, scoring_round, scoring_totals, weakest_wins
from dragonante.engine.state import OVER, PLAY_PHASE, GameState
from dragonante.engine.tables import COLOR_INDEXES, COLORS, SET, STRENGTH

_MAX_STRENGTH = 16
_MORTAL = COLORS.index("mortal")


@dataclass(frozen=True, slots=True)
class Weights:
    """Tunable constants of the evaluation (gold per unit); defaults were tuned
    by self-play against the baseline (see ``docs/bots.md``)."""

    #: Worth of any card kept in hand, and of each point of its strength.
    card_base: float = 1.5
    card_strength: float = 0.35
    #: Extra worth per strength point above 8: strong cards win gambits.
    card_strong: float = 0.35
    #: Spread (variance) of one unknown card's strength, for the win model.
    play_variance: float = 6.0
    #: Slope of the logistic win model (1.7 ≈ a normal distribution).
    slope: float = 1.7
    #: Share of a special flight's reward counted when one card is missing.
    flight_near: float = 0.45
    #: ... when two cards are missing.
    flight_far: float = 0.12
    #: Weight of the richest opponent (vs. the average one) in the gold margin.
    richest: float = 0.35
    #: Bonus (gold) for ending the game as a winner, shared by tied winners.
    game_win: float = 30.0


DEFAULT_WEIGHTS = Weights()


# --- strength distributions --------------------------------------------------


Tail = tuple[float, ...]


def strength_tail(cards: Iterable[int]) -> Tail:
    """``q[v]`` = share of ``cards`` with strength >= v (v = 0..15), rounded so
    that equal distributions share cache entries."""
    counts = [0] * _MAX_STRENGTH
    total = 0
    for c in cards:
        counts[STRENGTH[c]] += 1
        total += 1
    if not total:
        return DEFAULT_TAIL
    tail = []
    acc = 0
    for v in range(_MAX_STRENGTH - 1, -1, -1):
        acc += counts[v]
        tail.append(round(acc / total, 3))
    return tuple(reversed(tail))


def _legendary_deck() -> list[int]:
    """An 80-card Legendary deck's average make-up: the 70 standard dragons plus
    one of every special per three (strengths only matter here)."""
    std = [c for c in range(100) if SET[c] == "legendary-standard"]
    specials = [c for c in range(100) if SET[c] != "legendary-standard"]
    return std + specials[::3]


DEFAULT_TAIL: Tail = (1.0,) * _MAX_STRENGTH  # replaced just below
DEFAULT_TAIL = strength_tail(_legendary_deck())


def tail_mean(q: Tail) -> float:
    """Mean strength of the distribution: E[X] = sum of P(X >= v) for v >= 1."""
    return sum(q[1:])


@lru_cache(maxsize=8192)
def expected_top(q: Tail, hand: int, plays: int) -> float:
    """Expected total of the ``plays`` strongest of ``hand`` cards drawn from ``q``.

    Cards are treated as independent draws (fine for a pool of dozens): the
    k-th strongest card is >= v exactly when at least k cards are >= v.
    """
    plays = min(plays, hand)
    total = 0.0
    for v in range(1, _MAX_STRENGTH):
        p = q[v]
        if p <= 0.0:
            break
        # P(Binomial(hand, p) >= k) for k = 1..plays
        pmf = [math.comb(hand, i) * p**i * (1 - p) ** (hand - i) for i in range(hand + 1)]
        at_least = 1.0
        for k in range(1, plays + 1):
            at_least -= pmf[k - 1]
            total += at_least
    return total


@lru_cache(maxsize=8192)
def expected_bottom(q: Tail, hand: int, plays: int) -> float:
    """Expected total of the ``plays`` weakest of ``hand`` cards drawn from ``q``."""
    plays = min(plays, hand)
    return expected_top(q, hand, hand) - expected_top(q, hand, hand - plays)


# --- the pieces of a position ---------------------------------------------------


def card_value(card: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """What keeping ``card`` in hand for later gambits is worth, in gold."""
    st = STRENGTH[card]
    return w.card_base + w.card_strength * st + w.card_strong * max(0, st - 8)


def hand_value(cards: Iterable[int], w: Weights = DEFAULT_WEIGHTS) -> float:
    return sum(card_value(c, w) for c in cards)


def plays_left(s: GameState, seat: int) -> int:
    """How many more cards ``seat`` will play this gambit if nobody ties
    (the Emperor's fourth round counted)."""
    if s.phase != PLAY_PHASE:
        return scoring_round(s)
    last = scoring_round(s)
    rest = max(last - s.round, 0)
    if s.round_card[seat] < 0 and s.round >= 1:
        rest += 1
    return rest


def gold_margin(s: GameState, seat: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """Gold (less what is owed to the hole) over a blend of the average and the
    richest opponent's."""
    owed = s.hole_owed
    mine = s.hoards[seat] - owed[seat]
    others = [s.hoards[o] - owed[o] for o in range(s.n) if o != seat and not (s.out >> o) & 1]
    if not others:
        return float(mine)
    mean = sum(others) / len(others)
    return mine - (1 - w.richest) * mean - w.richest * max(others)


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(slots=True)
class Outlook:
    """The opponents' side of the win model at one moment of a gambit."""

    totals: list[int]
    means: list[float]  # projected final flight strength per opponent
    spreads: list[float]  # its standard deviation
    rivals: list[int]  # opponents who may win the gambit
    weakest: bool  # the weakest flight wins (Druid, Hatchling ante)


def outlook(s: GameState, seat: int, q: Tail, w: Weights = DEFAULT_WEIGHTS) -> Outlook:
    totals = scoring_totals(s)
    weakest = weakest_wins(s)
    n = s.n
    means = [0.0] * n
    spreads = [1.0] * n
    rivals = []
    for o in range(n):
        if o == seat or (s.out >> o) & 1:
            continue
        r = plays_left(s, o)
        h = max(len(s.hands[o]), r)
        extra = expected_bottom(q, h, r) if weakest else expected_top(q, h, r)
        means[o] = totals[o] + extra
        spreads[o] = math.sqrt(r * w.play_variance + 1.0)
        if may_win(s, o):
            rivals.append(o)
    return Outlook(totals, means, spreads, rivals, weakest)


def win_chance(
    view: Outlook, seat_total: float, eligible: bool, w: Weights = DEFAULT_WEIGHTS
) -> float:
    """Chance that a flight projected to ``seat_total`` wins the gambit."""
    if not eligible:
        return 0.0
    p = 1.0
    sign = -1.0 if view.weakest else 1.0
    for o in view.rivals:
        p *= _sigmoid(w.slope * sign * (seat_total - view.means[o]) / view.spreads[o])
    return p


def stakes_share(stakes: float, p: float, n: int) -> float:
    """Expected gold margin from stakes won with probability ``p`` (an opponent
    winning them costs a share of the margin)."""
    if n <= 1:
        return stakes * p
    return stakes * (n * p - 1.0) / (n - 1)


def plan_values(
    s: GameState,
    seat: int,
    hand: Sequence[int],
    plays: int,
    view: Outlook,
    stakes: float,
    q: Tail,
    w: Weights = DEFAULT_WEIGHTS,
) -> tuple[float, float]:
    """Worth of the two plans for ``seat`` holding ``hand`` with ``plays`` to go:
    (strongest cards first, weakest cards first), each the expected stakes
    margin plus the worth of the cards kept."""
    ordered = sorted(hand, key=lambda c: STRENGTH[c])
    eligible = may_win(s, seat)
    total = view.totals[seat]
    k = min(plays, len(ordered))
    missing = (plays - k) * tail_mean(q)  # bought cards, of average strength
    out = []
    for strong_first in (True, False):
        chosen = ordered[len(ordered) - k :] if strong_first else ordered[:k]
        kept = ordered[: len(ordered) - k] if strong_first else ordered[k:]
        projected = total + sum(STRENGTH[c] for c in chosen) + missing
        p = win_chance(view, projected, eligible, w)
        out.append(stakes_share(stakes, p, s.n) + hand_value(kept, w))
        if k == 0:
            out.append(out[0])
            break
    return out[0], out[1]


def plan_value(
    s: GameState,
    seat: int,
    hand: Sequence[int],
    plays: int,
    view: Outlook,
    stakes: float,
    q: Tail,
    w: Weights = DEFAULT_WEIGHTS,
) -> float:
    """Best of contend / fold (see :func:`plan_values`)."""
    return max(plan_values(s, seat, hand, plays, view, stakes, q, w))


def ante_outlook(s: GameState, seat: int, q: Tail, w: Weights = DEFAULT_WEIGHTS) -> Outlook:
    """The opponents' side of the win model before the ante is revealed: empty
    flights, each opponent expected to play its best cards from the hand it
    keeps after anting."""
    n = s.n
    means = [0.0] * n
    spreads = [1.0] * n
    rivals = []
    plays = scoring_round(s)
    for o in range(n):
        if o == seat or (s.out >> o) & 1 or not (s.hands[o] or s.ante_choice[o] >= 0):
            continue
        h = max(len(s.hands[o]) - (0 if s.ante_choice[o] >= 0 else 1), plays)
        means[o] = expected_top(q, h, plays)
        spreads[o] = math.sqrt(plays * w.play_variance + 1.0)
        rivals.append(o)
    return Outlook([0] * n, means, spreads, rivals, False)


def ante_value(
    s: GameState,
    seat: int,
    hand: Sequence[int],
    card: int,
    view: Outlook,
    their_ante: float,
    q: Tail,
    w: Weights = DEFAULT_WEIGHTS,
    lead_bonus: float = 1.5,
) -> float:
    """Worth of anting ``card`` when the strongest opposing ante is ``their_ante``.

    Everyone pays the same ante, so the payment itself moves no margin: what
    matters is the size of the stakes to be won (the best plan's stakes
    margin), the cards kept, and leading the first round."""
    rest = [c for c in hand if c != card]
    st = STRENGTH[card]
    plays = scoring_round(s)
    stakes = s.stakes + s.n * max(st, their_ante)
    lead = lead_bonus if st > their_ante else 0.0
    return plan_value(s, seat, rest, plays, view, stakes, q, w) + lead


def flight_prospects(s: GameState, seat: int, plays: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """Part of the reward of special flights that ``seat`` is one or two cards
    from completing, holding the missing cards, with plays to spare."""
    if plays <= 0:
        return 0.0
    flight = s.flights[seat]
    hand = s.hands[seat]
    if not flight or not hand:
        return 0.0
    value = 0.0
    others = s.n - 1
    collected = s.collected_colors[seat]
    mortals_ok = s.config.rules.mortals_form_color_flight
    by_color: dict[int, list[int]] = {}
    for c in flight:
        for ci in COLOR_INDEXES[c]:
            by_color.setdefault(ci, []).append(STRENGTH[c])
    for ci, strengths in by_color.items():
        if (collected >> ci) & 1 or len(strengths) >= 3 or (ci == _MORTAL and not mortals_ok):
            continue
        held = sorted((STRENGTH[c] for c in hand if ci in COLOR_INDEXES[c]), reverse=True)
        need = 3 - len(strengths)
        if len(held) < need or need > plays:
            continue
        three = sorted([*strengths, *held[:need]], reverse=True)
        share = w.flight_near if need == 1 else w.flight_far
        value += share * three[1] * others
    got = s.collected_strengths[seat]
    counts: dict[int, int] = {}
    for c in flight:
        counts[STRENGTH[c]] = counts.get(STRENGTH[c], 0) + 1
    for st, k in counts.items():
        if k >= 3 or (got >> st) & 1:
            continue
        held_n = sum(1 for c in hand if STRENGTH[c] == st)
        need = 3 - k
        if held_n < need or need > plays:
            continue
        share = w.flight_near if need == 1 else w.flight_far
        # Steal that much from the stakes and take two ante cards.
        value += share * (min(st, s.stakes) + 2 * w.card_base)
    return value


def evaluate(
    s: GameState, seat: int, q: Tail = DEFAULT_TAIL, w: Weights = DEFAULT_WEIGHTS
) -> float:
    """The worth of ``s`` to ``seat`` in gold (higher is better); see the module doc."""
    margin = gold_margin(s, seat, w)
    if s.abilities is not None:  # D&D abilities it can still use
        margin += readiness(s, seat)
    if s.phase == OVER:
        if seat in s.winners:
            margin += w.game_win / len(s.winners)
        return margin
    hand = s.hands[seat]
    unknown = card_value_mean(q, w)
    opp = [len(s.hands[o]) for o in range(s.n) if o != seat and not (s.out >> o) & 1]
    cards = -unknown * (sum(opp) / len(opp)) if opp else 0.0
    if s.phase == PLAY_PHASE and s.stakes > 0:
        plays = plays_left(s, seat)
        view = outlook(s, seat, q, w)
        cards += plan_value(s, seat, hand, plays, view, s.stakes, q, w)
        cards += flight_prospects(s, seat, plays, w)
    else:
        cards += hand_value(hand, w)
    return margin + cards


@lru_cache(maxsize=1024)
def _card_value_mean(q: Tail, base: float, per: float, strong: float) -> float:
    mean = tail_mean(q)
    above8 = sum(q[9:])
    return base + per * mean + strong * above8


def card_value_mean(q: Tail, w: Weights = DEFAULT_WEIGHTS) -> float:
    """Average worth of an unknown card drawn from ``q``."""
    return _card_value_mean(q, w.card_base, w.card_strength, w.card_strong)
