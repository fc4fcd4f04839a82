"""The baseline player: a fixed, deliberately simple yardstick.

Its policy never changes, so strength numbers measured against it stay
comparable across versions of the stronger bots:

* **ante** the median-strength card of the hand.  Cards are sorted by
  (strength, card number) and the *lower* median is taken, i.e. index
  ``(len(hand) - 1) // 2``: of 6 cards the 3rd weakest, of 5 the 3rd.
* **play** the strongest card whose power would trigger; if none would, the
  strongest card.  Among equally strong cards the lowest card number wins.
* **any other question**: the first legal answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dragonante.bots.base import SeatView
from dragonante.bots.registry import BotEntry, register
from dragonante.engine.decisions import ANTE, PLAY, Decision
from dragonante.engine.flow import would_trigger
from dragonante.engine.state import GameState
from dragonante.engine.tables import STRENGTH


def median_card(hand: Sequence[int]) -> int:
    """The lower-median card of ``hand`` by (strength, card number)."""
    ordered = sorted(hand, key=lambda c: (STRENGTH[c], c))
    return ordered[(len(ordered) - 1) // 2]


def strongest(cards: Sequence[int]) -> int:
    """The strongest card; ties go to the lowest card number."""
    return max(cards, key=lambda c: (STRENGTH[c], -c))


def baseline_pick(d: Decision, triggers: Callable[[int], bool]) -> int:
    """The baseline answer to ``d``; ``triggers(card)`` says whether a card would trigger."""
    if d.kind == ANTE:
        return median_card(d.options)
    if d.kind == PLAY:
        firing = [c for c in d.options if triggers(c)]
        return strongest(firing or d.options)
    return d.options[0]


def baseline_answer(s: GameState, d: Decision) -> int:
    """The baseline policy on a full state (search rollouts); reads only public facts."""
    return baseline_pick(d, lambda c: would_trigger(s, d.seat, c))


class BaselineBot:
    """Median ante, strongest triggering card, first answer otherwise (deterministic)."""

    name = "baseline"

    def __init__(self, seed: int = 0) -> None:
        del seed  # the policy uses no randomness

    def choose(self, view: SeatView) -> int:
        return baseline_pick(view.decision, view.would_trigger)


register(
    BotEntry(
        "baseline",
        BaselineBot,
        "rules",
        level="easy",
        about="fixed yardstick: median ante, strongest triggering card",
    )
)
