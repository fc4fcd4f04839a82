"""The deck: reshuffling the discard pile the moment the deck runs out."""

from __future__ import annotations

import re

import pytest

from dragonante.engine import GameConfig, new_game
from dragonante.engine.core import draw, top_card
from dragonante.engine.decks import DeckError, custom_cards
from dragonante.engine.invariants import violations


def test_discard_pile_becomes_the_deck_when_the_last_card_is_drawn() -> None:
    s = new_game(GameConfig(players=3), seed=4)
    seat = s.pending.seat if s.pending else 0
    s.hands[seat].clear()
    rest = s.deck[:-1]
    last = s.deck[-1]
    s.deck[:] = [last]
    s.discard.extend(rest)
    assert draw(s, seat, 1) == 1
    assert s.hands[seat] == [last]
    # "Whenever the deck runs out of cards, shuffle the discard pile to form a new deck."
    assert sorted(s.deck) == sorted(rest) and not s.discard
    assert s.log is not None
    kinds = [e[1] for e in s.log[-3:]]
    assert kinds == ["reshuffle", "draw_card", "draw"]


def test_no_cards_anywhere_draws_nothing() -> None:
    s = new_game(GameConfig(players=2), seed=1)
    moved = s.deck[:] + s.discard[:]
    s.deck.clear()
    s.discard.clear()
    assert top_card(s) == -1
    s.aside.extend(moved)  # keep the card accounting whole for the check below
    assert not [v for v in violations(s) if "missing" in v]


@pytest.mark.parametrize(
    ("custom", "message"),
    [
        (("EG-brown", "EG-brown-9"), "card EG-brown-9 is listed twice in the custom deck"),
        (("EG-brown", "EG-grey"), "unknown card or card type 'EG-grey' in the custom deck"),
    ],
)
def test_a_custom_list_naming_a_card_twice_or_no_card_is_refused(
    custom: tuple[str, ...], message: str
) -> None:
    """Input validation, not a rule (so no scenario): a physical card is in a deck once."""
    with pytest.raises(DeckError, match=re.escape(message)):
        custom_cards(custom)
