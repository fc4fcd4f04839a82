"""Primitive table operations every rule is built from.

Paying, stealing, drawing, moving cards, asking a question, logging an
event, and the card game's registry (:data:`RULES`) on the kernel's
interpreter.  Each rule that the
rulebook states once lives here once: "pay what you can, the rest goes into
the hole", "ignore draws past the hand limit", "reshuffle the discard pile
when the deck runs out", "clockwise from the player on your left".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dragonante.engine.decisions import PRINCESS_NEXT, TURTLE_NEXT, Decision
from dragonante.engine.effects import end_card_effects
from dragonante.engine.state import Event, GameState
from dragonante.engine.tables import ANTE_EFFECT, IS_EVIL, IS_GOOD, STRENGTH
from dragonante.kernel import Registry, Step, rng

#: A card power: ``power(state, seat, text_card, this_card)``.  ``text_card``
#: is the card whose text resolves (its strength is the one compared, A13);
#: ``this_card`` is the card in the flight that "this card" means (they
#: differ only when the Prophet resolves another dragon's text).
Power = Callable[[GameState, int, int, int], None]

#: The bound on the engine's work after one answer (issue 33: a table whose
#: deck and discard pile held only Copper Dragons once looped for ever).  The
#: longest legitimate run, a Copper chain through a whole deck with every
#: ability hook, takes a few thousand steps; past this the answer raises
#: :class:`~dragonante.kernel.RunawayGame` instead of hanging.
MAX_STEPS_PER_ANSWER = 50_000
#: The bound on questions in one game, checked as each gambit begins: random
#: six-player games ask a few hundred; no table plays anywhere near this.
MAX_QUESTIONS_PER_GAME = 1_000_000

#: The card game's interpreter: its steps, resolvers and powers (by power
#: family id), and the ``apply`` / ``advance`` that run them
#: (:mod:`dragonante.engine.game` publishes those).  The Dice Gambit has its
#: own registry, so the two games' names never meet.
RULES: Registry[GameState, Power] = Registry("card game", max_steps=MAX_STEPS_PER_ANSWER)
step = RULES.step
resolver = RULES.resolver
_RESOLVERS = RULES.resolvers

#: Emperor's Gambit ante effects by hook, then by effect name (cards.json
#: ``ante_effect``).  "An ante effect is not a power": it acts while its card
#: is in the ante, at the moment its hook names, so each effect registers
#: the hooks it needs (:func:`ante_effect`) and the flow asks the ante
#: (:func:`ante_hooks`) instead of naming cards.
ANTE_REVEALED = "revealed"  # (s, first): revealed as an ante card or put into the ante
ANTE_FIRST_TURN = "first_turn"  # (s, seat): before the first turn of each round
ANTE_TRIGGERS = "triggers"  # (s, seat, card) -> bool: makes a played card trigger
ANTE_WEAKEST_WINS = "weakest_wins"  # (s) -> bool: the weakest flight wins the gambit
ANTE_AWARD = "award"  # (s, winner) -> bool: shares out the stakes itself
ANTE_HOOKS = (ANTE_REVEALED, ANTE_FIRST_TURN, ANTE_TRIGGERS, ANTE_WEAKEST_WINS, ANTE_AWARD)
ANTE_EFFECTS: dict[str, dict[str, Callable[..., Any]]] = {hook: {} for hook in ANTE_HOOKS}

STAKES = -1  # payment recipient: the stakes
#: The ``final`` field of the ``scoring_check`` / ``decide_winner`` steps: the
#: gambit is scored now whatever happens (the stakes are empty, or nobody could
#: play: ties can never break), or only if no tie keeps it going (A20).
FINAL = 1
UNLESS_TIED = 0
#: The ``windowless`` field of ``round_start``: the leader's ability window
#: (Diplomacy) has been offered already, so the round just starts.
WINDOW_OFFERED = 1
#: Extra ``GameState.dirty`` bit: a power changed a flight other than by
#: appending the played card, so the end-of-turn fast path must not be used.
RESHAPED = 1 << 16

#: Power families that may change cards already in their player's flight other
#: than the card itself (replace, discard, swap another card, or trigger or copy
#: a power that does).  Only after playing one of these can a special flight the
#: card completed be broken up before it is collected (L Special Flights).
RESHAPING: set[str] = set()


def power(*names: str, reshapes: bool = False) -> Callable[[Power], Power]:
    """Register a power for these families; ``reshapes``: see :data:`RESHAPING`."""
    if reshapes:
        RESHAPING.update(names)
    return RULES.power(*names)


def ante_effect(name: str, hook: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register an ante effect's handler for one hook (like :func:`power`)."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        ANTE_EFFECTS[hook][name] = fn
        return fn

    return register


def ante_hooks(s: GameState, hook: str) -> list[Callable[..., Any]]:
    """The ``hook`` handlers of the ante effects in the ante right now, in ante order.

    Ante effects work only while their card is in the ante (EG "Ante
    Effects"), so this looks at the ante each time instead of remembering.
    """
    if not s.has_ante_fx:
        return []
    table = ANTE_EFFECTS[hook]
    return [fn for c in s.ante if (fn := table.get(ANTE_EFFECT[c])) is not None]


def ev(s: GameState, kind: str, vis: tuple[int, ...] | None = None, **data: Any) -> None:
    """Log an event (no-op when the state carries no log, e.g. in search).

    The callers on a random game's path test ``s.log`` first: building the
    keyword arguments costs more than the event itself."""
    log = s.log
    if log is not None:
        event: Event = (vis, kind, data)
        log.append(event)


def ask(
    s: GameState,
    seat: int,
    kind: str,
    options: tuple[int, ...],
    source: int = -1,
    ctx: tuple[int, ...] = (),
) -> None:
    """Put a question to ``seat``.

    With ``auto_single`` a question with one legal answer is answered at
    once (and logged) instead of becoming pending.
    """
    if len(options) == 1 and s.config.auto_single:
        d = Decision(-1, seat, kind, options, source, ctx)
        if s.log is not None:
            ev(s, "auto_answer", (seat,), seat=seat, question=kind, answer=options[0])
        _RESOLVERS[kind](s, d, options[0])
        return
    s.decision_count += 1
    s.pending = Decision(s.decision_count, seat, kind, options, source, ctx)


def push(s: GameState, *steps: Step) -> None:
    """Schedule steps so that the first one given runs first."""
    q = s.queue
    for st in reversed(steps):
        q.append(st)


def opponents_from_left(s: GameState, seat: int) -> list[int]:
    """Every other player still in the game, clockwise from ``seat``'s left."""
    n = s.n
    if s.out:
        return [p for i in range(1, n) if not (s.out >> (p := (seat + i) % n)) & 1]
    return [(seat + i) % n for i in range(1, n)]


def clockwise(s: GameState, start: int) -> list[int]:
    """Every player still in the game, clockwise, starting with ``start`` (A36)."""
    n = s.n
    order = [(start + i) % n for i in range(n)]
    return [p for p in order if not (s.out >> p) & 1] if s.out else order


def left_of(s: GameState, seat: int) -> int:
    """The next player clockwise (eliminated players have left the table)."""
    n = s.n
    p = (seat + 1) % n
    while (s.out >> p) & 1 and p != seat:
        p = (p + 1) % n
    return p


def right_of(s: GameState, seat: int) -> int:
    """The previous player clockwise (eliminated players have left the table)."""
    n = s.n
    p = (seat - 1) % n
    while (s.out >> p) & 1 and p != seat:
        p = (p - 1) % n
    return p


def players_in(s: GameState) -> int:
    """How many players are still in the game."""
    return s.n - s.out.bit_count()


# --- gold -------------------------------------------------------------------


def pay(s: GameState, payer: int, amount: int, to: int) -> None:
    """``payer`` pays ``amount`` to a seat or to the stakes; pay what you can.

    What cannot be paid follows the ruleset's debt model (D19): the
    Legendary hole (an amount owed to the hole, nobody receives it), or an
    Emperor's Gambit debt to that player or to the stakes, settled in the
    order incurred at Step 4 (``creditors``; ``immediate`` repays as soon as
    the debtor gains gold, the original rules).
    """
    if amount <= 0:
        return
    if to >= 0 and s.abilities is not None:
        amount = s.abilities.payment(s, payer, amount, to)
    hoards = s.hoards
    paid = amount if hoards[payer] >= amount else hoards[payer]
    hoards[payer] -= paid
    short = amount - paid
    if short:  # recorded before the gold arrives: a repayment it sets off sees it
        if s.config.rules.debt_model == "hole":
            s.hole_owed[payer] += short
        else:
            s.debts.append((payer, to, short))
    if s.log is not None:
        ev(s, "pay", payer=payer, to=to, amount=amount, paid=paid, short=short)
    if to == STAKES:
        s.stakes += paid
    elif paid:
        gain_gold(s, to, paid)


def gain_gold(s: GameState, seat: int, amount: int) -> None:
    """Gold arrives in ``seat``'s hoard.  Every inflow to a hoard comes through here.

    One place, so that no source of gold can forget the original rules'
    immediate debts ("Debts were settled during the course of the gambit",
    EG Previous Rule): with ``debt_model = immediate`` a debtor repays at
    once from whatever it receives (winning the stakes, a steal, a payment,
    a repayment, the Priest's share, an Adventurer stack, the hole).
    """
    if amount <= 0:
        return
    s.hoards[seat] += amount
    if s.debts and s.config.rules.debt_model == "immediate":
        repay_debts(s, seat)


def repay_debts(s: GameState, seat: int) -> None:
    """Original rules: ``seat`` repays its debts, oldest first, with what it has.

    The creditor receives the repayment through :func:`gain_gold`, so a
    creditor that is itself in debt passes it on at once.  The list is
    updated before the creditor is paid (a nested repayment sees it whole),
    and every payment shrinks the total owed, so the chain ends.
    """
    debts = s.debts
    hoards = s.hoards
    while hoards[seat] > 0:
        i = next((j for j, debt in enumerate(debts) if debt[0] == seat), -1)
        if i < 0:
            return
        creditor, owed = debts[i][1], debts[i][2]
        paid = owed if hoards[seat] >= owed else hoards[seat]
        hoards[seat] -= paid
        if paid == owed:
            del debts[i]
        else:
            debts[i] = (seat, creditor, owed - paid)
        ev(s, "debt_paid", seat=seat, to=creditor, owed=owed, paid=paid)
        if creditor == STAKES:
            s.stakes += paid
        else:
            gain_gold(s, creditor, paid)


def steal(s: GameState, seat: int, amount: int, by_power: bool = True) -> None:
    """Take gold from the stakes; never more than is there (A40).

    ``by_power``: a card's power steals (Thievery adds to those only); the
    strength-flight reward and the abilities' own steals pass False.
    """
    ab = s.abilities
    if ab is not None:
        amount = ab.steal_amount(s, seat, amount, by_power)
    take = amount if s.stakes >= amount else s.stakes
    s.stakes -= take
    if s.log is not None:
        ev(s, "steal", seat=seat, amount=amount, taken=take)
    gain_gold(s, seat, take)
    if s.stakes == 0:
        s.stakes_emptied = True
    if ab is not None and take:
        ab.stolen(s, seat, take, by_power)


# --- the stakes run out -------------------------------------------------------


def rewards_skipped(s: GameState) -> bool:
    """The stakes are empty and the table skips what was still pending (A26).

    "end the gambit because the stakes are empty" (L Black Dragon): with
    ``empty_stakes_pending_rewards = skip`` (the default) every power,
    chained trigger and special-flight reward not yet resolved never
    resolves; with ``resolve`` they all finish before the gambit is scored.
    """
    return s.stakes_emptied and s.config.rules.empty_stakes_pending_rewards == "skip"


def end_gambit_if_stakes_empty(s: GameState) -> bool:
    """The stakes are empty, so the gambit ends now: go straight to scoring.

    Called where a turn (or a purchase outside a turn) is complete; True if
    the gambit ended (everything still queued for this gambit is dropped).
    """
    if not s.stakes_emptied:
        return False
    ev(s, "stakes_empty")
    s.queue.clear()
    s.queue.append(("decide_winner", FINAL))
    return True


# --- "trigger all of these": the Princess and the Dragon Turtle ---------------


def trigger_each(s: GameState, seat: int, cards: tuple[int, ...], text: int, kind: str) -> None:
    """The powers of ``cards`` in ``seat``'s flight trigger one at a time, in the
    order the player chooses (question ``kind``: the Princess's good dragons, the
    Dragon Turtle's other mortals).

    Each card still in the flight when its turn comes triggers; a card that
    left the flight meanwhile does not, and a card that replaced one is not
    added (L Princess).  When the stakes run out the rest of the chain never
    resolves (:func:`rewards_skipped`).
    """
    if cards:
        push(s, ("trigger_each", seat, cards, text, kind))


@step("trigger_each", "seat", "left", "text", "kind")
def _trigger_each(s: GameState, st: Step) -> None:
    _, seat, left, text, kind = st
    if rewards_skipped(s):
        return
    flight = s.flights[seat]
    left = tuple(c for c in left if c in flight)
    if left:
        ask(s, seat, kind, left, text, left)


def _trigger_next(s: GameState, d: Decision, card: int) -> None:
    rest = tuple(c for c in d.ctx if c != card)
    push(s, ("trigger", d.seat, card, card), ("trigger_each", d.seat, rest, d.source, d.kind))


resolver(PRINCESS_NEXT)(_trigger_next)
resolver(TURTLE_NEXT)(_trigger_next)


# --- cards ------------------------------------------------------------------


def top_card(s: GameState, reshuffle: bool = True) -> int:
    """Pop the top card of the deck (-1: no card anywhere).

    "Whenever the deck runs out of cards, shuffle the discard pile to form a
    new deck": the reshuffle happens the moment the last card leaves the
    deck (or, if the discard pile was empty then, as soon as a card is
    needed and there is one).  ``reshuffle=False`` leaves an emptied deck
    empty for a caller that discards the card it took first (buying cards:
    the revealed card is in the discard pile that forms the new deck).
    """
    deck = s.deck
    if not deck and not _reshuffle(s):
        return -1
    card = deck.pop()
    if not deck and reshuffle:
        _reshuffle(s)
    return card


def reshuffle_if_empty(s: GameState) -> None:
    """The deck ran out: the discard pile becomes the new deck (if there is one)."""
    if not s.deck:
        _reshuffle(s)


def _reshuffle(s: GameState) -> bool:
    if not s.discard:
        return False
    deck = s.deck
    if s.known:  # face-down discards lose their secret in the shuffled deck
        for c in s.discard:
            s.known.pop(c, None)
    deck.extend(s.discard)
    s.discard.clear()
    s.rng = rng.shuffle(s.rng, deck)
    ev(s, "reshuffle", size=len(deck))
    return True


def draw(s: GameState, seat: int, count: int) -> int:
    """Draw up to ``count`` cards, stopping at the hand limit; returns cards drawn."""
    hand = s.hands[seat]
    limit = s.config.rules.hand_limit
    drawn = 0
    while drawn < count and len(hand) < limit:
        c = top_card(s)
        if c < 0:
            break
        hand.append(c)
        drawn += 1
        if s.log is not None:
            ev(s, "draw_card", (seat,), seat=seat, card=c)
    if s.log is not None and count:
        ev(s, "draw", seat=seat, asked=count, drawn=drawn)
    return drawn


def power_draw(s: GameState, seat: int, count: int) -> int:
    """Draw because a card's power says so (the Luck Domain may redraw one of them)."""
    ab = s.abilities
    if ab is None:
        return draw(s, seat, count)
    drawn = draw(s, seat, count)
    if drawn:
        ab.drawn_by_power(s, seat, s.hands[seat][-drawn:])
    return drawn


def buy(s: GameState, seat: int) -> None:
    """Buy cards: reveal and discard the top card, pay its strength, fill to four.

    With abilities the purchase runs as interpreter steps (opponents may deny
    cards before the hand is filled), so every caller returns to the
    interpreter right after calling this.
    """
    if s.abilities is not None:
        s.abilities.buy(s, seat)
        return
    c = top_card(s, reshuffle=False)
    if c >= 0:
        s.discard.append(c)
    pay_for_cards(s, seat, c)
    reshuffle_if_empty(s)  # the revealed card is shuffled into the new deck
    fill_hand(s, seat, s.config.rules.buy_fill_to)


def pay_for_cards(s: GameState, seat: int, card: int) -> None:
    """Pay the revealed ``card``'s strength to the stakes (or the Merchant Prince)."""
    price = STRENGTH[card] if card >= 0 else 0
    mp = s.merchant_prince
    to = mp if mp >= 0 else STAKES
    if s.log is not None:
        ev(s, "buy", seat=seat, card=card, price=price, to=to)
    if to != seat:
        pay(s, seat, price, to)


def fill_hand(s: GameState, seat: int, size: int) -> None:
    """Draw until ``seat`` holds ``size`` cards (buying cards fills the hand to four)."""
    need = size - len(s.hands[seat])
    if need > 0:
        draw(s, seat, need)


def take_random(s: GameState, taker: int, victim: int) -> None:
    """Take a card at random from ``victim``'s hand (seen by taker and victim only)."""
    hand = s.hands[victim]
    if not hand or len(s.hands[taker]) >= s.config.rules.hand_limit:
        ev(s, "take_random_none", taker=taker, victim=victim)
        return
    s.rng, k = rng.below(s.rng, len(hand))
    c = hand.pop(k)
    s.hands[taker].append(c)
    # Only these two know where it went now; anyone who knew it was in the
    # victim's hand cannot tell whether this was the card taken.
    s.known[c] = (1 << taker) | (1 << victim)
    if s.log is not None:
        ev(s, "take_random", taker=taker, victim=victim)
        ev(s, "take_random_card", (taker, victim), taker=taker, victim=victim, card=c)
    if s.abilities is not None:
        s.abilities.took_random(s, taker, victim, c, False)


def reveal_known(s: GameState, card: int) -> None:
    """Everyone now knows where ``card`` is (it was shown to the table)."""
    s.known[card] = (1 << s.n) - 1


def forget_card(s: GameState, card: int) -> None:
    """The card went to a public zone: stop tracking private knowledge of it."""
    if s.known:
        s.known.pop(card, None)


# --- flights ----------------------------------------------------------------


def flight_total(s: GameState, seat: int) -> int:
    """Current strength of a flight (printed strengths; scoring bonuses excluded)."""
    total = 0
    for c in s.flights[seat]:
        total += STRENGTH[c]
    return total


def has_good_and_evil(flight: list[int]) -> bool:
    good = evil = False
    for c in flight:
        if IS_GOOD[c]:
            good = True
        elif IS_EVIL[c]:
            evil = True
    return good and evil


def discard_from_flight(s: GameState, seat: int, card: int) -> None:
    """Remove a card from a flight to the discard pile, ending card-bound effects."""
    s.flights[seat].remove(card)
    s.dirty |= (1 << seat) | RESHAPED
    s.discard.append(card)
    end_card_effects(s, card)


def replace_from_deck(s: GameState, seat: int, old: int) -> int:
    """Discard ``old`` from ``seat``'s flight, then put the top card of the deck in its place.

    L Appendix 4, Copper Dragon: "Discard this card and replace it with the top
    card of the deck"; Copper Trickster: "Discard a different card in your
    flight and replace it with the top card of the deck"; No Cards in Deck:
    "Whenever the deck runs out of cards, shuffle the discard pile to form a
    new deck."  In that order: the discarded card is in the discard pile
    when the deck runs out, so it is shuffled into the new deck with the
    rest (and may come straight back).  The new card takes ``old``'s place
    and, if ``old`` was the card played this turn, becomes it (A33).

    ``old`` joins :attr:`GameState.replaced`, the cards this turn's
    replacements discarded: the caller ends the chain when the new card is
    one of them (``docs/rules.md``, "Every game ends").  Returns the new
    card; there is always one, since ``old`` itself is in the discard pile.
    """
    flight = s.flights[seat]
    i = flight.index(old)
    del flight[i]
    s.dirty |= (1 << seat) | RESHAPED
    s.discard.append(old)
    s.replaced |= 1 << old
    end_card_effects(s, old)
    new = top_card(s)
    flight.insert(i, new)
    if s.round_card[seat] == old:
        s.round_card[seat] = new
    forget_card(s, new)
    return new


def repeats(s: GameState, card: int) -> bool:
    """Did a replacement of this turn discard ``card``?  Then bringing it back ends
    the chain: it stays in the flight and does not trigger (``docs/rules.md``)."""
    return bool((s.replaced >> card) & 1)


def replace_in_flight(s: GameState, seat: int, old: int, new: int) -> None:
    """Put ``new`` where ``old`` was; ``new`` becomes the card played if ``old`` was."""
    flight = s.flights[seat]
    flight[flight.index(old)] = new
    s.dirty |= (1 << seat) | RESHAPED
    s.discard.append(old)
    end_card_effects(s, old)
    if s.round_card[seat] == old:
        s.round_card[seat] = new
    forget_card(s, new)


# --- the ante and ante effects (Emperor's Gambit) ---------------------------


def put_into_ante(s: GameState, card: int, seat: int, active: int) -> None:
    """``seat`` puts ``card`` into the ante mid-gambit (Exarch, Purple, Sorcerer).

    The card brings its ante effect with it; one that acts "when this card is
    put into the ante" (the Dragon Turtle) resolves at once (A48), clockwise
    from the ``active`` player whose power it is (A36; -1: ``seat``).
    """
    put_cards_into_ante(s, [card], seat, active)


def put_cards_into_ante(
    s: GameState, cards: list[int], seat: int, active: int, effects: bool = True
) -> None:
    """Several cards put into the ante at once (the Sorcerer's two): all are in
    the ante before an ante effect among them that acts "when this card is put
    into the ante" (the Dragon Turtle) resolves; not if ``effects`` is False
    (the gambit is already over)."""
    s.ante.extend(cards)
    for card in cards:
        forget_card(s, card)
    ev(s, "to_ante", seat=seat, cards=list(cards))
    if not effects:
        return
    revealed = ANTE_EFFECTS[ANTE_REVEALED]
    for card in cards:
        fn = revealed.get(ANTE_EFFECT[card])
        if fn is not None:
            fn(s, seat if active < 0 else active)
