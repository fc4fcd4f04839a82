"""The course of a Dice Gambit game (options.md §8.4, §8.5, §8.8, §8.11).

A gambit: everyone rolls a d12 for turn order (highest first, ties by
§8.9), everyone antes the largest value rolled (the first player half,
rounded up), then three rounds of one turn each in turn order - play a
dragon or withdraw - with a Bahamut window after every turn, then the
special flights, debts, and the gambit winner.  More gambits may follow;
the overall winner has the largest combined hoard (``multi_gambit_hoard=
reset``) or the largest final hoard (``carry``).
"""

from __future__ import annotations

from dragonante.dice.core import ask, emit, pay, pay_debts_now, players_in, push, resolver, step
from dragonante.dice.decisions import ORDER_ROLL, PLAY, TURN, WITHDRAW, Decision
from dragonante.dice.powers import play_dragon
from dragonante.dice.rolls import roll
from dragonante.dice.state import STAKES, DiceState
from dragonante.dice.table import ORDER_DIE
from dragonante.dice.views import tracker
from dragonante.kernel import Step


def starting_ante(s: DiceState, seat: int) -> int:
    """The largest turn-order roll; the first player pays half, rounded up (§8.4)."""
    amount = max(s.first_rolls[p] for p in s.order)
    return (amount + 1) // 2 if seat == s.first else amount


@step("gambit_start")
def _gambit_start(s: DiceState, st: Step) -> None:
    cfg = s.config
    seats = [p for p in range(s.n) if s.in_session[p]]
    if len(seats) < 2:
        # withdraw_scope=session can leave one player at the table: nobody to play.
        emit(s, "too_few_players", seats=seats)
        push(s, ("game_end",))
        return
    s.gambit += 1
    if cfg.multi_gambit_hoard == "reset":  # (gambit 1 starts from the starting hoard anyway)
        for p in seats:
            s.hoards[p] = cfg.starting_hoard
    n = s.n
    s.flights = [[] for _ in range(n)]
    s.god_turns = [0] * n
    s.turns_taken = [0] * n
    s.gods_played = [0] * n
    s.withdrawn = [not s.in_session[p] for p in range(n)]
    s.first_rolls = [0] * n
    s.first = -1
    s.order = []
    s.flights_earned = [[] for _ in range(n)]
    s.stake_winner = -1
    s.gambit_winner = -1
    s.round = 0
    s.ended_early = False
    s.gold_total = sum(s.hoards) + s.stakes + s.out_of_play
    emit(s, "gambit_start", gambit=s.gambit, hoards=list(s.hoards), seats=seats)
    push(s, *(roll(s, p, ORDER_DIE, ORDER_ROLL) for p in seats), ("turn_order", *seats))


@step("turn_order", "*seats")
def _turn_order(s: DiceState, st: Step) -> None:
    seats: list[int] = list(st[1:])
    values = s.rolls[-len(seats) :]
    del s.rolls[-len(seats) :]
    for p, v in zip(seats, values, strict=True):
        s.first_rolls[p] = v
    best = max(values)
    tied = [p for p, v in zip(seats, values, strict=True) if v == best]
    if len(tied) == 1:
        push(s, ("set_first", tied[0]))
    else:
        push(s, ("tiebreak", "first", 0, *tied))


@step("set_first", "seat")
def _set_first(s: DiceState, st: Step) -> None:
    first = st[1]
    s.first = first
    s.order = [(first + i) % s.n for i in range(s.n) if s.in_session[(first + i) % s.n]]
    emit(s, "turn_order", first=first, order=list(s.order), rolls=list(s.first_rolls))
    for p in s.order:
        pay(s, p, STAKES, starting_ante(s, p), "starting ante")
    push(s, ("round", 1))


@step("round", "round")
def _round(s: DiceState, st: Step) -> None:
    r = st[1]
    last = r >= s.config.rounds_per_gambit
    if s.ended_early:
        push(s, ("end_of_play",))
        return
    s.round = r
    emit(s, "round_start", round=r)
    push(
        s,
        *(("turn", p) for p in s.order),
        ("round_end", r),
        ("end_of_play",) if last else ("round", r + 1),
    )


@step("round_end", "round")
def _round_end(s: DiceState, st: Step) -> None:
    if s.log is not None:
        emit(s, "round_end", round=st[1], tracker=tracker(s))


def can_withdraw(s: DiceState) -> bool:
    """Withdrawal is on and someone else is still in the gambit (the last player cannot leave)."""
    return s.config.withdrawal and len(players_in(s)) >= 2


@step("turn", "seat")
def _turn(s: DiceState, st: Step) -> None:
    seat = st[1]
    if s.withdrawn[seat] or s.ended_early:
        return
    emit(s, "turn", seat=seat, round=s.round)
    push(s, ("window", seat))
    if can_withdraw(s):
        ask(s, seat, TURN, (PLAY, WITHDRAW))
    else:
        play_dragon(s, seat)


@resolver(TURN)
def _answer_turn(s: DiceState, d: Decision, answer: int) -> None:
    if answer == PLAY:
        play_dragon(s, d.seat)
    else:
        withdraw(s, d.seat)


def withdraw(s: DiceState, seat: int) -> None:
    """Leave the gambit (§8.8): gold in the stakes stays there; debts are paid at once."""
    s.withdrawn[seat] = True
    if s.config.withdraw_scope == "session":
        s.in_session[seat] = False
    emit(s, "withdraw", seat=seat, session=s.config.withdraw_scope == "session")
    pay_debts_now(s, seat, "withdraw")
    left = players_in(s)
    if len(left) == 1 and not s.config.lone_player_plays_on:
        s.ended_early = True
        emit(s, "last_in_gambit", seat=left[0])


@step("end_of_play")
def _end_of_play(s: DiceState, st: Step) -> None:
    push(s, ("special_flights",), ("settle",), ("winner",), ("gambit_end",))


@step("gambit_end")
def _gambit_end(s: DiceState, st: Step) -> None:
    if s.config.multi_gambit_hoard == "reset":
        for p in s.order:
            s.totals[p] += s.hoards[p]
    else:
        s.totals = list(s.hoards)
    if s.log is not None:
        emit(
            s,
            "gambit_end",
            gambit=s.gambit,
            winner=s.gambit_winner,
            hoards=list(s.hoards),
            totals=list(s.totals),
            tracker=tracker(s),
        )
    push(s, ("gambit_start",) if s.gambit < s.config.gambits else ("game_end",))


@step("game_end")
def _game_end(s: DiceState, st: Step) -> None:
    if s.config.gambits == 1:
        push(s, ("game_won", s.gambit_winner))
        return
    best = max(s.totals)
    tied = [p for p in range(s.n) if s.totals[p] == best]
    if len(tied) == 1:
        push(s, ("game_won", tied[0]))
    else:
        carry = s.config.multi_gambit_hoard == "carry"
        push(s, ("tiebreak", "overall", int(carry), *tied))


@step("game_won", "seat")
def _game_won(s: DiceState, st: Step) -> None:
    s.winners = (st[1],)
    s.over = True
    s.queue.clear()
    emit(s, "game_over", winners=list(s.winners), hoards=list(s.hoards), totals=list(s.totals))
