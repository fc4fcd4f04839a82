"""The optional package sets: a missing one is named in one line.

The test environment has every extra but ``rl`` installed, so a missing
package is simulated by hiding its import name from ``find_spec``.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from dragonante.extras import EXTRAS, MissingExtra, missing, require
from dragonante.interfaces.cli import app, main


def _hide(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        return None if name in names else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def test_installed_extras_are_found() -> None:
    for extra in EXTRAS:
        assert missing(extra) is None
        require(extra, "a test")


def test_a_missing_package_names_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    _hide(monkeypatch, "matplotlib")
    assert missing("analysis") == "matplotlib"
    with pytest.raises(MissingExtra) as caught:
        require("analysis", "the report")
    assert caught.value.extra == "analysis"
    assert "./dev extra analysis" in str(caught.value)
    assert "pip install 'dragonante[analysis]'" in str(caught.value)


@pytest.mark.parametrize(
    ("argv", "hidden", "lang", "expected"),
    [
        (
            ["analyze", "--games", "1"],
            "numpy",
            "en",
            "error: dragonante analyze needs the optional 'analysis' packages (numpy is not "
            "installed): in a checkout run ./dev extra analysis, otherwise "
            "pip install 'dragonante[analysis]'",
        ),
        (
            ["simulate", "--games", "1", "--scheduler", "tcp://127.0.0.1:1", "--lang", "it"],
            "distributed",
            "it",
            "errore: --scheduler richiede i pacchetti facoltativi 'cluster' (distributed non è "
            "installato): in una copia del progetto esegui ./dev extra cluster, altrimenti "
            "pip install 'dragonante[cluster]'",
        ),
    ],
)
def test_a_command_without_its_extra_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    hidden: str,
    lang: str,
    expected: str,
) -> None:
    _hide(monkeypatch, hidden)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip().splitlines() == [expected]


def test_the_command_line_loads_without_the_research_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every command module imports without numpy, matplotlib or Dask: a
    player's install has none of them."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('numpy', 'matplotlib', 'distributed', 'dask',\n"
        "                                  'gymnasium', 'pettingzoo', 'pyspiel'):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from dragonante.interfaces.cli import main\n"
        "main(['simulate', '--games', '3', '--players', '3'])\n"
    )
    import subprocess

    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    assert "No errors" in run.stdout


def test_help_still_lists_analyze() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "analyze" in result.output
