"""A hint is the hard bot's answer, with figures counted from its own search.

The choice must be exactly what the IS-MCTS bot answers with the same seed
and budget; the figures must be the search's (visits, mean values) and the
futures it played (stakes won, gold), checked on a position whose outcome
the rules settle; the hint must see only what the seat sees, and be the
same every time for the same question and seed.
"""

from __future__ import annotations

import random

import pytest

from dragonante.bots import SeatView, make_bot
from dragonante.bots.hint import ONLY, SEARCHED, SETUP, TOP, hint, hint_seed
from dragonante.bots.ismcts import WIN_SCALE, IsmctsBot, pick
from dragonante.cards import card_number
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.decisions import ANTE, DRAFT_ABILITY, PLAY
from dragonante.engine.position import Position, build_position
from dragonante.engine.state import GameState
from tests.bots.test_information import _hidden_twin, _positions

ITERS = 80


def ids(*names: str) -> list[int]:
    return [card_number(n) for n in names]


def last_play_decides() -> GameState:
    """Round 3 of a gambit, seat 0 to play last: Red Dragon (12) makes its flight
    32 against 30 and wins the 10 gold of stakes at once; White Dragon (1)
    makes it 21 and loses them (the gambit ends either way)."""
    pos = Position(
        hands=[ids("L-std-red-12", "L-std-white-1"), ids("L-std-black-2", "L-std-blue-1")],
        flights=[
            ids("L-std-copper-10", "L-std-green-10"),
            ids("L-std-blue-9", "L-std-gold-13", "L-std-bronze-8"),
        ],
        round=3,
        leader=1,
        turn=1,
        round_cards=[-1, card_number("L-std-bronze-8")],
        stakes=10,
    )
    return build_position(GameConfig(players=2), pos, seed=3)


def test_the_stakes_and_the_gold_are_those_of_the_futures_played() -> None:
    s = last_play_decides()
    red, white = ids("L-std-red-12", "L-std-white-1")
    h = hint(SeatView(s, 0), seed=1, iters=ITERS)
    assert h.how == SEARCHED and h.choice == red
    by = {w.answer: w for w in h.answers}
    assert by[red].stakes == 1.0 and by[red].gold == 10.0  # wins the stakes, every time
    assert by[white].stakes == 0.0
    assert by[red].win > by[white].win


def test_the_choice_is_the_hard_bots_and_the_figures_its_search() -> None:
    for s, seat in _positions(4, 31, (ANTE, PLAY))[:3]:
        view = SeatView(s, seat)
        h = hint(view, seed=5, iters=ITERS)
        bot = IsmctsBot(5, iters=ITERS)
        assert h.choice == bot.choose(SeatView(s, seat))
        stats = IsmctsBot(5, iters=ITERS).search(SeatView(s, seat))
        assert h.choice == pick(stats, view.decision.options)
        assert h.iterations == ITERS
        assert h.answers[0].answer == h.choice
        assert len(h.answers) == min(TOP, len(stats))
        visits = [w.visits for w in h.answers]
        assert visits == sorted(visits, reverse=True)
        for w in h.answers:
            assert w.visits == stats[w.answer].visits
            assert w.win == pytest.approx(stats[w.answer].mean / WIN_SCALE)
            assert 0.0 <= w.stakes <= 1.0


def test_the_same_question_and_seed_give_the_same_hint() -> None:
    s, seat = _positions(3, 12, (PLAY,))[0]
    a = hint(SeatView(s, seat), seed=9, iters=ITERS)
    b = hint(SeatView(s, seat), seed=9, iters=ITERS)
    assert a.answers == b.answers and a.choice == b.choice
    assert hint_seed(4, 10) == hint_seed(4, 10) != hint_seed(4, 11)


@pytest.mark.parametrize("players", [2, 4])
def test_cards_the_seat_cannot_see_never_change_the_hint(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for a, seat in _positions(players, 70 + players, (ANTE, PLAY)):
        b = _hidden_twin(a, seat, rng)
        if b is None:
            continue
        assert a.to_dict() != b.to_dict()
        ha = hint(SeatView(a, seat), seed=3, iters=40)
        hb = hint(SeatView(b, seat), seed=3, iters=40)
        assert (ha.choice, ha.answers) == (hb.choice, hb.answers)
        checked += 1
    assert checked >= 2


def test_a_question_with_one_answer_is_not_searched() -> None:
    s = new_game(GameConfig(players=3, auto_single=False), 2)
    rng = random.Random(2)
    while True:
        d = s.pending
        assert d is not None and not s.over
        if len(d.options) == 1:
            break
        apply(s, rng.choice(d.options))
    h = hint(SeatView(s, d.seat), seed=1, iters=ITERS)
    assert (h.how, h.choice, h.answers, h.iterations) == (ONLY, d.options[0], (), 0)


def test_before_the_first_deal_the_hint_is_the_bots_fixed_judgement() -> None:
    config = GameConfig(
        players=3, abilities=AbilityOptions(system="disks", assign="draft", per_character=1)
    )
    s = new_game(config, 4)
    d = s.pending
    assert d is not None and d.kind == DRAFT_ABILITY
    h = hint(SeatView(s, d.seat), seed=2, iters=ITERS)
    assert h.how == SETUP and h.answers == ()
    assert h.choice == make_bot(f"ismcts:iters={ITERS}", 2).choose(SeatView(s, d.seat))
