"""Emperor's Gambit special abilities (EG Appendix 2; options.md §7.2).

Fifteen 4e skills and the Luck Domain feat.  Each belongs to one character
only.  Three kinds:

* **always on**: Arcana, Bluff, Endurance, History, Intimidate, Nature,
  Religion (its keep is still the owner's choice), Stealth, Thievery;
* **once per gambit**: Diplomacy;
* **recharge** ("cannot use this ability again until you complete a special
  flight"): Dungeoneering, Heal, Insight, Perception, Streetwise, Luck
  Domain, each tracked on its own; a completed special flight readies all
  of the owner's spent ones, except that the flight Streetwise was used on
  does not ready Streetwise itself.

An always-on ability is revealed (the public ``ability_used`` event) each
time it changes something.  Rulings for what the book leaves open are in
``docs/abilities.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dragonante.cards import ALL_CARDS
from dragonante.engine.abilities import catalog as A
from dragonante.engine.abilities.catalog import SKILLS
from dragonante.engine.abilities.table import (
    BEFORE_STEP4,
    REVEALED,
    STEP4,
    TAKEN,
    WINDOW,
    AbilityTable,
    draw_for,
)
from dragonante.engine.core import (
    WINDOW_OFFERED,
    ask,
    end_gambit_if_stakes_empty,
    ev,
    flight_total,
    forget_card,
    opponents_from_left,
    pay,
    push,
    reveal_known,
    steal,
    top_card,
)
from dragonante.engine.decisions import ABILITY_CARD, ABILITY_SEAT, PASS, Decision
from dragonante.engine.state import GameState
from dragonante.engine.tables import IS_MORTAL, STRENGTH
from dragonante.kernel import Step, rng

#: Mortals and dragon gods (History).
_HISTORY_CARDS = tuple(IS_MORTAL[i] or c.type.kind == "dragon god" for i, c in enumerate(ALL_CARDS))


class SkillTable(AbilityTable):
    """Special abilities: always on, once per gambit, or recharged by special flights."""

    __slots__ = ("diplomacy", "spent")
    system = SKILLS
    PLAY_ABILITIES = frozenset({A.HISTORY})
    WINDOW_ABILITIES = frozenset({A.HEAL})

    def __init__(self, options: Any, n: int) -> None:
        super().__init__(options, n)
        #: Per seat, a bit mask of the recharge abilities used and not yet ready again.
        self.spent: list[int] = [0] * n
        #: Per seat, the gambit in which Diplomacy was last used (0: never).
        self.diplomacy: list[int] = [0] * n

    def _clone_into(self, c: Any) -> None:
        c.spent = self.spent[:]
        c.diplomacy = self.diplomacy[:]

    def _dict(self) -> dict[str, Any]:
        return {"spent": list(self.spent), "diplomacy": list(self.diplomacy)}

    def _view(self, s: GameState, seat: int | None, gm: bool) -> dict[str, Any]:
        # Only a used ability can be spent, and a used ability is revealed.
        return {
            "spent": [[a for a in self.held[p] if (self.spent[p] >> a) & 1] for p in range(self.n)],
            # 0 is "never": during the draft (gambit 0) nobody has used it yet.
            "diplomacy_used": [0 < self.diplomacy[p] == s.gambit for p in range(self.n)],
        }

    def _exclusive(self) -> bool:
        return True

    def ready(self, seat: int, ability: int) -> bool:
        """``seat`` holds ``ability`` and may use it now (not spent)."""
        return ability in self.held[seat] and not (self.spent[seat] >> ability) & 1

    def ready_abilities(self, seat: int) -> tuple[int, ...]:
        return tuple(a for a in self.held[seat] if self.ready(seat, a))

    def place_use(
        self,
        gambit: int,
        expended: Sequence[int],
        spent: Sequence[Sequence[int]],
        ancestry_plays: Sequence[int],
        diplomacy_used: Sequence[int],
    ) -> None:
        for p in range(min(self.n, len(spent))):
            self.spent[p] = sum(1 << a for a in spent[p])
        for p in diplomacy_used:
            self.diplomacy[p] = gambit

    def _spend(self, s: GameState, seat: int, ability: int) -> None:
        self.spent[seat] |= 1 << ability
        self.used(s, seat, ability)

    # --- always-on abilities ----------------------------------------------------------

    def payment(self, s: GameState, payer: int, amount: int, to: int) -> int:
        if amount >= 2 and A.BLUFF in self.held[payer]:
            self.used(s, payer, A.BLUFF)
            return amount - 1
        return amount

    def steal_amount(self, s: GameState, seat: int, amount: int, by_power: bool) -> int:
        if by_power and A.THIEVERY in self.held[seat] and s.stakes > amount:
            self.used(s, seat, A.THIEVERY)
            return amount + 1
        return amount

    def flight_bonus(self, s: GameState, seat: int) -> int:
        if A.NATURE in self.held[seat]:
            self.used(s, seat, A.NATURE)
            return 2
        return 0

    def strongest_choices(
        self, s: GameState, seat: int, totals: dict[int, int], tied: list[int]
    ) -> list[int]:
        """Intimidate: "As long as you and any other player are tied for the
        strongest flight, you can't be chosen": another tied opponent or the
        power's own player (its flight tying yours) both count.  The power then
        chooses the strongest opponent it may choose; if it may choose none,
        every tied opponent stays choosable (a power always has its target)."""
        held = self.held
        if not any(A.INTIMIDATE in held[p] for p in tied):
            return tied
        best = totals[tied[0]]
        if len(tied) == 1 and flight_total(s, seat) != best:
            return tied  # alone with the strongest flight: not tied with anyone
        bold = [p for p in tied if A.INTIMIDATE in held[p]]
        rest = [o for o in totals if o not in bold]
        if not rest:
            return tied  # nobody can be left out, or everyone would be
        for p in bold:
            self.used(s, p, A.INTIMIDATE)
        top = max(totals[o] for o in rest)
        return [o for o in rest if totals[o] == top]

    def played(self, s: GameState, seat: int, card: int) -> None:
        if _HISTORY_CARDS[card] and A.HISTORY in self.held[seat]:
            push(s, ("ability", "history", seat))

    def step_history(self, s: GameState, seat: int) -> None:
        if s.stakes > 0:
            self.used(s, seat, A.HISTORY)
            steal(s, seat, 1, by_power=False)

    def flight_unscored(self, s: GameState, seat: int) -> None:
        # "You cannot use this ability again until you complete a special flight";
        # Arcana: "Whenever you complete a special flight, draw a card".  "You
        # complete a special flight on the turn you play the third matching card":
        # completing is not collecting, so an empty stakes takes neither away.
        self.flight_scored(s, seat)

    def flight_scored(self, s: GameState, seat: int) -> None:
        # Only recharge abilities are ever spent (Diplomacy keeps its own record).
        spent = self.spent[seat]
        ready = [a for a in self.held[seat] if (spent >> a) & 1]
        if ready:
            self.spent[seat] = 0
            ev(s, "abilities_ready", seat=seat, abilities=ready)
        if A.ARCANA in self.held[seat]:
            self.used(s, seat, A.ARCANA)
            draw_for(s, seat, 1)

    # --- buying cards: Religion, Stealth, Endurance --------------------------------------

    def buy_revealed(self, s: GameState, seat: int, card: int) -> None:
        self.offer(s, seat, REVEALED, card)  # if usable: Religion, room in the hand

    def after_buy(self, s: GameState, seat: int) -> None:
        if A.STEALTH in self.held[seat]:
            self.used(s, seat, A.STEALTH)
            draw_for(s, seat, 1)
        for o in opponents_from_left(s, seat):
            if A.ENDURANCE in self.held[o] and s.stakes > 0:
                self.used(s, o, A.ENDURANCE)
                steal(s, o, 2, by_power=False)
        # Emptying the stakes ends the gambit at once, even outside a power
        # (the turn this purchase belongs to is not played).
        end_gambit_if_stakes_empty(s)

    # --- offers (use_ability) -------------------------------------------------------------

    def usable(self, s: GameState, seat: int, trigger: int, args: tuple[int, ...]) -> list[int]:
        # Each trigger offers one ability (WINDOW and BEFORE_STEP4 both offer Heal).
        ability = _OFFERED[trigger]
        return [ability] if _USABLE[ability](self, s, seat, args) else []

    def _religion_usable(self, s: GameState, seat: int, args: tuple[int, ...]) -> bool:
        (card,) = args
        return (
            A.RELIGION in self.held[seat]
            and card in s.limbo
            and len(s.hands[seat]) < s.config.rules.hand_limit
        )

    def _dungeoneering_usable(self, s: GameState, seat: int, args: tuple[int, ...]) -> bool:
        victim, card, _shadow = args
        return (
            self.ready(seat, A.DUNGEONEERING)
            and card in s.hands[seat]
            and len(s.hands[victim]) >= 1
        )

    def _heal_usable(self, s: GameState, seat: int, args: tuple[int, ...]) -> bool:
        return self.ready(seat, A.HEAL) and bool(s.deck or s.discard)

    def _insight_usable(self, s: GameState, seat: int, args: tuple[int, ...]) -> bool:
        w = s.gambit_winner
        return self.ready(seat, A.INSIGHT) and w >= 0 and w != seat and not (s.out >> w) & 1

    def use(
        self, s: GameState, seat: int, ability: int, trigger: int, args: tuple[int, ...]
    ) -> None:
        _USE[ability](self, s, seat, args)

    def _religion(self, s: GameState, seat: int, args: tuple[int, ...]) -> None:
        (card,) = args
        self.used(s, seat, A.RELIGION)
        s.limbo.remove(card)
        s.hands[seat].append(card)
        reveal_known(s, card)
        ev(s, "religion_keep", seat=seat, card=card)

    def _dungeoneering(self, s: GameState, seat: int, args: tuple[int, ...]) -> None:
        victim, card, shadow = args
        self._spend(s, seat, A.DUNGEONEERING)
        if self.options.dungeoneering == "choose":
            self._dungeoneering_choice(s, seat, victim, card, shadow)
        else:
            hand = s.hands[victim]
            s.rng, k = rng.below(s.rng, len(hand))
            self._swap_taken(s, seat, victim, card, hand[k])

    def _heal(self, s: GameState, seat: int, args: tuple[int, ...]) -> None:
        self._spend(s, seat, A.HEAL)
        c = top_card(s)  # never "no card": Heal is only usable with a deck or a discard pile
        s.discard.append(c)
        ev(s, "heal_reveal", seat=seat, card=c)
        others = tuple(opponents_from_left(s, seat))
        ask(s, seat, ABILITY_SEAT, others, -1, (A.HEAL, STRENGTH[c]))

    def _insight(self, s: GameState, seat: int, args: tuple[int, ...]) -> None:
        self._spend(s, seat, A.INSIGHT)
        w = s.gambit_winner
        hand = list(s.hands[w])
        for c in hand:
            s.known[c] = s.known.get(c, 0) | (1 << seat) | (1 << w)
        ev(s, "insight_look", (seat,), seat=seat, winner=w, cards=hand)

    def _dungeoneering_choice(
        self, s: GameState, seat: int, victim: int, card: int, shadow: int
    ) -> None:
        """Dungeoneering, picked openly: the user looks at the victim's hand."""
        hand = s.hands[victim]
        for c in hand:  # the user sees them all while choosing
            s.known[c] = s.known.get(c, 0) | (1 << seat) | (1 << victim)
        ev(s, "dungeoneering_look", (seat, victim), seat=seat, victim=victim, cards=list(hand))
        ask(s, seat, ABILITY_CARD, tuple(hand), -1, (A.DUNGEONEERING, victim, card, shadow))

    def _swap_taken(self, s: GameState, seat: int, victim: int, old: int, new: int) -> None:
        """Return the card first taken and take ``new`` from the victim instead (in
        the same place of the taker's hand: last, for the Shadow Dragon to use)."""
        where = s.hands[seat]
        where[where.index(old)] = new
        s.hands[victim].remove(new)
        s.hands[victim].append(old)
        pair = (1 << seat) | (1 << victim)
        s.known[old] = pair
        s.known[new] = pair
        ev(s, "dungeoneering", seat=seat, victim=victim)
        ev(s, "dungeoneering_cards", (seat, victim), seat=seat, victim=victim, old=old, new=new)

    # --- questions with a card or a player ---------------------------------------------------

    def chose_card(self, s: GameState, d: Decision, card: int) -> None:
        if card == PASS:  # Perception, Luck Domain, Streetwise (Dungeoneering has no pass)
            if d.ctx[0] == A.STREETWISE:
                push(s, ("strength_reward", d.seat, d.ctx[1], 1))
            return
        _CHOSE_CARD[d.ctx[0]](self, s, d, card)

    def _dungeoneering_card(self, s: GameState, d: Decision, card: int) -> None:
        _, victim, old, _shadow = d.ctx
        self._swap_taken(s, d.seat, victim, old, card)

    def _perception_card(self, s: GameState, d: Decision, card: int) -> None:
        seat = d.seat
        self._spend(s, seat, A.PERCEPTION)
        old = s.ante_choice[seat]
        s.hands[seat].remove(card)
        s.hands[seat].append(old)
        s.ante_choice[seat] = card
        reveal_known(s, old)
        forget_card(s, card)
        ev(s, "perception_swap", seat=seat, old=old, new=card)

    def _luck_card(self, s: GameState, d: Decision, card: int) -> None:
        seat = d.seat
        self._spend(s, seat, A.LUCK_DOMAIN)
        s.hands[seat].remove(card)
        s.discard.append(card)
        forget_card(s, card)
        ev(s, "luck_redraw", seat=seat, card=card)
        draw_for(s, seat, 1)

    def _streetwise_card(self, s: GameState, d: Decision, card: int) -> None:
        seat, strength = d.seat, d.ctx[1]
        self.used(s, seat, A.STREETWISE)
        amount = STRENGTH[card] + self.flight_bonus(s, seat)
        ev(s, "streetwise", seat=seat, card=card, amount=amount)
        # The reward without its steal (ante cards, flight scored), then the
        # payments; Streetwise is spent after the flight readied the others.
        push(s, ("strength_reward", seat, strength, 0), ("ability", "streetwise", seat, amount))

    def step_streetwise(self, s: GameState, seat: int, amount: int) -> None:
        self.spent[seat] |= 1 << A.STREETWISE
        for o in opponents_from_left(s, seat):
            pay(s, o, amount, seat)

    def chose_seat(self, s: GameState, d: Decision, seat: int) -> None:
        _CHOSE_SEAT[d.ctx[0]](self, s, d, seat)

    def _heal_seat(self, s: GameState, d: Decision, seat: int) -> None:
        pay(s, d.seat, d.ctx[1], seat)

    def _diplomacy_seat(self, s: GameState, d: Decision, seat: int) -> None:
        if seat != PASS:
            self.diplomacy[d.seat] = s.gambit
            self.used(s, d.seat, A.DIPLOMACY)
            s.leader = seat
            ev(s, "diplomacy", seat=d.seat, leader=seat)

    # --- hooks that ask ------------------------------------------------------------------------

    def took_random(self, s: GameState, taker: int, victim: int, card: int, shadow: bool) -> None:
        if self.ready(taker, A.DUNGEONEERING):
            self.offer(s, taker, TAKEN, victim, card, int(shadow))

    def drawn_by_power(self, s: GameState, seat: int, cards: list[int]) -> None:
        if self.ready(seat, A.LUCK_DOMAIN):
            push(s, ("ability", "luck", seat, *cards))

    def step_luck(self, s: GameState, seat: int, *cards: int) -> None:
        hand = s.hands[seat]
        still = tuple(c for c in cards if c in hand)
        if still and self.ready(seat, A.LUCK_DOMAIN) and (s.deck or s.discard):
            ask(s, seat, ABILITY_CARD, (*still, PASS), -1, (A.LUCK_DOMAIN,))

    def ante_revealed(self, s: GameState) -> None:
        for p in reversed(self.holders(s, A.PERCEPTION, s.leader)):
            push(s, ("ability", "perception", p))

    def step_perception(self, s: GameState, seat: int) -> None:
        hand = s.hands[seat]
        # A hand left after the ante means a card was anted.
        if self.ready(seat, A.PERCEPTION) and hand:
            ask(s, seat, ABILITY_CARD, (*hand, PASS), -1, (A.PERCEPTION,))

    def strength_flight(self, s: GameState, seat: int, strength: int) -> bool:
        if not self.ready(seat, A.STREETWISE):
            return False
        flight = s.flights[seat]
        if self.options.streetwise == "any_card":
            cards = tuple(flight)
        else:
            cards = tuple(c for c in flight if STRENGTH[c] == strength)
        if not cards:
            return False
        ask(s, seat, ABILITY_CARD, (*cards, PASS), -1, (A.STREETWISE, strength))
        return True

    def leader_window(self, s: GameState) -> bool:
        lead = s.leader
        if A.DIPLOMACY not in self.held[lead] or self.diplomacy[lead] == s.gambit:
            return False
        # Someone else is in the game: with one player left the game is over.
        others = opponents_from_left(s, lead)
        s.queue.append(("round_start", WINDOW_OFFERED))
        ask(s, lead, ABILITY_SEAT, (*others, PASS), -1, (A.DIPLOMACY,))
        return True

    def window(self, s: GameState, seat: int, moment: int, then: Step) -> bool:
        if moment == 0 and self.usable(s, seat, WINDOW, ()):
            s.queue.append(then)
            self.offer(s, seat, WINDOW)
            return True
        return False

    def before_step4(self, s: GameState, then: Step) -> bool:
        # Heal belongs to one character at most, so where the search starts is moot.
        holders = self.holders(s, A.HEAL, s.leader)
        seats = [p for p in holders if self.usable(s, p, BEFORE_STEP4, ())]
        if not seats:
            return False
        s.queue.append(then)
        for p in reversed(seats):
            self.offer(s, p, BEFORE_STEP4)
        return True

    def after_step4(self, s: GameState) -> None:
        for p in reversed(self.holders(s, A.INSIGHT, s.leader)):
            self.offer(s, p, STEP4)


#: The ability each trigger offers.
_OFFERED = {
    REVEALED: A.RELIGION,
    TAKEN: A.DUNGEONEERING,
    WINDOW: A.HEAL,
    BEFORE_STEP4: A.HEAL,
    STEP4: A.INSIGHT,
}
_USABLE = {
    A.RELIGION: SkillTable._religion_usable,
    A.DUNGEONEERING: SkillTable._dungeoneering_usable,
    A.HEAL: SkillTable._heal_usable,
    A.INSIGHT: SkillTable._insight_usable,
}
#: What using each offered ability does.
_USE = {
    A.RELIGION: SkillTable._religion,
    A.DUNGEONEERING: SkillTable._dungeoneering,
    A.HEAL: SkillTable._heal,
    A.INSIGHT: SkillTable._insight,
}
#: The card each ``ability_card`` question's answer is used for (not ``PASS``).
_CHOSE_CARD = {
    A.DUNGEONEERING: SkillTable._dungeoneering_card,
    A.PERCEPTION: SkillTable._perception_card,
    A.LUCK_DOMAIN: SkillTable._luck_card,
    A.STREETWISE: SkillTable._streetwise_card,
}
#: The player each ``ability_seat`` question's answer is used for.
_CHOSE_SEAT = {A.HEAL: SkillTable._heal_seat, A.DIPLOMACY: SkillTable._diplomacy_seat}
