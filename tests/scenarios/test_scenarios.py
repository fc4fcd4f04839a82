"""Every rules scenario under tests/scenarios passes (one test per file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dragonante.scenarios import load, run

HERE = Path(__file__).resolve().parent
FILES = sorted(HERE.rglob("*.toml"))


def test_there_are_scenarios() -> None:
    assert FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(HERE)))
def test_scenario(path: Path) -> None:
    result = run(load(path))
    assert result.passed, "\n".join(result.failures)
