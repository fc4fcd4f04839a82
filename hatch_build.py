"""Hatchling build hook: compile the optional C observation encoder and the compiled engine.

The engine part: the modules in :data:`ENGINE_MODULES` (the hot path of the
rules, ``dragonante.compiled_engine``) are translated by Cython from their
own ``.py`` files, unchanged, and compiled the same way into
``dragonante/_compiled/`` with a ``manifest.json`` of their sources' hashes;
at import only a build whose hash matches its source is used.  No Cython, or
a failure: one warning line, and the engine runs as pure Python.  The rest of
this docstring is about the encoder; the engine follows the same cases.

``src/dragonante/agents/_fastobs.c`` is a single-file CPython extension
(module ``dragonante.agents._fastobs``) that encodes a seat's observation
straight from the engine state, far faster than pure Python can.  It is
optional: everything works without it (``dragonante.agents.compiled`` falls
back to the pure-Python encoder), so this hook must never make an install
fail.  What it does, for the wheel target only:

* no C file: nothing (a pure-Python package, as before);
* an editable install (what ``uv sync`` and ``./dev`` do): the module is
  compiled next to its source, in the source tree, where the editable
  install's path entry finds it;
* a normal wheel (``uv build``): the module is compiled into a scratch
  directory and put into the wheel, which is then tagged for this
  interpreter and platform (not ``py3-none-any``);
* no compiler, or the compiler fails: one warning line, and the package is
  built pure-Python.

The compiler is the interpreter's own (``sysconfig``'s ``CC``, overridden by
the ``CC`` environment variable as distutils did, so ``CC=false`` simulates a
machine without one), with the interpreter's headers and extension suffix.
The macro ``FASTOBS_SOURCE_SHA256`` carries the sha256 of the C file's bytes
into the module's ``SOURCE_SHA256``, so the loader can tell a build made from
an older C file (edited, not re-synced) from a current one.  ``[tool.uv]
cache-keys`` in ``pyproject.toml`` makes uv rebuild the editable install
when the C file or this hook changes.

The tests call :func:`compile_extension` directly on small sources; it
needs only the standard library.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from hatchling.builders.config import BuilderConfig
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The extension's source, relative to the project root.
SOURCE = Path("src/dragonante/agents/_fastobs.c")
#: Where the built module goes inside the wheel (the source's package).
WHEEL_DIR = "dragonante/agents"
#: The macro that carries the source's sha256 into the module.
HASH_MACRO = "FASTOBS_SOURCE_SHA256"


class BuildError(Exception):
    """The extension could not be compiled; the message is one line saying why."""


#: Where the list of compiled modules is kept (``MODULES``): the finder that
#: imports the builds and this hook read the same list.
FINDER_SOURCE = Path(__file__).resolve().parent / "src/dragonante/compiled_engine.py"


def listed_modules(source: Path = FINDER_SOURCE) -> tuple[str, ...]:
    """The engine modules, and the search bot's hot ones, compiled from their own
    source: ``dragonante.compiled_engine.MODULES``, read from that file's text
    (the package cannot be imported while it is being built)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "MODULES"
            and node.value is not None
        ):
            value = ast.literal_eval(node.value)
            if isinstance(value, tuple) and all(isinstance(m, str) for m in value):
                return value
    raise BuildError(f"no MODULES tuple of names in {source.name}")


ENGINE_MODULES = listed_modules()
#: Where the compiled engine goes, relative to the project root / inside the wheel.
ENGINE_DIR = Path("src/dragonante/_compiled")
ENGINE_WHEEL_DIR = "dragonante/_compiled"
ENGINE_MANIFEST = "manifest.json"
#: A compile of one small file takes a second or two; a hung compiler must
#: not hang the install.
TIMEOUT_SECONDS = 300


def source_sha256(source: Path) -> str:
    """The hex sha256 of the file's bytes (what the loader compares against)."""
    return hashlib.sha256(source.read_bytes()).hexdigest()


def module_sha256(source: Path) -> str:
    """What an engine module's build is made from: its ``.py`` file, and the
    ``.pxd`` beside it when there is one (its declarations for the compiler);
    the same function as ``dragonante.compiled_engine.module_sha256``."""
    pxd = source.with_suffix(".pxd")
    if not pxd.is_file():
        return source_sha256(source)
    return hashlib.sha256(source.read_bytes() + b"\0" + pxd.read_bytes()).hexdigest()


def extension_suffix() -> str:
    """This interpreter's suffix for extension modules, e.g.
    ``.cpython-311-x86_64-linux-gnu.so``."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not isinstance(suffix, str) or not suffix:
        raise BuildError("this Python does not say how extension modules are named (EXT_SUFFIX)")
    return suffix


def compiler() -> list[str]:
    """The C compiler command: ``$CC`` if set, else the one this Python was built with."""
    configured = os.environ.get("CC") or sysconfig.get_config_var("CC")
    if not isinstance(configured, str) or not configured.strip():
        raise BuildError("no C compiler is configured for this Python (sysconfig has no CC)")
    return shlex.split(configured)


def include_dirs() -> list[str]:
    """Python.h's directory, and pyconfig.h's where a distribution keeps it apart."""
    paths = sysconfig.get_paths()
    dirs: list[str] = []
    for key in ("include", "platinclude"):
        path = paths.get(key)
        if path and path not in dirs:
            dirs.append(path)
    return dirs


def compile_command(source: Path, output: Path, *, hash_macro: bool = True) -> list[str]:
    """The one compile-and-link command that turns ``source`` into ``output``
    (``hash_macro``: define :data:`HASH_MACRO` as the source's hash)."""
    link = ["-bundle", "-undefined", "dynamic_lookup"] if sys.platform == "darwin" else ["-shared"]
    return [
        *compiler(),
        "-O2",
        "-fPIC",
        "-DNDEBUG",
        *(f"-I{path}" for path in include_dirs()),
        *([f'-D{HASH_MACRO}="{source_sha256(source)}"'] if hash_macro else []),
        *shlex.split(os.environ.get("CFLAGS", "")),
        *link,
        str(source),
        "-o",
        str(output),
    ]


def _first_error(output: str) -> str:
    """The compiler's most telling line: its first error, else its last line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in lines:
        if "error" in line.lower():
            return line
    return lines[-1] if lines else "no output"


def compile_extension(
    source: Path, target_dir: Path, *, name: str | None = None, hash_macro: bool = True
) -> Path:
    """Compile ``source`` into ``target_dir/<name><EXT_SUFFIX>`` and return that path
    (``name``: the source's stem unless given).

    The module is written under a temporary name and then renamed into place,
    so a process that has the previous build loaded keeps a valid file.
    Raises :class:`BuildError` (one line) when there is no compiler or it fails.
    """
    stem = name or source.stem
    target = target_dir / f"{stem}{extension_suffix()}"
    scratch = target_dir / f"{stem}.tmp{os.getpid()}{extension_suffix()}"
    command = compile_command(source, scratch, hash_macro=hash_macro)
    name = Path(command[0]).name
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False
        )
    except FileNotFoundError:
        raise BuildError(f"the C compiler {command[0]!r} is not installed") from None
    except subprocess.TimeoutExpired:
        scratch.unlink(missing_ok=True)
        raise BuildError(f"{name} took more than {TIMEOUT_SECONDS} s") from None
    except OSError as exc:
        raise BuildError(f"cannot run {command[0]!r}: {exc.strerror or exc}") from None
    if result.returncode != 0 or not scratch.is_file():
        scratch.unlink(missing_ok=True)
        detail = _first_error(result.stderr + result.stdout)
        raise BuildError(f"{name} failed (exit {result.returncode}): {detail}")
    os.replace(scratch, target)
    return target


def built_modules(package_dir: Path, stem: str) -> list[Path]:
    """Every build of ``stem`` for this interpreter in ``package_dir``."""
    return [path for path in package_dir.glob(f"{stem}*{extension_suffix()}") if path.is_file()]


def cython_command(
    module: str, source: Path, output: Path, include: Path | None = None
) -> list[str]:
    """Translate one engine module to C with Cython, every Python semantic kept:
    ``annotation_typing=False`` so that an ``int`` annotation never becomes a C
    type or a type check (the compiled module accepts exactly what its source does).
    The only types are those of the ``.pxd`` files beside the modules, found
    (for ``cimport``) under ``include``, the source root."""
    return [
        sys.executable,
        "-m",
        "cython",
        "-3",
        "-X",
        "annotation_typing=False",
        *(["-I", str(include)] if include is not None else []),
        "--module-name",
        module,
        str(source),
        "-o",
        str(output),
    ]


def compile_engine(
    root: Path, target_dir: Path, modules: tuple[str, ...] = ENGINE_MODULES
) -> list[Path]:
    """Compile ``modules`` (import names under ``root/src``) from their own ``.py``
    files into ``target_dir`` (``<module><EXT_SUFFIX>``) and write its
    ``manifest.json`` (each source's sha256, what ``dragonante.compiled_engine``
    checks before it imports a build).

    Raises :class:`BuildError` when Cython is missing or a module fails; then
    nothing of this build is left in ``target_dir`` (no manifest: pure Python).
    """
    try:
        import Cython  # noqa: F401  (only to tell a missing Cython from a failing one)
    except ImportError:
        raise BuildError("Cython is not installed in the build environment") from None
    target_dir.mkdir(parents=True, exist_ok=True)
    (target_dir / ENGINE_MANIFEST).unlink(missing_ok=True)
    built: list[Path] = []
    hashes: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="dragonante-cython-") as scratch:

        def one(module: str) -> Path:
            source = root / "src" / Path(*module.split(".")).with_suffix(".py")
            c_file = Path(scratch) / f"{module}.c"
            # Hashed before it is read: an edit during the build makes it stale, never wrong.
            digest = module_sha256(source)
            result = subprocess.run(
                cython_command(module, source, c_file, root / "src"),
                capture_output=True,
                text=True,
                timeout=TIMEOUT_SECONDS,
                check=False,
            )
            if result.returncode != 0 or not c_file.is_file():
                detail = _first_error(result.stderr + result.stdout)
                raise BuildError(f"Cython failed on {module}: {detail}")
            hashes[module] = digest
            return compile_extension(c_file, target_dir, name=module, hash_macro=False)

        try:
            with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
                built = list(pool.map(one, modules))
        except (BuildError, subprocess.TimeoutExpired, OSError) as exc:
            for module in modules:
                (target_dir / f"{module}{extension_suffix()}").unlink(missing_ok=True)
            if isinstance(exc, BuildError):
                raise
            raise BuildError(f"the engine's compile failed: {exc}") from None
    manifest = {"modules": hashes}
    (target_dir / ENGINE_MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return built


class FastObsBuildHook(BuildHookInterface[BuilderConfig]):
    """Compile ``_fastobs.c`` and the engine for the wheel and editable builds
    (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Build the extensions before hatchling collects the wheel's files."""
        self._scratch: str | None = None
        if self.target_name != "wheel":
            return
        editable = version == "editable"
        if not editable:
            self._scratch = tempfile.mkdtemp(prefix="dragonante-build-")
        self._build_fastobs(editable, build_data)
        self._build_engine(editable, build_data)

    def _build_fastobs(self, editable: bool, build_data: dict[str, Any]) -> None:
        source = Path(self.root) / SOURCE
        if not source.is_file():
            return
        target_dir = source.parent if editable else Path(str(self._scratch))
        try:
            built = compile_extension(source, target_dir)
        except BuildError as exc:
            if editable:
                # An older build left in the tree would be loaded by nobody
                # (its hash is stale) but would confuse whoever looks.
                for old in built_modules(target_dir, source.stem):
                    old.unlink(missing_ok=True)
            self.app.display_warning(
                f"dragonante: the compiled observation encoder was not built ({exc}); "
                "building a pure-Python package instead (it works the same, "
                "with slower observations)"
            )
            return
        if not editable:
            build_data["force_include"][str(built)] = f"{WHEEL_DIR}/{built.name}"
            self._tag_platform(build_data)

    def _build_engine(self, editable: bool, build_data: dict[str, Any]) -> None:
        """The compiled engine (``dragonante.compiled_engine``); pure Python when it fails.

        ``DRAGONANTE_PURE_PYTHON=1`` at install skips it (a quicker install)."""
        if os.environ.get("DRAGONANTE_PURE_PYTHON", "").strip() not in ("", "0"):
            return
        root = Path(self.root)
        if not (root / "src" / "dragonante" / "engine" / "flow.py").is_file():
            return
        target_dir = root / ENGINE_DIR if editable else Path(str(self._scratch)) / "_compiled"
        try:
            built = compile_engine(root, target_dir, ENGINE_MODULES)
        except BuildError as exc:
            self.app.display_warning(
                f"dragonante: the compiled engine was not built ({exc}); "
                "the engine runs as pure Python (the same games, slower)"
            )
            return
        if not editable:
            for path in [*built, target_dir / ENGINE_MANIFEST]:
                build_data["force_include"][str(path)] = f"{ENGINE_WHEEL_DIR}/{path.name}"
            self._tag_platform(build_data)

    @staticmethod
    def _tag_platform(build_data: dict[str, Any]) -> None:
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the scratch directory once the wheel holds the module."""
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
            self._scratch = None
