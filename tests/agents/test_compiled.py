"""The optional compiled observation encoder: its build hook and its loader.

``hatch_build.py`` compiles ``src/dragonante/agents/_fastobs.c`` when the
project is installed, and ``dragonante.agents.compiled`` loads the result
only when it is built, importable and current.  These tests build small
extensions of their own in temporary directories (a few lines of C with
the same ``SOURCE_SHA256`` contract), so they run whether or not the real
C file is in the tree; one test checks the project's own build, and one
runs ``uv build`` on a copy of the project.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import uuid
import zipfile
from pathlib import Path
from typing import Any, cast

import pytest

import hatch_build
from dragonante.agents import compiled

ROOT = Path(__file__).resolve().parents[2]
REAL_SOURCE = ROOT / hatch_build.SOURCE

# A module with the real one's contract: SOURCE_SHA256 from the build hook's
# macro (no macro, no module), and one function to show the code runs.
TINY_SOURCE = r"""
#include <Python.h>
#ifndef FASTOBS_SOURCE_SHA256
#error "FASTOBS_SOURCE_SHA256 must be defined by the build hook"
#endif
static PyObject *add(PyObject *self, PyObject *args) {
    long a, b;
    if (!PyArg_ParseTuple(args, "ll", &a, &b)) return NULL;
    return PyLong_FromLong(a + b);
}
static PyMethodDef methods[] = {{"add", add, METH_VARARGS, "a + b"}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastobs", NULL, -1, methods};
PyMODINIT_FUNC PyInit__fastobs(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddStringConstant(m, "SOURCE_SHA256", FASTOBS_SOURCE_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
"""


def _can_build_extensions() -> bool:
    """Whether this machine compiles a Python extension (compiler and headers)."""
    try:
        compiler = hatch_build.compiler()
    except hatch_build.BuildError:
        return False
    if shutil.which(compiler[0]) is None:
        return False
    scratch = Path(tempfile.mkdtemp(prefix="dragonante-cc-"))
    try:
        source = scratch / "_fastobs.c"
        source.write_text(TINY_SOURCE)
        hatch_build.compile_extension(source, scratch)
    except hatch_build.BuildError:
        return False
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return True


NO_COMPILER = "no working C compiler with Python headers on this machine"


@pytest.fixture(scope="session")
def extensions_build() -> bool:
    """Whether extensions compile here; asked once, before any test changes ``CC``."""
    return _can_build_extensions()


@pytest.fixture
def compiler(extensions_build: bool) -> None:
    if not extensions_build:
        pytest.skip(NO_COMPILER)


needs_compiler = pytest.mark.usefixtures("compiler")


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path]:
    """An importable package of a unique name (extension modules cannot be
    re-imported, so every test gets its own), holding the tiny C source."""
    name = f"fastobs_test_{uuid.uuid4().hex[:12]}"
    directory = tmp_path / name
    directory.mkdir()
    (directory / "__init__.py").write_text("")
    (directory / "_fastobs.c").write_text(TINY_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(compiled.PURE_PYTHON_ENV, raising=False)
    return name, directory


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _hook(root: Path, target: str = "wheel") -> hatch_build.FastObsBuildHook:
    """The build hook as hatchling makes it (it reads only the root and target)."""
    return hatch_build.FastObsBuildHook(
        str(root), {}, cast(Any, None), cast(Any, None), str(root / "dist"), target
    )


def _build_data() -> dict[str, Any]:
    return {"pure_python": True, "infer_tag": False, "force_include": {}}


def _project(tmp_path: Path, source_text: str = TINY_SOURCE) -> Path:
    """A project root with the extension's source at the real relative path."""
    root = tmp_path / "project"
    source = root / hatch_build.SOURCE
    source.parent.mkdir(parents=True)
    source.write_text(source_text)
    return root


# -- the build hook -------------------------------------------------------------


@needs_compiler
def test_compile_extension_builds_a_working_module_carrying_its_source_hash(package):
    name, directory = package
    built = hatch_build.compile_extension(directory / "_fastobs.c", directory)
    assert built == directory / f"_fastobs{hatch_build.extension_suffix()}"
    assert not [p for p in directory.iterdir() if ".tmp" in p.name]  # renamed into place
    loaded = compiled.load(f"{name}._fastobs", directory / "_fastobs.c")
    assert loaded.module is not None, loaded.reason
    built_from = loaded.module.SOURCE_SHA256
    assert built_from == _sha256(directory / "_fastobs.c")
    assert loaded.module.add(2, 40) == 42
    assert loaded.reason.startswith("in use: ")


@needs_compiler
def test_the_c_file_refuses_to_compile_without_the_hash_macro(tmp_path):
    source = tmp_path / "_fastobs.c"
    source.write_text(TINY_SOURCE)
    command = [
        arg
        for arg in hatch_build.compile_command(source, tmp_path / "out.so")
        if not arg.startswith(f"-D{hatch_build.HASH_MACRO}=")
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode != 0
    assert "FASTOBS_SOURCE_SHA256 must be defined" in result.stderr


def test_a_failing_compiler_is_a_one_line_build_error(tmp_path, monkeypatch):
    source = tmp_path / "_fastobs.c"
    source.write_text(TINY_SOURCE)
    monkeypatch.setenv("CC", "false")
    with pytest.raises(hatch_build.BuildError, match=r"^false failed \(exit 1\)") as info:
        hatch_build.compile_extension(source, tmp_path)
    assert "\n" not in str(info.value)
    assert not list(tmp_path.glob("*.so"))


def test_a_missing_compiler_is_a_build_error(tmp_path, monkeypatch):
    source = tmp_path / "_fastobs.c"
    source.write_text(TINY_SOURCE)
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    with pytest.raises(hatch_build.BuildError, match="is not installed"):
        hatch_build.compile_extension(source, tmp_path)


@needs_compiler
def test_a_compile_error_names_the_compilers_first_error(tmp_path):
    source = tmp_path / "_fastobs.c"
    source.write_text(TINY_SOURCE + "\nthis is not C;\n")
    with pytest.raises(hatch_build.BuildError, match="error") as info:
        hatch_build.compile_extension(source, tmp_path)
    assert "\n" not in str(info.value)
    assert not list(tmp_path.glob("*.so"))


@needs_compiler
def test_the_editable_build_puts_the_module_next_to_its_source(tmp_path):
    root = _project(tmp_path)
    data = _build_data()
    hook = _hook(root)
    hook.initialize("editable", data)
    hook.finalize("editable", data, str(root / "dist" / "x.whl"))
    built = (root / hatch_build.SOURCE).with_name(f"_fastobs{hatch_build.extension_suffix()}")
    assert built.is_file()
    # An editable wheel holds only a path entry: nothing to include or tag.
    assert data == _build_data()


@needs_compiler
def test_the_wheel_build_includes_the_module_and_is_platform_tagged(tmp_path):
    root = _project(tmp_path)
    data = _build_data()
    hook = _hook(root)
    hook.initialize("standard", data)
    assert data["pure_python"] is False
    assert data["infer_tag"] is True
    [(built, inside)] = data["force_include"].items()
    assert inside == f"dragonante/agents/_fastobs{hatch_build.extension_suffix()}"
    assert Path(built).is_file()
    assert not list((root / "src").rglob("*.so"))  # the source tree is left alone
    hook.finalize("standard", data, str(root / "dist" / "x.whl"))
    assert not Path(built).exists()


@pytest.mark.parametrize("version", ["standard", "editable"])
def test_without_a_compiler_the_build_warns_once_and_stays_pure_python(
    tmp_path, monkeypatch, capfd, version
):
    root = _project(tmp_path)
    stale = (root / hatch_build.SOURCE).with_name(f"_fastobs{hatch_build.extension_suffix()}")
    stale.write_bytes(b"an older build")
    monkeypatch.setenv("CC", "false")
    data = _build_data()
    hook = _hook(root)
    hook.initialize(version, data)
    hook.finalize(version, data, str(root / "dist" / "x.whl"))
    assert data == _build_data()
    lines = [line for line in capfd.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "compiled observation encoder was not built (false failed" in lines[0]
    # The editable build clears the older build from the tree; a wheel never touches it.
    assert stale.exists() == (version == "standard")


def test_without_the_c_file_the_hook_does_nothing(tmp_path, capfd):
    root = tmp_path / "project"
    root.mkdir()
    for version in ("standard", "editable"):
        data = _build_data()
        hook = _hook(root)
        hook.initialize(version, data)
        hook.finalize(version, data, str(root / "dist" / "x.whl"))
        assert data == _build_data()
    assert capfd.readouterr().err == ""


def test_the_hook_leaves_other_targets_alone(tmp_path, monkeypatch):
    root = _project(tmp_path)
    monkeypatch.setenv("CC", str(tmp_path / "would-fail-if-run"))
    data = _build_data()
    _hook(root, target="sdist").initialize("standard", data)
    assert data == _build_data()


# -- the loader -----------------------------------------------------------------


def test_the_loader_says_when_the_module_is_not_built(package):
    name, directory = package
    loaded = compiled.load(f"{name}._fastobs", directory / "_fastobs.c")
    assert loaded.module is None
    assert loaded.reason.startswith("not built")


@needs_compiler
def test_the_loader_refuses_a_build_from_an_older_c_file(package):
    name, directory = package
    source = directory / "_fastobs.c"
    hatch_build.compile_extension(source, directory)
    source.write_text(TINY_SOURCE + "/* edited after the build */\n")
    loaded = compiled.load(f"{name}._fastobs", source)
    assert loaded.module is None
    assert loaded.reason.startswith("stale: built from an older _fastobs.c")


@needs_compiler
def test_the_loader_trusts_a_build_whose_source_is_not_shipped(package):
    # A wheel carries the module but not the C file: nothing to compare with.
    name, directory = package
    hatch_build.compile_extension(directory / "_fastobs.c", directory)
    (directory / "_fastobs.c").unlink()
    loaded = compiled.load(f"{name}._fastobs", directory / "_fastobs.c")
    assert loaded.module is not None, loaded.reason


@needs_compiler
@pytest.mark.parametrize("value", ["1", "yes"])
def test_the_environment_variable_forces_pure_python(package, monkeypatch, value):
    name, directory = package
    hatch_build.compile_extension(directory / "_fastobs.c", directory)
    monkeypatch.setenv(compiled.PURE_PYTHON_ENV, value)
    loaded = compiled.load(f"{name}._fastobs", directory / "_fastobs.c")
    assert loaded.module is None
    assert loaded.reason == f"DRAGONANTE_PURE_PYTHON={value} is set"
    monkeypatch.setenv(compiled.PURE_PYTHON_ENV, "0")
    assert compiled.load(f"{name}._fastobs", directory / "_fastobs.c").module is not None


def test_the_loader_survives_a_broken_build(package):
    name, directory = package
    (directory / f"_fastobs{hatch_build.extension_suffix()}").write_bytes(b"not a shared object")
    loaded = compiled.load(f"{name}._fastobs", directory / "_fastobs.c")
    assert loaded.module is None
    assert loaded.reason.startswith("cannot be imported: ImportError")


def test_the_loader_refuses_a_module_without_the_source_hash(package):
    name, directory = package
    (directory / "_fastobs.py").write_text("def add(a, b):\n    return a + b\n")
    loaded = compiled.load(f"{name}._fastobs", directory / "_fastobs.c")
    assert loaded.module is None
    assert "has no SOURCE_SHA256" in loaded.reason


def test_the_package_status_is_decided_once_and_printed_by_the_module():
    assert compiled.status() is compiled.status()
    assert compiled.fastobs() is compiled.status().module
    env = {**os.environ, compiled.PURE_PYTHON_ENV: "1"}
    result = subprocess.run(
        [sys.executable, "-m", "dragonante.agents.compiled"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 1
    assert result.stdout == "compiled observation encoder: DRAGONANTE_PURE_PYTHON=1 is set\n"


# -- the project's own build ----------------------------------------------------


@pytest.mark.skipif(
    not REAL_SOURCE.is_file(),
    reason="src/dragonante/agents/_fastobs.c is not in this tree yet (the coordinator adds it)",
)
def test_the_projects_extension_is_built_and_current(extensions_build):
    """Where a compiler works, the synced environment must hold a current build:
    a C file that does not compile, or a build hook that did not run, fails
    here instead of silently leaving everyone on the slow path."""
    if not extensions_build:
        pytest.skip(f"{NO_COMPILER}: the pure-Python encoder is used, as designed")
    loaded = compiled.load(compiled.MODULE, REAL_SOURCE, honour_env=False)
    assert loaded.module is not None, (
        f"the compiled observation encoder is {loaded.reason}; the build hook's warning "
        "says why (uv sync -v --reinstall-package dragonante)"
    )


def test_the_built_encoder_reads_the_engine_that_is_loaded(extensions_build):
    """A built encoder must also be *used*: it reads the engine's classes (the
    pure-Python ones' __slots__ or the compiled ones' getters), and an engine
    whose classes it cannot read would leave every agent on the slow path
    without a word (it did, for a while, after the engine was compiled)."""
    if not extensions_build:
        pytest.skip(f"{NO_COMPILER}: the pure-Python encoder is used, as designed")
    if compiled.fastobs() is None:
        pytest.skip(f"the compiled observation encoder is {compiled.status().reason}")
    from dragonante.agents import state_encoding

    assert state_encoding._FAST is not None, "setup() refused the loaded engine's classes"


# -- a real build with uv -------------------------------------------------------


def _uv() -> str | None:
    """uv as `./dev` finds it: `uv run` says which, else the PATH or .tools."""
    for candidate in (os.environ.get("UV"), shutil.which("uv"), str(ROOT / ".tools/uv/bin/uv")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


@needs_compiler
def test_uv_build_makes_a_platform_wheel_with_the_module_and_an_sdist_with_the_source(
    tmp_path,
):
    uv = _uv()
    if uv is None:
        pytest.skip("uv is not installed (./dev installs it)")
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md", "hatch_build.py", ".gitignore"):
        shutil.copy2(ROOT / name, project / name)
    shutil.copytree(
        ROOT / "src", project / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    source = project / hatch_build.SOURCE
    if not source.is_file():  # the real file is not merged yet: the contract's stand-in
        source.write_text(TINY_SOURCE)
    # The compiled engine has its own tests (tests/test_compiled_engine.py) and
    # takes minutes to build: this wheel is about the encoder.
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "DRAGONANTE_PURE_PYTHON": "1"}
    env.pop("CC", None)
    dist = tmp_path / "dist"
    result = subprocess.run(
        [uv, "build", "--quiet", "--python", sys.executable, "--out-dir", str(dist), str(project)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    [wheel] = dist.glob("*.whl")
    [sdist] = dist.glob("*.tar.gz")
    assert not wheel.name.endswith("-py3-none-any.whl")
    assert f"-cp{sys.version_info.major}{sys.version_info.minor}-" in wheel.name
    module = f"dragonante/agents/_fastobs{hatch_build.extension_suffix()}"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert module in names
        assert "dragonante/agents/_fastobs.c" not in names
        assert (
            "Root-Is-Purelib: false"
            in archive.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
        )
        unpacked = tmp_path / "site"
        archive.extractall(unpacked)
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert str(hatch_build.SOURCE) in members
    assert "hatch_build.py" in members
    assert not [name for name in members if name.endswith(".so")]
    # The installed wheel's module loads and is trusted without its C file.
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "from dragonante.agents import compiled; m, r = compiled.status(); "
            "print(m is not None, m.__file__ if m else r)",
        ],
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(unpacked), compiled.PURE_PYTHON_ENV: ""},
        check=False,
    )
    assert check.returncode == 0, check.stderr
    assert check.stdout.strip() == f"True {unpacked / module}"
