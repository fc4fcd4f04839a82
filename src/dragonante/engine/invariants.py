"""Conservation laws of the game, checked by the random-game tests and `simulate`.

* Gold: hoards + stakes + the hole always equal the starting gold (gold owed
  to the hole, and Emperor's Gambit debts, are IOUs, not gold).
* Cards: every physical card of the game is in exactly one zone.
* Hands never exceed the hand limit.
* The deck is what the deck options build: the Legendary 70 dragons plus
  exactly ``special_count`` specials (Setup step 2), or a preset's list.
* Immediate debts (original rules): no debtor holds gold, since every gold
  inflow repays debts first (:func:`dragonante.engine.core.gain_gold`).
* An eliminated seat (``players_remaining``) has left the table: it holds no
  cards, never antes or plays, and is never asked or offered as a choice.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from dragonante.engine.config import DeckOptions
from dragonante.engine.decisions import ABILITY_SEAT, ADVENTURER_STACK, CHOOSE_OPPONENT
from dragonante.engine.decks import fixed_deck, original_colors
from dragonante.engine.state import GameState
from dragonante.engine.tables import CARD_ID, SET

#: The Legendary Edition's standard dragons (70).
_STANDARD = sum(1 for k in SET if k == "legendary-standard")


def violations(s: GameState, deck: bool = True) -> list[str]:
    """Every broken invariant, as readable sentences (empty when all hold).

    ``deck=False`` leaves out the deck's size: a scenario position places
    its own cards, so its deck is not the one the deck options build."""
    out: list[str] = []
    total = sum(s.hoards) + s.stakes + s.hole
    if total != s.gold_total:
        out.append(f"gold not conserved: {total} != {s.gold_total}")
    if any(h < 0 for h in s.hoards) or s.stakes < 0 or s.hole < 0:
        out.append("negative gold")
    zones: list[int] = [*s.deck, *s.discard, *s.aside, *s.ante, *s.limbo]
    zones.extend(c for c in s.ante_choice if c >= 0)
    for h in s.hands:
        zones.extend(h)
    for f in s.flights:
        zones.extend(f)
    counts = Counter(zones)
    dupes = [CARD_ID[c] for c, k in counts.items() if k > 1]
    if dupes:
        out.append(f"cards in two zones: {dupes}")
    if s.phase != "setup":
        universe = set(s.universe)
        missing = universe - counts.keys()
        if missing:
            out.append(f"cards missing: {sorted(CARD_ID[c] for c in missing)}")
        extra = counts.keys() - universe
        if extra:
            out.append(f"unknown cards: {sorted(CARD_ID[c] for c in extra)}")
    limit = s.config.rules.hand_limit
    for p, h in enumerate(s.hands):
        if len(h) > limit:
            out.append(f"seat {p} holds {len(h)} cards (limit {limit})")
    if deck:
        out.extend(deck_size_violations(s))
    if s.debts and s.config.rules.debt_model == "immediate":
        for debtor in sorted({d[0] for d in s.debts}):
            if s.hoards[debtor] > 0:
                out.append(f"seat {debtor} holds {s.hoards[debtor]} gold but owes a debt")
    if s.out:
        out.extend(_eliminated(s))
    return out


#: Questions whose answers are seats (PASS and the other words are negative).
_SEAT_ANSWERS = frozenset((CHOOSE_OPPONENT, ADVENTURER_STACK, ABILITY_SEAT))


def _eliminated(s: GameState) -> list[str]:
    """An eliminated seat takes no further part in the game."""
    out: list[str] = []
    for p in range(s.n):
        if not (s.out >> p) & 1:
            continue
        if s.hands[p] or s.flights[p]:
            out.append(f"eliminated seat {p} holds cards")
        if s.ante_choice[p] >= 0:
            out.append(f"eliminated seat {p} anted")
        if s.round_card[p] >= 0:
            out.append(f"eliminated seat {p} played a card")
    d = s.pending
    if d is not None:
        if (s.out >> d.seat) & 1:
            out.append(f"eliminated seat {d.seat} is asked {d.kind}")
        if d.kind in _SEAT_ANSWERS:
            chosen = [o for o in d.options if o >= 0 and (s.out >> o) & 1]
            if chosen:
                out.append(f"eliminated seats {chosen} offered as a choice ({d.kind})")
    return out


def deck_size_violations(s: GameState) -> list[str]:
    """The cards in play (every card of the game but those set aside) must be as
    many as the deck options build: a deck built one card long or short is a rule
    broken at setup that no zone check can see."""
    if s.phase == "setup":
        return []
    in_play = len(s.universe) - len(s.aside)
    want = expected_deck_size(s.config.deck)
    if in_play != want:
        return [f"the game has {in_play} cards in play; its deck options build {want}"]
    return []


def expected_deck_size(deck: DeckOptions) -> int:
    """How many cards the deck options put in play (the rest is set aside)."""
    if deck.preset == "legendary":
        return _STANDARD + deck.special_count
    return _fixed_size(deck.preset, deck.custom, deck.original_colors_six_cards)


@cache
def _fixed_size(preset: str, custom: tuple[str, ...], six: bool) -> int:
    size = len(fixed_deck(preset, custom))
    return size - len(original_colors(preset)) if six else size
