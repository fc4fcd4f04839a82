"""Every bot answers every question the rules can ask, legally.

Two sweeps.  The rules scenarios (``tests/scenarios``) between them ask
every decision kind of :mod:`dragonante.engine.decisions`, including the
rare ones (Dragon Turtle order, Adventurer stacks); at each scripted
question every bot is asked too and must pick a legal answer.  Then bots
play whole games against each other at every table size under several
decks and rulesets, and the games must finish with the invariants intact.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dragonante.bots import make_bot
from dragonante.bots.base import SeatView
from dragonante.engine import DeckOptions, GameConfig, Rules, apply, new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.decisions import KINDS
from dragonante.engine.invariants import violations
from dragonante.engine.position import PositionError, build_position
from dragonante.engine.state import GameState
from dragonante.scenarios import ScenarioError, load
from dragonante.sim.tournament import play_game
from tests.bots.conftest import BOT_SPECS

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").rglob("*.toml"))


def _scenario_states() -> list[tuple[GameState, list[int]]]:
    out = []
    for path in SCENARIOS:
        try:
            sc = load(path)
        except ScenarioError:
            continue
        try:
            if sc.position is None:
                s = new_game(sc.config, sc.seed)
            else:
                s = build_position(sc.config, sc.position, sc.seed)
        except PositionError:
            continue
        out.append((s, [st.answer for st in sc.steps]))
    return out


def _random_game_states() -> list[tuple[GameState, list[int]]]:
    """Games driven by random answers under decks that reach the rare questions."""
    out = []
    for i, config in enumerate(CONFIGS.values()):
        for seed in range(6):
            n = 2 + (seed + i) % 5
            s = new_game(config.with_(players=n), 1000 * i + seed)
            pick = random.Random(seed)
            probe = s.clone(keep_log=True)
            answers = []
            while not probe.over:
                d = probe.pending
                assert d is not None
                a = pick.choice(d.options)
                answers.append(a)
                apply(probe, a)
            out.append((s, answers))
    return out


def test_every_bot_answers_every_decision_kind_legally() -> None:
    asked: set[str] = set()
    bots = {spec: make_bot(spec, 3) for spec in BOT_SPECS}
    sources = _scenario_states() + _random_game_states()
    for s, answers in sources:
        for answer in answers:
            d = s.pending
            if d is None:
                break
            asked.add(d.kind)
            for spec, bot in bots.items():
                got = bot.choose(SeatView(s, d.seat))
                assert got in d.options, (spec, d)
            if answer not in d.options:
                break  # a scenario that expects an illegal answer to be refused
            apply(s, answer, d.id)
    missing = set(KINDS) - asked
    assert not missing, f"never asked: {sorted(missing)}"


CONFIGS = {
    "legendary": GameConfig(),
    "pick_em": GameConfig(deck=DeckOptions(selection="pick_em")),
    "all_specials": GameConfig(deck=DeckOptions(special_count=30)),
    "emperors_gambit": GameConfig(
        deck=DeckOptions(preset="eg_full"), rules=Rules.preset("emperors_gambit")
    ),
    # D&D abilities: the drafts ask draft_ability and ancestry_color; play asks
    # use_ability, ability_card and ability_seat.
    "disks": GameConfig(abilities=AbilityOptions(system="disks", assign="draft", per_character=4)),
    "skills": GameConfig(
        deck=DeckOptions(preset="eg_full"),
        rules=Rules.preset("emperors_gambit"),
        abilities=AbilityOptions(system="skills", assign="draft", per_character=2),
    ),
}


@pytest.mark.parametrize("config_name", sorted(CONFIGS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_play_whole_games(config_name: str, players: int) -> None:
    seats = [BOT_SPECS[(players + p) % len(BOT_SPECS)] for p in range(players)]
    for seed in range(2):
        out = play_game(CONFIGS[config_name], seats, seed=seed * 7 + players, bot_seed=seed)
        assert out.completed
        assert out.winners
        assert sum(len(t) for t in out.times) == out.decisions


def test_finished_games_keep_the_invariants() -> None:
    for seed in range(6):
        n = 2 + seed % 5
        s = new_game(GameConfig(players=n), seed)
        bots = [make_bot(("heuristic", "baseline", "random")[p % 3], seed + p) for p in range(n)]
        while not s.over:
            d = s.pending
            assert d is not None
            apply(s, bots[d.seat].choose(SeatView(s, d.seat)), d.id)
            assert not violations(s)
