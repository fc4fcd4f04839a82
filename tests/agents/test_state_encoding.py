"""The state encoder (issue 24's fast observations) gives exactly the view's vector.

``StateEncoder`` reads the engine state instead of a seat's view, so these
tests hold it to the view: for every seat, in every state of whole games of
every kind of table, its vector must be the reference encoder's vector of
``observe(state, seat)``, and hidden cards must change nothing it returns.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from dragonante.agents import state_encoding
from dragonante.agents.compiled import status
from dragonante.agents.encoding import _NOT_ENCODED, N_ACTIONS, OBS_SIZE, action_mask, encode
from dragonante.agents.gymnasium import ThreeDragonAnteEnv as GymEnv
from dragonante.agents.pettingzoo import raw_env
from dragonante.agents.state_encoding import (
    COVERED_FIELDS,
    StateEncoder,
    encode_into,
    legal_actions,
)
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.config import DeckOptions, Rules
from dragonante.engine.decisions import SEER_KEEP, Decision
from dragonante.engine.effects import VISIBLE, seen_effects
from dragonante.engine.position import build_position
from dragonante.engine.state import GameState
from dragonante.engine.views import Observation, observe, visible_discards
from dragonante.scenarios.format import load
from tests.agents.reference_encoding import reference_encode
from tests.agents.test_encoding import EQUIVALENCE_CONFIGS, whole_games
from tests.bots.test_information import _hidden_twin

#: The C encoder when it is built (``tests/agents/test_compiled.py`` fails when
#: a compiler is at hand and it is not, or is stale).
COMPILED = StateEncoder()._compiled is not None
NOT_IN_USE = f"the C encoder is not in use: {status().reason} (see tests/agents/test_compiled.py)"


@pytest.fixture(params=[True, False], ids=["compiled", "python"])
def compiled(request: pytest.FixtureRequest) -> bool:
    """Each test runs with the C encoder and with the pure-Python one."""
    if request.param and not COMPILED:
        pytest.skip(NOT_IN_USE)
    return bool(request.param)


SCENARIOS = Path(__file__).parents[1] / "scenarios"


def _reference(s: object, seat: int) -> bytes:
    view = observe(s, seat, hints=False)  # type: ignore[arg-type]
    return reference_encode(view).tobytes()


@pytest.mark.parametrize(
    "config",
    EQUIVALENCE_CONFIGS,
    ids=lambda c: f"{c.players}-{c.rules.ruleset}-{c.abilities.system}",
)
def test_the_state_encoder_matches_the_reference_byte_for_byte(
    config: GameConfig, compiled: bool
) -> None:
    """Along whole games, random seats (several per state, in any order, none
    at some states, so that several steps pass between two syncs) get
    exactly the reference vector, as a fresh array each time."""
    encoder = StateEncoder(compiled)
    compared = 0
    for seed, s, rng in whole_games(config, 4000, 10):
        seats = [p for p in range(config.players) if rng.random() < 0.45]
        rng.shuffle(seats)
        for seat in seats:
            fast = encoder.encode(s, seat)
            assert fast.dtype == np.float32
            assert fast.tobytes() == _reference(s, seat), (seed, seat, s.pending)
            fast[:] = 1.0  # the caller's array: changing it changes nothing kept
            compared += 1
    assert compared > 100


def test_every_step_of_a_game_and_every_seat(compiled: bool) -> None:
    """The environments' pattern (every step, the asked seat), and every other
    seat too, at tables of 2 to 6 and in the three rulesets."""
    tables = [
        GameConfig(players=2),
        GameConfig(players=3, rules=Rules.preset("original")),
        GameConfig(players=5, deck=DeckOptions(reveal_specials=True)),
        GameConfig(
            players=6, rules=Rules.preset("emperors_gambit"), deck=DeckOptions(preset="eg_full")
        ),
    ]
    asked, others = StateEncoder(compiled), StateEncoder(compiled)
    for i, config in enumerate(tables * 3):
        s = new_game(config.validate(), 5000 + i)
        rng = random.Random(i)
        while not s.over:
            d = s.pending
            assert d is not None
            assert asked.encode(s, d.seat).tobytes() == _reference(s, d.seat)
            seat = rng.randrange(config.players)
            assert others.encode(s, seat).tobytes() == _reference(s, seat)
            apply(s, rng.choice(d.options))


def test_one_state_encoder_serves_any_table_in_any_order(compiled: bool) -> None:
    """States of different games and table sizes, one after another, each
    advanced between visits: nothing needs resetting between them."""
    encoder = StateEncoder(compiled)
    rng = random.Random(11)
    states = [new_game(c.validate(), 6000 + i) for i, c in enumerate(EQUIVALENCE_CONFIGS)]
    for _ in range(300):
        s = rng.choice(states)
        for _ in range(rng.randrange(4)):
            if s.pending is not None:
                apply(s, rng.choice(s.pending.options))
        seat = rng.randrange(s.n)
        assert encoder.encode(s, seat).tobytes() == _reference(s, seat)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_hidden_cards_never_change_the_state_encoders_vector(players: int, compiled: bool) -> None:
    """A twin state that differs only in cards ``seat`` cannot see (another
    hand, the deck order) gives that seat the very same vector, whether the
    encoder followed the game step by step or starts from the twin."""
    rng = random.Random(players)
    checked = 0
    following = StateEncoder(compiled)
    for seed in range(4):
        s = new_game(GameConfig(players=players), 70 * players + seed)
        play = random.Random(seed)
        while not s.over:
            d = s.pending
            assert d is not None
            seat = d.seat
            real = following.encode(s, seat)
            if play.random() < 0.15:
                twin = _hidden_twin(s, seat, rng)
                if twin is not None:
                    assert twin.to_dict() != s.to_dict()
                    assert StateEncoder(compiled).encode(twin, seat).tobytes() == real.tobytes()
                    assert real.tobytes() == encode(observe(twin, seat, hints=False)).tobytes()
                    checked += 1
            apply(s, play.choice(d.options))
    assert checked >= 10


def test_the_state_encoder_writes_every_encoded_field_of_the_view() -> None:
    """A new field of the view fails here until the state encoder writes it
    (and lists it in ``COVERED_FIELDS``)."""
    assert len(set(COVERED_FIELDS)) == len(COVERED_FIELDS)
    assert sorted([*COVERED_FIELDS, *_NOT_ENCODED]) == sorted(Observation._fields)


def _scenario_states() -> Iterator[tuple[str, GameState]]:
    """Every state of every rules scenario: the positions the rules tests set up
    (the Silver Seer's private look, cards discarded face down, eliminated
    seats, every running effect...), which random games rarely reach."""
    for path in sorted(SCENARIOS.rglob("*.toml")):
        scenario = load(path)
        if scenario.refused or scenario.check is not None:
            continue
        if scenario.position is None:
            s = new_game(scenario.config, scenario.seed)
        else:
            s = build_position(scenario.config, scenario.position, scenario.seed)
        yield path.name, s
        for step in scenario.steps:
            d = s.pending
            if d is None or d.seat != step.seat or d.kind != step.ask:
                break
            apply(s, step.answer, d.id)
            yield path.name, s


def _random_states() -> Iterator[tuple[str, GameState]]:
    for config in EQUIVALENCE_CONFIGS:
        for seed, s, _ in whole_games(config, 4000, 4):
            yield f"{config.players} players, game {seed}", s


def test_every_state_of_every_rules_scenario(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every seat of every state of the 900-odd rules scenarios (and of some
    random games): between them they reach every corner of the vector.
    ``encode_into`` (OpenSpiel's tensors) too, into a dirty buffer."""
    if not compiled:
        monkeypatch.setattr(state_encoding, "_FAST", None)
    encoder = StateEncoder(compiled)
    reached: set[str] = set()
    scratch = np.full(OBS_SIZE, 7.0, dtype=np.float32)
    for name, s in itertools.chain(_scenario_states(), _random_states()):
        for seat in range(s.n):
            want = _reference(s, seat)
            assert encoder.encode(s, seat).tobytes() == want, (name, seat)
            encode_into(s, seat, scratch)
            assert scratch.tobytes() == want, (name, seat)
        d = s.pending
        if d is not None and d.kind == SEER_KEEP:
            reached.add("the Seer's private look")
        if len(visible_discards(s, None)) != len(s.discard):
            reached.add("cards discarded face down")
        if s.out:
            reached.add("an eliminated seat")
        reached.update(seen_effects(s, s.n, None))
    assert {"the Seer's private look", "cards discarded face down", "an eliminated seat"} <= reached
    assert {e.name for e in VISIBLE} <= reached


def test_the_c_encoder_refuses_bad_input_with_a_clear_error() -> None:
    """Wrong objects, seats and buffers, and a corrupt state, raise a Python
    error: the C code never writes outside the vector."""
    if not COMPILED:
        pytest.skip(NOT_IN_USE)
    fast = StateEncoder()._compiled
    assert fast is not None
    s = new_game(GameConfig(players=3).validate(), 1)
    out = np.empty(OBS_SIZE, dtype=np.float32)
    with pytest.raises(TypeError, match="GameState"):
        fast.encode(object(), 0, out)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat 3 at a table of 3"):
        fast.encode(s, 3, out)
    with pytest.raises(ValueError, match="float32 entries"):
        fast.encode(s, 0, np.empty(10, dtype=np.float32))
    with pytest.raises(BufferError, match="not writable"):
        fast.encode(s, 0, bytes(4 * OBS_SIZE))  # type: ignore[arg-type]
    bad = s.clone()
    bad.hands[1].append(10**6)  # a card far outside the deck
    with pytest.raises(ValueError, match="outside the vector"):
        fast.encode(bad, 1, out)
    bad = s.clone()
    bad.flights = "not a list"  # type: ignore[assignment]
    with pytest.raises(TypeError, match="flights"):
        fast.encode(bad, 0, out)
    # And the encoder still works after each refusal.
    fast.encode(s, 0, out)
    assert out.tobytes() == _reference(s, 0)


def test_the_legal_actions_are_the_masks_of_every_question(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``legal_actions`` (the C mask when built) gives exactly ``action_mask``,
    as a fresh writable array, and the bytes the environments check against."""
    if not compiled:
        monkeypatch.setattr(state_encoding, "_FAST", None)
    kinds: set[str] = set()
    for name, s in itertools.chain(_scenario_states(), _random_states()):
        d = s.pending
        if d is None:
            continue
        mask, legal = legal_actions(d)
        want = action_mask(d)
        assert mask.dtype == np.int8 and mask.tobytes() == want.tobytes(), (name, d)
        assert legal == want.tobytes()
        mask[:] = 1  # the caller's array: the bytes kept for the check do not change
        assert legal == want.tobytes()
        kinds.add(d.kind)
    assert len(kinds) > 20


def test_the_c_mask_refuses_bad_input_with_a_clear_error() -> None:
    if not COMPILED:
        pytest.skip(NOT_IN_USE)
    fast = StateEncoder()._compiled
    assert fast is not None
    d = new_game(GameConfig(players=3).validate(), 1).pending
    assert d is not None
    with pytest.raises(TypeError, match="Decision"):
        fast.mask(object(), np.zeros(N_ACTIONS, dtype=np.int8))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="int8 entries"):
        fast.mask(d, np.zeros(3, dtype=np.int8))
    bad = Decision(d.id, d.seat, d.kind, (10**6,), d.source, d.ctx)
    with pytest.raises(ValueError, match="has no action"):
        fast.mask(bad, np.zeros(N_ACTIONS, dtype=np.int8))
    bad = Decision(d.id, d.seat, "no such question", d.options, d.source, d.ctx)
    with pytest.raises(ValueError, match="unknown question kind"):
        fast.mask(bad, np.zeros(N_ACTIONS, dtype=np.int8))


def test_encoders_and_environments_pickle_and_copy() -> None:
    """Multiprocessing vector environments pickle environments (SB3's
    ``SubprocVecEnv`` sends their spaces, which refer back to them), and
    some tools deep-copy them: the compiled module inside must not stop that."""
    s = new_game(GameConfig(players=4).validate(), 2)
    for compiled_kind in (True, False):
        encoder = StateEncoder(compiled_kind)
        first = encoder.encode(s, 1)
        for twin in (pickle.loads(pickle.dumps(encoder)), copy.deepcopy(encoder)):
            assert (twin._compiled is not None) == (encoder._compiled is not None)
            assert twin.encode(s, 1).tobytes() == first.tobytes()
    gym_env = GymEnv(players=3, opponents="random")
    gym_env.reset(seed=4)
    for twin_env in (pickle.loads(pickle.dumps(gym_env)), copy.deepcopy(gym_env)):
        obs = twin_env._observation()["observation"]
        assert obs.tobytes() == _reference(twin_env.state, twin_env.seat)
    pz = raw_env(players=3)
    pz.reset(seed=5)
    twin_pz = pickle.loads(pickle.dumps(pz))
    agent = twin_pz.agent_selection
    assert twin_pz.observe(agent)["observation"].tobytes() == _reference(
        twin_pz.state, twin_pz._seat[agent]
    )
