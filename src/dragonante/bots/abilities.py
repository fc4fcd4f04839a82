"""What the bots know about the D&D abilities: their worth in gold, and quick answers.

Two numbers per ability, both in gold (the unit of every judgement here):

* ``USE``: what one use is typically worth to its owner (two cards kept for
  later gambits are worth about 7; an opponent's 2d6 extra ante about 2.5 of
  margin; denying an opponent a card about 1.3 at four players);
* ``DRAFT``: how good the ability is to *have* over a game, its worth per
  use weighed by how often its trigger comes up (Desperation's trigger is
  rare, Endurance acts at every opponent's purchase).

A character's readiness is worth something too: an Expended disk, or a spent
recharge ability, cannot be used until a special flight is scored.  The
evaluation counts a Ready disk at half the best ``USE`` among its
abilities, so a weak use (denying a card) is not made when the disk could
wait for a strong one (drawing two), and each ready recharge ability at half
its own ``USE``.  The search and the heuristic weigh a use against that
loss; the fast policy below applies the same rule directly.

The numbers were set by hand from the rules and checked by self-play
(``docs/bots.md``, "Abilities").  They read only the seat's own abilities
and public facts (another seat's hidden abilities are whatever the
re-deal the bot searches gave it).
"""

from __future__ import annotations

from dragonante.engine import decisions as D
from dragonante.engine.abilities import catalog as A
from dragonante.engine.abilities.catalog import ANCESTRY_COLORS
from dragonante.engine.decisions import Decision
from dragonante.engine.state import GameState
from dragonante.engine.tables import COLOR_MASK, STRENGTH

#: Gold one use of each ability is typically worth to its owner.
USE: dict[int, float] = {
    A.DESPERATION: 7.0,
    A.BLESSING_OF_THE_TRICKSTER: 7.0,
    A.DRACONIC_ANCESTRY: 4.0,
    A.FAST_HANDS: 5.0,
    A.GAMBLING_BACKGROUND: 7.0,
    A.INSPIRING_LEADER: 4.0,
    A.PRACTICE_COUNTS: 7.0,
    A.VERSATILE_TRICKSTER: 7.0,
    A.CONFUSINGLY_SMOOTH: 2.5,
    A.THREATS_AND_PROMISES: 2.5,
    A.CUTTING_WORDS: 1.3,
    A.MAGICAL_DISCOURAGEMENT: 1.3,
    A.DUNGEONEERING: 1.5,
    A.HEAL: 0.0,
    A.INSIGHT: 0.5,
    A.PERCEPTION: 2.0,
    A.STREETWISE: 5.0,
    A.LUCK_DOMAIN: 1.5,
}
#: How good each ability is to have over a game (the draft's ranking).
DRAFT: dict[int, float] = {
    A.DESPERATION: 2.0,
    A.BLESSING_OF_THE_TRICKSTER: 4.5,
    A.DRACONIC_ANCESTRY: 4.0,
    A.FAST_HANDS: 6.0,
    A.GAMBLING_BACKGROUND: 3.0,
    A.INSPIRING_LEADER: 5.0,
    A.PRACTICE_COUNTS: 4.0,
    A.VERSATILE_TRICKSTER: 6.0,
    A.CONFUSINGLY_SMOOTH: 3.0,
    A.THREATS_AND_PROMISES: 2.0,
    A.CUTTING_WORDS: 2.0,
    A.MAGICAL_DISCOURAGEMENT: 2.0,
    A.ARCANA: 4.0,
    A.BLUFF: 6.0,
    A.DIPLOMACY: 1.0,
    A.DUNGEONEERING: 2.0,
    A.ENDURANCE: 7.0,
    A.HEAL: 0.0,
    A.HISTORY: 4.0,
    A.INSIGHT: 1.0,
    A.INTIMIDATE: 2.0,
    A.NATURE: 5.0,
    A.PERCEPTION: 3.0,
    A.RELIGION: 4.0,
    A.STEALTH: 6.0,
    A.STREETWISE: 6.0,
    A.THIEVERY: 5.0,
    A.LUCK_DOMAIN: 3.0,
}
#: Share of an ability's worth per use that keeping it ready is worth.
READY_SHARE = 0.5


def readiness(s: GameState, seat: int) -> float:
    """Gold worth of ``seat`` being able to use its abilities later."""
    tbl = s.abilities
    if tbl is None:
        return 0.0
    worth = [USE.get(a, 0.0) for a in tbl.ready_abilities(seat)]
    if tbl.shared_use:  # one disk: keeping it Ready keeps the best of its uses
        return READY_SHARE * max(worth, default=0.0)
    return READY_SHARE * sum(worth)


def draft_pick(d: Decision) -> int:
    """The ability of highest ``DRAFT`` worth among the options (first on ties)."""
    return max(d.options, key=lambda a: (DRAFT.get(a, 0.0), -a))


def ancestry_pick(s: GameState) -> int:
    """The dragon color with the most cards in this game's deck (public: the deck's
    make-up is known; the unused specials are counted too, which is harmless)."""
    counts = [0] * len(ANCESTRY_COLORS)
    for c in s.universe:
        mask = COLOR_MASK[c]
        for i in range(len(ANCESTRY_COLORS)):
            if (mask >> i) & 1:
                counts[i] += 1
    return max(range(len(counts)), key=lambda i: (counts[i], -i))


def quick_answer(s: GameState, d: Decision) -> int:
    """A sensible answer to any ability question, in microseconds (rollouts, models)."""
    kind = d.kind
    if kind == D.DRAFT_ABILITY:
        return draft_pick(d)
    if kind == D.ANCESTRY_COLOR:
        return ancestry_pick(s)
    if kind == D.USE_ABILITY:
        return _use(s, d)
    if kind == D.ABILITY_SEAT:
        if d.ctx and d.ctx[0] == A.HEAL:  # pay the poorest: it helps the leader least
            return min(d.options, key=lambda p: (s.hoards[p], p))
        return D.PASS  # Diplomacy: keep the lead
    if kind == D.ABILITY_CARD:
        return _card(s, d)
    return d.options[0]


def _use(s: GameState, d: Decision) -> int:
    seat = d.seat
    usable = [a for a in d.options if a != D.PASS and a != A.HEAL]
    if not usable:
        return D.PASS
    best = max(usable, key=lambda a: (USE.get(a, 0.0), -a))
    if best == A.DUNGEONEERING:  # swap a weak card taken at random
        card = d.ctx[2] if len(d.ctx) > 2 else -1
        return best if card >= 0 and STRENGTH[card] < 6 else D.PASS
    if best in (A.RELIGION, A.INSIGHT):
        return best  # free: always on, or nothing to lose but the recharge
    worth = USE.get(best, 0.0)
    tbl = s.abilities
    if tbl is not None and tbl.shared_use:  # the use expends the disk for all of them
        keep = READY_SHARE * max((USE.get(a, 0.0) for a in tbl.ready_abilities(seat)), default=0.0)
        if worth < keep:
            return D.PASS
    return best


def _card(s: GameState, d: Decision) -> int:
    ability = d.ctx[0] if d.ctx else -1
    cards = [c for c in d.options if c >= 0]
    if not cards:
        return D.PASS
    if ability == A.DUNGEONEERING:
        return max(cards, key=lambda c: (STRENGTH[c], -c))
    if ability == A.LUCK_DOMAIN:
        weakest = min(cards, key=lambda c: (STRENGTH[c], c))
        return weakest if STRENGTH[weakest] <= 4 else D.PASS
    if ability == A.STREETWISE:
        best = max(cards, key=lambda c: (STRENGTH[c], -c))
        others = s.n - 1 - s.out.bit_count()
        steal = min(d.ctx[1], s.stakes) if len(d.ctx) > 1 else s.stakes
        return best if others * STRENGTH[best] > steal else D.PASS
    return D.PASS  # Perception: keep the ante card (the heuristic looks further)


def ability_question(kind: str) -> bool:
    return kind in D.ABILITY_KINDS


__all__ = [
    "DRAFT",
    "READY_SHARE",
    "USE",
    "ability_question",
    "ancestry_pick",
    "draft_pick",
    "quick_answer",
    "readiness",
]
