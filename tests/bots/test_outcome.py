"""The search's win-chance model and how it is fitted."""

from __future__ import annotations

import math
import random

import pytest

from dragonante.bots.evaluate import strength_tail
from dragonante.bots.heuristic import unseen_cards
from dragonante.bots.outcome import OutcomeModel, model_for, win_chance, worths
from dragonante.engine import GameConfig, new_game
from dragonante.engine.determinize import determinize
from dragonante.engine.state import GameState
from dragonante.engine.tables import STRENGTH
from dragonante.sim.outcome_fit import MAX_STRENGTH, Snapshot, fit, lbfgs, play_snapshots

#: A made-up model for the scenarios: weak cards 2 gold, strong ones 12.
TOY = OutcomeModel(players=4, card_worth=(2.0,) * 9 + (6.0, 9.0, 12.0, 12.0, 12.0), t0=18.0, t1=0.5)


def _table(hoards: list[int], seed: int = 3) -> GameState:
    s = new_game(GameConfig(players=len(hoards)), seed)
    s.hoards = list(hoards)
    return s


def _card(strength: int, avoid: set[int]) -> int:
    return next(c for c in range(len(STRENGTH)) if STRENGTH[c] == strength and c not in avoid)


def test_every_player_count_has_a_fitted_model() -> None:
    for n in range(2, 7):
        m = model_for(n)
        assert m.players == n
        assert len(m.card_worth) == MAX_STRENGTH + 1
        assert m.t0 > 0 and m.t1 >= 0
        # What the fit found, and what the search relies on: strong dragons are
        # worth more than weak ones.
        assert m.worth_of(13) > m.worth_of(9) > m.worth_of(3)


def test_more_gold_means_a_better_chance() -> None:
    s = _table([40, 40, 40, 40])
    q = strength_tail(unseen_cards(s, 0))
    even = win_chance(s, 0, q, TOY)
    s.hoards[0] += 10
    assert win_chance(s, 0, q, TOY) > even


def test_a_strong_card_kept_is_worth_gold() -> None:
    s = _table([40, 40, 40, 40])
    q = strength_tail(unseen_cards(s, 0))
    hand = s.hands[0]
    used = {c for h in s.hands for c in h}
    hand[0] = _card(2, used)
    weak = win_chance(s, 0, q, TOY)
    hand[0] = _card(12, used)
    strong = win_chance(s, 0, q, TOY)
    assert strong > weak
    # Exactly the model's 10 gold of difference between the two cards.
    hand[0] = _card(2, used)
    s.hoards[0] += 10
    assert win_chance(s, 0, q, TOY) == pytest.approx(strong)


def test_a_lead_counts_more_when_a_hoard_is_nearly_empty() -> None:
    q = strength_tail(unseen_cards(_table([40] * 4), 0))
    early = win_chance(_table([50, 40, 40, 40]), 0, q, TOY)
    late = win_chance(_table([50, 40, 40, 2]), 0, q, TOY)
    assert late > early


def test_a_finished_game_is_certain() -> None:
    s = _table([30, 0, 20, 30])
    s.phase = "over"
    s.winners = (0, 3)
    q = strength_tail(unseen_cards(s, 0))
    assert s.over
    assert win_chance(s, 0, q, TOY) == 0.5
    assert win_chance(s, 1, q, TOY) == 0.0


def test_only_what_the_seat_knows_is_read() -> None:
    """Two re-deals of the hidden cards give the seat the same chance."""
    s = _table([35, 44, 40, 41])
    q = strength_tail(unseen_cards(s, 1))
    a, b = determinize(s, 1, 5), determinize(s, 1, 6)
    assert a.hands[0] != b.hands[0]
    assert win_chance(a, 1, q) == win_chance(b, 1, q)
    assert worths(a, 1, q, TOY) == worths(b, 1, q, TOY)


def test_lbfgs_finds_the_minimum_of_a_valley() -> None:
    def rosenbrock(x: list[float]) -> tuple[float, list[float]]:
        a, b = x
        value = (1 - a) ** 2 + 100 * (b - a * a) ** 2
        grad = [-2 * (1 - a) - 400 * a * (b - a * a), 200 * (b - a * a)]
        return value, grad

    x = lbfgs(rosenbrock, [-1.2, 1.0], [-math.inf, -math.inf], iterations=500, tolerance=1e-14)
    assert x == pytest.approx([1.0, 1.0], abs=1e-3)


def test_the_fit_recovers_a_known_model() -> None:
    """Snapshots drawn from a known model give back its card worths and temperature."""
    rng = random.Random(7)
    truth = [0.0, 1.0, 1.0, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.0, 10.0, 12.0, 14.0]
    t0, t1 = 15.0, 0.4
    data = []
    for _ in range(2500):
        gold = tuple(rng.randint(1, 60) for _ in range(4))
        hands = tuple(tuple(rng.randint(1, 13) for _ in range(rng.randint(3, 8))) for _ in gold)
        t = t0 + t1 * min(gold)
        u = [(g + sum(truth[v] for v in h)) / t for g, h in zip(gold, hands, strict=True)]
        top = max(u)
        weights = [math.exp(x - top) for x in u]
        winner = rng.choices(range(4), weights)[0]
        data.append(Snapshot(gold, hands, tuple(float(p == winner) for p in range(4))))
    result = fit(data, smoothing=0.0)
    # Worths are identified only up to their scale against gold: compare them.
    assert result.card_worth[13] - result.card_worth[3] == pytest.approx(13.0, abs=3.0)
    assert result.card_worth[10] - result.card_worth[3] == pytest.approx(6.0, abs=2.0)
    assert result.t0 == pytest.approx(t0, rel=0.3)
    assert result.log_likelihood < 0


def test_self_play_snapshots_are_consistent() -> None:
    snaps = play_snapshots(3, seed=12, bot="baseline")
    assert snaps
    for snap in snaps:
        assert sum(snap.wins) == pytest.approx(1.0)
        assert len(snap.gold) == len(snap.hands) == 3
        assert all(0 <= len(h) <= 10 for h in snap.hands)
        assert snap.wins == snaps[0].wins  # one game, one result
