"""Why a card in hand would trigger or not: the trigger hint explains itself.

The engine's hint (``Observation.hints``, from the one trigger rule
``engine.flow.triggers``) says *which* cards would trigger if played now;
this says *why*, in the words of the rule (L "Triggering Powers"): "triggers:
5 is not stronger than the 7 Bot 2 played (the player on your right)", "does
not trigger: 9 is stronger than ...", "triggers: the first card of a round
always triggers".  It reads only the seat's own view (the cards played this
round, who has left the table) and trusts the engine's hint for the
verdict: when an effect in play makes a card trigger against the strength
rule (the Archmage, the Exarch's ante effect), it says so.
"""

from __future__ import annotations

from collections.abc import Callable

from dragonante.cards import ALL_CARDS
from dragonante.engine.views import Observation
from dragonante.i18n import t


def right_of(obs: Observation, seat: int) -> int:
    """The player to ``seat``'s right: the previous seat still at the table."""
    n = obs.players
    out = set(obs.out)
    p = (seat - 1) % n
    while p in out and p != seat:
        p = (p - 1) % n
    return p


def trigger_reason(obs: Observation, card: int, name: Callable[[int], str], lang: str) -> str:
    """Why ``card`` in the viewer's hand would (or would not) trigger if played now.

    ``name`` calls a seat as the sentence's object ("Bot 2", "you").  Only
    while the viewer is asked what to play ("" otherwise): the card just
    played by the player on the right is known only then.
    """
    seat = obs.seat
    if seat is None or not _asked_to_play(obs):
        return ""
    triggers = card in obs.hints
    played = obs.round_card
    right = right_of(obs, seat)
    prev = played[right] if 0 <= right < len(played) else -1
    strength = ALL_CARDS[card].strength
    if prev >= 0:
        before = ALL_CARDS[prev].strength
        params = {"strength": strength, "prev": before, "name": name(right)}
        if strength <= before:
            return t("hint.trigger.not_stronger", lang, **params)
        if triggers:
            return t("hint.trigger.effect", lang)
        return t("hint.trigger.stronger", lang, **params)
    if max(played, default=-1) < 0:
        return t("hint.trigger.first", lang)
    if triggers:
        return t("hint.trigger.effect", lang)
    return t("hint.trigger.no_card", lang, name=name(right))


def _asked_to_play(obs: Observation) -> bool:
    q = obs.question
    return q is not None and q.kind == "play" and q.seat == obs.seat


__all__ = ["right_of", "trigger_reason"]
