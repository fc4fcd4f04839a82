"""The OpenSpiel game: OpenSpiel's own checks and algorithms, the action mask,
the information barrier, perfect recall, the observers, the chance nodes and
determinism given the chance outcomes."""

from __future__ import annotations

import json
import random
import time

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr
from open_spiel.python.algorithms.generate_playthrough import playthrough_lines
from open_spiel.python.observation import make_observation

from dragonante.agents.encoding import action_mask, encode, to_answer
from dragonante.agents.openspiel import SHORT_NAME, ThreeDragonAnteState
from dragonante.agents.pettingzoo import make_config
from dragonante.cards import ALL_CARDS
from dragonante.engine import new_game
from dragonante.engine.views import observe
from dragonante.interfaces.narrate import Narrator, default_names
from dragonante.interfaces.text import text_answers
from tests.bots.test_information import _hidden_twin


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game(SHORT_NAME, params)


def step(s: ThreeDragonAnteState, rng: random.Random) -> None:
    """One random move: a chance outcome by its probability, or a legal action."""
    if s.is_chance_node():
        outcomes, probs = zip(*s.chance_outcomes(), strict=True)
        s.apply_action(rng.choices(outcomes, probs)[0])
    else:
        s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"players": 4},
        {"players": 6},
        {"players": 3, "ruleset": "emperors_gambit", "deck": "eg_full"},
    ],
    ids=lambda p: "-".join(str(v) for v in p.values()),
)
def test_openspiel_random_simulation(params: dict[str, object]) -> None:
    game = load(**params)
    assert game.num_players() == params["players"]
    assert game.observation_tensor_shape() == [5560]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="players must be 2-6"):
        load(players=7)
    with pytest.raises(Exception, match="unknown ruleset"):
        load(ruleset="chess")


def test_legal_actions_are_the_mask_and_chance_probabilities_sum_to_one() -> None:
    game = load(players=4, abilities="disks")
    rng = random.Random(1)
    for _ in range(2):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                assert s.current_player() == pyspiel.PlayerId.CHANCE
                assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1.0)
                assert len(s.chance_outcomes()) == game.max_chance_outcomes()
            else:
                d = s.engine.pending
                assert d is not None and s.current_player() == d.seat
                mask = action_mask(d)
                assert s.legal_actions() == np.flatnonzero(mask).tolist()
                assert s.legal_actions_mask(d.seat) == mask.tolist()
                others = [p for p in range(4) if p != d.seat]
                assert all(s.legal_actions(p) == [] for p in others)
            step(s, rng)
        assert s.current_player() == pyspiel.PlayerId.TERMINAL
        assert sum(s.returns()) == pytest.approx(1.0)
        winners = [r for r in s.returns() if r > 0]
        assert winners == [pytest.approx(1 / len(winners))] * len(winners)


def test_the_deal_is_the_engines_game_for_the_seed_the_chance_nodes_spell() -> None:
    game = load(players=3, chance_outcomes=16, chance_nodes=3)
    s = game.new_initial_state()
    for digit in (2, 0, 11):
        assert s.is_chance_node() and s.engine is None
        s.apply_action(digit)
    expected = new_game(make_config(3), 2 * 16 * 16 + 0 * 16 + 11, log=False)
    assert s.engine.to_dict() == expected.to_dict()


def test_a_step_that_shuffles_waits_for_its_seed_and_each_seed_is_another_shuffle() -> None:
    game = load(players=2, chance_outcomes=4, chance_nodes=2)
    rng = random.Random(5)
    s = game.new_initial_state()
    while s.engine is None or s.waiting is None:  # until a random step waits
        step(s, rng)
    assert s.is_chance_node()
    before = s.engine.to_dict()
    results = []
    for first in range(4):
        for second in range(4):
            t = s.clone()
            t.apply_action(first)
            assert t.is_chance_node() and t.engine.to_dict() == before  # not applied yet
            t.apply_action(second)
            assert t.waiting is None
            results.append(repr(t.engine.to_dict()))
    assert len(set(results)) == 16


def test_the_game_is_deterministic_given_the_chance_outcomes() -> None:
    game = load(players=4, ruleset="emperors_gambit", deck="eg_full")
    s = game.new_initial_state()
    rng = random.Random(9)
    while not s.is_terminal():
        step(s, rng)
    replay = game.new_initial_state()
    for action in s.history():
        replay.apply_action(action)
    assert replay.is_terminal()
    assert replay.engine.to_dict() == s.engine.to_dict()
    assert replay.returns() == s.returns()
    assert sum(1 for a in s.full_history() if a.player == pyspiel.PlayerId.CHANCE) > 4


def test_clones_are_independent() -> None:
    game = load(players=4)
    s = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(30):
        step(s, rng)
    c = s.clone()
    snapshot = s.engine.to_dict()
    strings = [s.information_state_string(p) for p in range(4)]
    while not c.is_terminal():
        step(c, rng)
    assert s.engine.to_dict() == snapshot
    assert [s.information_state_string(p) for p in range(4)] == strings
    assert c.history()[: len(s.history())] == s.history()
    assert str(s.clone()) == str(s) and s.clone().history() == s.history()
    assert s.clone().information_state_string(2) == strings[2]


def _same_for(s: ThreeDragonAnteState, seat: int, rng: random.Random) -> int:
    """Compare ``seat``'s information in ``s`` and in a twin differing in hidden cards."""
    assert s.engine is not None
    twin_engine = _hidden_twin(s.engine, seat, rng)
    if twin_engine is None:
        return 0
    twin = s.clone()
    twin.engine = twin_engine
    assert twin_engine.to_dict() != s.engine.to_dict()
    assert s.observation_tensor(seat) == twin.observation_tensor(seat)
    assert s.observation_string(seat) == twin.observation_string(seat)
    # The same for a state resampled from the seat's information state (what
    # IS-MCTS searches), and its perfect-recall string is the seat's too.
    r = s.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert r.observation_string(seat) == s.observation_string(seat)
    assert r.information_state_string(seat) == s.information_state_string(seat)
    return 1


@pytest.mark.parametrize("players", [2, 5])
def test_hidden_cards_never_change_a_seats_information_state(players: int) -> None:
    game = load(players=players)
    rng = random.Random(players)
    checked = 0
    for _ in range(4):
        s = game.new_initial_state()
        while not s.is_terminal():
            if not s.is_chance_node() and rng.random() < 0.2:
                for seat in range(players):
                    checked += _same_for(s, seat, rng)
            step(s, rng)
    assert checked >= 10


def test_observations_are_the_seats_view() -> None:
    game = load(players=4)
    s = game.new_initial_state()
    rng = random.Random(2)
    assert s.observation_tensor(0) == [0.0] * 5560  # before the deal
    while s.engine is None:
        step(s, rng)
    for seat in range(4):
        view = observe(s.engine, seat)
        assert np.array_equal(np.array(s.observation_tensor(seat), np.float32), encode(view))
        text = json.dumps(view.to_dict(), sort_keys=True, separators=(",", ":"))
        assert s.observation_string(seat) == text


def test_no_information_state_tensor_rather_than_a_wrong_one() -> None:
    """A fixed-size tensor cannot be perfect recall: refused, not silently the view."""
    game = load(players=2)
    assert not game.get_type().provides_information_state_tensor
    s = game.new_initial_state()
    with pytest.raises(ValueError, match="information_state_string"):
        s.information_state_tensor(0)
    with pytest.raises(ValueError, match="observation_tensor"):
        game.information_state_tensor_shape()
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert obs.tensor is None


def _own_history(game: pyspiel.Game, history: list[int], seat: int) -> list[str]:
    """``seat``'s action-observation history, rebuilt independently: replay the
    game, and after every change of the engine state note the seat's ``observe``
    view, with its own action where it was the one acting."""
    s = game.new_initial_state()
    out: list[str] = []
    for action in history:
        before, actor = s.engine, s.current_player()
        s.apply_action(action)
        if s.engine is not before:
            mine = actor == seat or (
                actor < 0 and before is not None and before.pending.seat == seat
            )
            out.append(("me " if mine else "") + json.dumps(observe(s.engine, seat).to_dict()))
    return out


def test_information_states_are_perfect_recall() -> None:
    """Across many games of one of four deals, two nodes share a seat's information
    state string exactly when the seat saw the same views and made the same moves."""
    game = load(players=2, chance_outcomes=2, chance_nodes=2)
    rng = random.Random(11)
    by_string: dict[str, str] = {}
    by_history: dict[str, str] = {}
    visits = 0
    for _ in range(10):
        s = game.new_initial_state()
        while not s.is_terminal() and len(s.history()) < 40:
            step(s, rng)
            if s.is_chance_node() or s.is_terminal():
                continue
            for seat in (0, 1):
                visits += 1
                text = s.information_state_string(seat)
                history = "\n".join(_own_history(game, s.history(), seat))
                assert by_string.setdefault(text, history) == history
                assert by_history.setdefault(history, text) == text
    assert len(by_string) < visits  # the same histories did recur across games
    # The string changes at every decision (the seat sees a new question).
    s = game.new_initial_state()
    seen = set()
    while not s.is_terminal():
        if not s.is_chance_node():
            assert s.information_state_string(0) not in seen
            seen.add(s.information_state_string(0))
        step(s, rng)


def test_ismcts_plays_a_game() -> None:
    game = load(players=2)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=8, random_state=rng
    )
    s = game.new_initial_state()
    decisions = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.randint(game.max_chance_outcomes())))
        elif s.current_player() == 0:
            s.apply_action(bot.step(s))
            decisions += 1
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    assert decisions > 3 and sum(s.returns()) == pytest.approx(1.0)


def test_outcome_sampling_mccfr_runs_on_perfect_recall_information_states() -> None:
    game = load(players=2)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(0)
    for _ in range(10):
        solver.iteration()
    keys = list(solver._infostates)
    assert len(keys) > 50 and all(k.startswith(("p0 ", "p1 ")) for k in keys)
    policy = solver.average_policy()
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(0)
    probs = policy.action_probabilities(s)
    assert set(probs) == set(s.legal_actions()) and sum(probs.values()) == pytest.approx(1.0)


def _obs_type(recall: bool, public: bool, private: pyspiel.PrivateInfoType) -> object:
    return pyspiel.IIGObservationType(
        perfect_recall=recall, public_info=public, private_info=private
    )


def test_generate_playthrough_and_every_sensible_observer() -> None:
    lines = playthrough_lines(f"{SHORT_NAME}(players=2)")
    text = "\n".join(lines)
    for needle in (
        "InformationStateString(0)",
        "PublicObservationString",
        "PrivateObservationString(1)",
    ):
        assert needle in text
    game = load(players=3)
    s = game.new_initial_state()
    rng = random.Random(6)
    for _ in range(40):
        step(s, rng)
    P = pyspiel.PrivateInfoType
    public = make_observation(game, _obs_type(False, True, P.NONE))
    private = make_observation(game, _obs_type(False, False, P.SINGLE_PLAYER))
    everything = make_observation(game, _obs_type(False, True, P.ALL_PLAYERS))
    public_recall = make_observation(game, _obs_type(True, True, P.NONE))
    assert s.engine is not None
    public.set_from(s, 0)
    assert np.array_equal(public.tensor, encode(observe(s.engine, None)))
    assert public.string_from(s, 0) == public.string_from(s, 2)
    for seat in range(3):
        private.set_from(s, seat)
        mine = encode(observe(s.engine, seat))
        assert (private.tensor <= mine).all() and private.tensor[:170].sum() == len(
            s.engine.hands[seat]
        )
        assert "hand" in json.loads(private.string_from(s, seat))
    assert all(str(c) in everything.string_from(s, 0) for c in s.engine.deck)
    assert public_recall.string_from(s, 1).startswith("public ")
    for bad in (
        _obs_type(True, False, P.SINGLE_PLAYER),
        _obs_type(False, False, P.NONE),
    ):
        with pytest.raises(ValueError, match="observer not supported"):
            make_observation(game, bad)


def test_public_observers_show_no_hidden_card() -> None:
    game = load(players=3)
    rng = random.Random(8)
    P = pyspiel.PrivateInfoType
    public = make_observation(game, _obs_type(False, True, P.NONE))
    checked = 0
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.engine is not None and not s.is_chance_node():
            for seat in range(3):
                twin_engine = _hidden_twin(s.engine, seat, rng)
                if twin_engine is None:
                    continue
                twin = s.clone()
                twin.engine = twin_engine
                assert public.string_from(s, 0) == public.string_from(twin, 0)
                checked += 1
        step(s, rng)
    assert checked >= 5


def test_a_seed_parameter_is_accepted_and_changes_the_games() -> None:
    env = rl_environment.Environment(SHORT_NAME, players=2, seed=0)
    assert len(env.reset().observations["info_state"][0]) == 5560

    def dealt(**params: object) -> dict[str, object]:
        s = load(players=2, **params).new_initial_state()
        for _ in range(4):
            s.apply_action(7)
        deal: dict[str, object] = s.engine.to_dict()
        return deal

    assert dealt() == dealt(seed=-1) != dealt(seed=0) == dealt(seed=0) != dealt(seed=1)


def test_clone_goes_through_the_engine() -> None:
    """Target (issue 24): a mid-game clone costs at most 5 times the engine's own."""
    game = load(players=4)
    s = game.new_initial_state()
    rng = random.Random(1)
    while len(s.history()) < 120 and not s.is_terminal():
        step(s, rng)
    assert s.engine is not None

    def cost(f: object) -> float:
        best = float("inf")
        for _ in range(7):
            start = time.perf_counter()
            for _ in range(200):
                f()  # type: ignore[operator]
            best = min(best, time.perf_counter() - start)
        return best

    assert cost(s.clone) <= 5 * cost(s.engine.clone)


def test_errors_and_str_are_short() -> None:
    game = load(players=4)
    s = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(30):
        step(s, rng)
    while s.is_chance_node():
        step(s, rng)
    assert len(str(s)) < 800 and "seat 0:" in str(s)
    with pytest.raises(ValueError, match="not legal") as e:
        s.apply_action(999)
    assert len(str(e.value)) < 300


def test_the_time_limit_ends_a_long_game_after_one_more_gambit() -> None:
    game = load(players=3, time_limit=5)
    s = game.new_initial_state()
    rng = random.Random(4)
    while not s.is_terminal():
        step(s, rng)
        if s.engine is not None and s.engine.decision_count >= 5:
            assert s.engine.last_gambit > 0 or s.is_terminal()
    assert s.engine is not None
    assert s.engine.gambit <= 2
    assert sum(s.returns()) == pytest.approx(1.0)


def test_the_search_example_runs_both_algorithms() -> None:
    from examples.openspiel_search import run_ismcts, run_mccfr

    mccfr = run_mccfr(players=2, iterations=3, seed=0)
    assert mccfr["iterations"] == 3 and int(str(mccfr["information_states"])) > 10
    played = run_ismcts(players=2, games=1, simulations=4, seed=0)
    assert played["games"] == 1 and 0.0 <= float(str(played["win_share"])) <= 1.0


def test_action_strings_are_the_text_interfaces_words() -> None:
    """A legal action reads as the text seat names it ("seat 1: play Red Dragon (8)",
    the players called "Player N"); any other action keeps its block's name."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(5)
    kinds: set[str] = set()
    while not state.is_terminal() and len(kinds) < 3:
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
            continue
        player = state.current_player()
        engine = state.engine
        assert engine is not None and engine.pending is not None
        kinds.add(engine.pending.kind)
        narrator = Narrator(default_names(3, "en"), me=player, you=False)
        words = {a.answer: a.words for a in text_answers(observe(engine, player), narrator)}
        for action in state.legal_actions():
            answer = to_answer(engine.pending.kind, action)
            assert state.action_to_string(player, action) == f"seat {player}: {words[answer]}"
        card = next(c for c in range(170) if c not in state.legal_actions())
        assert state.action_to_string(player, card) == f"seat {player}: {ALL_CARDS[card].id}"
        other = (player + 1) % 3
        assert state.action_to_string(other, card) == f"seat {other}: {ALL_CARDS[card].id}"
        state.apply_action(rng.choice(state.legal_actions()))
    assert {"ante", "play"} <= kinds
    first = game.new_initial_state()
    while first.is_chance_node():
        first.apply_action(0)
    player = first.current_player()
    assert all(
        first.action_to_string(player, a).startswith(f"seat {player}: ante ")
        for a in first.legal_actions()
    )
