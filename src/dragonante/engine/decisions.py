"""Questions the rules put to a seat, and the answers they accept.

The engine is always either finished or waiting on exactly one
:class:`~dragonante.kernel.decisions.Decision`: a seat, a kind, and the
tuple of legal answers.  Every answer is a single integer (a card number,
a seat, or one of the small negative constants below), so "choose up to N"
becomes N single picks plus ``DONE`` and every action space stays small and
JSON-friendly.  This module names the card game's kinds and answers.
"""

from __future__ import annotations

from typing import Final

# The question itself is the kernel's, shared with the Dice Gambit.
from dragonante.kernel.decisions import PASS as PASS
from dragonante.kernel.decisions import Decision as Decision
from dragonante.kernel.decisions import IllegalAnswer as IllegalAnswer

# Special answers (card numbers and seats are >= 0; PASS = -1 declines an
# optional power / "pay the gold instead").
DONE: Final = -2  # stop picking (Kobold)
ALL: Final = -3  # Adventurer: discard your entire hand
YES: Final = 1
NO: Final = 0

# Decision kinds.  The value is also the message key the interfaces translate.
PICK_SPECIAL: Final = "pick_special"  # pick 'em: choose a special card for the deck
ANTE: Final = "ante"  # choose your ante card
PLAY: Final = "play"  # choose the card to play this turn
BLUE_MODE: Final = "blue_mode"  # 0: each opponent gives you gold; 1: they pay the stakes
GIVE_OR_PAY: Final = "give_or_pay"  # Brass/Green: give a card, or PASS to pay 5 gold
CHOOSE_OPPONENT: Final = "choose_opponent"  # Red/White among tied opponents
TAKE_ANTE: Final = "take_ante"  # Bronze, strength-flight reward
REPLACE_FROM_HAND: Final = "replace_from_hand"  # Wyrmlings; PASS declines
TRICKSTER_DISCARD: Final = "trickster_discard"  # card of your flight to replace
TRIGGER_NEW: Final = "trigger_new"  # Copper Trickster: YES/NO trigger the new card
SEER_KEEP: Final = "seer_keep"  # Silver Seer: card to keep of the top three
SORCERER_PICK: Final = "sorcerer_pick"  # Sorcerer: revealed card that replaces it
ILLUSIONIST_SWAP: Final = "illusionist_swap"  # opponent's mortal, or PASS
KOBOLD_DISCARD: Final = "kobold_discard"  # card to discard, or DONE
PRINCESS_NEXT: Final = "princess_next"  # which good dragon's power triggers next
PROPHET_REVEAL: Final = "prophet_reveal"  # dragon in hand, or PASS
SLAY: Final = "slay"  # Dragonslayer: dragon to discard from any flight
# Emperor's Gambit
ANTE_PUT: Final = "ante_put"  # Exarch (each opponent), Purple: card from hand into the ante
ADVENTURER_DISCARD: Final = "adventurer_discard"  # one card from hand, or ALL
HATCHLING_COPY: Final = "hatchling_copy"  # weaker card in any flight whose power to copy
TURTLE_NEXT: Final = "turtle_next"  # Dragon Turtle: which other mortal triggers next
ADVENTURER_STACK: Final = "adventurer_stack"  # Adventurer split: who gets a bigger stack
# D&D abilities (dragonante.engine.abilities); answers name abilities by number.
USE_ABILITY: Final = "use_ability"  # an ability that may be used now, or PASS
ABILITY_CARD: Final = "ability_card"  # a card an ability acts on (ctx[0]: the ability), or PASS
ABILITY_SEAT: Final = "ability_seat"  # a player an ability acts on (ctx[0]: the ability), or PASS
DRAFT_ABILITY: Final = "draft_ability"  # choose an ability before the game
ANCESTRY_COLOR: Final = "ancestry_color"  # Draconic Ancestry: a color index

KINDS: Final = (
    PICK_SPECIAL, ANTE, PLAY, BLUE_MODE, GIVE_OR_PAY, CHOOSE_OPPONENT, TAKE_ANTE,
    REPLACE_FROM_HAND, TRICKSTER_DISCARD, TRIGGER_NEW, SEER_KEEP, SORCERER_PICK,
    ILLUSIONIST_SWAP, KOBOLD_DISCARD, PRINCESS_NEXT, PROPHET_REVEAL, SLAY,
    ANTE_PUT, ADVENTURER_DISCARD, HATCHLING_COPY, TURTLE_NEXT, ADVENTURER_STACK,
    USE_ABILITY, ABILITY_CARD, ABILITY_SEAT, DRAFT_ABILITY, ANCESTRY_COLOR,
)  # fmt: skip

#: Kinds whose integer answers are seats rather than card numbers.
SEAT_ANSWERS: Final = frozenset({CHOOSE_OPPONENT, ADVENTURER_STACK, ABILITY_SEAT})
#: Kinds whose answers are codes (YES/NO, 0/1, ability or color numbers) rather than cards.
CODE_ANSWERS: Final = frozenset(
    {BLUE_MODE, TRIGGER_NEW, USE_ABILITY, DRAFT_ABILITY, ANCESTRY_COLOR}
)
#: Questions about the D&D abilities (hidden abilities make them private).
ABILITY_KINDS: Final = frozenset(
    {USE_ABILITY, ABILITY_CARD, ABILITY_SEAT, DRAFT_ABILITY, ANCESTRY_COLOR}
)
