"""The Legendary Edition's 3DA ability disks (L Appendix 5; options.md §6.3).

Every character has one disk, Ready at the start.  Using *any* of its
abilities flips the disk to Expended, and then none of them can be used
until the character scores a special flight, which flips it back to Ready
(scoring one while Ready gives nothing).  Using an ability is always the
owner's choice, offered the moment its trigger happens.

The three categories:

* **Card Draw**: draw 2 (Draconic Ancestry and Fast Hands draw 1; Fast Hands
  also steals 1 more gold; Inspiring Leader then lets each opponent draw 1);
* **Ante Manipulation**: the opponent with the strongest ante card tied with
  no other ante card antes 2d6 more gold (A16: never the user; none: no
  effect, so it is not offered);
* **Card Denial**: an opponent who paid to buy cards fills the hand to 3.

Rulings for what the book leaves open are documented in ``docs/abilities.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dragonante.engine.abilities import catalog as A
from dragonante.engine.abilities.catalog import ABILITIES, CARD_DRAW, DISKS
from dragonante.engine.abilities.table import (
    ANTE_DONE,
    BOUGHT,
    DENY,
    PLAYED,
    STEAL,
    STEP4,
    WINDOW,
    WON,
    AbilityTable,
    draw_for,
    roll,
)
from dragonante.engine.core import (
    STAKES,
    clockwise,
    ev,
    flight_total,
    left_of,
    opponents_from_left,
    pay,
    steal,
)
from dragonante.engine.state import GameState
from dragonante.engine.tables import COLOR_MASK, STRENGTH
from dragonante.kernel import Step

_ANTE_ABILITIES = frozenset(
    {A.GAMBLING_BACKGROUND, A.INSPIRING_LEADER, A.CONFUSINGLY_SMOOTH, A.THREATS_AND_PROMISES}
)
_DENIAL = frozenset({A.CUTTING_WORDS, A.MAGICAL_DISCOURAGEMENT})


def manipulation_target(cards: tuple[int, ...] | list[int], user: int) -> int:
    """The opponent who antes 2d6 more (A16): the strongest opponent ante card that
    is tied with no other ante card; -1 if there is none."""
    counts: dict[int, int] = {}
    for c in cards:
        if c >= 0:
            counts[STRENGTH[c]] = counts.get(STRENGTH[c], 0) + 1
    best, target = -1, -1
    for p, c in enumerate(cards):
        if p != user and c >= 0 and counts[STRENGTH[c]] == 1 and STRENGTH[c] > best:
            best, target = STRENGTH[c], p
    return target


class DiskTable(AbilityTable):
    """Ability disks: one Ready/Expended disk per character."""

    __slots__ = ("ancestry_gambit", "ancestry_plays", "expended")
    system = DISKS
    shared_use = True
    PLAY_ABILITIES = frozenset({A.DRACONIC_ANCESTRY})
    WINDOW_ABILITIES = frozenset({A.PRACTICE_COUNTS})

    def __init__(self, options: Any, n: int) -> None:
        super().__init__(options, n)
        #: Seats whose disk shows its grey Expended side (bit mask).
        self.expended = 0
        #: Cards matching the seat's dragon ancestry played this gambit, and which
        #: gambit that count belongs to (Draconic Ancestry).
        self.ancestry_plays: list[int] = [0] * n
        self.ancestry_gambit: list[int] = [0] * n

    def _clone_into(self, c: Any) -> None:
        c.expended = self.expended
        c.ancestry_plays = self.ancestry_plays[:]
        c.ancestry_gambit = self.ancestry_gambit[:]

    def _dict(self) -> dict[str, Any]:
        return {
            "expended": self.expended,
            "ancestry_plays": list(self.ancestry_plays),
            "ancestry_gambit": list(self.ancestry_gambit),
        }

    def _view(self, s: GameState, seat: int | None, gm: bool) -> dict[str, Any]:
        return {
            "disks": ["expended" if (self.expended >> p) & 1 else "ready" for p in range(self.n)]
        }

    def ready(self, seat: int) -> bool:
        return not (self.expended >> seat) & 1

    def ready_abilities(self, seat: int) -> tuple[int, ...]:
        return self.held[seat] if self.ready(seat) else ()

    def place_use(
        self,
        gambit: int,
        expended: Sequence[int],
        spent: Sequence[Sequence[int]],
        ancestry_plays: Sequence[int],
        diplomacy_used: Sequence[int],
    ) -> None:
        self.expended = sum(1 << p for p in expended)
        for p in range(min(self.n, len(ancestry_plays))):
            self.ancestry_plays[p] = ancestry_plays[p]
            self.ancestry_gambit[p] = gambit

    # --- when each ability may be used ------------------------------------------

    def usable(self, s: GameState, seat: int, trigger: int, args: tuple[int, ...]) -> list[int]:
        # Offers only go to seats still in the game (and the offer step checks again).
        if not self.ready(seat):
            return []
        found = [a for a in self.held[seat] if self._triggers(s, seat, a, trigger, args)]
        # "Usable at any moment while the condition holds": whenever the seat
        # is offered something anyway, Practice Counts is offered too.
        if (
            found
            and A.PRACTICE_COUNTS in self.held[seat]
            and A.PRACTICE_COUNTS not in found
            and self._practice_counts(s, seat)
        ):
            found.append(A.PRACTICE_COUNTS)
        return found

    def _triggers(
        self, s: GameState, seat: int, a: int, trigger: int, args: tuple[int, ...]
    ) -> bool:
        """``trigger`` is ``a``'s own moment and its condition holds."""
        return _TRIGGER[a] == trigger and _CONDITION[a](self, s, seat, args)

    def _always(self, s: GameState, seat: int, args: tuple[int, ...]) -> bool:
        return True

    def _ante_cards(self, seat: int, cards: tuple[int, ...]) -> tuple[int, list[int]] | None:
        """The strength of ``seat``'s ante card and those of the other ante cards
        (None: ``seat`` anted no card)."""
        mine = cards[seat]
        if mine < 0:
            return None
        others = [STRENGTH[c] for p, c in enumerate(cards) if p != seat and c >= 0]
        return STRENGTH[mine], others

    def _gambling_background(self, s: GameState, seat: int, cards: tuple[int, ...]) -> bool:
        ante = self._ante_cards(seat, cards)
        return ante is not None and bool(ante[1]) and ante[0] - max(ante[1]) >= 4

    def _inspiring_leader(self, s: GameState, seat: int, cards: tuple[int, ...]) -> bool:
        ante = self._ante_cards(seat, cards)
        return ante is not None and all(ante[0] <= o for o in ante[1])

    def _confusingly_smooth(self, s: GameState, seat: int, cards: tuple[int, ...]) -> bool:
        ante = self._ante_cards(seat, cards)
        return ante is not None and ante[0] <= 2 and manipulation_target(cards, seat) >= 0

    def _threats_and_promises(self, s: GameState, seat: int, cards: tuple[int, ...]) -> bool:
        ante = self._ante_cards(seat, cards)
        return ante is not None and ante[0] >= 11 and manipulation_target(cards, seat) >= 0

    def _cutting_words(self, s: GameState, seat: int, args: tuple[int, ...]) -> bool:
        (buyer,) = args
        return self.denied != buyer and flight_total(s, buyer) < flight_total(s, seat)

    def _magical_discouragement(self, s: GameState, seat: int, args: tuple[int, ...]) -> bool:
        (buyer,) = args
        return self.denied != buyer and self.wins[buyer] >= 1

    def _blessing(self, s: GameState, seat: int, args: tuple[int, ...]) -> bool:
        (winner,) = args
        return left_of(s, seat) == winner

    def _desperation(self, s: GameState, seat: int, args: tuple[int, ...]) -> bool:
        return 1 <= s.hoards[seat] <= 9  # A18

    def _practice_window(self, s: GameState, seat: int, args: tuple[int, ...]) -> bool:
        return self._practice_counts(s, seat)

    def _practice_counts(self, s: GameState, seat: int) -> bool:
        """At least two opponents (still in the game) have their disks Expended (A17).

        Only asked of a seat whose own disk is Ready, so every Expended disk is an
        opponent's."""
        gone = self.expended & ~s.out
        return gone.bit_count() >= 2

    # --- using an ability ---------------------------------------------------------

    def use(
        self, s: GameState, seat: int, ability: int, trigger: int, args: tuple[int, ...]
    ) -> None:
        before = [self._practice_counts(s, p) for p in range(self.n)]
        self.expended |= 1 << seat
        self.used(s, seat, ability)
        self._effect(s, seat, ability, args)
        # Practice Counts: the moment two opponents' disks are Expended, its
        # owners may use it (and again at their own turn or ante while it holds),
        # asked in turn order from the user's left (one ``offers`` call: separate
        # pushes would ask the farthest seat first).
        seats = [
            p
            for p in opponents_from_left(s, seat)
            if not before[p] and A.PRACTICE_COUNTS in self.held[p]
        ]
        if seats:
            self.offers(s, seats, WINDOW)

    def _used_extra(self, seat: int, ability: int) -> dict[str, Any]:
        if ability == A.DRACONIC_ANCESTRY and self.ancestry[seat] >= 0:
            return {"color": A.ANCESTRY_COLORS[self.ancestry[seat]]}
        return {}

    def _effect(self, s: GameState, seat: int, ability: int, args: tuple[int, ...]) -> None:
        info = ABILITIES[ability]
        if info.kind == CARD_DRAW:
            draw_for(s, seat, info.draws)
            if ability == A.FAST_HANDS:
                steal(s, seat, 1, by_power=False)
            elif ability == A.INSPIRING_LEADER:
                for o in opponents_from_left(s, seat):
                    draw_for(s, o, 1)
        elif ability in (A.CONFUSINGLY_SMOOTH, A.THREATS_AND_PROMISES):
            # Only offered with a target (its condition), and the ante cards are the same.
            target = manipulation_target(args, seat)
            dice = roll(s, 2, 6)
            ev(s, "ability_dice", seat=target, dice=dice, amount=sum(dice))
            pay(s, target, sum(dice), STAKES)
        elif ability in _DENIAL:
            (buyer,) = args
            self.denied = buyer
            ev(s, "buy_denied", seat=buyer, by=seat, size=s.config.rules.buy_fill_to - 1)

    # --- hooks ----------------------------------------------------------------------

    def flight_scored(self, s: GameState, seat: int) -> None:
        if (self.expended >> seat) & 1:
            self.expended &= ~(1 << seat)
            ev(s, "disk_ready", seat=seat)

    def stolen(self, s: GameState, seat: int, taken: int, by_power: bool) -> None:
        if A.FAST_HANDS in self.held[seat]:
            self.offer(s, seat, STEAL)

    def ante_paid(self, s: GameState, cards: list[int]) -> None:
        # A seat without an ante card is left out by the abilities' conditions.
        seats = [p for p in clockwise(s, s.leader) if not _ANTE_ABILITIES.isdisjoint(self.held[p])]
        if seats:
            self.offers(s, seats, ANTE_DONE, *cards)

    def played(self, s: GameState, seat: int, card: int) -> None:
        if A.DRACONIC_ANCESTRY not in self.held[seat]:
            return
        color = self.ancestry[seat]
        if color < 0 or not (COLOR_MASK[card] >> color) & 1:
            return
        if self.ancestry_gambit[seat] != s.gambit:
            self.ancestry_gambit[seat] = s.gambit
            self.ancestry_plays[seat] = 0
        self.ancestry_plays[seat] += 1
        count = self.ancestry_plays[seat]
        if count == 2 or (count > 2 and self.options.ancestry_trigger == "each_after"):
            self.offer(s, seat, PLAYED, card)

    def before_fill(self, s: GameState, seat: int) -> None:
        seats = [o for o in opponents_from_left(s, seat) if not _DENIAL.isdisjoint(self.held[o])]
        if seats:
            self.offers(s, seats, DENY, seat)

    def after_buy(self, s: GameState, seat: int) -> None:
        if A.VERSATILE_TRICKSTER in self.held[seat]:
            self.offer(s, seat, BOUGHT)

    def gambit_won(self, s: GameState, winner: int) -> None:
        super().gambit_won(s, winner)
        # Only the player on the winner's right may use it (its condition).
        seats = [
            p for p in opponents_from_left(s, winner) if A.BLESSING_OF_THE_TRICKSTER in self.held[p]
        ]
        if seats:
            self.offers(s, seats, WON, winner)

    def after_step4(self, s: GameState) -> None:
        first = s.gambit_winner if s.gambit_winner >= 0 else s.leader
        # Only Desperation triggers here (Practice Counts comes along with it).
        seats = [p for p in clockwise(s, first) if A.DESPERATION in self.held[p]]
        if seats:
            self.offers(s, seats, STEP4)

    def window(self, s: GameState, seat: int, moment: int, then: Step) -> bool:
        if self.usable(s, seat, WINDOW, ()):  # Practice Counts, Ready, its condition
            s.queue.append(then)
            self.offer(s, seat, WINDOW)
            return True
        return False


#: Each ability's trigger: the one moment the book lets it be used.
_TRIGGER = {
    A.FAST_HANDS: STEAL,
    A.GAMBLING_BACKGROUND: ANTE_DONE,
    A.INSPIRING_LEADER: ANTE_DONE,
    A.CONFUSINGLY_SMOOTH: ANTE_DONE,
    A.THREATS_AND_PROMISES: ANTE_DONE,
    A.DRACONIC_ANCESTRY: PLAYED,
    A.CUTTING_WORDS: DENY,
    A.MAGICAL_DISCOURAGEMENT: DENY,
    A.VERSATILE_TRICKSTER: BOUGHT,
    A.BLESSING_OF_THE_TRICKSTER: WON,
    A.DESPERATION: STEP4,
    A.PRACTICE_COUNTS: WINDOW,
}
#: What else must hold at that moment (the arguments are the trigger's).
_CONDITION = {
    A.FAST_HANDS: DiskTable._always,
    A.GAMBLING_BACKGROUND: DiskTable._gambling_background,
    A.INSPIRING_LEADER: DiskTable._inspiring_leader,
    A.CONFUSINGLY_SMOOTH: DiskTable._confusingly_smooth,
    A.THREATS_AND_PROMISES: DiskTable._threats_and_promises,
    A.DRACONIC_ANCESTRY: DiskTable._always,
    A.CUTTING_WORDS: DiskTable._cutting_words,
    A.MAGICAL_DISCOURAGEMENT: DiskTable._magical_discouragement,
    A.VERSATILE_TRICKSTER: DiskTable._always,
    A.BLESSING_OF_THE_TRICKSTER: DiskTable._blessing,
    A.DESPERATION: DiskTable._desperation,
    A.PRACTICE_COUNTS: DiskTable._practice_window,
}
