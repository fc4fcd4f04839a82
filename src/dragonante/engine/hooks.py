"""The points where the D&D ability rules join the card game.

Both books' ability systems act at moments the rules already name: the ante
is revealed, someone pays, steals, buys, draws, takes a random card, a
round's leader is chosen, a card is played, a special flight is completed,
a gambit is won, Step 4 is reached.  The engine calls the matching method
of ``state.abilities`` at each of those moments, and only when a table
plays with abilities (``state.abilities`` is ``None`` otherwise, so a plain
game pays one ``is None`` test per hook point and nothing more).

:class:`AbilityHooks` is that contract: every method is a no-op here, and
each book's system (:mod:`dragonante.engine.abilities.disks`,
:mod:`dragonante.engine.abilities.skills`) overrides what it needs.  A hook
never asks a question directly: it pushes interpreter steps, which run as
soon as the engine's current step returns, so a question an ability asks
always waits in the one ``state.pending`` like any card power's question.

Hooks that *schedule* work return ``True`` when they did; the caller has
then handed them its own continuation step and must return to the
interpreter.

The contract is generic in the state it is given (``AbilityHooks[GameState]``
in the engine): the game state holds its hooks, so this module must not know
the state's class, or the two would import each other.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from dragonante.kernel import Decision, Step

#: The game state the hooks are called with (:class:`dragonante.engine.state.GameState`).
State = TypeVar("State")

# The moments a "use it now?" window opens for abilities usable at any time
# on one's own turn (Practice Counts, Heal).
TURN = 0  # before the seat plays its card
ANTE = 1  # before the seat chooses its ante card


class AbilityHooks(Generic[State]):
    """Rule hooks with no effect; an ability system overrides what it uses."""

    __slots__ = ("play_seats", "window_seats")

    #: Whether a seat's abilities share one use: the Legendary disk, where using
    #: any ability expends the disk for all of them until it recharges.
    shared_use: ClassVar[bool] = False

    def __init__(self) -> None:
        #: Seats (bit masks) with an ability that cares about their own card
        #: plays, or about the moment before they choose a card: the engine
        #: calls :meth:`played` and :meth:`window` for those seats only, so
        #: the hottest paths stay cheap.
        self.play_seats = 0
        self.window_seats = 0

    def clone(self) -> AbilityHooks[State]:
        """An independent copy (the state is cloned thousands of times in search)."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """Everything that can change during a game, JSON-ready (digests, debugging)."""
        raise NotImplementedError

    # --- gold -------------------------------------------------------------

    def payment(self, s: State, payer: int, amount: int, to: int) -> int:
        """``payer`` is about to pay ``amount`` to seat ``to`` (never the stakes):
        the amount actually owed (Bluff pays 1 less of 2 or more)."""
        return amount

    def steal_amount(self, s: State, seat: int, amount: int, by_power: bool) -> int:
        """``seat`` is about to steal: the amount it tries to take (Thievery adds 1
        to a card power's steal)."""
        return amount

    def stolen(self, s: State, seat: int, taken: int, by_power: bool) -> None:
        """``seat`` has stolen ``taken`` (> 0) gold from the stakes (Fast Hands)."""

    # --- cards ------------------------------------------------------------

    def drawn_by_power(self, s: State, seat: int, cards: list[int]) -> None:
        """A card's power made ``seat`` draw ``cards`` (Luck Domain)."""

    def buy(self, s: State, seat: int) -> None:
        """Buy cards for ``seat`` as interpreter steps, with the abilities' windows
        (Card Denial, Religion, Versatile Trickster, Stealth, Endurance)."""
        raise NotImplementedError

    def took_random(self, s: State, taker: int, victim: int, card: int, shadow: bool) -> None:
        """``taker`` took ``card`` at random from ``victim``'s hand; with ``shadow``
        the card waits in limbo to replace the Shadow Dragon (Dungeoneering)."""

    # --- the ante and the leader ------------------------------------------

    def ante_revealed(self, s: State) -> None:
        """Every ante card is face up and nothing is paid yet (Perception)."""

    def ante_paid(self, s: State, cards: list[int]) -> None:
        """The ante is settled; ``cards`` is each seat's ante card (-1: none)
        (Ante Manipulation, Gambling Background, Inspiring Leader)."""

    def leader_window(self, s: State) -> bool:
        """A round is about to start with ``s.leader`` leading (Diplomacy); True
        if a question was scheduled (the round then starts again, windowless)."""
        return False

    def window(self, s: State, seat: int, moment: int, then: Step) -> bool:
        """``seat`` (one of ``window_seats``) is about to choose a card (``TURN`` or
        ``ANTE``); True if an ability offer was scheduled to run first, followed by
        step ``then``."""
        return False

    # --- plays, flights, gambits ------------------------------------------

    def played(self, s: State, seat: int, card: int) -> None:
        """``seat`` (one of ``play_seats``) played ``card`` from its hand; steps
        scheduled here run after the card's power and before special flights are
        collected."""

    def flight_bonus(self, s: State, seat: int) -> int:
        """Added to the strength that sets a special flight's reward (Nature)."""
        return 0

    def strength_flight(self, s: State, seat: int, strength: int) -> bool:
        """``seat`` completed a strength flight: True if a question replacing the
        steal was scheduled (Streetwise); the reward step then reruns without it."""
        return False

    def flight_scored(self, s: State, seat: int) -> None:
        """``seat`` scored a special flight (disk recharge, Arcana, recharges)."""

    def flight_unscored(self, s: State, seat: int) -> None:
        """``seat`` completed a special flight whose reward is not collected (the
        stakes ran out on that turn): what the text ties to *completing* a flight
        still happens (Emperor's Gambit recharges, Arcana); what it ties to
        *scoring* one (the Legendary disk) does not."""

    def strongest_choices(
        self, s: State, seat: int, totals: dict[int, int], tied: list[int]
    ) -> list[int]:
        """The opponents ``seat``'s power may choose as "the opponent with the
        strongest flight" (Intimidate): ``totals`` is every opponent's flight
        total (from the left), ``tied`` those with the highest."""
        return tied

    def gambit_won(self, s: State, winner: int) -> None:
        """``winner`` won the stakes (Blessing of the Trickster, gambits won)."""

    def before_step4(self, s: State, then: Step) -> bool:
        """The stakes are awarded and Step 4 comes next (Heal); like :meth:`window`."""
        return False

    def after_step4(self, s: State) -> None:
        """Step 4 is over and the game goes on; Step 5's draws come next
        (Desperation, Insight)."""

    # --- what seats see and search --------------------------------------------

    def view(self, s: State, seat: int | None, gm: bool = False) -> dict[str, Any]:
        """The abilities part of ``observe(state, seat)``: only what ``seat`` may know."""
        raise NotImplementedError

    def ready_abilities(self, seat: int) -> tuple[int, ...]:
        """The abilities ``seat`` holds and could use now, their disk or recharge
        permitting (bots weigh keeping them ready: :data:`shared_use` says whether
        one use spends them all)."""
        return ()

    def question_for(self, d: Decision, seat: int | None) -> str:
        """The kind of the pending question ``d`` as ``seat`` may see it."""
        return d.kind

    def redeal(self, seat: int, r: int) -> int:
        """Re-deal, in place, every ability ``seat`` cannot know (another seat's
        hidden abilities) from rng state ``r``; return the new rng state."""
        return r
