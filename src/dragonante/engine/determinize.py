"""Re-deal what a seat cannot see, for search over hidden information.

``determinize(state, seat, seed)`` returns a copy of ``state`` in which every
card hidden from ``seat`` (other players' hands, the deck order, the unused
specials, other seats' unrevealed ante cards, another seat's private look)
is shuffled among those hidden places, keeping every count and every fact
``seat`` does know (its hand, public zones, cards revealed into a hand);
other seats' D&D abilities that are still secret are re-dealt as well.
The result is a state ``seat`` cannot tell apart from the real one, so
searching it never uses information the seat does not have; and because the
re-deal starts from a canonical order, two real states that differ only in
what ``seat`` cannot see give the same determinized state for the same seed.
"""

from __future__ import annotations

from dragonante.engine.decisions import CODE_ANSWERS, SEAT_ANSWERS, SEER_KEEP, Decision
from dragonante.engine.state import GameState
from dragonante.kernel import rng


def determinize(s: GameState, seat: int, seed: int) -> GameState:
    """A copy of ``s`` consistent with everything ``seat`` knows."""
    c = s.clone()
    known = c.known

    def hidden_from_seat(card: int) -> bool:
        return not (known.get(card, 0) >> seat) & 1

    slots: list[tuple[list[int], int]] = []  # (zone, index) of each hidden card
    pool: list[int] = []
    r = rng.seed_state(seed)
    for p in range(c.n):
        if p == seat:
            continue
        hand = c.hands[p]
        if c.ante_choice[p] >= 0:
            # Which of its cards p anted face down is hidden too, even for a
            # card we know p holds: mix p's ante slot with its hand first.
            held = sorted([*hand, c.ante_choice[p]])
            r = rng.shuffle(r, held)
            hand[:] = held[:-1]
            c.ante_choice[p] = held[-1]
            if hidden_from_seat(held[-1]):
                slots.append((c.ante_choice, p))
                pool.append(held[-1])
        for i, card in enumerate(hand):
            if hidden_from_seat(card):
                slots.append((hand, i))
                pool.append(card)
    for i, card in enumerate(c.deck):
        slots.append((c.deck, i))
        pool.append(card)
    for i, card in enumerate(c.discard):
        if card in known and hidden_from_seat(card):  # discarded face down, unseen
            slots.append((c.discard, i))
            pool.append(card)
    if not c.config.deck.reveal_specials:
        for i, card in enumerate(c.aside):
            slots.append((c.aside, i))
            pool.append(card)
    d = c.pending
    if d is not None and d.kind == SEER_KEEP and d.seat != seat:
        # The looked-at cards are unknown to us; they were on top of the deck.
        # (Other cards waiting there were revealed to all: a Sorcerer's two.)
        for i, card in enumerate(c.limbo):
            if card in d.options:
                slots.append((c.limbo, i))
                pool.append(card)
    old = list(pool)
    # Shuffle from a canonical order: the result then depends only on which
    # cards are hidden (a fact the seat knows), never on where they really are.
    pool.sort()
    rng.shuffle(r, pool)
    # A face-down discard keeps its place's secret: whoever saw the card that
    # was there now "knows" the card dealt into that place.
    face_down = [
        (i, known[card])
        for i, card in enumerate(c.discard)
        if card in known and hidden_from_seat(card)
    ]
    for (zone, i), card in zip(slots, pool, strict=True):
        zone[i] = card
    for i, mask in face_down:
        known[c.discard[i]] = mask
    if d is not None and d.seat != seat and d.kind not in CODE_ANSWERS | SEAT_ANSWERS:
        # Another seat's question may list hidden cards (its hand, its look):
        # rename them the way the re-deal did.
        moved = dict(zip(old, pool, strict=True))
        c.pending = Decision(
            d.id,
            d.seat,
            d.kind,
            tuple(moved.get(o, o) for o in d.options),
            d.source,
            d.ctx,  # ctx never holds hidden cards
        )
    if c.abilities is not None:
        # Other seats' hidden D&D abilities are re-dealt too (after the cards,
        # so a game without abilities re-deals exactly as before).
        r = rng.seed_state(seed ^ 0x5A5A5A5A)
        c.abilities.redeal(seat, r)
    c.rng = rng.seed_state(seed ^ 0x9E3779B9)
    return c
