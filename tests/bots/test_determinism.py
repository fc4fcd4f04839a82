"""A bot with a seed plays the same game every time (search budgeted by iterations)."""

from __future__ import annotations

import pytest

from dragonante.bots import make_bot
from dragonante.bots.base import SeatView
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.decisions import Decision
from dragonante.engine.state import GameState
from tests.bots.conftest import BOT_SPECS


def answers(spec: str, seed: int, players: int = 3) -> list[int]:
    s = new_game(GameConfig(players=players), seed)
    bots = [make_bot(spec, seed * 10 + p) for p in range(players)]
    out: list[int] = []
    while not s.over and len(out) < 150:
        d = s.pending
        assert d is not None
        a = bots[d.seat].choose(SeatView(s, d.seat))
        out.append(a)
        apply(s, a, d.id)
    return out


def first_real_choice() -> tuple[GameState, Decision]:
    """A 4-player game advanced to its first question with two or more answers."""
    s = new_game(GameConfig(players=4), 9)
    while s.pending is not None and len(s.pending.options) < 2:
        apply(s, s.pending.options[0])
    assert s.pending is not None
    return s, s.pending


@pytest.mark.parametrize("spec", BOT_SPECS)
def test_same_seed_same_game(spec: str) -> None:
    assert answers(spec, 4) == answers(spec, 4)


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iters=12"])
def test_the_seed_matters(spec: str) -> None:
    # Different seeds give different games for bots that use randomness (over a few
    # games at least one differs).
    assert any(answers(spec, 4) != answers(spec, seed) for seed in (5, 6, 7))


def test_ismcts_iterations_budget_is_exact() -> None:
    bot = make_bot("ismcts:iters=30", 1)
    s, d = first_real_choice()
    bot.choose(SeatView(s, d.seat))
    assert bot.last.iterations == 30  # type: ignore[attr-defined]


class IterationClock:
    """A stand-in for ``time`` whose clock moves only when a search iteration runs."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


def test_ismcts_seconds_budget_is_an_upper_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # The search starts an iteration only if one of the average length still ends
    # before the deadline, so a decision never runs past its budget on a steady
    # clock (checking the clock only after the fact overshoots by an iteration).
    from dragonante.bots import ismcts

    clock = IterationClock()
    monkeypatch.setattr(ismcts, "time", clock)
    bot = make_bot("ismcts:seconds=0.1", 1)
    assert isinstance(bot, ismcts.IsmctsBot)
    search = bot._iterate

    def timed_iteration(*args: object) -> None:
        search(*args)  # type: ignore[arg-type]
        clock.now += 0.003

    monkeypatch.setattr(bot, "_iterate", timed_iteration)
    s, d = first_real_choice()
    bot.choose(SeatView(s, d.seat))
    assert bot.last.iterations == 33  # 33 x 3 ms fit in 100 ms; a 34th would not
    assert bot.last.seconds <= 0.1
