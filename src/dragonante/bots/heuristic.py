"""The heuristic player: a thoughtful hand-written Three-Dragon Ante player.

How it thinks, question by question:

* **Card counting.**  Every card not in its hand, a flight, the ante, the
  discard pile or otherwise shown to it is "unseen"; the strength
  distribution of the unseen cards (the specials set aside weighted by the
  chance they are in the deck at all) is what it expects opponents to hold
  and the deck to deal.
* **Ante.**  The ante is paid by everyone alike, so it only moves gold
  through the stakes: a big ante pays off when the hand is likely to win
  the gambit, and costs a good card otherwise.  For each card it could ante
  it weighs the expected stakes margin (opponents' antes estimated from
  what they anted before) against the worth of the cards kept, plus a small
  bonus for leading the first round.
* **Everything else** - which card to play, Blue's mode, give a card or pay
  gold to a Brass or Green, what to take from the ante, whether a Copper
  Trickster's new card should trigger, whom to slay, what a Kobold should
  discard... - by a one-turn lookahead: on a few re-deals of the hidden
  cards (so random draws and takes average out) it answers, lets the rest
  of the turn resolve (other questions answered by the fast policy of
  :mod:`dragonante.bots.policy`) and judges the result with
  :func:`dragonante.bots.evaluate.evaluate`.  That evaluation plans the
  rest of the gambit - contend with the strongest cards or fold with the
  weakest, near-complete color and strength flights - so the lookahead
  trades gold now against stakes later and cards kept for later gambits.
  A card played strong also lets the player on its left trigger anything
  weaker; that denial cost is added for plays.

It reads only its :class:`~dragonante.bots.base.SeatView`: the re-deals
come from ``view.determinize`` and only its own hand and public facts steer
the evaluation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dragonante.bots.base import SeatView
from dragonante.bots.evaluate import (
    DEFAULT_WEIGHTS,
    Tail,
    Weights,
    ante_outlook,
    ante_value,
    evaluate,
    strength_tail,
)
from dragonante.bots.policy import EXPECTED_ANTE, fast_answer
from dragonante.bots.registry import BotEntry, Strength, register
from dragonante.engine import decisions as D
from dragonante.engine.decisions import Decision
from dragonante.engine.game import advance
from dragonante.engine.state import GameState
from dragonante.engine.tables import SET, STRENGTH

#: Gold worth of leading the first round (the first card always triggers).
LEAD_BONUS = 1.5
#: Gold cost of letting the player on the left trigger any card (scaled by the
#: chance its card is weak enough).
DENIAL = 1.2
#: Follow-up questions answered in one lookahead before giving up (Kobold chains).
_SETTLE_LIMIT = 40
#: Questions asked before the first deal, answered by fixed judgements.
_SETUP_KINDS = frozenset({D.PICK_SPECIAL, D.DRAFT_ABILITY, D.ANCESTRY_COLOR})


def unseen_cards(s: GameState, seat: int) -> list[int]:
    """The cards ``seat`` has not seen, as far as it can know, for card counting.

    With the specials not shown, the unseen specials are thinned to the
    number still expected in the game (the others were set aside unseen).
    """
    seen = set(s.hands[seat])
    for f in s.flights:
        seen.update(f)
    seen.update(s.ante)
    seen.update(s.discard)
    seen.update(s.limbo)
    if s.ante_choice[seat] >= 0:
        seen.add(s.ante_choice[seat])
    for card, mask in s.known.items():
        if (mask >> seat) & 1:
            seen.add(card)
    unseen = [c for c in s.universe if c not in seen]
    deck = s.config.deck
    if deck.preset != "legendary" or deck.reveal_specials:
        if deck.reveal_specials:
            in_game = set(s.specials)
            unseen = [c for c in unseen if SET[c] == "legendary-standard" or c in in_game]
        return unseen
    specials = [c for c in unseen if SET[c] != "legendary-standard"]
    seen_specials = sum(1 for c in seen if SET[c] != "legendary-standard")
    expected = max(deck.special_count - seen_specials, 0)
    if specials and expected < len(specials):
        step = len(specials) / max(expected, 1)
        keep = [specials[int(i * step)] for i in range(expected)]
        unseen = [c for c in unseen if SET[c] == "legendary-standard"] + keep
    return unseen


def settle(s: GameState) -> None:
    """Answer follow-up questions with the fast policy until the next turn or ante."""
    for _ in range(_SETTLE_LIMIT):
        d = s.pending
        if d is None or d.kind in (D.PLAY, D.ANTE):
            return
        advance(s, fast_answer(s, d))


def lookahead(
    worlds: Sequence[GameState], seat: int, q: Tail, w: Weights = DEFAULT_WEIGHTS
) -> dict[int, float]:
    """Average evaluation of each answer to the pending question over ``worlds``."""
    d = worlds[0].pending
    assert d is not None and d.seat == seat
    values: dict[int, float] = {}
    for answer in d.options:
        total = 0.0
        for world in worlds:
            x = world.clone()
            advance(x, answer)
            settle(x)
            total += evaluate(x, seat, q, w)
        values[answer] = total / len(worlds)
    return values


def denial_cost(s: GameState, seat: int, card: int, q: Tail) -> float:
    """Expected cost of letting the player on the left trigger its card."""
    k = (seat - s.leader) % s.n
    if k >= s.n - 1:  # the last to play this round: nobody is helped
        return 0.0
    st = STRENGTH[card]
    below = 1.0 - (q[st + 1] if st + 1 < len(q) else 0.0)
    return DENIAL * below


def opponents_ante(events: Sequence[tuple[object, str, dict[str, object]]], seat: int) -> float:
    """The strongest opponent ante card to expect, from the antes revealed so far."""
    prior, weight = EXPECTED_ANTE, 2.0
    total = prior * weight
    count = weight
    for _vis, kind, data in events:
        if kind != "ante_reveal":
            continue
        cards = data.get("cards")
        if not isinstance(cards, list):
            continue
        theirs = [STRENGTH[c] for p, c in enumerate(cards) if p != seat and c >= 0]
        if theirs:
            total += max(theirs)
            count += 1
    return total / count


def ante_expectation(view: SeatView) -> float:
    """The opposing ante :func:`answer_values` should expect at ``view``'s
    question: from the antes revealed so far for an ante, the prior otherwise
    (where it is unused, so the event log is not read on every decision)."""
    if view.decision.kind != D.ANTE:
        return EXPECTED_ANTE
    return opponents_ante(view.events(), view.seat)


def ante_values(
    s: GameState, seat: int, q: Tail, opp_ante: float, w: Weights = DEFAULT_WEIGHTS
) -> dict[int, float]:
    """Worth of anting each card, averaged over a spread of opposing antes."""
    d = s.pending
    assert d is not None
    hand = list(d.options)
    view = ante_outlook(s, seat, q, w)
    spread = (opp_ante - 2.5, opp_ante, opp_ante + 2.5)
    return {
        card: sum(ante_value(s, seat, hand, card, view, a, q, w, LEAD_BONUS) for a in spread) / 3
        for card in hand
    }


class HeuristicBot:
    """Card counting, ante management and a one-turn lookahead with a gold evaluation."""

    name = "heuristic"

    def __init__(self, seed: int = 0, samples: int = 3, weights: Weights = DEFAULT_WEIGHTS):
        self._rng = random.Random(seed)
        self.samples = max(1, samples)
        self.weights = weights

    def choose(self, view: SeatView) -> int:
        d = view.decision
        if len(d.options) == 1:
            return d.options[0]
        seeds = [self._rng.getrandbits(62) for _ in range(self.samples)]
        worlds = [view.determinize(x) for x in seeds]
        seat = view.seat
        if d.kind in _SETUP_KINDS:  # before the cards: a fixed judgement of what is good
            return fast_answer(worlds[0], d)
        q = strength_tail(unseen_cards(worlds[0], seat))
        values = answer_values(worlds, seat, q, ante_expectation(view), self.weights)
        return best_answer(d, values)


def answer_values(
    worlds: Sequence[GameState],
    seat: int,
    q: Tail,
    opp_ante: float,
    w: Weights = DEFAULT_WEIGHTS,
) -> dict[int, float]:
    """The heuristic's judgement of every answer to ``seat``'s pending question,
    in gold: the ante model for an ante, otherwise the one-turn lookahead over
    ``worlds`` (less the denial cost for a play).  Shared with the search, which
    uses it as a prior at its root and as its model of other seats' turns."""
    first = worlds[0]
    d = first.pending
    assert d is not None and d.seat == seat
    if d.kind == D.ANTE:
        return ante_values(first, seat, q, opp_ante, w)
    values = lookahead(worlds, seat, q, w)
    if d.kind == D.PLAY:
        for card in values:
            values[card] -= denial_cost(first, seat, card, q)
    return values


def best_answer(d: Decision, values: dict[int, float]) -> int:
    """The answer of highest value; ties go to the earliest option (deterministic),
    except that declining an ability wins a tie (an ability is not used for nothing)."""
    best = D.PASS if d.kind in D.ABILITY_KINDS and D.PASS in values else d.options[0]
    for a in d.options:
        if values[a] > values[best] + 1e-9:
            best = a
    return best


register(
    BotEntry(
        "heuristic",
        HeuristicBot,
        "rules",
        level="medium",
        settings={"samples": int},
        about="card counting, ante planning, one-turn lookahead",
        strength=Strength(
            0.665,
            0.635,
            0.694,
            1000,
            "3 x baseline",
            4,
            "dragonante tournament --seats heuristic,baseline,baseline,baseline"
            " --games 1000 --seed 11 --workers 2 --json",
        ),
    )
)
