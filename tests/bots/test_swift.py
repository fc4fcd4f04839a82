"""The swift search: the IS-MCTS on a fixed budget of 100 iterations, the other seats
answered by the fast policy, its leaves judged by the fitted chance of winning."""

from __future__ import annotations

import pytest

from dragonante.bots import BOTS, make_bot
from dragonante.bots.base import SeatView
from dragonante.bots.ismcts import SWIFT_ITERS, IsmctsBot, SwiftBot
from tests.bots.conftest import play_checked
from tests.bots.test_determinism import answers, first_real_choice


def test_its_budget_is_iterations_never_a_clock() -> None:
    bot = make_bot("swift", 1)
    assert isinstance(bot, SwiftBot) and isinstance(bot, IsmctsBot)
    assert (bot.iters, bot.seconds) == (SWIFT_ITERS, None)
    assert (bot.model_turns, bot.win_value) == (False, True)
    s, d = first_real_choice()
    bot.choose(SeatView(s, d.seat))
    assert bot.last.iterations == SWIFT_ITERS
    assert BOTS["swift"].kind == "search" and BOTS["swift"].level is None


def test_it_is_the_search_with_those_settings() -> None:
    # The figures in docs/bots.md were measured as ismcts:iters=100:model=fast.
    assert answers("swift", 4) == answers(f"ismcts:iters={SWIFT_ITERS}:model=fast", 4)
    assert answers("swift:iters=20", 4) == answers("swift:iters=20", 4)


@pytest.mark.parametrize(("ruleset", "players"), [("legendary", 2), ("emperors_gambit", 6)])
def test_it_plays_legal_answers(ruleset: str, players: int) -> None:
    play_checked("swift:iters=10", ruleset, players, players * 7, 80)
