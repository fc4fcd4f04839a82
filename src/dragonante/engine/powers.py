"""The powers of the 40 Legendary Edition cards (Appendix 4).

Each function resolves one card text for ``seat``: ``text`` is the card whose
text is resolving and ``this`` the card in the flight that "this card" means
(they differ only under the Prophet, A43).  Powers that need an answer ask
the seat the rules name and continue in a resolver; everything else is
immediate.  Clarifications from each card's Appendix 4 entry are noted
where they shape the code.
"""

from __future__ import annotations

from dragonante.engine import decisions as D
from dragonante.engine.core import (
    RESHAPED,
    STAKES,
    ask,
    clockwise,
    discard_from_flight,
    ev,
    flight_total,
    forget_card,
    has_good_and_evil,
    left_of,
    opponents_from_left,
    pay,
    power,
    power_draw,
    push,
    put_cards_into_ante,
    repeats,
    replace_from_deck,
    replace_in_flight,
    resolver,
    reveal_known,
    rewards_skipped,
    right_of,
    steal,
    step,
    take_random,
    top_card,
    trigger_each,
)
from dragonante.engine.decisions import Decision
from dragonante.engine.state import GameState
from dragonante.engine.tables import IS_DRAGON, IS_EVIL, IS_GOOD, IS_MORTAL, POWER, STRENGTH
from dragonante.kernel import Step

# --- stealing from the stakes ----------------------------------------------


def black(s: GameState, seat: int, text: int, this: int) -> None:
    """Steal 3 gold from the stakes (take what is there if less)."""
    steal(s, seat, 3)


power("black")(black)


@power("thief")
def thief(s: GameState, seat: int, text: int, this: int) -> None:
    """Steal 7 gold from the stakes."""
    steal(s, seat, 7)


@power("black_raider")
def black_raider(s: GameState, seat: int, text: int, this: int) -> None:
    """Steal 1, then take 2 from the left opponent, 3 from the next... (finishes even
    if the steal emptied the stakes, A26)."""
    steal(s, seat, 1)
    for i, o in enumerate(opponents_from_left(s, seat)):
        pay(s, o, 2 + i, seat)


# --- Blue: give you gold or feed the stakes ---------------------------------


def blue(s: GameState, seat: int, text: int, this: int) -> None:
    ask(s, seat, D.BLUE_MODE, (0, 1), text, (2 if POWER[text] == "blue_overlord" else 1,))


power("blue", "blue_overlord")(blue)


def _blue_mode(s: GameState, d: Decision, mode: int) -> None:
    unit = d.ctx[0]
    seat = d.seat
    ev(s, "blue_mode", seat=seat, mode=mode)
    if mode == 0:
        for o in opponents_from_left(s, seat):
            pay(s, o, unit, seat)
    else:
        amount = unit * len(s.flights[seat])
        for o in opponents_from_left(s, seat):
            pay(s, o, amount, STAKES)


resolver(D.BLUE_MODE)(_blue_mode)


# --- Brass and Green: the neighbour chooses to give a card or pay ------------


def brass(s: GameState, seat: int, text: int, this: int) -> None:
    push(s, ("give_or_pay", right_of(s, seat), seat, text))


power("brass")(brass)


@power("brass_sultan", "green_schemer")
def sultan_schemer(s: GameState, seat: int, text: int, this: int) -> None:
    """Both neighbours choose, left first (in a 2-player game the opponent twice)."""
    push(
        s,
        ("give_or_pay", left_of(s, seat), seat, text),
        ("give_or_pay", right_of(s, seat), seat, text),
    )


def green(s: GameState, seat: int, text: int, this: int) -> None:
    push(s, ("give_or_pay", left_of(s, seat), seat, text))


power("green")(green)


def _give_or_pay(s: GameState, st: Step) -> None:
    """The giver chooses a card to give or PASS to pay (5 gold; Steel: 4).

    Brass: a good dragon stronger than ``text``; Green: an evil dragon weaker
    than ``text`` (A13); Steel: a mortal.
    """
    _, giver, receiver, text = st
    strength = STRENGTH[text]
    amount = 5
    if POWER[text] == "steel":
        cards = tuple([c for c in s.hands[giver] if IS_MORTAL[c]])
        amount = 4
    elif IS_GOOD[text]:
        cards = tuple([c for c in s.hands[giver] if IS_GOOD[c] and STRENGTH[c] > strength])
    else:
        cards = tuple([c for c in s.hands[giver] if IS_EVIL[c] and STRENGTH[c] < strength])
    ask(s, giver, D.GIVE_OR_PAY, (*cards, D.PASS), text, (receiver, amount))


step("give_or_pay", "giver", "receiver", "text")(_give_or_pay)


def _resolve_give_or_pay(s: GameState, d: Decision, card: int) -> None:
    receiver, amount = d.ctx
    giver = d.seat
    if card == D.PASS:
        if s.log is not None:
            ev(s, "chose_pay", seat=giver, to=receiver)
        pay(s, giver, amount, receiver)
        return
    if s.log is not None:
        ev(s, "gives_card", seat=giver, to=receiver, card=card)
    reveal_known(s, card)
    if len(s.hands[receiver]) < s.config.rules.hand_limit:
        s.hands[giver].remove(card)
        s.hands[receiver].append(card)
    else:  # L Princess note: the receiver's hand is full; the giver keeps it
        ev(s, "gift_refused", seat=receiver, card=card)


resolver(D.GIVE_OR_PAY)(_resolve_give_or_pay)


# --- Bronze: the two weakest ante cards -------------------------------------


def take_two_weakest(s: GameState, seat: int, source: int) -> None:
    room = s.config.rules.hand_limit - len(s.hands[seat])
    if room >= 2:
        push(s, ("take_ante", seat, 2, 1, source))
    elif room == 1:
        # Nine cards: choose the two weakest, keep one, the other stays.
        push(s, ("take_ante", seat, 1, 2, source))


def bronze(s: GameState, seat: int, text: int, this: int) -> None:
    take_two_weakest(s, seat, text)


power("bronze")(bronze)


@power("bronze_warlord")
def bronze_warlord(s: GameState, seat: int, text: int, this: int) -> None:
    take_two_weakest(s, seat, text)
    s.warlord |= 1 << seat


# --- Copper: replaced by the top card of the deck ----------------------------


def copper(s: GameState, seat: int, text: int, this: int) -> None:
    """Discard this card; the top card takes its place, becomes the card played,
    and triggers (unless it is a card this turn's replacements discarded)."""
    if this not in s.flights[seat]:
        return
    new = replace_from_deck(s, seat, this)
    if s.log is not None:
        ev(s, "replace", seat=seat, old=this, new=new, how="copper")
    if repeats(s, new):
        ev(s, "chain_ended", seat=seat, card=new)
        return
    push(s, ("trigger", seat, new, new))


power("copper")(copper)


@power("copper_trickster", reshapes=True)
def copper_trickster(s: GameState, seat: int, text: int, this: int) -> None:
    """Must replace a different card of your flight with the top card; triggering
    the new card is optional ("if you wish")."""
    others = tuple(c for c in s.flights[seat] if c != this)
    if others:
        ask(s, seat, D.TRICKSTER_DISCARD, others, text)


@resolver(D.TRICKSTER_DISCARD)
def _trickster_discard(s: GameState, d: Decision, old: int) -> None:
    seat = d.seat
    new = replace_from_deck(s, seat, old)
    if s.log is not None:
        ev(s, "replace", seat=seat, old=old, new=new, how="trickster")
    if not POWER[new]:
        return
    if repeats(s, new):
        ev(s, "chain_ended", seat=seat, card=new)
        return
    if s.config.rules.archmage_forces_optional_triggers and (s.archmage >> seat) & 1:
        push(s, ("trigger", seat, new, new))
    else:
        ask(s, seat, D.TRIGGER_NEW, (D.YES, D.NO), d.source, (new,))


@resolver(D.TRIGGER_NEW)
def _trigger_new(s: GameState, d: Decision, yes: int) -> None:
    if yes == D.YES:
        new = d.ctx[0]
        if new in s.flights[d.seat]:
            push(s, ("trigger", d.seat, new, new))


# --- drawing -------------------------------------------------------------------


def _good_dragons(flight: list[int]) -> int:
    return sum(1 for c in flight if IS_GOOD[c])


def gold(s: GameState, seat: int, text: int, this: int) -> None:
    """Draw a card per good dragon in your flight (this one included)."""
    power_draw(s, seat, _good_dragons(s.flights[seat]))


power("gold")(gold)


@power("gold_monarch")
def gold_monarch(s: GameState, seat: int, text: int, this: int) -> None:
    """Draw per good dragon; then, if you win this gambit, gift each opponent 3 gold
    (once per trigger: the Princess may trigger it a second time)."""
    power_draw(s, seat, _good_dragons(s.flights[seat]))
    s.monarch |= 1 << seat
    s.monarch_gifts[seat] += 1


def silver_draws(s: GameState, seat: int) -> None:
    """Each player with a good dragon in their flight draws one, you first, then clockwise."""
    for p in clockwise(s, seat):
        if _good_dragons(s.flights[p]):
            power_draw(s, p, 1)


def silver(s: GameState, seat: int, text: int, this: int) -> None:
    silver_draws(s, seat)


power("silver")(silver)


@power("silver_seer")
def silver_seer(s: GameState, seat: int, text: int, this: int) -> None:
    """Silver, then look at the top three cards, keep one in secret, discard the others."""
    silver_draws(s, seat)
    seen: list[int] = []
    for _ in range(3):
        c = top_card(s)
        if c < 0:
            break
        seen.append(c)
    if not seen:
        return
    s.limbo.extend(seen)
    ev(s, "seer_look", (seat,), seat=seat, cards=list(seen))
    ask(s, seat, D.SEER_KEEP, tuple(seen), text)


@resolver(D.SEER_KEEP)
def _seer_keep(s: GameState, d: Decision, keep: int) -> None:
    seat = d.seat
    seen = list(d.options)
    for c in seen:
        s.limbo.remove(c)
    others = [c for c in seen if c != keep]
    if len(s.hands[seat]) < s.config.rules.hand_limit:
        s.hands[seat].append(keep)
        ev(s, "seer_keep", (seat,), seat=seat, card=keep)
    else:  # hand full: the chosen card cannot be kept either
        others.append(keep)
    # "You're the only player looking at the three cards" (L-IT: none of the
    # three is shown): the two others go face down, known to the Seer alone.
    s.discard.extend(others)
    for c in others:
        s.known[c] = 1 << seat
    ev(s, "seer_discard", seat=seat, count=len(others))
    ev(s, "seer_discard_cards", (seat,), seat=seat, cards=others)


@power("fool")
def fool(s: GameState, seat: int, text: int, this: int) -> None:
    """Draw a card per opponent whose flight is stronger than yours."""
    mine = flight_total(s, seat)
    power_draw(s, seat, sum(1 for o in opponents_from_left(s, seat) if flight_total(s, o) > mine))


@power("kobold")
def kobold(s: GameState, seat: int, text: int, this: int) -> None:
    """Discard any number of cards (all chosen before drawing), then draw that many."""
    push(s, ("kobold", seat, 0, text))


@step("kobold", "seat", "count", "text")
def _kobold(s: GameState, st: Step) -> None:
    _, seat, count, text = st
    hand = s.hands[seat]
    if not hand:  # the whole hand was discarded: nothing left to choose
        ev(s, "kobold_draw", seat=seat, count=count)
        power_draw(s, seat, count)
        return
    ask(s, seat, D.KOBOLD_DISCARD, (*hand, D.DONE), text, (count,))


@resolver(D.KOBOLD_DISCARD)
def _kobold_discard(s: GameState, d: Decision, card: int) -> None:
    seat = d.seat
    count = d.ctx[0]
    if card == D.DONE:
        ev(s, "kobold_draw", seat=seat, count=count)
        power_draw(s, seat, count)
        return
    s.hands[seat].remove(card)
    s.discard.append(card)
    forget_card(s, card)
    ev(s, "discard_from_hand", seat=seat, card=card)
    push(s, ("kobold", seat, count + 1, d.source))


# --- taking gold from opponents -------------------------------------------------


def choose_among(
    s: GameState, seat: int, text: int, seats: list[int], then: str, extra: tuple[int, ...] = ()
) -> None:
    """Pick the target among tied opponents (the player chooses, L Strongest/Weakest),
    then run step ``then`` as ``(then, seat, target, text, *extra)``."""
    if len(seats) == 1:
        push(s, (then, seat, seats[0], text, *extra))
    else:
        ask(s, seat, D.CHOOSE_OPPONENT, tuple(seats), text, extra)


def _choose_opponent(s: GameState, d: Decision, target: int) -> None:
    push(s, (CHOSEN_STEP[POWER[d.source]], d.seat, target, d.source, *d.ctx))


resolver(D.CHOOSE_OPPONENT)(_choose_opponent)


#: The step that continues each power after its player chose among tied opponents.
CHOSEN_STEP: dict[str, str] = {
    "red": "red_hit",
    "red_destroyer": "red_hit",
    "white": "white_hit",
}


def strongest_opponents(s: GameState, seat: int) -> list[int]:
    """The opponents a power may choose as "the opponent with the strongest flight"."""
    opp = opponents_from_left(s, seat)
    totals = {o: flight_total(s, o) for o in opp}
    best = max(totals.values())
    tied = [o for o in opp if totals[o] == best]
    if s.abilities is not None:  # Intimidate: a tie with you counts too
        tied = s.abilities.strongest_choices(s, seat, totals, tied)
    return tied


def red(s: GameState, seat: int, text: int, this: int) -> None:
    """The strongest opponent (your own flight ignored) pays, then you take a random card."""
    choose_among(s, seat, text, strongest_opponents(s, seat), "red_hit")


power("red", "red_destroyer")(red)


def _red_hit(s: GameState, st: Step) -> None:
    _, seat, target, text = st
    pay(s, target, 10 if POWER[text] == "red_destroyer" else 1, seat)
    take_random(s, seat, target)


step("red_hit", "seat", "target", "text")(_red_hit)


def white(s: GameState, seat: int, text: int, this: int) -> None:
    """The weakest opponent (ties: you choose) pays you 2 gold."""
    opp = opponents_from_left(s, seat)
    totals = {o: flight_total(s, o) for o in opp}
    low = min(totals.values())
    choose_among(s, seat, text, [o for o in opp if totals[o] == low], "white_hit")


power("white")(white)


def _white_hit(s: GameState, st: Step) -> None:
    _, seat, target, _text = st
    pay(s, target, 2, seat)


step("white_hit", "seat", "target", "text")(_white_hit)


@power("white_hunter")
def white_hunter(s: GameState, seat: int, text: int, this: int) -> None:
    """Each opponent weaker than you pays you 3 gold."""
    mine = flight_total(s, seat)
    for o in opponents_from_left(s, seat):
        if flight_total(s, o) < mine:
            pay(s, o, 3, seat)


@power("bahamut")
def bahamut(s: GameState, seat: int, text: int, this: int) -> None:
    """Each other player with good and evil dragons in their flight pays you 10."""
    for o in opponents_from_left(s, seat):
        if has_good_and_evil(s.flights[o]):
            pay(s, o, 10, seat)


@power("queen")
def queen(s: GameState, seat: int, text: int, this: int) -> None:
    """Nearest qualifying opponent on the left first: pay 5, lose a random card
    (one step per opponent, so a question about one take comes before the next)."""
    push(
        s,
        *(
            ("queen_hit", seat, o)
            for o in opponents_from_left(s, seat)
            if has_good_and_evil(s.flights[o])
        ),
    )


@step("queen_hit", "seat", "opponent")
def _queen_hit(s: GameState, st: Step) -> None:
    _, seat, o = st
    pay(s, o, 5, seat)
    take_random(s, seat, o)


# --- Wyrmlings, Sorcerer, Illusionist, Prophet, Princess ------------------------


@power("chromatic_wyrmling", "metallic_wyrmling")
def wyrmling(s: GameState, seat: int, text: int, this: int) -> None:
    """You may replace this card with an evil (good) dragon from your hand; it triggers."""
    if this not in s.flights[seat]:
        return
    table = IS_EVIL if POWER[text] == "chromatic_wyrmling" else IS_GOOD
    cards = tuple(c for c in s.hands[seat] if table[c])
    if cards:
        ask(s, seat, D.REPLACE_FROM_HAND, (*cards, D.PASS), text, (this,))


@resolver(D.REPLACE_FROM_HAND)
def _replace_from_hand(s: GameState, d: Decision, card: int) -> None:
    if card == D.PASS:
        return
    seat = d.seat
    this = d.ctx[0]
    s.hands[seat].remove(card)
    if s.log is not None:
        ev(s, "replace", seat=seat, old=this, new=card, how="wyrmling")
    replace_in_flight(s, seat, this, card)
    push(s, ("trigger", seat, card, card))


@power("sorcerer")
def sorcerer(s: GameState, seat: int, text: int, this: int) -> None:
    """Reveal three; one replaces this card and triggers; the other two join the ante."""
    if this not in s.flights[seat]:
        return
    seen: list[int] = []
    for _ in range(3):
        c = top_card(s)
        if c < 0:
            break
        seen.append(c)
    if not seen:
        return
    s.limbo.extend(seen)
    ev(s, "sorcerer_reveal", seat=seat, cards=list(seen))
    ask(s, seat, D.SORCERER_PICK, tuple(seen), text, (this,))


@resolver(D.SORCERER_PICK)
def _sorcerer_pick(s: GameState, d: Decision, card: int) -> None:
    seat = d.seat
    this = d.ctx[0]
    for c in d.options:
        s.limbo.remove(c)
    rest = tuple(c for c in d.options if c != card)
    if s.log is not None:
        ev(s, "replace", seat=seat, old=this, new=card, how="sorcerer")
    replace_in_flight(s, seat, this, card)
    # "That card's power triggers. Put the other two revealed cards into the
    # ante": the chosen card resolves first (a Bronze takes the weakest ante
    # cards as the ante stood); the other two wait, revealed, until it is done.
    s.limbo.extend(rest)
    push(s, ("trigger", seat, card, card), ("sorcerer_ante", seat, rest))


@step("sorcerer_ante", "seat", "rest")
def _sorcerer_ante(s: GameState, st: Step) -> None:
    """The Sorcerer's other two cards go into the ante together, bringing their ante
    effects (EG note): a Dragon Turtle among them pays the weakest of all ante cards.

    Runs even when the stakes ran out meanwhile (the cards must leave the
    revealed zone); the Dragon Turtle's payment is then a pending effect that
    never resolves (:func:`rewards_skipped`)."""
    _, seat, rest = st
    cards = [c for c in rest if c in s.limbo]
    for c in cards:
        s.limbo.remove(c)
    put_cards_into_ante(s, cards, seat, -1, not rewards_skipped(s))


@power("illusionist", reshapes=True)
def illusionist(s: GameState, seat: int, text: int, this: int) -> None:
    """You may swap this card with a mortal in an opponent's flight; yours triggers."""
    if this not in s.flights[seat]:
        return
    mortals = tuple(c for o in opponents_from_left(s, seat) for c in s.flights[o] if IS_MORTAL[c])
    if mortals:
        ask(s, seat, D.ILLUSIONIST_SWAP, (*mortals, D.PASS), text, (this,))


@resolver(D.ILLUSIONIST_SWAP)
def _illusionist_swap(s: GameState, d: Decision, card: int) -> None:
    if card == D.PASS:
        return
    seat = d.seat
    this = d.ctx[0]
    owner = next(o for o in range(s.n) if card in s.flights[o])
    mine = s.flights[seat]
    theirs = s.flights[owner]
    mine[mine.index(this)] = card
    theirs[theirs.index(card)] = this
    s.dirty |= (1 << seat) | (1 << owner) | RESHAPED
    if s.round_card[seat] == this:
        s.round_card[seat] = card
    if s.round_card[owner] == card:
        s.round_card[owner] = this
    ev(s, "swap", seat=seat, other=owner, gave=this, took=card)
    push(s, ("trigger", seat, card, card))


@power("prophet", reshapes=True)
def prophet(s: GameState, seat: int, text: int, this: int) -> None:
    """You may reveal a dragon in your hand and resolve its power as the Prophet's."""
    cards = tuple(c for c in s.hands[seat] if IS_DRAGON[c] and POWER[c])
    if cards:
        ask(s, seat, D.PROPHET_REVEAL, (*cards, D.PASS), text, (this,))


@resolver(D.PROPHET_REVEAL)
def _prophet_reveal(s: GameState, d: Decision, card: int) -> None:
    if card == D.PASS:
        return
    reveal_known(s, card)
    ev(s, "prophet_reveal", seat=d.seat, card=card)
    push(s, ("trigger", d.seat, card, d.ctx[0]))


@power("princess", reshapes=True)
def princess(s: GameState, seat: int, text: int, this: int) -> None:
    """Every good dragon in your flight triggers, one at a time, in your order."""
    trigger_each(s, seat, tuple(c for c in s.flights[seat] if IS_GOOD[c]), text, D.PRINCESS_NEXT)


# --- gambit-long effects ------------------------------------------------------


@power("archmage")
def archmage(s: GameState, seat: int, text: int, this: int) -> None:
    s.archmage |= 1 << seat


@power("merchant_prince")
def merchant_prince(s: GameState, seat: int, text: int, this: int) -> None:
    s.merchant_prince = seat


@power("druid")
def druid(s: GameState, seat: int, text: int, this: int) -> None:
    s.druid = True


@power("priest")
def priest(s: GameState, seat: int, text: int, this: int) -> None:
    s.priest = True


@power("wyrmpriest")
def wyrmpriest(s: GameState, seat: int, text: int, this: int) -> None:
    """For the rest of the gambit this card counts as every color."""
    s.wild |= 1 << this
    owner = next((o for o in range(s.n) if this in s.flights[o]), seat)
    s.dirty |= (1 << owner) | RESHAPED


@power("dragonrider")
def dragonrider(s: GameState, seat: int, text: int, this: int) -> None:
    """At scoring this card's strength is the weakest dragon in its flight."""
    s.dragonrider |= 1 << this


@power("dracolich")
def dracolich(s: GameState, seat: int, text: int, this: int) -> None:
    """At scoring you get +2 per evil dragon in your flight."""
    s.dracolich[seat] += 1


@power("dragonslayer", reshapes=True)
def dragonslayer(s: GameState, seat: int, text: int, this: int) -> None:
    """Discard a weaker dragon (strength < this card) from any flight; mandatory."""
    limit = STRENGTH[text]
    n = s.n
    targets = tuple(
        c
        for i in range(n)
        for c in s.flights[(seat + i) % n]
        if IS_DRAGON[c] and STRENGTH[c] < limit
    )
    if targets:
        ask(s, seat, D.SLAY, targets, text)


@resolver(D.SLAY)
def _slay(s: GameState, d: Decision, card: int) -> None:
    owner = next(o for o in range(s.n) if card in s.flights[o])
    if s.round_card[owner] == card:
        s.round_removed[owner] = True
    discard_from_flight(s, owner, card)
    ev(s, "slay", seat=d.seat, owner=owner, card=card)
