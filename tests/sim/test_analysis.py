"""The balance analysis: tallies add up, one hand-made game gives known numbers,
summaries merge exactly, and the number of worker processes changes nothing."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from dragonante.cards import CARD_BY_ID
from dragonante.engine.config import GameConfig
from dragonante.sim.analysis import Summary, add_game, run_analysis, run_chunk
from dragonante.sim.analysis.report import build_report
from dragonante.sim.analysis.summary import WIN_UNIT

RED12 = CARD_BY_ID["L-std-red-12"].index
BLACK1 = CARD_BY_ID["L-std-black-1"].index
BLUE4 = CARD_BY_ID["L-std-blue-4"].index


def _ev(kind: str, **data: Any) -> tuple[None, str, dict[str, Any]]:
    return (None, kind, data)


def tiny_game() -> list[tuple[None, str, dict[str, Any]]]:
    """Two players, two gambits: seat 0 wins the first with a color flight, seat 1 the second."""
    return [
        _ev("setup", players=2, gold=20, deck=3),
        _ev("gambit_start", gambit=1, stakes=0),
        _ev("ante_reveal", cards=[BLACK1, BLUE4]),
        _ev("round_start", round=1, leader=1),
        _ev("play", seat=1, card=BLACK1, triggered=False),
        _ev("play", seat=0, card=RED12, triggered=False),
        _ev("color_flight", seat=0, color="red", amount=5),
        _ev("pay", payer=1, to=0, amount=5, paid=4, short=1),
        _ev("round_start", round=2, leader=0),
        _ev("gambit_won", winner=0, amount=10),
        _ev("gambit_start", gambit=2, stakes=0),
        _ev("ante_reveal", cards=[RED12, BLACK1]),
        _ev("round_start", round=1, leader=0),
        _ev("play", seat=0, card=BLUE4, triggered=False),
        _ev("strength_flight", seat=0, strength=4),
        _ev("steal", seat=0, amount=4, taken=3),
        _ev("gambit_won", winner=1, amount=8),
        _ev("game_over", winners=[1], hoards=[0, 40]),
    ]


def test_a_hand_made_game_gives_the_expected_numbers() -> None:
    s = Summary(2)
    add_game(s, tiny_game(), [BLACK1, BLUE4, RED12], decisions=9)
    assert (s.games, s.gambits) == (1, 2)
    assert s.played[BLACK1].tolist() == [0, 1] and s.played[RED12].tolist() == [1, 0]
    assert s.played_gambit_won[RED12, 0] == 1 and s.played_gambit_won[BLACK1, 1] == 0
    assert s.played_gambit_won[BLUE4, 0] == 0  # played in the gambit seat 1 won
    assert s.played_game_won[BLACK1, 1] == WIN_UNIT and s.played_game_won[RED12, 0] == 0
    # antes: the second gambit's red 12 (seat 0) lost, its black 1 (seat 1) won
    assert s.anted[RED12, 0] == 1 and s.anted_gambit_won[RED12, 0] == 0
    assert s.anted_gambit_won[BLACK1, 1] == 1 and s.anted_gambit_won[BLUE4, 1] == 0
    # the weaker ante won both gambits
    assert s.ante_rank.tolist() == [2, 2] and s.ante_rank_won.tolist() == [0, 2]
    assert s.seat_gambit_wins.tolist() == [1, 1] and s.seat_game_wins.tolist() == [0, WIN_UNIT]
    assert s.gambit_rounds == {2: 1, 1: 1} and s.game_gambits == {2: 1}
    assert s.color_flights == {"red": 1} and s.color_flight_gold == {"red": 4}
    assert s.strength_flights == {4: 1} and s.strength_flight_gold == {4: 3}
    report = build_report(s, {})
    red = next(c for c in report["cards"] if c["card"] == "L-std-red-12")
    assert red["play_gambit"]["rate"] == 1.0 and red["play_gambit"]["expected"] == 0.5
    assert red["play_gambit"]["lift"] == 0.5 and red["ante_gambit"]["rate"] == 0.0


def test_counts_add_up() -> None:
    s = run_chunk(GameConfig(players=3), ["random"] * 3, 5, 40)
    assert s.games + s.unfinished == 40
    assert s.seat_game_wins.sum() == WIN_UNIT * s.games  # shared wins count 1/k
    assert s.seat_gambit_wins.sum() == s.gambits - s.gambits_without_winner
    assert (
        sum(s.gambit_rounds.values()) == s.gambits == sum(k * v for k, v in s.game_gambits.items())
    )
    assert s.played_gambit_won.sum() <= s.played.sum()
    assert s.ante_rank.sum() == s.anted.sum() == s.ante_strength.sum()
    report = build_report(s, {})
    assert sum(c["plays"] for c in report["cards"]) == int(s.played.sum())
    assert sum(t["plays"] for t in report["types"]) == int(s.played.sum())
    assert sum(p["plays"] for p in report["powers"]) == int(s.played.sum())
    assert abs(sum(x["game"]["rate"] for x in report["seats"]) - 1) < 1e-5


def test_merge_is_exact_associative_and_matches_one_run() -> None:
    cfg = GameConfig(players=4)
    a, b, c = (run_chunk(cfg, ["random"] * 4, first, 15) for first in (0, 15, 30))
    whole = run_chunk(cfg, ["random"] * 4, 0, 45)
    assert a.merge(b).merge(c) == a.merge(b.merge(c)) == whole
    assert a.merge(b) == b.merge(a)
    assert not np.array_equal(a.played, whole.played)


def test_workers_do_not_change_the_report() -> None:
    cfg = GameConfig(players=4)
    one = run_analysis(cfg, ["random"] * 4, 420, seed=3, workers=1)
    two = run_analysis(cfg, ["random"] * 4, 420, seed=3, workers=2)
    assert json.dumps(build_report(one, {})) == json.dumps(build_report(two, {}))
