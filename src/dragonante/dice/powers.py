"""Playing a dragon and the dragon powers (options.md §8.5-§8.6).

A turn's play is: roll the d12 for the type, roll the strength die (gods are
fixed), put the dragon in the flight, ante its strength (a shortfall is a
debt to the stakes), then trigger its power - in that order, so an evil
dragon's steal can take back part of its own ante.  Evil dragons steal half
their die from the stakes; good dragons may make an opponent with an evil
dragon (Tiamat included) return half their die to the stakes.  Bahamut's
owner may sacrifice him to destroy a Tiamat whenever a window opens (after
every turn, up to the special flights); both gods are replaced by a Red and
a Gold dragon, the Tiamat's owner's first.
"""

from __future__ import annotations

from dragonante.dice.core import (
    ask,
    emit,
    flight_in_play,
    has_evil_dragon,
    opponents,
    pay,
    push,
    resolver,
    step,
    take_from_stakes,
)
from dragonante.dice.decisions import DEMAND, PASS, SACRIFICE, STRENGTH_ROLL, TYPE_ROLL, Decision
from dragonante.dice.rolls import queue_roll
from dragonante.dice.state import STAKES, DiceState
from dragonante.dice.table import BAHAMUT, EMPTY, GOLD, RED, TIAMAT, TYPE_DIE, dragon
from dragonante.kernel import Step


def play_dragon(s: DiceState, seat: int) -> None:
    """Queue a turn's play: the type roll, then the rest follows from it."""
    queue_roll(s, seat, TYPE_DIE, TYPE_ROLL, ("dragon_type", seat))


@step("dragon_type", "seat")
def _dragon_type(s: DiceState, st: Step) -> None:
    seat = st[1]
    face = s.rolls.pop()
    t = dragon(face)
    s.turns_taken[seat] += 1
    if t.god:
        s.god_turns[seat] += 1
        s.gods_played[seat] += 1
        s.gods_total[seat] += 1
        push(s, ("place", seat, face, -1, 1, t.fixed))
    else:
        queue_roll(s, seat, t.die, STRENGTH_ROLL, ("place", seat, face, -1, 1, -1))


@step("place", "seat", "face", "slot", "full", "strength")
def _place(s: DiceState, st: Step) -> None:
    """Put a dragon in a flight; a full play also antes and triggers its power.

    ``slot`` -1 appends (a turn's play); otherwise the dragon replaces the
    sacrificed or destroyed god in that slot.  ``strength`` -1 takes the
    value just rolled.
    """
    _, seat, face, slot, full, strength = st
    if strength < 0:
        strength = s.rolls.pop()
    if slot < 0:
        s.flights[seat].append((face, strength))
    else:
        s.flights[seat][slot] = (face, strength)
    emit(
        s, "dragon", seat=seat, face=face, strength=strength, replacement=slot >= 0, full=bool(full)
    )
    if not full:
        return
    pay(s, seat, STAKES, strength, "ante")
    t = dragon(face)
    if t.god:
        return  # Tiamat has no on-play power; Bahamut's is used when his owner chooses
    if t.evil:
        take_from_stakes(s, seat, t.half_die, "evil")
    else:
        push(s, ("demand", seat, t.half_die))


@step("demand", "seat", "amount")
def _demand(s: DiceState, st: Step) -> None:
    _, seat, amount = st
    targets = tuple(p for p in opponents(s, seat) if has_evil_dragon(s, p))
    if not targets:
        emit(s, "demand_none", seat=seat, amount=amount)
        return
    ask(s, seat, DEMAND, (*targets, PASS), (amount,))


@resolver(DEMAND)
def _answer_demand(s: DiceState, d: Decision, answer: int) -> None:
    amount = d.ctx[0]
    if answer == PASS:
        emit(s, "demand_declined", seat=d.seat, amount=amount)
        return
    emit(s, "demand", seat=d.seat, target=answer, amount=amount)
    pay(s, answer, STAKES, amount, "demand")


# Bahamut -------------------------------------------------------------------


def tiamat_owners(s: DiceState) -> tuple[int, ...]:
    """Seats (in turn order) with a Tiamat in play: the targets a Bahamut may destroy."""
    return tuple(p for p in s.order if any(f == TIAMAT for f, _ in flight_in_play(s, p)))


def may_sacrifice(s: DiceState, seat: int) -> bool:
    return any(f == BAHAMUT for f, _ in flight_in_play(s, seat)) and bool(tiamat_owners(s))


@step("window", "seat")
def _window(s: DiceState, st: Step) -> None:
    """A moment when "at any time" applies: offer each Bahamut owner the sacrifice.

    Owners are asked in turn order starting with the player whose turn just
    ended.  Sacrifices only ever remove Tiamats, so a player who passed is
    not asked again in the same window.
    """
    if not tiamat_owners(s):
        return
    seat = st[1]
    order = s.order
    i = order.index(seat)  # the seat whose turn just ended: always in the turn order
    push(s, *(("offer", p) for p in order[i:] + order[:i]))


@step("offer", "seat")
def _offer(s: DiceState, st: Step) -> None:
    seat = st[1]
    if may_sacrifice(s, seat):
        ask(s, seat, SACRIFICE, (*tiamat_owners(s), PASS))


@resolver(SACRIFICE)
def _answer_sacrifice(s: DiceState, d: Decision, answer: int) -> None:
    owner = d.seat
    if answer == PASS:
        emit(s, "sacrifice_declined", seat=owner)
        return
    target = answer
    b = next(i for i, (f, _) in enumerate(s.flights[owner]) if f == BAHAMUT)
    s.flights[owner][b] = (EMPTY, 0)
    t = next(i for i, (f, _) in enumerate(s.flights[target]) if f == TIAMAT)
    s.flights[target][t] = (EMPTY, 0)
    emit(s, "sacrifice", seat=owner, target=target)
    full = int(s.config.replacement_is_full_play)
    # The Tiamat's owner replaces first, then Bahamut's owner (§8.6); the owner
    # may then sacrifice another Bahamut if another Tiamat is still in play.
    push(s, ("replace", target, RED, t, full), ("replace", owner, GOLD, b, full), ("offer", owner))


@step("replace", "seat", "face", "slot", "full")
def _replace(s: DiceState, st: Step) -> None:
    _, seat, face, slot, full = st
    queue_roll(s, seat, dragon(face).die, STRENGTH_ROLL, ("place", seat, face, slot, full, -1))
