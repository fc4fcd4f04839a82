"""Special flights: which color and strength flights a change completed.

"You complete a special flight on the turn you play the third matching card"
and also when a power changes the cards already in your flight.  The
rulebook collects rewards after all of the turn's triggered powers, so the
engine checks every flight once the turn's powers are done (active player
first, then clockwise, A34), and at scoring for the Dragonrider.  Each color
and each strength pays a player at most once per gambit (D17); a color
flight is paid before a strength flight.
"""

from __future__ import annotations

from dragonante.engine.core import (
    STAKES,
    ask,
    ev,
    opponents_from_left,
    pay,
    push,
    resolver,
    reveal_known,
    rewards_skipped,
    steal,
    step,
)
from dragonante.engine.decisions import TAKE_ANTE, Decision
from dragonante.engine.state import GameState
from dragonante.engine.tables import COLOR_INDEXES, COLOR_MASK, COLORS, IS_EVIL, IS_MORTAL, STRENGTH
from dragonante.kernel import Step

_MORTAL = COLORS.index("mortal")


def completed_colors(
    s: GameState, seat: int, flight: list[int] | None = None
) -> list[tuple[int, int]]:
    """Uncollected color flights in ``seat``'s flight: (color index, payout).

    The payout is the second-highest strength among the matching cards (D7,
    A51); a wild card (triggered Wyrmpriest) matches every color and Tiamat
    matches its five.  ``flight`` stands in for the seat's flight (a play
    being considered, see :func:`completed_by`).
    """
    if flight is None:
        flight = s.flights[seat]
    if len(flight) < 3:
        return []
    wild = s.wild
    counts: dict[int, int] = {}
    n_wild = 0
    for c in flight:
        if wild and (wild >> c) & 1:
            n_wild += 1
        else:
            for ci in COLOR_INDEXES[c]:
                counts[ci] = counts.get(ci, 0) + 1
    # At most two cards are ever wild (the Legendary and the Emperor's Gambit
    # Wyrmpriest), so a color needs at least one card of its own.
    candidates = [ci for ci, k in counts.items() if k + n_wild >= 3]
    if not candidates:
        return []
    collected = s.collected_colors[seat]
    # Three Mortals are a color under Legendary rules (D6); under Emperor's
    # Gambit rules only for the owner of a triggered EG Wyrmpriest.
    mortals_ok = s.config.rules.mortals_form_color_flight or (s.mortal_flights >> seat) & 1
    found: list[tuple[int, int]] = []
    for ci in sorted(candidates):
        if (collected >> ci) & 1 or (ci == _MORTAL and not mortals_ok):
            continue
        bit = 1 << ci
        strengths = [STRENGTH[c] for c in flight if (COLOR_MASK[c] & bit) or (wild >> c) & 1]
        strengths.sort(reverse=True)
        found.append((ci, strengths[1]))
    return found


def completed_strengths(
    s: GameState,
    seat: int,
    override: dict[int, int] | None = None,
    flight: list[int] | None = None,
) -> list[int]:
    """Uncollected strength flights (three cards of one strength) in ``seat``'s flight.

    ``override`` maps card numbers to the strength they have right now (the
    Dragonrider at scoring); ``flight`` stands in for the seat's flight.
    """
    if flight is None:
        flight = s.flights[seat]
    if len(flight) < 3:
        return []
    mortals_count = s.config.rules.mortals_in_strength_flights
    counts: dict[int, int] = {}
    for c in flight:
        if not mortals_count and IS_MORTAL[c]:
            continue
        st = override.get(c, STRENGTH[c]) if override else STRENGTH[c]
        counts[st] = counts.get(st, 0) + 1
    collected = s.collected_strengths[seat]
    return sorted([st for st, k in counts.items() if k >= 3 and not (collected >> st) & 1])


def completed_by(s: GameState, seat: int, card: int) -> tuple[list[int], list[int]]:
    """The special flights ``seat`` would complete by playing ``card`` now:
    (color indexes, strengths), as the flight stands before the card's own
    power (a power that changes the flight can still make or break one).

    The hint a player reads beside each card it may play; it uses only public
    facts (the flights, the wild cards, what each seat has collected).
    """
    flight = [*s.flights[seat], card]
    colors = [ci for ci, _ in completed_colors(s, seat, flight)]
    return colors, completed_strengths(s, seat, None, flight)


def completed_now(s: GameState, seat: int) -> tuple[int, ...]:
    """The uncollected special flights in ``seat``'s flight right now, flat:
    ``(strength mask, color index, payout, color index, payout, ...)``, or ``()``.

    Taken when a triggered card is played into a flight it completes, before
    its power resolves: "You complete a special flight on the turn you play
    the third matching card ... follow the instructions of all powers that
    trigger on that turn, and then collect the special flight's reward" (L
    Special Flights), so a power that then changes the flight (the Copper
    Trickster as the third copper) does not undo it.  Flat ints, so the
    snapshot rides in a serialisable step.
    """
    colors = completed_colors(s, seat)
    strengths = completed_strengths(s, seat)
    if not colors and not strengths:
        return ()
    mask = 0
    for st in strengths:
        mask |= 1 << st
    return (mask, *[x for pair in colors for x in pair])


def detect_flight_rewards(
    s: GameState,
    first: int,
    override: dict[int, int] | None = None,
    kept: tuple[int, ...] = (),
) -> list[Step]:
    """New special flights of every player, as reward steps (marked collected now).

    Active player first, then clockwise (A34); per player color before strength.
    Only flights that changed since the last check can hold a new flight, so
    only those (``s.dirty``) are examined, except at scoring (``override``).
    ``kept`` (from :func:`completed_now`) adds the flights ``first`` completed
    when it played its card and that its power then broke up: they are still
    collected, at the payout they had when completed (a flight still standing
    pays what it pays now).  ``first``'s flight is always examined then: the
    card played marked it, and no power leaves it under three cards (a power
    that discards from it, the Dragonslayer, only takes a dragon weaker than
    itself, never one of the cards it completed a flight with).
    """
    n = s.n
    rewards: list[Step] = []
    flights = s.flights
    dirty = -1 if override else s.dirty
    s.dirty = 0
    for i in range(n):
        p = (first + i) % n
        if not (dirty >> p) & 1 or len(flights[p]) < 3:
            continue
        keep = kept if i == 0 else ()
        colors = completed_colors(s, p)
        strengths = completed_strengths(s, p, override)
        if keep:
            # The snapshot holds only flights uncollected when the card was
            # played, and nothing is collected between then and this check.
            have = {ci for ci, _ in colors}
            for j in range(1, len(keep), 2):
                if keep[j] not in have:
                    colors.append((keep[j], keep[j + 1]))
            colors.sort()
            mask = keep[0]
            strengths = sorted(
                {*strengths} | {st for st in range(mask.bit_length()) if (mask >> st) & 1}
            )
        for ci, amount in colors:
            s.collected_colors[p] |= 1 << ci
            rewards.append(("color_reward", p, ci, amount))
        for st in strengths:
            s.collected_strengths[p] |= 1 << st
            rewards.append(("strength_reward", p, st))
    return rewards


def queue_flight_rewards(s: GameState, first: int, override: dict[int, int] | None = None) -> None:
    """Detect new special flights and schedule their rewards."""
    rewards = detect_flight_rewards(s, first, override)
    if rewards:
        push(s, *rewards)


@step("color_reward", "seat", "color", "amount")
def _color_reward(s: GameState, st: Step) -> None:
    _, p, ci, amount = st
    if rewards_skipped(s):
        _flight_unscored(s, p)
        return
    if s.abilities is not None:
        amount += s.abilities.flight_bonus(s, p)
    ev(s, "color_flight", seat=p, color=COLORS[ci], amount=amount)
    for o in opponents_from_left(s, p):
        pay(s, o, amount, p)
    _flight_done(s, p)


@step("strength_reward", "seat", "strength", "*steal")
def _strength_reward(s: GameState, st: Step) -> None:
    """Steal gold equal to the strength and take ante cards.  ``st[3]``, when
    given, is whether the steal still happens (0: Streetwise replaced it)."""
    p, strength = st[1], st[2]
    if rewards_skipped(s):
        _flight_unscored(s, p)
        return
    ab = s.abilities
    if ab is not None and len(st) == 3 and ab.strength_flight(s, p, strength):
        return
    ev(s, "strength_flight", seat=p, strength=strength)
    if len(st) == 3 or st[3]:
        bonus = 0 if ab is None else ab.flight_bonus(s, p)
        steal(s, p, strength + bonus, by_power=False)
    take = s.config.rules.strength_flight_ante_cards
    if take < 0:  # the original rule: all the remaining ante cards
        take = len(s.ante)
    if take:
        push(s, ("take_ante", p, take, 0, -1))
    _flight_done(s, p)


def _flight_done(s: GameState, p: int) -> None:
    """``p`` scored a special flight: abilities recharge (and Arcana draws)."""
    if s.abilities is not None:
        s.abilities.flight_scored(s, p)


def _flight_unscored(s: GameState, p: int) -> None:
    """``p`` completed a special flight but collects nothing (the stakes ran out)."""
    if s.abilities is not None:
        s.abilities.flight_unscored(s, p)


def complete_unscored(s: GameState, first: int) -> None:
    """The stakes ran out on this turn: flights completed now are still completed
    (marked collected, abilities told) though no reward is collected."""
    if s.abilities is not None:
        for r in detect_flight_rewards(s, first):
            s.abilities.flight_unscored(s, r[1])


def _take_ante(s: GameState, st: Step) -> None:
    """Take ``left`` ante cards into ``p``'s hand, one question per card.

    ``weakest`` restricts the choice: 0 any ante card; 1 the weakest (Bronze);
    2 "the two weakest" with room for only one card, where the player picks
    either of the two weakest; 3 evil dragons only (Iron Dragon).
    """
    _, p, left, weakest, source = st
    ante = s.ante
    room = s.config.rules.hand_limit - len(s.hands[p])
    if left <= 0 or not ante or room <= 0:
        return
    if weakest == 0:
        options = tuple(sorted(ante))
    elif weakest == 3:
        options = tuple(sorted([c for c in ante if IS_EVIL[c]]))
        if not options:
            return
    else:
        strengths = sorted([STRENGTH[c] for c in ante])
        cap = strengths[0] if weakest == 1 or len(strengths) == 1 else strengths[1]
        options = tuple(sorted([c for c in ante if STRENGTH[c] <= cap]))
    if left > 1 and room > 1:
        push(s, ("take_ante", p, left - 1, weakest, source))
    ask(s, p, TAKE_ANTE, options, source, (p,))


step("take_ante", "seat", "left", "weakest", "source")(_take_ante)


def _resolve_take_ante(s: GameState, d: Decision, card: int) -> None:
    p = d.ctx[0]
    s.ante.remove(card)
    s.hands[p].append(card)
    reveal_known(s, card)
    if s.log is not None:
        ev(s, "take_ante", seat=p, card=card)


resolver(TAKE_ANTE)(_resolve_take_ante)


__all__ = [
    "STAKES",
    "complete_unscored",
    "completed_colors",
    "completed_now",
    "completed_strengths",
    "detect_flight_rewards",
    "queue_flight_rewards",
]


def no_new_flight(s: GameState, flight: list[int]) -> bool:
    """True if appending the last card of ``flight`` (three cards or more) cannot
    have completed a flight: no wild card, and the last card shares neither a
    color nor a strength with two other cards.  The end of a turn's fast path:
    most turns complete nothing, and then no flight needs to be looked at."""
    if s.wild:
        return False
    card = flight[-1]
    st = STRENGTH[card]
    cm = COLOR_MASK[card]
    same_st = 0
    for c in flight:
        if STRENGTH[c] == st:
            same_st += 1
    if same_st >= 3:
        return False
    if cm:
        same_col = 0
        for c in flight:
            if COLOR_MASK[c] & cm:
                same_col += 1
        if same_col >= 3:
            return False
    return True
