"""Conservation laws of the game, checked by the random-game tests and `simulate`.

* Gold: hoards + stakes + the hole always equal the starting gold (gold owed
  to the hole, and Emperor's Gambit debts, are IOUs, not gold).
* Cards: every physical card of the game is in exactly one zone.
* Hands never exceed the hand limit.
"""

from __future__ import annotations

from collections import Counter

from dragonante.engine.state import GameState
from dragonante.engine.tables import CARD_ID


def violations(s: GameState) -> list[str]:
    """Every broken invariant, as readable sentences (empty when all hold)."""
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
    return out
