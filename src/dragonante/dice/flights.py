"""The special dragon flights, evaluated at the end of a gambit (options.md §8.7).

One function per flight says whether a flight earns it and how much; the
steps pay the rewards.  The order is God, Triplet, Allied, then Leader, and
by default each criterion is checked for every player in turn order before
the next one (``flight_order=criteria``); ``player`` checks all three of a
player's flights before moving on to the next player, and the Leader Flight
(a comparison between players) comes last either way.  Withdrawn players
are skipped: they are out of the gambit, so they neither earn rewards nor
pay Triplet Flight rewards.
"""

from __future__ import annotations

from collections import Counter

from dragonante.dice.core import (
    emit,
    flight_in_play,
    opponents,
    pay,
    players_in,
    push,
    step,
    take_from_stakes,
    tiamat_in_play,
)
from dragonante.dice.state import (
    ALLIED_FLIGHT,
    GOD_FLIGHT,
    LEADER_FLIGHT,
    TRIPLET_FLIGHT,
    DiceState,
    Dragon,
)
from dragonante.dice.table import dragon
from dragonante.kernel import Step


def total_strength(flight: list[Dragon]) -> int:
    """The flight's strength: the sum of its dragons' strengths (the tracker's total)."""
    return sum(strength for _, strength in flight)


def is_god_flight(s: DiceState, seat: int) -> bool:
    """A dragon god rolled at the start of each of the gambit's turns (sacrificed or not).

    A god is counted on the turn that rolls it, so gods on every turn of the
    gambit are as many gods as it has rounds (a player who withdrew has no
    God Flight: it is skipped).
    """
    return s.god_turns[seat] == s.config.rounds_per_gambit


def triplet_strength(flight: list[Dragon]) -> int:
    """The strength three dragons share (0: none).  With more than three
    rounds two triplets are possible; the stronger one is rewarded."""
    counts = Counter(strength for _, strength in flight)
    return max((strength for strength, n in counts.items() if n >= 3), default=0)


def allied_strength(flight: list[Dragon]) -> int:
    """The reward of three dragons of one alignment: the strongest dragon's strength (0: none).

    With three dragons that is the whole flight's strongest; with longer
    gambits it is the strongest of the allied alignment (the larger, if both
    alignments have three).
    """
    best = 0
    for alignment in ("good", "evil"):
        allied = [st for face, st in flight if dragon(face).alignment == alignment]
        if len(allied) >= 3:
            best = max(best, *allied)
    return best


def good_dragons(flight: list[Dragon]) -> int:
    return sum(1 for face, _ in flight if dragon(face).good)


@step("special_flights")
def _special_flights(s: DiceState, st: Step) -> None:
    emit(s, "special_flights", stakes=s.stakes)
    seats = players_in(s)
    kinds = (GOD_FLIGHT, TRIPLET_FLIGHT, ALLIED_FLIGHT)
    if s.config.flight_order == "criteria":
        steps = [("flight", kind, p) for kind in kinds for p in seats]
    else:
        steps = [("flight", kind, p) for p in seats for kind in kinds]
    push(s, *steps, ("leader_flight",))


@step("flight", "kind", "seat")
def _flight(s: DiceState, st: Step) -> None:
    _, kind, seat = st
    if s.withdrawn[seat]:
        return
    flight = flight_in_play(s, seat)
    if kind == GOD_FLIGHT:
        if is_god_flight(s, seat):
            s.flights_earned[seat].append(GOD_FLIGHT)
            emit(s, "flight_earned", seat=seat, flight=GOD_FLIGHT, amount=s.stakes // 2)
            take_from_stakes(s, seat, s.stakes // 2, GOD_FLIGHT)
    elif kind == TRIPLET_FLIGHT:
        strength = triplet_strength(flight)
        if strength:
            s.flights_earned[seat].append(TRIPLET_FLIGHT)
            emit(s, "flight_earned", seat=seat, flight=TRIPLET_FLIGHT, amount=strength)
            for p in opponents(s, seat):
                pay(s, p, seat, strength, TRIPLET_FLIGHT)
    else:
        strength = allied_strength(flight)
        if strength:
            s.flights_earned[seat].append(ALLIED_FLIGHT)
            emit(s, "flight_earned", seat=seat, flight=ALLIED_FLIGHT, amount=strength)
            take_from_stakes(s, seat, strength, ALLIED_FLIGHT)


def leader_candidates(s: DiceState) -> tuple[list[int], bool]:
    """Seats tied for the Leader Flight, and whether the weakest leads (a Tiamat in play)."""
    seats = players_in(s)
    weakest = tiamat_in_play(s)
    totals = {p: total_strength(s.flights[p]) for p in seats}
    best = min(totals.values()) if weakest else max(totals.values())
    return [p for p in seats if totals[p] == best], weakest


@step("leader_flight")
def _leader_flight(s: DiceState, st: Step) -> None:
    tied, weakest = leader_candidates(s)
    emit(s, "leader_flight", seats=tied, weakest=weakest)
    if len(tied) == 1:
        push(s, ("leader_wins", tied[0]))
    else:
        push(s, ("tiebreak", "leader", 0, *tied))


@step("leader_wins", "seat")
def _leader_wins(s: DiceState, st: Step) -> None:
    seat = st[1]
    s.stake_winner = seat
    s.flights_earned[seat].append(LEADER_FLIGHT)
    emit(s, "flight_earned", seat=seat, flight=LEADER_FLIGHT, amount=s.stakes)
    take_from_stakes(s, seat, s.stakes, LEADER_FLIGHT)
