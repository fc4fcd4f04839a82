"""A fast rule-of-thumb policy over a full game state, for lookahead and search.

The heuristic bot's one-turn lookahead and the ISMCTS rollouts need answers
for every seat at a few microseconds each, so this policy reads only cheap
facts - the acting seat's own hand and flight, public flights and hoards -
and never evaluates positions.  It plays like a plain sensible player:
ante low unless the hand can win the gambit, contend with the strongest
cards when the flight can still win, otherwise shed the weakest cards,
prefer ones whose power triggers.  Run on a determinized state it uses the
acting seat's (sampled) hand, which is exactly what that seat would know.
"""

from __future__ import annotations

from dragonante.bots.abilities import quick_answer
from dragonante.bots.evaluate import (
    DEFAULT_TAIL,
    Tail,
    ante_outlook,
    ante_value,
    outlook,
    plan_values,
    plays_left,
)
from dragonante.engine import decisions as D
from dragonante.engine.core import flight_total
from dragonante.engine.decisions import Decision
from dragonante.engine.flow import scoring_round, triggers, weakest_wins
from dragonante.engine.state import PLAY_PHASE, GameState
from dragonante.engine.tables import IS_MORTAL, POWER, STRENGTH

#: Average strength of a card played by a contending opponent.
_CONTEND_PLAY = 8.0
#: The strongest opposing ante card the ante model expects before any ante
#: has been revealed (shared with the heuristic and the search).
EXPECTED_ANTE = 7.0


def _rounds_left(s: GameState, seat: int) -> int:
    last = scoring_round(s)
    if s.phase != PLAY_PHASE:
        return last
    rest = max(last - s.round, 0)
    if s.round_card[seat] < 0:
        rest += 1
    return rest


def _top(hand: list[int], k: int) -> int:
    if k <= 0:
        return 0
    return sum(sorted((STRENGTH[c] for c in hand), reverse=True)[:k])


def contending(s: GameState, seat: int) -> bool:
    """Can ``seat``'s flight still win this gambit if it plays its best cards?"""
    hand = s.hands[seat]
    r = _rounds_left(s, seat)
    weakest = weakest_wins(s)
    mine = flight_total(s, seat)
    best = None
    for o in range(s.n):
        if o == seat or (s.out >> o) & 1:
            continue
        proj = flight_total(s, o) + _rounds_left(s, o) * (3.0 if weakest else _CONTEND_PLAY)
        if best is None or (proj < best if weakest else proj > best):
            best = proj
    if best is None:
        return True
    if weakest:
        low = sum(sorted(STRENGTH[c] for c in hand)[:r])
        return mine + low <= best + 1
    return mine + _top(hand, r) >= best - 1


def _weakest(cards: tuple[int, ...] | list[int]) -> int:
    return min(cards, key=lambda c: (STRENGTH[c], c))


def _strongest(cards: tuple[int, ...] | list[int]) -> int:
    return max(cards, key=lambda c: (STRENGTH[c], -c))


def _richest(s: GameState, seats: tuple[int, ...]) -> int:
    return max(seats, key=lambda p: (s.hoards[p], -p))


def play_plan(s: GameState, d: Decision, q: Tail = DEFAULT_TAIL) -> int:
    """The card to play: decide between playing the strongest cards (contend) and
    the weakest (fold) with the evaluation's two plans, then prefer, among the
    cards that plan would play, one whose power triggers."""
    seat = d.seat
    opts = d.options
    hand = s.hands[seat]
    plays = max(plays_left(s, seat), 1)
    view = outlook(s, seat, q)
    strong, weak = plan_values(s, seat, hand, plays, view, s.stakes, q)
    ordered = sorted(opts, key=lambda c: (STRENGTH[c], c))
    k = min(plays, len(ordered))
    chosen = ordered[len(ordered) - k :] if strong > weak else ordered[:k]
    firing = [c for c in chosen if POWER[c] and triggers(s, seat, c)]
    if strong > weak:
        return _strongest(firing or chosen)
    return _weakest(firing or chosen)


def ante_plan(s: GameState, d: Decision, q: Tail = DEFAULT_TAIL) -> int:
    """Ante the weakest card, or the fourth strongest to lead big stakes, whichever
    the evaluation's ante model prefers (opponents expected to ante a 7)."""
    hand = sorted(d.options, key=lambda c: (STRENGTH[c], c))
    if len(hand) < 4:
        return hand[0]
    view = ante_outlook(s, d.seat, q)
    low = ante_value(s, d.seat, hand, hand[0], view, EXPECTED_ANTE, q)
    high = ante_value(s, d.seat, hand, hand[-4], view, EXPECTED_ANTE, q)
    return hand[-4] if high > low else hand[0]


def simple_answer(s: GameState, d: Decision, q: Tail = DEFAULT_TAIL) -> int:
    """Like :func:`fast_answer` with cruder ante and play rules (no win model)."""
    seat = d.seat
    opts = d.options
    if d.kind == D.PLAY:
        if contending(s, seat):
            return _weakest(opts) if weakest_wins(s) else _strongest(opts)
        firing = [c for c in opts if POWER[c] and triggers(s, seat, c)]
        return _weakest(firing or opts)
    if d.kind == D.ANTE:
        hand = sorted(opts, key=lambda c: (STRENGTH[c], c))
        if len(hand) >= 4 and _top(hand, 3) >= 27:
            return hand[-4]
        return hand[0]
    return fast_answer(s, d, q)


def fast_answer(s: GameState, d: Decision, q: Tail = DEFAULT_TAIL) -> int:
    """A quick sensible answer to ``d`` for ``d.seat`` (always legal)."""
    kind = d.kind
    opts = d.options
    seat = d.seat
    if kind == D.PLAY:
        return play_plan(s, d, q)
    if kind == D.ANTE:
        return ante_plan(s, d, q)
    if kind in D.ABILITY_KINDS:
        return quick_answer(s, d)
    cards = [c for c in opts if c >= 0]
    if kind == D.BLUE_MODE:
        return 1 if len(s.flights[seat]) >= 3 and contending(s, seat) else 0
    if kind == D.GIVE_OR_PAY:
        # Give a weak card rather than 5 gold; keep strong ones unless broke.
        if cards:
            c = _weakest(cards)
            if STRENGTH[c] <= 5 or s.hoards[seat] < d.ctx[1]:
                return c
        return D.PASS
    if kind == D.CHOOSE_OPPONENT:
        return _richest(s, opts)
    if kind == D.ADVENTURER_STACK:
        if seat in opts:
            return seat
        return min(opts, key=lambda p: (s.hoards[p], p))
    if kind in (D.TAKE_ANTE, D.SEER_KEEP, D.SORCERER_PICK, D.PICK_SPECIAL):
        return _strongest(cards)
    if kind == D.REPLACE_FROM_HAND:
        return _strongest(cards) if cards else D.PASS
    if kind == D.TRICKSTER_DISCARD:
        return _strongest(opts) if weakest_wins(s) else _weakest(opts)
    if kind == D.TRIGGER_NEW:
        return D.YES
    if kind == D.ILLUSIONIST_SWAP:
        best = _strongest(cards) if cards else -1
        return best if best >= 0 and STRENGTH[best] > 4 and IS_MORTAL[best] else D.PASS
    if kind == D.KOBOLD_DISCARD:
        weak = [c for c in cards if STRENGTH[c] <= 3]
        return _weakest(weak) if weak else D.DONE
    if kind == D.PROPHET_REVEAL:
        return _strongest(cards) if cards else D.PASS
    if kind == D.SLAY:
        return _slay_target(s, d)
    if kind in (D.ANTE_PUT, D.ADVENTURER_DISCARD):
        return _weakest(cards) if cards else opts[0]
    return opts[0]


def _slay_target(s: GameState, d: Decision) -> int:
    """The strongest dragon in the strongest opposing flight (never our own if avoidable)."""
    owner = {c: p for p in range(s.n) for c in s.flights[p]}
    theirs = [c for c in d.options if owner.get(c, -1) != d.seat]
    pool = theirs or list(d.options)
    return max(pool, key=lambda c: (flight_total(s, owner.get(c, 0)), STRENGTH[c], -c))
