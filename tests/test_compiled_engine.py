"""The optional compiled engine: the build hook compiles the engine's own source,
the finder imports a build only while it is current, and the games are the same.

``hatch_build.compile_engine`` runs Cython on unchanged ``.py`` files, and
``dragonante.compiled_engine`` puts a finder in front of the import system
that takes a module from its build only when the build's manifest hash is
its source's hash.  The tests that build use a tiny package of their own (a
build of the real engine takes minutes); the project's own build is checked
as installed, and the golden digests are checked in both modes.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

import hatch_build
from dragonante import compiled_engine

ROOT = Path(__file__).resolve().parents[1]


def _cython() -> bool:
    try:
        import Cython  # noqa: F401
    except ImportError:
        return False
    try:
        return shutil.which(hatch_build.compiler()[0]) is not None
    except hatch_build.BuildError:
        return False


needs_cython = pytest.mark.skipif(not _cython(), reason="no Cython or no C compiler here")


def test_the_build_hook_and_the_finder_list_the_same_modules():
    assert hatch_build.ENGINE_MODULES == compiled_engine.MODULES
    for module in compiled_engine.MODULES:
        assert compiled_engine.source_path(module).is_file(), module


def test_the_build_hook_reads_the_list_from_the_finders_source(tmp_path):
    assert hatch_build.listed_modules() == compiled_engine.MODULES
    source = tmp_path / "compiled_engine.py"
    source.write_text('MODULES: tuple[str, ...] = ("a.b", "c.d")\n')
    assert hatch_build.listed_modules(source) == ("a.b", "c.d")
    source.write_text("MODULES = None\n")
    with pytest.raises(hatch_build.BuildError, match="no MODULES tuple"):
        hatch_build.listed_modules(source)


def _fake_build(build: Path, hashes: dict[str, str]) -> None:
    build.mkdir(parents=True, exist_ok=True)
    (build / compiled_engine.MANIFEST).write_text(json.dumps({"modules": hashes}))
    for module in hashes:
        compiled_engine.built_path(module, build).write_bytes(b"a build")


def _current_hashes() -> dict[str, str]:
    return {
        m: compiled_engine.module_sha256(compiled_engine.source_path(m))
        for m in compiled_engine.MODULES
    }


def test_without_a_build_every_module_is_pure_and_says_why(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled_engine.PURE_PYTHON_ENV, raising=False)
    status = compiled_engine.survey(tmp_path / "none")
    assert status.compiled == ()
    assert set(status.pure) == set(compiled_engine.MODULES)
    assert all(why.startswith("not built") for why in status.pure.values())


def test_a_current_build_is_used_and_a_stale_or_missing_one_is_not(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled_engine.PURE_PYTHON_ENV, raising=False)
    hashes = _current_hashes()
    flow, rng, core = "dragonante.engine.flow", "dragonante.kernel.rng", "dragonante.engine.core"
    hashes[flow] = "0" * 64  # built from an older flow.py
    _fake_build(tmp_path, hashes)
    compiled_engine.built_path(rng, tmp_path).unlink()  # built for another interpreter
    del hashes[core]
    (tmp_path / compiled_engine.MANIFEST).write_text(json.dumps({"modules": hashes}))
    status = compiled_engine.survey(tmp_path)
    assert status.pure[flow].startswith("stale")
    assert status.pure[rng].startswith("not built for this interpreter")
    assert status.pure[core] == "not in the build's manifest"
    # A build that cimports one of them (state.pxd's GameState...) cannot run beside it.
    dependents = set(status.pure) - {flow, rng, core}
    assert all(status.pure[m].startswith("its build needs") for m in dependents)
    assert set(status.compiled) == set(compiled_engine.MODULES) - {flow, rng, core} - dependents
    for module in status.compiled:
        assert set(compiled_engine.cimports(module)) <= set(status.compiled), module


@pytest.mark.parametrize("value", ["1", "yes"])
def test_the_environment_variable_forces_pure_python(tmp_path, monkeypatch, value):
    _fake_build(tmp_path, _current_hashes())
    monkeypatch.setenv(compiled_engine.PURE_PYTHON_ENV, value)
    status = compiled_engine.survey(tmp_path)
    assert status.compiled == ()
    assert set(status.pure.values()) == {f"DRAGONANTE_PURE_PYTHON={value} is set"}
    monkeypatch.setenv(compiled_engine.PURE_PYTHON_ENV, "0")
    assert set(compiled_engine.survey(tmp_path).compiled) == set(compiled_engine.MODULES)


@needs_cython
def test_compile_engine_builds_a_module_from_its_source_that_the_finder_imports(
    tmp_path, monkeypatch
):
    package = f"engine_build_test_{uuid.uuid4().hex[:12]}"
    source_dir = tmp_path / "src" / package
    source_dir.mkdir(parents=True)
    (source_dir / "__init__.py").write_text("")
    # An annotation is not a C type: the compiled function takes what the source takes.
    (source_dir / "rules.py").write_text(
        "def double(x: int) -> int:\n    return x * 2\n\nWHERE = __name__\n"
    )
    module = f"{package}.rules"
    build = tmp_path / "build"
    [built] = hatch_build.compile_engine(tmp_path, build, (module,))
    assert built == build / f"{module}{hatch_build.extension_suffix()}"
    manifest = json.loads((build / hatch_build.ENGINE_MANIFEST).read_text())
    assert manifest == {"modules": {module: hatch_build.source_sha256(source_dir / "rules.py")}}
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    finder = compiled_engine.CompiledFinder({module: built})
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    rules = importlib.import_module(module)
    assert rules.__file__ == str(built)
    assert module == rules.WHERE
    assert rules.double(21) == 42
    assert rules.double(1.5) == 3.0  # no C int: Python semantics kept
    assert rules.double("ab") == "abab"


@needs_cython
def test_a_failing_module_leaves_no_build_behind(tmp_path):
    source_dir = tmp_path / "src" / "broken_pkg"
    source_dir.mkdir(parents=True)
    (source_dir / "__init__.py").write_text("")
    (source_dir / "good.py").write_text("X = 1\n")
    (source_dir / "bad.py").write_text("def f(:\n")
    build = tmp_path / "build"
    with pytest.raises(hatch_build.BuildError, match=r"Cython failed on broken_pkg\.bad"):
        hatch_build.compile_engine(tmp_path, build, ("broken_pkg.good", "broken_pkg.bad"))
    assert not list(build.iterdir())


def test_the_hook_skips_the_engine_when_pure_python_is_asked_for(tmp_path, monkeypatch):
    root = tmp_path / "project"
    (root / "src" / "dragonante" / "engine").mkdir(parents=True)
    (root / "src" / "dragonante" / "engine" / "flow.py").write_text("X = 1\n")
    monkeypatch.setenv("DRAGONANTE_PURE_PYTHON", "1")
    monkeypatch.setattr(
        hatch_build, "compile_engine", lambda *a: pytest.fail("compiled despite the variable")
    )
    hook = hatch_build.FastObsBuildHook(str(root), {}, None, None, str(root / "dist"), "wheel")  # type: ignore[arg-type]
    data = {"pure_python": True, "infer_tag": False, "force_include": {}}
    hook.initialize("editable", data)
    assert data == {"pure_python": True, "infer_tag": False, "force_include": {}}


def test_the_projects_engine_build_is_complete_and_current():
    if not _cython() and compiled_engine.status().compiled == ():
        pytest.skip("no Cython or no C compiler here: the engine runs as pure Python")
    if compiled_engine.pure_python_forced():
        pytest.skip("DRAGONANTE_PURE_PYTHON is set")
    status = compiled_engine.survey()
    assert status.pure == {}, (
        "the compiled engine is missing or stale for some modules; the build hook "
        "says why (uv sync -v --reinstall-package dragonante)"
    )
    flow = importlib.import_module("dragonante.engine.flow")
    assert flow.__file__ == str(compiled_engine.built_path("dragonante.engine.flow"))


def _python(pure: str, *args: str) -> str:
    """Run this interpreter with ``args`` in a process compiled (``pure="0"``) or
    pure (``"1"``); its standard output (it must succeed)."""
    env = {**os.environ, compiled_engine.PURE_PYTHON_ENV: pure}
    result = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("pure", ["0", "1"])
def test_the_golden_games_are_identical_compiled_and_pure(pure):
    probe = "from dragonante import compiled_engine as c; print(c.engine_build())"
    build = _python(pure, "-c", probe)
    if pure == "1":
        assert build.strip() == "pure"
    assert "all digests match" in _python(pure, "-m", "tests.golden")


#: One seeded game of the compiled bots against each other; prints its record's digest
#: and whether the search's module was the compiled one.
_BOT_GAME = """
from dragonante.bots import make_bot
from dragonante.bots.base import SeatView
from dragonante.engine.config import GameConfig
from dragonante.engine.game import apply, new_game
from dragonante.engine.records import digest
import dragonante.bots.ismcts as ismcts
specs = ["ismcts:iters=40", "heuristic", "learned", "swift:iters=20"]
s = new_game(GameConfig(players=4), 5)
bots = [make_bot(spec, 11 + p) for p, spec in enumerate(specs)]
while s.pending is not None:
    d = s.pending
    apply(s, bots[d.seat].choose(SeatView(s, d.seat)), d.id)
print(digest(s), ismcts.__file__.endswith(".py"))
"""


def test_the_bots_play_the_same_game_compiled_and_pure():
    """The search, the heuristic and the learned bot are compiled too (``MODULES``):
    a compiled bot must choose exactly what its source chooses."""
    runs = {pure: _python(pure, "-c", _BOT_GAME).split() for pure in ("0", "1")}
    assert runs["1"][1] == "True"  # the pure run ran the source
    if "dragonante.bots.ismcts" in compiled_engine.status().compiled:
        assert runs["0"][1] == "False"
    assert runs["0"][0] == runs["1"][0]


@needs_cython
def test_the_wheel_build_ships_the_compiled_engine_and_its_manifest(tmp_path, monkeypatch):
    root = tmp_path / "project"
    flow = root / "src" / "dragonante" / "engine" / "flow.py"
    flow.parent.mkdir(parents=True)
    for package in (flow.parent.parent, flow.parent):
        (package / "__init__.py").write_text("")
    flow.write_text("X = 1\n")
    monkeypatch.delenv("DRAGONANTE_PURE_PYTHON", raising=False)
    monkeypatch.setattr(hatch_build, "ENGINE_MODULES", ("dragonante.engine.flow",))
    hook = hatch_build.FastObsBuildHook(str(root), {}, None, None, str(root / "dist"), "wheel")  # type: ignore[arg-type]
    data: dict[str, Any] = {"pure_python": True, "infer_tag": False, "force_include": {}}
    hook.initialize("standard", data)
    inside = set(data["force_include"].values())
    suffix = hatch_build.extension_suffix()
    assert inside == {
        f"dragonante/_compiled/dragonante.engine.flow{suffix}",
        "dragonante/_compiled/manifest.json",
    }
    assert data["pure_python"] is False and data["infer_tag"] is True
    assert not (root / hatch_build.ENGINE_DIR).exists()  # the source tree is left alone
    hook.finalize("standard", data, str(root / "dist" / "x.whl"))
    assert not any(Path(p).exists() for p in data["force_include"])
