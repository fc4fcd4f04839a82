"""The quick start sets itself up on a distribution's own Python (PEP 668).

Debian's and Ubuntu's ``python3`` refuse ``pip install`` outside a virtual
environment ("externally-managed-environment"), which once stopped ``./dev``
at once.  ``./dev`` now installs uv into ``.tools/uv``, a virtual environment
of the project's own, when no uv is at hand.  This test copies the project,
hides every uv (PATH is only the system's, no user site), and runs ``./dev``
with the distribution's Python, as a new user on such a system would.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DISTRO_PYTHON = Path("/usr/bin/python3")
SYSTEM_PATH = "/usr/bin:/bin"


def _externally_managed() -> bool:
    """Whether the system's python3 is a PEP 668 distribution Python."""
    if not DISTRO_PYTHON.exists():
        return False
    stdlib = subprocess.run(
        [str(DISTRO_PYTHON), "-c", "import sysconfig; print(sysconfig.get_path('stdlib'))"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return bool(stdlib) and (Path(stdlib) / "EXTERNALLY-MANAGED").exists()


def _clean_env() -> dict[str, str]:
    """This environment without any uv, virtual environment or user site in reach."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("UV_", "VIRTUAL_ENV", "PYTHON", "CONDA")) and k != "PATH"
    }
    env["PATH"] = SYSTEM_PATH
    env["PYTHONNOUSERSITE"] = "1"
    return env


def _copy_project(dest: Path) -> None:
    # What a clone has: the build hook too (the compiled encoder's), and no
    # module built here (the copy's own install builds it, or does without).
    for name in ("dev", "pyproject.toml", "uv.lock", "README.md", "hatch_build.py"):
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(
        ROOT / "src",
        dest / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd"),
    )


@pytest.mark.skipif(
    not _externally_managed(), reason="no externally-managed distribution python3 here"
)
@pytest.mark.skipif(
    shutil.which("uv", path=SYSTEM_PATH) is not None, reason="uv is installed system-wide"
)
def test_dev_sets_itself_up_on_the_distribution_python(tmp_path: Path) -> None:
    env = _clean_env()
    # the situation: the distribution's pip refuses to install for the user
    refused = subprocess.run(
        [str(DISTRO_PYTHON), "-m", "pip", "install", "--user", "--dry-run", "uv"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert refused.returncode != 0
    assert "externally-managed-environment" in refused.stdout + refused.stderr
    _copy_project(tmp_path)
    run = subprocess.run(
        ["./dev", "run", "skill-check", "--roll", "15", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout)
    assert result["total"] == 15 and result["success"] is True  # medium: DC 15
    assert (tmp_path / ".tools" / "uv" / "bin" / "uv").exists()
    # the game runs on the distribution's Python, in the project's own .venv
    cfg = (tmp_path / ".venv" / "pyvenv.cfg").read_text()
    assert "home = /usr/bin" in cfg
    # ``play`` and ``run`` install the player's set only: no research stack
    site = next((tmp_path / ".venv" / "lib").glob("python3*/site-packages"))
    for heavy in ("numpy", "matplotlib", "gymnasium", "pyspiel", "distributed", "pytest", "mypy"):
        assert not (site / heavy).exists(), f"{heavy} is in a player's install"
    assert _size_mb(tmp_path / ".venv") < 150
    # the caller's working directory is kept: a relative path is the caller's
    here = tmp_path / "my games"
    here.mkdir()
    shutil.copy2(ROOT / "tests" / "scenarios" / "rulebook" / "game_play_example.toml", here)
    scenario = _run(["../dev", "run", "scenario", "run", "game_play_example.toml"], here, env)
    assert scenario.returncode == 0, scenario.stdout + scenario.stderr
    assert "1 passed, 0 failed" in scenario.stdout
    # the hints say ``dragonante ...``: ``./dev run dragonante ...`` works too
    named = _run(
        ["./dev", "run", "dragonante", "skill-check", "--roll", "15", "--json"], tmp_path, env
    )
    assert named.returncode == 0, named.stderr
    # a command that needs an extra names it, in one line
    analyze = _run(["./dev", "run", "analyze", "--games", "1"], tmp_path, env)
    assert analyze.returncode == 2
    assert analyze.stderr.strip().splitlines() == [
        "error: dragonante analyze needs the optional 'analysis' packages (numpy is not "
        "installed): in a checkout run ./dev extra analysis, otherwise "
        "pip install 'dragonante[analysis]'"
    ]


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``argv`` run in ``cwd`` with ``env``, its output captured as text."""
    return subprocess.run(
        argv, cwd=cwd, capture_output=True, text=True, env=env, timeout=120, check=False
    )


def _size_mb(folder: Path) -> float:
    """The bytes of the files under ``folder``, in MB."""
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1e6
