"""The powers of the Emperor's Gambit cards (EG Appendix 3).

Same conventions as :mod:`dragonante.engine.powers`: ``text`` is the card
whose text resolves (its strength is the one compared, A13) and ``this`` the
card "this card" means (they differ under the Prophet or the Hatchling,
A43).  The Queen and the Sorcerer share the Legendary definitions; the EG
Wyrmpriest has its own.  Ante effects are not powers ("An ante effect is a
special ability that affects the game in some way when that card is put
into the ante or is revealed as an ante card"), but they are registered here
the same way, each on the hook of the moment it acts
(:func:`dragonante.engine.core.ante_effect`).
"""

from __future__ import annotations

from dragonante.engine import decisions as D
from dragonante.engine.core import (
    ANTE_AWARD,
    ANTE_FIRST_TURN,
    ANTE_REVEALED,
    ANTE_TRIGGERS,
    ANTE_WEAKEST_WINS,
    RESHAPED,
    STAKES,
    ante_effect,
    ask,
    clockwise,
    ev,
    forget_card,
    gain_gold,
    left_of,
    opponents_from_left,
    pay,
    players_in,
    power,
    power_draw,
    push,
    put_into_ante,
    replace_in_flight,
    resolver,
    steal,
    step,
    trigger_each,
)
from dragonante.engine.decisions import Decision
from dragonante.engine.flow import winner_share
from dragonante.engine.powers import CHOSEN_STEP, choose_among, strongest_opponents
from dragonante.engine.state import GameState
from dragonante.engine.tables import COLOR_MASK, IS_EVIL, IS_GOOD, IS_MORTAL, KEY, POWER, STRENGTH
from dragonante.kernel import Step, rng


@power("adamantine")
def adamantine(s: GameState, seat: int, text: int, this: int) -> None:
    """Draw a card; each opponent pays 1 gold to the stakes (the draw happens even
    if they go into debt)."""
    power_draw(s, seat, 1)
    for o in opponents_from_left(s, seat):
        pay(s, o, 1, STAKES)


@power("brown")
def brown(s: GameState, seat: int, text: int, this: int) -> None:
    """Steal 1, and an extra 2 if your flight has no good dragon (all that is left if
    less): one steal of 1 or 3 gold, so Thievery adds its 1 to it once."""
    steal(s, seat, 1 if any(IS_GOOD[c] for c in s.flights[seat]) else 3)


@power("earthquake")
def earthquake(s: GameState, seat: int, text: int, this: int) -> None:
    """Each opponent pays you one gold per Earthquake Dragon in all flights and the ante."""
    count = sum(1 for f in s.flights for c in f if KEY[c] == "EG-earthquake")
    count += sum(1 for c in s.ante if KEY[c] == "EG-earthquake")
    for o in opponents_from_left(s, seat):
        pay(s, o, count, seat)


@power("io")
def io(s: GameState, seat: int, text: int, this: int) -> None:
    """Each player, you first, pays the stakes gold equal to the number of players."""
    n = players_in(s)
    for p in clockwise(s, seat):
        pay(s, p, n, STAKES)


@power("mercury")
def mercury(s: GameState, seat: int, text: int, this: int) -> None:
    """Draw a card for each color of good dragon in your flight (this one included)."""
    colors = 0
    for c in s.flights[seat]:
        if IS_GOOD[c]:
            colors |= COLOR_MASK[c]
    power_draw(s, seat, colors.bit_count())


@power("mithral")
def mithral(s: GameState, seat: int, text: int, this: int) -> None:
    """Each player with three or fewer cards draws one (you first, then clockwise);
    then you draw one more."""
    for p in clockwise(s, seat):
        if len(s.hands[p]) <= 3:
            power_draw(s, p, 1)
    power_draw(s, seat, 1)


@power("iron")
def iron(s: GameState, seat: int, text: int, this: int) -> None:
    """Put an evil dragon from the ante into your hand (none there: no effect)."""
    push(s, ("take_ante", seat, 1, 3, text))


@power("spy")
def spy(s: GameState, seat: int, text: int, this: int) -> None:
    """Put any one ante card into your hand, even one with an ante effect."""
    push(s, ("take_ante", seat, 1, 0, text))


# --- the ante: Purple, Exarch ---------------------------------------------------


@power("purple")
def purple(s: GameState, seat: int, text: int, this: int) -> None:
    """Draw a card, then put a card from your hand into the ante."""
    push(s, ("ante_put", seat, text, seat))
    power_draw(s, seat, 1)  # after the push: a Luck Domain redraw comes before the ante_put


@power("exarch")
def exarch(s: GameState, seat: int, text: int, this: int) -> None:
    """Each opponent, from your left, puts a card from their hand into the ante."""
    push(s, *(("ante_put", o, text, seat) for o in opponents_from_left(s, seat)))


@step("ante_put", "seat", "text", "active")
def _ante_put(s: GameState, st: Step) -> None:
    _, seat, text, active = st
    hand = s.hands[seat]
    if hand:
        ask(s, seat, D.ANTE_PUT, tuple(hand), text, (active,))


@resolver(D.ANTE_PUT)
def _resolve_ante_put(s: GameState, d: Decision, card: int) -> None:
    s.hands[d.seat].remove(card)
    # A Dragon Turtle put in by an Exarch's opponent charges from the Exarch's player (A36).
    put_into_ante(s, card, d.seat, d.ctx[0])


# --- taking gold from the strongest: Gray ----------------------------------------


@power("gray")
def gray(s: GameState, seat: int, text: int, this: int) -> None:
    """The strongest opponent (ties: you choose) pays 1 gold per evil dragon in the ante."""
    choose_among(s, seat, text, strongest_opponents(s, seat), "gray_hit")


@step("gray_hit", "seat", "target", "text")
def _gray_hit(s: GameState, st: Step) -> None:
    _, seat, target, _text = st
    pay(s, target, sum(1 for c in s.ante if IS_EVIL[c]), seat)


CHOSEN_STEP["gray"] = "gray_hit"


# --- Steel: the left opponent gives a mortal or pays 4 -----------------------------


@power("steel")
def steel(s: GameState, seat: int, text: int, this: int) -> None:
    push(s, ("give_or_pay", left_of(s, seat), seat, text))


# --- Shadow: a random card from the fullest hand replaces it ------------------------


@power("shadow")
def shadow(s: GameState, seat: int, text: int, this: int) -> None:
    """Take a random card from the opponent with the most cards (ties: you choose);
    it replaces this card and its power triggers."""
    if this not in s.flights[seat]:
        return
    opp = opponents_from_left(s, seat)
    most = max(len(s.hands[o]) for o in opp)
    if most == 0:
        return
    tied = [o for o in opp if len(s.hands[o]) == most]
    choose_among(s, seat, text, tied, "shadow_take", (this,))


@step("shadow_take", "seat", "victim", "text", "this")
def _shadow_take(s: GameState, st: Step) -> None:
    _, seat, victim, _text, this = st
    if this not in s.flights[seat]:
        return
    hand = s.hands[victim]
    if not hand or len(s.hands[seat]) >= s.config.rules.hand_limit:
        # A35: a take into a full hand is ignored.
        ev(s, "take_random_none", taker=seat, victim=victim)
        return
    s.rng, k = rng.below(s.rng, len(hand))
    card = hand.pop(k)
    ev(s, "take_random", taker=seat, victim=victim)
    if s.abilities is not None:
        # The card waits, last in the taker's hand and seen by the two players
        # only, while an ability may swap it for another (Dungeoneering).
        s.hands[seat].append(card)
        s.known[card] = (1 << seat) | (1 << victim)
        ev(s, "take_random_card", (seat, victim), taker=seat, victim=victim, card=card)
        s.queue.append(("shadow_place", seat, this))
        s.abilities.took_random(s, seat, victim, card, True)
        return
    _shadow_replace(s, seat, this, card)


@step("shadow_place", "seat", "this")
def _shadow_place(s: GameState, st: Step) -> None:
    _, seat, this = st
    card = s.hands[seat].pop()  # the card taken (or the one Dungeoneering took instead)
    _shadow_replace(s, seat, this, card)


def _shadow_replace(s: GameState, seat: int, this: int, card: int) -> None:
    forget_card(s, card)
    ev(s, "replace", seat=seat, old=this, new=card, how="shadow")
    replace_in_flight(s, seat, this, card)
    push(s, ("trigger", seat, card, card))


CHOSEN_STEP["shadow"] = "shadow_take"


# --- Adventurer: discard one card or the whole hand, draw as many --------------------


@power("adventurer")
def adventurer(s: GameState, seat: int, text: int, this: int) -> None:
    hand = s.hands[seat]
    if not hand:
        return
    options = (*hand, D.ALL) if len(hand) > 1 else tuple(hand)
    ask(s, seat, D.ADVENTURER_DISCARD, options, text)


@resolver(D.ADVENTURER_DISCARD)
def _adventurer_discard(s: GameState, d: Decision, card: int) -> None:
    seat = d.seat
    hand = s.hands[seat]
    gone = list(hand) if card == D.ALL else [card]
    for c in gone:
        hand.remove(c)
        s.discard.append(c)
        forget_card(s, c)
        ev(s, "discard_from_hand", seat=seat, card=c)
    power_draw(s, seat, len(gone))


# --- Hatchling: copy a weaker card's power ------------------------------------------


@power("hatchling", reshapes=True)
def hatchling(s: GameState, seat: int, text: int, this: int) -> None:
    """Copy the power of a strictly weaker card in any flight (A50); mandatory if one
    exists.  Ante effects and dragon-god abilities are not powers and are not copied."""
    limit = STRENGTH[text]
    n = s.n
    targets = tuple(
        c
        for i in range(n)
        for c in s.flights[(seat + i) % n]
        if STRENGTH[c] < limit and POWER[c] and c != this
    )
    if targets:
        ask(s, seat, D.HATCHLING_COPY, targets, text, (this,))


@resolver(D.HATCHLING_COPY)
def _hatchling_copy(s: GameState, d: Decision, card: int) -> None:
    ev(s, "copy", seat=d.seat, card=card)
    push(s, ("trigger", d.seat, card, d.ctx[0]))


# --- Dragon Turtle: each other mortal in your flight triggers -------------------------


@power("dragon_turtle", reshapes=True)
def dragon_turtle(s: GameState, seat: int, text: int, this: int) -> None:
    """The power of each other mortal in your flight triggers, in the order you choose."""
    mortals = tuple(c for c in s.flights[seat] if IS_MORTAL[c] and c != this and POWER[c])
    trigger_each(s, seat, mortals, text, D.TURTLE_NEXT)


# --- Emperor and the EG Wyrmpriest: effects for the rest of the gambit ----------------


@power("emperor")
def emperor(s: GameState, seat: int, text: int, this: int) -> None:
    """Not scored until after round 4 (no effect from round 4 on); +4 at scoring."""
    s.emperor[seat] += 1
    s.score_round = max(s.score_round, 4)


@power("eg_wyrmpriest")
def eg_wyrmpriest(s: GameState, seat: int, text: int, this: int) -> None:
    """Counts as a dragon of any color for color flights, and its owner may complete
    a color flight with three mortals, for the rest of the gambit."""
    s.wild |= 1 << this
    owner = next((o for o in range(s.n) if this in s.flights[o]), seat)
    s.mortal_flights |= 1 << owner
    s.dirty |= (1 << owner) | RESHAPED


# --- ante effects --------------------------------------------------------------------
#: Gold the Spy ante effect makes the first player of a round pay each opponent.
SPY_PAYMENT = 2


@ante_effect("dragon_turtle", ANTE_REVEALED)
def dragon_turtle_ante(s: GameState, first: int) -> None:
    """Dragon Turtle ante effect: each player pays the stakes the strength of the
    weakest ante card (the Turtle included), clockwise from ``first`` (A36, A48)."""
    if not s.ante:
        return
    amount = min(STRENGTH[c] for c in s.ante)
    ev(s, "ante_effect", effect="dragon_turtle", amount=amount)
    for p in clockwise(s, first):
        pay(s, p, amount, STAKES)


@ante_effect("spy", ANTE_FIRST_TURN)
def spy_ante(s: GameState, seat: int) -> None:
    """Spy ante effect: whoever takes the first turn of a round pays each opponent
    2 gold before playing."""
    ev(s, "ante_effect", effect="spy", seat=seat, payment=SPY_PAYMENT)
    for o in opponents_from_left(s, seat):
        pay(s, seat, SPY_PAYMENT, o)


@ante_effect("exarch", ANTE_TRIGGERS)
def exarch_ante(s: GameState, seat: int, card: int) -> bool:
    """Exarch ante effect: every card of strength 10 or more triggers."""
    return STRENGTH[card] >= 10


@ante_effect("hatchling", ANTE_WEAKEST_WINS)
def hatchling_ante(s: GameState) -> bool:
    """Hatchling ante effect: the weakest flight wins the gambit (A29)."""
    return True


def _sharers(s: GameState, winner: int) -> list[int]:
    """The opponents who scored a special flight this gambit (even if no longer
    intact, A49), clockwise from the winner's left."""
    return [
        o
        for o in opponents_from_left(s, winner)
        if s.collected_colors[o] or s.collected_strengths[o]
    ]


@ante_effect("adventurer", ANTE_AWARD)
def adventurer_ante(s: GameState, winner: int) -> bool:
    """Adventurer ante effect: the winner splits the stakes evenly with the opponents
    who scored a special flight; the winner chooses who gets the bigger stacks.
    False (the winner takes it all) when nobody else scored one."""
    sharers = _sharers(s, winner)
    if not sharers:
        return False
    # The stacks leave the stakes one by one, so the gold is always somewhere.
    amount = s.stakes
    small, big = divmod(amount, len(sharers) + 1)
    ev(s, "adventurer_split", winner=winner, seats=sharers, amount=amount)
    s.queue.append(("adventurer_stacks", winner, small, big, 0))
    return True


@step("adventurer_stacks", "winner", "small", "big_left", "given")
def _adventurer_stacks(s: GameState, st: Step) -> None:
    """Hand out the Adventurer's stacks: the winner chooses who gets the bigger ones."""
    _, winner, small, big_left, given = st
    seats = [winner, *_sharers(s, winner)]
    if big_left:
        options = tuple(p for p in seats if not (given >> p) & 1)
        ask(s, winner, D.ADVENTURER_STACK, options, -1, (small, big_left, given))
        return
    for p in seats:
        if not (given >> p) & 1 and p != winner:
            s.stakes -= small
            ev(s, "stack", seat=p, amount=small)
            gain_gold(s, p, small)
    if not (given >> winner) & 1:
        s.stakes -= small
        winner_share(s, winner, small)


@resolver(D.ADVENTURER_STACK)
def _resolve_stack(s: GameState, d: Decision, seat: int) -> None:
    small, big_left, given = d.ctx
    s.stakes -= small + 1
    if seat == d.seat:
        winner_share(s, seat, small + 1)
    else:
        ev(s, "stack", seat=seat, amount=small + 1)
        gain_gold(s, seat, small + 1)
    s.queue.append(("adventurer_stacks", d.seat, small, big_left - 1, given | (1 << seat)))
