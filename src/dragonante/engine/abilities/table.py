"""What both ability systems share: who holds what, who knows it, and the questions.

:class:`AbilityTable` is the part of a game's state that belongs to the D&D
abilities (``state.abilities``) and the engine hooks' implementation common
to both books.  Each book's system subclasses it
(:mod:`~dragonante.engine.abilities.disks`,
:mod:`~dragonante.engine.abilities.skills`).

Questions go through the engine's one decision model:

* ``use_ability`` offers the abilities a seat may use *now* (each trigger is
  a moment the books name) plus ``PASS``; the offer step works out what is
  usable when it runs, so an earlier answer (a disk expended, a hand
  filled) is always taken into account;
* ``ability_card`` / ``ability_seat`` ask which card or player an ability
  acts on (``ctx[0]`` is the ability).

An ability is *revealed* the first time it acts: the public ``ability_used``
event names it, and from then on every seat sees that its owner has it.
With public visibility every ability is revealed from the start.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

from dragonante.engine.abilities.catalog import ABILITIES, ANCESTRY_COLORS, of_system
from dragonante.engine.abilities.options import AbilityOptions
from dragonante.engine.core import (
    RULES,
    ask,
    clockwise,
    draw,
    ev,
    fill_hand,
    forget_card,
    pay_for_cards,
    push,
    reshuffle_if_empty,
    resolver,
    step,
    top_card,
)
from dragonante.engine.decisions import (
    ABILITY_CARD,
    ABILITY_KINDS,
    ABILITY_SEAT,
    PASS,
    USE_ABILITY,
    Decision,
)
from dragonante.engine.hooks import AbilityHooks
from dragonante.engine.state import GameState
from dragonante.kernel import Step, rng

# Triggers: the moment an offer is made (``use_ability`` ctx[0]).
STEAL = 0  # the seat stole gold from the stakes
ANTE_DONE = 1  # the ante is settled (args: each seat's ante card)
PLAYED = 2  # the seat played a card (args: the card)
DENY = 3  # an opponent is buying cards (args: the buyer)
BOUGHT = 4  # the seat bought cards
WON = 5  # a gambit was won (args: the winner)
STEP4 = 6  # Step 4 is over, before Step 5's draws
WINDOW = 7  # a moment of the seat's own (its turn, its ante, a condition came true)
TAKEN = 8  # the seat took a random card (args: victim, card, shadow)
REVEALED = 9  # the seat revealed a card to buy cards (args: the card)
BEFORE_STEP4 = 10  # the stakes are awarded, Step 4 comes next

#: Everyone may see a question about public abilities; a question about a
#: hidden ability shows others only that this seat is deciding something.
PRIVATE_KIND = "private"


class AbilityTable(AbilityHooks[GameState]):
    """The abilities at one table: holdings, knowledge, and the shared rule hooks."""

    __slots__ = ("ancestry", "denied", "held", "n", "options", "revealed", "wins")

    #: Which book's system (``disks`` / ``skills``).
    system: ClassVar[str]
    #: Abilities that act on their owner's card plays / before its choices
    #: (they make ``play_seats`` / ``window_seats``).
    PLAY_ABILITIES: ClassVar[frozenset[int]] = frozenset()
    WINDOW_ABILITIES: ClassVar[frozenset[int]] = frozenset()

    def __init__(self, options: AbilityOptions, n: int) -> None:
        super().__init__()
        self.options = options
        self.n = n
        #: Each seat's abilities, by number, in the order received.
        self.held: list[tuple[int, ...]] = [()] * n
        #: Each seat's Draconic Ancestry color (an index into ANCESTRY_COLORS), -1 none.
        self.ancestry: list[int] = [-1] * n
        #: Per seat, a bit mask of the abilities everyone knows it has.
        self.revealed: list[int] = [0] * n
        #: Gambits each seat has won this game (Magical Discouragement).
        self.wins: list[int] = [0] * n
        #: The buyer whose hand fills to one card fewer (Card Denial), -1 none.
        self.denied = -1

    # --- copies and records -----------------------------------------------------

    def clone(self) -> AbilityTable:
        c = self.__class__.__new__(self.__class__)
        c.options = self.options
        c.n = self.n
        c.held = self.held[:]
        c.play_seats = self.play_seats
        c.window_seats = self.window_seats
        c.ancestry = self.ancestry[:]
        c.revealed = self.revealed[:]
        c.wins = self.wins[:]
        c.denied = self.denied
        self._clone_into(c)
        return c

    def _clone_into(self, c: Any) -> None:
        """Copy the system's own fields into the clone ``c``."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "held": [list(h) for h in self.held],
            "ancestry": list(self.ancestry),
            "revealed": list(self.revealed),
            "wins": list(self.wins),
            "denied": self.denied,
            **self._dict(),
        }

    def _dict(self) -> dict[str, Any]:
        return {}

    # --- holdings and knowledge --------------------------------------------------

    def give(self, seat: int, abilities: tuple[int, ...]) -> None:
        """``seat`` now holds ``abilities`` (the only way holdings change)."""
        self.held[seat] = abilities
        bit = 1 << seat
        self.play_seats &= ~bit
        self.window_seats &= ~bit
        if not self.PLAY_ABILITIES.isdisjoint(abilities):
            self.play_seats |= bit
        if not self.WINDOW_ABILITIES.isdisjoint(abilities):
            self.window_seats |= bit

    def has(self, seat: int, ability: int) -> bool:
        return ability in self.held[seat]

    def holders(self, s: GameState, ability: int, first: int) -> list[int]:
        """Seats still in the game holding ``ability``, clockwise from ``first``."""
        return [p for p in clockwise(s, first) if ability in self.held[p]]

    def used(self, s: GameState, seat: int, ability: int) -> None:
        """``seat`` uses ``ability`` (or it acts): logged for everyone, so revealed."""
        self.revealed[seat] |= 1 << ability
        if s.log is not None:
            ev(s, "ability_used", seat=seat, ability=ability, **self._used_extra(seat, ability))

    def _used_extra(self, seat: int, ability: int) -> dict[str, Any]:
        return {}

    def known_to(self, seat: int | None, gm: bool, owner: int) -> list[int]:
        """``owner``'s abilities as ``seat`` may see them (a game-master sees all)."""
        held = self.held[owner]
        if gm or seat == owner:
            return list(held)
        mask = self.revealed[owner]
        return [a for a in held if (mask >> a) & 1]

    def view(self, s: GameState, seat: int | None, gm: bool = False) -> dict[str, Any]:
        """The abilities part of ``observe(state, seat)``."""
        shown = [self.known_to(seat, gm, p) for p in range(self.n)]
        return {
            "system": self.system,
            "public": self.options.public,
            "held": shown,
            #: How many abilities each character has is public; which ones are not.
            "counts": [len(h) for h in self.held],
            "ancestry": [
                ANCESTRY_COLORS[self.ancestry[p]]
                if self.ancestry[p] >= 0 and (2 in shown[p])
                else None
                for p in range(self.n)
            ],
            "wins": list(self.wins),
            **self._view(s, seat, gm),
        }

    def _view(self, s: GameState, seat: int | None, gm: bool) -> dict[str, Any]:
        return {}

    def question_for(self, d: Decision, seat: int | None) -> str:
        """The kind of ``d`` as ``seat`` may see it (another seat's hidden ability
        question only shows that it is deciding something)."""
        if d.kind in ABILITY_KINDS and d.seat != seat and not self.options.public:
            return PRIVATE_KIND
        return d.kind

    def redeal(self, seat: int, r: int) -> int:
        """Re-deal other seats' unrevealed abilities consistently with what ``seat`` knows.

        What ``seat`` knows: its own abilities, every revealed one, how many each
        character has, and (special abilities) that nobody holds one twice.  The
        re-deal starts from a canonical order, so it depends only on those facts.
        """
        if self.options.public:
            return r
        pool = [a.id for a in of_system(self.system)]
        exclusive = self._exclusive()
        taken: set[int] = set()
        if exclusive:
            taken.update(self.held[seat])
            for p in range(self.n):
                mask = self.revealed[p]
                taken.update(a for a in self.held[p] if (mask >> a) & 1)
        held = self.held
        for p in range(self.n):
            if p == seat:
                continue
            mask = self.revealed[p]
            keep = [a for a in held[p] if (mask >> a) & 1]
            hidden = len(held[p]) - len(keep)
            if not hidden:  # all revealed: a Draconic Ancestry (and its color) too
                continue
            choices = [a for a in pool if a not in keep and a not in taken]
            new = list(keep)
            for _ in range(hidden):
                r, k = rng.below(r, len(choices))
                new.append(choices.pop(k))
            if exclusive:
                taken.update(new)
            self.give(p, tuple(sorted(new)))
            if 2 in held[p] and not (mask >> 2) & 1:  # an unrevealed Draconic Ancestry
                r, k = rng.below(r, len(ANCESTRY_COLORS))
                self.ancestry[p] = k
            elif 2 not in held[p]:
                self.ancestry[p] = -1
        return r

    def _exclusive(self) -> bool:
        """Whether an ability can belong to one character only (special abilities)."""
        return False

    def place_use(
        self,
        gambit: int,
        expended: Sequence[int],
        spent: Sequence[Sequence[int]],
        ancestry_plays: Sequence[int],
        diplomacy_used: Sequence[int],
    ) -> None:
        """A position's record of what its seats have used (rules scenarios):
        each system keeps its own part and ignores the other book's.

        ``expended``: seats whose disk is Expended; ``ancestry_plays``: each
        seat's Draconic Ancestry plays this ``gambit``; ``spent``: each seat's
        spent recharge abilities; ``diplomacy_used``: seats that used
        Diplomacy this ``gambit``.
        """
        raise NotImplementedError

    # --- offers -------------------------------------------------------------------

    def usable(self, s: GameState, seat: int, trigger: int, args: tuple[int, ...]) -> list[int]:
        """The abilities ``seat`` may use at this ``trigger``, right now."""
        return []

    def offer(self, s: GameState, seat: int, trigger: int, *args: int) -> None:
        """Schedule a ``use_ability`` offer to ``seat`` if it has something to use
        now; what it may use is worked out again when the offer runs."""
        if self.usable(s, seat, trigger, args):
            push(s, ("ability_offer", seat, trigger, *args))

    def offers(self, s: GameState, seats: list[int], trigger: int, *args: int) -> None:
        """Offers to several seats, asked in the order listed."""
        steps = [
            ("ability_offer", p, trigger, *args) for p in seats if self.usable(s, p, trigger, args)
        ]
        q = s.queue
        for st in reversed(steps):
            q.append(st)

    def use(
        self, s: GameState, seat: int, ability: int, trigger: int, args: tuple[int, ...]
    ) -> None:
        """``seat`` chose to use ``ability`` at ``trigger``."""
        raise NotImplementedError

    def chose_card(self, s: GameState, d: Decision, card: int) -> None:
        raise NotImplementedError

    def chose_seat(self, s: GameState, d: Decision, seat: int) -> None:
        raise NotImplementedError

    def call(self, s: GameState, name: str, args: tuple[int, ...]) -> None:
        """Run the system's own scheduled step ``name`` (see ``("ability", name, ...)``)."""
        getattr(self, "step_" + name)(s, *args)

    # --- common hooks -------------------------------------------------------------

    def gambit_won(self, s: GameState, winner: int) -> None:
        self.wins[winner] += 1

    def buy(self, s: GameState, seat: int) -> None:
        push(s, ("ability_buy", seat))

    def buy_revealed(self, s: GameState, seat: int, card: int) -> None:
        """The card that sets the price is revealed, in limbo (Religion may keep it)."""

    def before_fill(self, s: GameState, seat: int) -> None:
        """The price is paid; the hand is filled next (Card Denial)."""

    def after_buy(self, s: GameState, seat: int) -> None:
        """The hand is filled (Versatile Trickster, Stealth, Endurance)."""


def table(s: GameState) -> AbilityTable:
    """The state's ability table (only ability steps call this: it is never None)."""
    return cast(AbilityTable, s.abilities)


# --- interpreter steps and resolvers shared by both systems ------------------------


@step("ability_offer", "seat", "trigger", "*args")
def _offer(s: GameState, st: Step) -> None:
    _, seat, trigger, *args = st
    if (s.out >> seat) & 1:
        return
    tbl = table(s)
    ids = tbl.usable(s, seat, trigger, tuple(args))
    if ids:
        ask(s, seat, USE_ABILITY, (*ids, PASS), -1, (trigger, *args))


@resolver(USE_ABILITY)
def _resolve_use(s: GameState, d: Decision, ability: int) -> None:
    if ability == PASS:
        return
    trigger, *args = d.ctx
    table(s).use(s, d.seat, ability, trigger, tuple(args))


@resolver(ABILITY_CARD)
def _resolve_card(s: GameState, d: Decision, card: int) -> None:
    table(s).chose_card(s, d, card)


@resolver(ABILITY_SEAT)
def _resolve_seat(s: GameState, d: Decision, seat: int) -> None:
    table(s).chose_seat(s, d, seat)


@step("ability", "name", "*args")
def _ability_step(s: GameState, st: Step) -> None:
    table(s).call(s, st[1], tuple(st[2:]))


@step("ability_buy", "seat")
def _buy(s: GameState, st: Step) -> None:
    """Buying cards with abilities: reveal (the card waits in limbo), pay, then the
    windows, then fill the hand (to one fewer if an opponent denied cards)."""
    seat = st[1]
    c = top_card(s, reshuffle=False)  # the revealed card joins the new deck (discard step)
    if c >= 0:
        s.limbo.append(c)
    pay_for_cards(s, seat, c)
    s.queue.append(("ability_buy_fill", seat))
    s.queue.append(("ability_buy_discard", seat, c))
    if c >= 0:
        table(s).buy_revealed(s, seat, c)


@step("ability_buy_discard", "seat", "card")
def _buy_discard(s: GameState, st: Step) -> None:
    _, seat, c = st
    if c >= 0 and c in s.limbo:
        s.limbo.remove(c)
        s.discard.append(c)
        forget_card(s, c)
    reshuffle_if_empty(s)
    table(s).before_fill(s, seat)


@step("ability_buy_fill", "seat")
def _buy_fill(s: GameState, st: Step) -> None:
    seat = st[1]
    tbl = table(s)
    size = s.config.rules.buy_fill_to
    if tbl.denied == seat:
        size -= 1
        tbl.denied = -1
    fill_hand(s, seat, size)
    tbl.after_buy(s, seat)


def draw_for(s: GameState, seat: int, count: int) -> int:
    """An ability's draw (never "as a result of a card's power")."""
    return draw(s, seat, count)


def roll(s: GameState, dice: int, sides: int) -> list[int]:
    """Roll ``dice`` dice of ``sides`` sides with the table's seeded dice."""
    out = []
    for _ in range(dice):
        s.rng, k = rng.below(s.rng, sides)
        out.append(k + 1)
    return out


#: Every decision kind the abilities answer (checked by the engine's registry test).
ANSWERED_KINDS = tuple(k for k in (USE_ABILITY, ABILITY_CARD, ABILITY_SEAT) if k in RULES.resolvers)

__all__ = [
    "ABILITIES",
    "ANTE_DONE",
    "BEFORE_STEP4",
    "BOUGHT",
    "DENY",
    "PLAYED",
    "PRIVATE_KIND",
    "REVEALED",
    "STEAL",
    "STEP4",
    "TAKEN",
    "WINDOW",
    "WON",
    "AbilityTable",
    "draw_for",
    "roll",
    "table",
]
