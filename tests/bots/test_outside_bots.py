"""Bots from outside dragonante: the registry, entry points, ``module:function``
and ``policy:PATH`` specs, and names a server offers."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import numpy as np
import pytest

from dragonante.agents.encoding import N_ACTIONS, OBS_SIZE
from dragonante.agents.pettingzoo import make_config
from dragonante.bots import BOTS, LEVELS, BotEntry, BotSpecError, bot_names, entries, make_bot
from dragonante.bots import registry as R
from dragonante.bots.outside import OutsideAnswerError
from dragonante.engine import GameConfig
from dragonante.sim.simulate import simulate


@pytest.fixture
def clean_registry() -> Iterator[None]:
    """Put the registry back as it was after the test."""
    bots, levels, offered = dict(R.BOTS), dict(R.LEVELS), dict(R.OFFERED)
    loaded = R._loaded_entry_points
    yield
    R.BOTS.clear()
    R.BOTS.update(bots)
    R.LEVELS.clear()
    R.LEVELS.update(levels)
    R.OFFERED.clear()
    R.OFFERED.update(offered)
    R._loaded_entry_points = loaded


@pytest.fixture
def agent_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A researcher's module in the working directory (not on sys.path yet)."""
    (tmp_path / "my_agent.py").write_text(
        textwrap.dedent(
            '''
            """An outside agent."""

            calls = []

            def last(view):
                calls.append(view.decision.kind)
                return view.decision.options[-1]

            def cheat(view):
                return 999

            class Greedy:
                def __init__(self, seed):
                    self.seed = seed

                def choose(self, view):
                    return view.decision.options[0]

            class NoChoose:
                def __init__(self, seed):
                    pass

            NOT_CALLABLE = 3
            '''
        )
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    sys.modules.pop("my_agent", None)
    return "my_agent"


def test_built_in_bots_register_themselves() -> None:
    assert list(BOTS) == ["random", "baseline", "heuristic", "ismcts", "swift", "learned"]
    assert LEVELS == {"easy": "baseline", "medium": "heuristic", "hard": "ismcts"}
    kinds = {e.name: e.kind for e in entries()}
    assert kinds == {
        "random": "rules",
        "baseline": "rules",
        "heuristic": "rules",
        "ismcts": "search",
        "swift": "search",
        "learned": "learned",
    }
    for e in entries():
        assert e.kind in R.KINDS and e.about and e.origin == "dragonante"
    assert BOTS["ismcts"].strength is not None
    assert "tournament --seats ismcts,heuristic" in BOTS["ismcts"].strength.command


def test_a_function_plays_every_seat(agent_module: str) -> None:
    spec = f"{agent_module}:last"
    result = simulate(GameConfig(players=3), 2, 5, bots=[spec, "random", spec])
    assert (result.completed, result.errors) == (2, [])
    module = sys.modules[agent_module]
    assert {"ante", "play"} <= set(module.calls)


def test_a_bot_class_is_made_per_seat(agent_module: str) -> None:
    bot = make_bot(f"{agent_module}:Greedy", 7)
    assert bot.name == "my_agent:Greedy"
    report = simulate(GameConfig(players=2), 1, 1, bots=[f"{agent_module}:Greedy", "random"])
    assert (report.completed, report.errors) == (1, [])


def test_an_illegal_answer_is_refused_by_name(agent_module: str) -> None:
    report = simulate(GameConfig(players=2), 1, 1, bots=[f"{agent_module}:cheat", "random"])
    assert report.completed == 0
    assert (
        "OutsideAnswerError: bot 'my_agent:cheat' answered 999 to 'ante'" in report.errors[0].error
    )
    from dragonante.bots.base import SeatView
    from dragonante.engine import new_game

    s = new_game(GameConfig(players=2), 1)
    assert s.pending is not None
    with pytest.raises(OutsideAnswerError, match="legal answers: "):
        make_bot(f"{agent_module}:cheat").choose(SeatView(s, s.pending.seat))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module:play", "cannot import module 'no_such_module'"),
        ("my_agent:missing", "module 'my_agent' has no 'missing'"),
        ("my_agent:NOT_CALLABLE", "is not a function or a bot class"),
        ("my_agent:NoChoose", "NoChoose has no choose"),
    ],
)
def test_a_bad_outside_agent_is_a_clear_error(agent_module: str, spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec)


def test_unknown_names_stay_key_errors() -> None:
    with pytest.raises(KeyError, match="choose from random, baseline"):
        make_bot("grandmaster")
    with pytest.raises(BotSpecError, match="no setting"):
        make_bot("heuristic:turbo")


def _linear(path: Path, shape: tuple[int, int] = (OBS_SIZE, N_ACTIONS)) -> Path:
    rng = np.random.default_rng(0)
    np.savez_compressed(path, w=rng.normal(size=shape), b=rng.normal(size=shape[1]))
    return path


def test_a_saved_linear_policy_plays(tmp_path: Path) -> None:
    spec = f"policy:{_linear(tmp_path / 'p.npz')}"
    for players in (2, 6):
        report = simulate(GameConfig(players=players), 1, 3, bots=[spec] * players)
        assert (report.completed, report.errors) == (1, [])
    em = make_config(3, "emperors_gambit", "eg_full")
    report = simulate(em, 1, 3, bots=[spec, "random", "baseline"])
    assert (report.completed, report.errors) == (1, [])


def test_a_saved_policy_is_the_same_player_as_the_example_writes(tmp_path: Path) -> None:
    """``examples/reinforce.py`` saves the format ``policy:`` reads."""
    from examples.reinforce import Policy

    policy = Policy()
    policy.b[:] = np.arange(N_ACTIONS)  # prefers the highest legal action
    policy.save(tmp_path / "r.npz")
    bot = make_bot(f"policy:{tmp_path / 'r.npz'}")
    from dragonante.bots.base import SeatView
    from dragonante.engine import new_game

    s = new_game(GameConfig(players=3), 1)
    d = s.pending
    assert d is not None
    assert bot.choose(SeatView(s, d.seat)) == max(d.options)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing.npz", "no such file"),
        ("p.pt", "unknown format '.pt'; formats: .npz, .zip"),
        ("stale.npz", "trained on another layout"),
        ("junk.npz", "not a linear policy"),
    ],
)
def test_a_bad_policy_is_a_clear_error(tmp_path: Path, name: str, message: str) -> None:
    _linear(tmp_path / "stale.npz", (OBS_SIZE - 13, N_ACTIONS))
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    (tmp_path / "p.pt").write_bytes(b"")
    with pytest.raises(BotSpecError, match=message):
        make_bot(f"policy:{tmp_path / name}")


def test_a_maskable_ppo_checkpoint_needs_the_rl_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "sb3_contrib" else real(n, *a)
    )
    (tmp_path / "model.zip").write_bytes(b"PK")
    with pytest.raises(BotSpecError, match=r"optional 'rl' packages .*\./dev extra rl"):
        make_bot(f"policy:{tmp_path / 'model.zip'}")


def test_entry_points_register_outside_bots(
    clean_registry: None, agent_module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sys.path.insert(0, ".")
    group = R.ENTRY_POINT_GROUP
    found = [
        EntryPoint("greedy", f"{agent_module}:Greedy", group),
        EntryPoint("broken", "no_such_module:Bot", group),
        EntryPoint("heuristic", f"{agent_module}:Greedy", group),  # taken: refused
    ]
    asked: list[str] = []

    def entry_points(group: str) -> list[EntryPoint]:
        asked.append(group)
        return found

    monkeypatch.setattr(R, "entry_points", entry_points)
    R._loaded_entry_points = False
    with pytest.warns(RuntimeWarning) as caught:
        names = bot_names()
    said = " ".join(str(w.message) for w in caught)
    assert "'broken'" in said and "'heuristic'" in said
    assert "greedy" in names and "broken" not in names
    assert asked == ["dragonante.bots"]
    assert make_bot("greedy", 4).choose is not None
    assert R.BOTS["heuristic"].origin == "dragonante"
    entry = R.BOTS["greedy"]
    assert (entry.kind, entry.level, entry.origin) == ("rules", None, "my_agent:Greedy")


def test_an_entry_point_may_give_a_full_entry(
    clean_registry: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dragonante.bots.random_bot import RandomBot

    full = BotEntry("anything", RandomBot, "learned", about="a learned bot")
    monkeypatch.setattr(R, "entry_points", lambda group: [_Loaded("mine", full)])
    R._loaded_entry_points = False
    assert "mine" in bot_names()
    assert (R.BOTS["mine"].kind, R.BOTS["mine"].name) == ("learned", "mine")


class _Loaded:
    """An entry point whose object is given (no module to import)."""

    def __init__(self, name: str, obj: object) -> None:
        self.name, self.obj, self.value, self.dist = name, obj, "pkg:ENTRY", None

    def load(self) -> object:
        return self.obj


def test_a_server_offers_specs_by_name(clean_registry: None, tmp_path: Path) -> None:
    path = _linear(tmp_path / "p.npz")
    R.offer("trained", f"policy:{path}")
    R.offer("quick", "ismcts:iters=20")
    assert bot_names()[-2:] == ["trained", "quick"]
    assert make_bot("trained").name == f"policy:{path}"
    assert make_bot("quick").iters == 20  # type: ignore[attr-defined]
    for name, spec, message in [
        ("hard", "random", "registered already"),
        ("Bad Name", "random", "must be lower case"),
        ("worse", "ismcts:iters=0", "must be positive"),
        ("gone", "policy:/nowhere.npz", "no such file"),
    ]:
        with pytest.raises(ValueError, match=message):
            R.offer(name, spec)
    assert "worse" not in bot_names()
