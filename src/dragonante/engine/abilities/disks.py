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
        if not self.ready(seat) or (s.out >> seat) & 1:
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
        if trigger == STEAL:
            return a == A.FAST_HANDS
        if trigger == ANTE_DONE:
            return a in _ANTE_ABILITIES and self._ante_trigger(seat, a, args)
        if trigger == PLAYED:
            return a == A.DRACONIC_ANCESTRY
        if trigger == DENY:
            buyer = args[0]
            if a not in _DENIAL or self.denied == buyer:
                return False
            if a == A.CUTTING_WORDS:
                return flight_total(s, buyer) < flight_total(s, seat)
            return self.wins[buyer] >= 1
        if trigger == BOUGHT:
            return a == A.VERSATILE_TRICKSTER
        if trigger == WON:
            return a == A.BLESSING_OF_THE_TRICKSTER and left_of(s, seat) == args[0]
        if trigger == STEP4:
            return a == A.DESPERATION and 1 <= s.hoards[seat] <= 9  # A18
        if trigger == WINDOW:
            return a == A.PRACTICE_COUNTS and self._practice_counts(s, seat)
        return False

    def _ante_trigger(self, seat: int, a: int, cards: tuple[int, ...]) -> bool:
        mine = cards[seat]
        if mine < 0:
            return False
        st = STRENGTH[mine]
        others = [STRENGTH[c] for p, c in enumerate(cards) if p != seat and c >= 0]
        if a == A.GAMBLING_BACKGROUND:
            return bool(others) and st - max(others) >= 4
        if a == A.INSPIRING_LEADER:
            return all(st <= o for o in others)
        if a == A.CONFUSINGLY_SMOOTH and st > 2:
            return False
        if a == A.THREATS_AND_PROMISES and st < 11:
            return False
        return manipulation_target(cards, seat) >= 0

    def _practice_counts(self, s: GameState, seat: int) -> bool:
        """At least two opponents (still in the game) have their disks Expended (A17)."""
        gone = self.expended & ~(1 << seat) & ~s.out
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
            target = manipulation_target(args, seat)
            if target >= 0:
                dice = roll(s, 2, 6)
                ev(s, "ability_dice", seat=target, dice=dice, amount=sum(dice))
                pay(s, target, sum(dice), STAKES)
        elif ability in _DENIAL:
            self.denied = args[0]
            ev(s, "buy_denied", seat=args[0], by=seat, size=s.config.rules.buy_fill_to - 1)

    # --- hooks ----------------------------------------------------------------------

    def flight_scored(self, s: GameState, seat: int) -> None:
        if (self.expended >> seat) & 1:
            self.expended &= ~(1 << seat)
            ev(s, "disk_ready", seat=seat)

    def stolen(self, s: GameState, seat: int, taken: int, by_power: bool) -> None:
        if A.FAST_HANDS in self.held[seat]:
            self.offer(s, seat, STEAL)

    def ante_paid(self, s: GameState, cards: list[int]) -> None:
        seats = [
            p
            for p in clockwise(s, s.leader)
            if cards[p] >= 0 and not _ANTE_ABILITIES.isdisjoint(self.held[p])
        ]
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
        seats = [
            p
            for p in opponents_from_left(s, winner)
            if A.BLESSING_OF_THE_TRICKSTER in self.held[p] and left_of(s, p) == winner
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
        if (
            A.PRACTICE_COUNTS in self.held[seat]
            and self.ready(seat)
            and self._practice_counts(s, seat)
        ):
            s.queue.append(then)
            self.offer(s, seat, WINDOW)
            return True
        return False
