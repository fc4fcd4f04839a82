"""Random Dice Gambit games keep the conservation laws and always end.

Gold is conserved (hoards + stakes + gold out of play), every debt is paid,
cancelled or still owed, and every game ends - for every player count and
across the settings, with seeded and with typed-in (physical) dice.  The
default run plays 2,000 games per player count with the invariants
checked after every answer; ``DRAGONANTE_SOAK=1`` plays ten times as many.
"""

from __future__ import annotations

import os
import random

import pytest

from dragonante.dice import PHYSICAL, DiceConfig, apply, new_game
from dragonante.dice.decisions import TURN, WITHDRAW
from dragonante.dice.invariants import violations
from dragonante.dice.state import DiceState
from dragonante.sim.dice_selfplay import MAX_DECISIONS, play

SOAK = os.environ.get("DRAGONANTE_SOAK") == "1"
GAMES = 20000 if SOAK else 2000

#: Settings cycled over the games, so every ruling is exercised.
VARIANTS: list[dict[str, object]] = [
    {},
    {"starting_hoard": 8},  # debts everywhere
    {"gambits": 3, "multi_gambit_hoard": "carry", "starting_hoard": 15},
    {"gambits": 3, "withdraw_scope": "session"},
    {"gaming_set_owners": (0,), "replacement_is_full_play": False},
    {"flight_order": "player", "stake_debt_payee": "lost", "starting_hoard": 10},
    {"settlement_order": "turn_order", "stake_debt_payee": "forgiven", "starting_hoard": 10},
    {"lone_player_plays_on": True, "rounds_per_gambit": 5},
    {"withdrawal": False, "starting_hoard": 12},
]


def chooser(seed: int) -> tuple[random.Random, float]:
    rng = random.Random(seed ^ 0xD1CE)
    # Withdrawing half the time would end most gambits in the first round.
    return rng, rng.choice((0.05, 0.2, 0.5))


def random_answer(s: DiceState, rng: random.Random, withdraw: float) -> int:
    d = s.pending
    assert d is not None
    if d.kind == TURN:
        return WITHDRAW if rng.random() < withdraw else d.options[0]
    return d.options[rng.randrange(len(d.options))]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_invariants(players: int) -> None:
    for seed in range(GAMES):
        settings = dict(VARIANTS[seed % len(VARIANTS)])
        if "gaming_set_owners" in settings:
            settings["gaming_set_owners"] = tuple(range(0, players, 2))
        config = DiceConfig(players=players, **settings)  # type: ignore[arg-type]
        rng, withdraw = chooser(seed)

        def answer(s: DiceState, rng: random.Random = rng, w: float = withdraw) -> int:
            return random_answer(s, rng, w)

        s, result = play(
            config,
            seed,
            check=True,
            chooser=answer,
        )
        assert result.completed, f"seed {seed} ({settings}) did not finish"
        assert not result.violations, f"seed {seed} ({settings}): {result.violations[:3]}"
        assert len(s.winners) == 1


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_with_typed_in_dice_keep_invariants(players: int) -> None:
    for seed in range(GAMES // 3):
        settings = dict(VARIANTS[seed % len(VARIANTS)])
        if "gaming_set_owners" in settings:
            settings["gaming_set_owners"] = (players - 1,)
        s = new_game(DiceConfig(players=players, **settings), dice=PHYSICAL)  # type: ignore[arg-type]
        rng, withdraw = chooser(seed)
        for _ in range(MAX_DECISIONS):
            if s.over:
                break
            apply(s, random_answer(s, rng, withdraw))
            problems = violations(s)
            assert not problems, f"seed {seed} ({settings}): {problems[:3]}"
        assert s.over, f"seed {seed} did not finish"


@pytest.mark.parametrize("bots", [("random",), ("basic",), ("basic", "random")])
def test_bot_games_keep_invariants(bots: tuple[str, ...]) -> None:
    for seed in range(GAMES // 3):
        config = DiceConfig(players=2 + seed % 5, gambits=1 + seed % 3)
        _, result = play(config, seed, bots, check=True)
        assert result.completed and not result.violations, (seed, result.violations[:3])
