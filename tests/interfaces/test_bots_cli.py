"""``dragonante bots``, and outside agents on the command lines that seat bots
(``play --opponents``, ``tournament --seats``, ``simulate --bots``, ``serve --bot``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from dragonante.agents.encoding import N_ACTIONS, OBS_SIZE
from dragonante.bots import registry as R
from dragonante.interfaces.web.hub import Settings
from tests.interfaces.conftest import Cli, assert_one_line_error


@pytest.fixture
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A researcher's module (``my_cli_agent:first``) and a saved policy, in the working
    directory."""
    (tmp_path / "my_cli_agent.py").write_text(
        "def first(view):\n    return view.decision.options[0]\n"
    )
    np.savez_compressed(
        tmp_path / "p.npz", w=np.zeros((OBS_SIZE, N_ACTIONS)), b=np.zeros(N_ACTIONS)
    )
    monkeypatch.chdir(tmp_path)
    sys.modules.pop("my_cli_agent", None)
    return tmp_path


@pytest.fixture
def clean_offers() -> Iterator[None]:
    offered = dict(R.OFFERED)
    yield
    R.OFFERED.clear()
    R.OFFERED.update(offered)


def test_bots_lists_every_bot(cli: Cli) -> None:
    r = cli(["bots"])
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert [line.split()[0] for line in lines if not line.startswith(" ")] == [
        "random",
        "baseline",
        "heuristic",
        "ismcts",
        "swift",
        "learned",
    ]
    assert "level hard" in r.out and "search" in r.out
    assert "wins 48.0% (95% CI 43.1-52.9%) against 3 x heuristic at 4 players" in r.out
    assert "dragonante tournament --seats ismcts,heuristic,heuristic,heuristic" in r.out
    italian = cli(["bots", "--lang", "it"])
    assert "ricerca ad albero Monte Carlo" in italian.out and "livello hard" in italian.out
    assert "ricerca di 100 iterazioni" in italian.out


def test_bots_json(cli: Cli) -> None:
    r = cli(["bots", "--json"])
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert {row["name"]: (row["level"], row["kind"]) for row in rows} == {
        "random": (None, "rules"),
        "baseline": ("easy", "rules"),
        "heuristic": ("medium", "rules"),
        "ismcts": ("hard", "search"),
        "swift": (None, "search"),
        "learned": (None, "learned"),
    }
    heuristic = next(row for row in rows if row["name"] == "heuristic")
    assert heuristic["strength"]["win_rate"] == 0.665
    assert heuristic["strength"]["games"] == 1000
    assert heuristic["strength"]["command"].startswith("dragonante tournament --seats heuristic")


def test_outside_agents_on_every_command(cli: Cli, agent: Path) -> None:
    r = cli(
        ["simulate", "--players", "3", "--games", "2", "--bots", "my_cli_agent:first", "--json"]
    )
    assert r.code == 0, r.err
    assert json.loads(r.out)["completed"] == 2
    seats = "my_cli_agent:first,policy:p.npz,random"
    r = cli(["tournament", "--seats", seats, "--games", "3", "--json"])
    assert r.code == 0, r.err
    assert set(json.loads(r.out)["bots"]) == {"my_cli_agent:first", "policy:p.npz", "random"}
    r = cli(["play", "--players", "2", "--opponents", "policy:p.npz", "--seed", "1"], "1\n" * 400)
    assert "Game over" in r.out, r.err


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["simulate", "--players", "2", "--bots", "nowhere_mod:f"], "cannot import module"),
        (["tournament", "--seats", "policy:missing.npz,random"], "no such file"),
        (["play", "--players", "2", "--opponents", "my_cli_agent:gone"], "has no 'gone'"),
    ],
)
def test_a_bad_outside_agent_is_one_line(
    cli: Cli, agent: Path, args: list[str], fragment: str
) -> None:
    assert_one_line_error(cli(args), fragment)


class ServeCalled(Exception):
    """Raised by the fake uvicorn.run: the server would start here."""


def test_serve_offers_bots_by_name(
    cli: Cli, agent: Path, monkeypatch: pytest.MonkeyPatch, clean_offers: None
) -> None:
    seen: list[Settings] = []

    def fake_create_app(settings: Settings, engine: object, cluster: object = None) -> Settings:
        seen.append(settings)
        return settings

    def fake_run(app: object, **kwargs: object) -> None:
        raise ServeCalled

    monkeypatch.setattr("dragonante.interfaces.cli.serve._check_port", lambda h, p, lang: None)
    monkeypatch.setattr("dragonante.interfaces.web.http.app.create_app", fake_create_app)
    monkeypatch.setattr("uvicorn.run", fake_run)
    db = str(agent / "t.sqlite")
    with pytest.raises(ServeCalled):
        cli(["serve", "--db", db, "--bot", "mine=my_cli_agent:first", "--bot", "net=policy:p.npz"])
    assert seen[0].bots == (("mine", "my_cli_agent:first"), ("net", "policy:p.npz"))
    assert R.OFFERED == {"mine": "my_cli_agent:first", "net": "policy:p.npz"}
    for given, fragment in [
        ("mine", "write it NAME=SPEC"),
        ("hard=random", "registered already"),
        ("x=policy:none.npz", "no such file"),
        ("y=grandmaster", "unknown bot 'grandmaster'"),
    ]:
        assert_one_line_error(
            cli(["serve", "--db", db, "--bot", given]), f"--bot {given}", fragment
        )
