"""Actions map one-to-one onto each question's legal answers; observations leak nothing."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import numpy as np
import pytest

from dragonante.agents.encoding import (
    N_ACTIONS,
    OBS_SIZE,
    SLICES,
    IncrementalEncoder,
    action_mask,
    encode,
    legal_answer,
    mask_bytes,
    to_action,
    to_answer,
)
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.config import DeckOptions, Rules
from dragonante.engine.decisions import ABILITY_KINDS
from dragonante.engine.state import GameState
from dragonante.engine.views import observe
from tests.agents.reference_encoding import reference_encode, reference_observe
from tests.bots.test_information import _ability_twin, _hidden_twin

CONFIGS = [
    GameConfig(players=4),
    GameConfig(players=6),
    GameConfig(players=3, abilities=AbilityOptions(system="disks", assign="draft")),
    GameConfig(players=5, abilities=AbilityOptions(system="skills")),
]


def test_slices_tile_the_vector() -> None:
    ends = sorted((s.start, s.stop) for s in SLICES.values())
    assert ends[0][0] == 0 and ends[-1][1] == OBS_SIZE
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ends))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}-{c.abilities.system}")
def test_the_mask_is_exactly_the_legal_answers_of_every_kind(config: GameConfig) -> None:
    kinds: set[str] = set()
    for seed in range(12):
        s = new_game(config, seed)
        rng = random.Random(seed)
        while not s.over:
            d = s.pending
            assert d is not None
            kinds.add(d.kind)
            mask = action_mask(d)
            actions = [to_action(d.kind, a) for a in d.options]
            assert len(set(actions)) == len(actions)  # one action per answer
            assert sorted(actions) == np.flatnonzero(mask).tolist()
            assert [to_answer(d.kind, a) for a in actions] == list(d.options)
            # The environments' O(1) check: exactly the mask's actions pass,
            # each giving its answer, whatever the action's type.
            legal = mask_bytes(d)
            assert bytes(legal) == mask.tobytes()
            for a in range(-2, N_ACTIONS + 2):
                expected = to_answer(d.kind, a) if 0 <= a < N_ACTIONS and mask[a] else None
                assert legal_answer(d, legal, a) == expected
            assert legal_answer(d, legal, np.int64(actions[0])) == d.options[0]
            assert all(0 <= a < N_ACTIONS for a in actions)
            obs = encode(observe(s, d.seat))
            assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            apply(s, to_answer(d.kind, rng.choice(actions)))
    assert {"ante", "play"} <= kinds
    if config.abilities.enabled:
        assert kinds & ABILITY_KINDS


def test_actions_of_another_block_are_refused() -> None:
    with pytest.raises(ValueError):
        to_answer("choose_opponent", 3)  # a card action for a seat question
    with pytest.raises(ValueError):
        to_action("choose_opponent", 7)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_hidden_cards_never_change_the_observation(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    incremental = IncrementalEncoder()
    for seed in range(4):
        s = new_game(GameConfig(players=players), 40 * players + seed)
        play = random.Random(seed)
        while not s.over:
            d = s.pending
            assert d is not None
            if play.random() < 0.1:
                for seat in range(players):
                    twin = _hidden_twin(s, seat, rng)
                    if twin is None:
                        continue
                    assert twin.to_dict() != s.to_dict()
                    a, b = encode(observe(s, seat)), encode(observe(twin, seat))
                    assert (a == b).all()
                    # The incremental encoder, right after the real view: the
                    # twin's hidden cards change nothing it writes either.
                    assert (incremental.encode(observe(s, seat, hints=False)) == a).all()
                    assert (incremental.encode(observe(twin, seat, hints=False)) == a).all()
                    checked += 1
            apply(s, play.choice(d.options))
    assert checked >= 10


@pytest.mark.parametrize("system", ["disks", "skills"])
def test_hidden_abilities_never_change_the_observation(system: str) -> None:
    checked = private = 0
    incremental = IncrementalEncoder()
    for players in (2, 4, 6):
        config = GameConfig(
            players=players,
            abilities=AbilityOptions(system=system, visibility="hidden", per_character=2),
        )
        s = new_game(config, 7 * players)
        rng = random.Random(players)
        while not s.over:
            d = s.pending
            assert d is not None
            if rng.random() < 0.2 or d.kind in ABILITY_KINDS:
                for seat in range(players):
                    twin = _ability_twin(s, seat)
                    if twin is None:
                        continue
                    assert twin.to_dict() != s.to_dict()
                    a = encode(observe(s, seat))
                    assert (a == encode(observe(twin, seat))).all()
                    assert (incremental.encode(observe(s, seat, hints=False)) == a).all()
                    assert (incremental.encode(observe(twin, seat, hints=False)) == a).all()
                    checked += 1
                    private += d.kind in ABILITY_KINDS and d.seat != seat
            apply(s, rng.choice(d.options))
    assert checked >= 10 and private >= 1


#: Tables that between them fill every slice of the vector: every table size,
#: the three rulesets (Emperor's Gambit: debts, special flights, eliminated
#: seats), "show 'em", and both ability systems, hidden, public and drafted.
EQUIVALENCE_CONFIGS = [
    GameConfig(players=2),
    GameConfig(players=4, deck=DeckOptions(reveal_specials=True)),
    GameConfig(players=6, rules=Rules.preset("original")),
    GameConfig(
        players=3, rules=Rules.preset("emperors_gambit"), deck=DeckOptions(preset="eg_full")
    ),
    GameConfig(
        players=5, rules=Rules.preset("emperors_gambit"), deck=DeckOptions(preset="eg_full")
    ),
    GameConfig(players=3, abilities=AbilityOptions(system="disks", assign="draft")),
    GameConfig(players=4, abilities=AbilityOptions(system="disks", visibility="public")),
    GameConfig(
        players=5,
        rules=Rules.preset("emperors_gambit"),
        deck=DeckOptions(preset="eg_full"),
        abilities=AbilityOptions(system="skills"),
    ),
    GameConfig(players=6, abilities=AbilityOptions(system="skills", visibility="hidden")),
]


@pytest.mark.parametrize(
    "config",
    EQUIVALENCE_CONFIGS,
    ids=lambda c: f"{c.players}-{c.rules.ruleset}-{c.abilities.system}",
)
def test_the_fast_encoder_matches_the_reference_byte_for_byte(config: GameConfig) -> None:
    """``encode`` and ``observe`` were tuned for speed: every seat's view and
    vector (and a spectator's) in every state of several random games must
    equal those of the first versions."""
    config = config.validate()
    filled = np.zeros(OBS_SIZE, dtype=bool)
    compared = 0
    for seed in range(6):
        s = new_game(config, 1000 + seed)
        rng = random.Random(seed)
        while True:
            for seat in (*range(config.players), None):
                view = observe(s, seat, hints=False)
                assert view == reference_observe(s, seat)
                if seat is None:
                    gm = observe(s, None, gm=True, hints=False)
                    assert gm == reference_observe(s, None, gm=True)
                fast, slow = encode(view), reference_encode(view)
                assert fast.dtype == slow.dtype and fast.shape == slow.shape
                assert fast.tobytes() == slow.tobytes(), (seed, seat, s.pending)
                filled |= fast != 0
                compared += 1
            if s.over:
                break
            d = s.pending
            assert d is not None
            apply(s, rng.choice(d.options))
    assert compared > 500
    # The games reached enough of the vector for the comparison to mean something.
    assert filled.sum() > 400


@pytest.mark.parametrize(
    "config",
    EQUIVALENCE_CONFIGS,
    ids=lambda c: f"{c.players}-{c.rules.ruleset}-{c.abilities.system}",
)
def test_the_incremental_encoder_matches_the_reference_byte_for_byte(config: GameConfig) -> None:
    """``IncrementalEncoder`` rewrites only the blocks that changed since the
    last view it encoded: along whole games, views of random seats (several
    per state, a spectator, none at some states) must still give exactly the
    reference vector, and a fresh array each time."""
    encoder = IncrementalEncoder()
    compared = 0
    for seed, s, rng in whole_games(config, 2000, 4):
        seats = [p for p in (*range(config.players), None) if rng.random() < 0.45]
        for seat in seats:
            view = observe(s, seat, hints=False)
            fast = encoder.encode(view)
            assert fast.tobytes() == reference_encode(view).tobytes(), (seed, seat)
            assert encoder.last is view
            fast[:] = 1.0  # the caller's array: changing it changes nothing kept
            compared += 1
    assert compared > 100


def whole_games(
    config: GameConfig, first_seed: int, games: int
) -> Iterator[tuple[int, GameState, random.Random]]:
    """Every state of ``games`` games of ``config`` played at random, the
    finished one included, each with the game's number and random stream
    (the caller may draw from it: the game stays a function of the seed)."""
    config = config.validate()
    for seed in range(games):
        s = new_game(config, first_seed + seed)
        rng = random.Random(seed)
        while True:
            yield seed, s, rng
            if s.over:
                break
            d = s.pending
            assert d is not None
            apply(s, rng.choice(d.options))


def test_one_incremental_encoder_serves_any_table() -> None:
    """Views of different table sizes, rulesets and games, one after another
    through one encoder: nothing needs resetting between them."""
    encoder = IncrementalEncoder()
    assert encoder.last is None
    rng = random.Random(7)
    states = []
    for i, config in enumerate(EQUIVALENCE_CONFIGS):
        s = new_game(config.validate(), 3000 + i)
        for _ in range(rng.randrange(40)):
            if s.over:
                break
            d = s.pending
            assert d is not None
            apply(s, rng.choice(d.options))
        states.append(s)
    for _ in range(60):
        s = rng.choice(states)
        seat = rng.choice([*range(s.n), None])
        view = observe(s, seat, hints=False)
        assert encoder.encode(view).tobytes() == reference_encode(view).tobytes()


def test_the_incremental_encoder_compares_every_encoded_field() -> None:
    """The incremental encoder compares the fields that change at most steps
    one by one and the rest as one tuple: between them they must cover every
    field of the view the vector encodes, each once (a new field of the view
    joins the tuple by itself)."""
    from dragonante.agents import encoding as enc
    from dragonante.engine.views import Observation

    fields = Observation._fields
    rare, round_level = enc._RARE_FIELDS, enc._ROUND_FIELDS
    view = observe(new_game(GameConfig(players=3), 1), 0)
    assert enc._RARE(view) == tuple(getattr(view, f) for f in rare)
    assert enc._ROUND(view) == tuple(getattr(view, f) for f in round_level)
    groups = [*enc._FREQUENT, *round_level, *rare, *enc._NOT_ENCODED]
    assert sorted(groups) == sorted(fields)  # every field, each once
