"""Hatchling build hook: compile the optional C observation encoder.

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

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
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
#: A compile of one small file takes a second or two; a hung compiler must
#: not hang the install.
TIMEOUT_SECONDS = 300


class BuildError(Exception):
    """The extension could not be compiled; the message is one line saying why."""


def source_sha256(source: Path) -> str:
    """The hex sha256 of the file's bytes (what the loader compares against)."""
    return hashlib.sha256(source.read_bytes()).hexdigest()


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


def compile_command(source: Path, output: Path) -> list[str]:
    """The one compile-and-link command that turns ``source`` into ``output``."""
    link = ["-bundle", "-undefined", "dynamic_lookup"] if sys.platform == "darwin" else ["-shared"]
    return [
        *compiler(),
        "-O2",
        "-fPIC",
        "-DNDEBUG",
        *(f"-I{path}" for path in include_dirs()),
        f'-D{HASH_MACRO}="{source_sha256(source)}"',
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


def compile_extension(source: Path, target_dir: Path) -> Path:
    """Compile ``source`` into ``target_dir/<stem><EXT_SUFFIX>`` and return that path.

    The module is written under a temporary name and then renamed into place,
    so a process that has the previous build loaded keeps a valid file.
    Raises :class:`BuildError` (one line) when there is no compiler or it fails.
    """
    target = target_dir / f"{source.stem}{extension_suffix()}"
    scratch = target_dir / f"{source.stem}.tmp{os.getpid()}{extension_suffix()}"
    command = compile_command(source, scratch)
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


class FastObsBuildHook(BuildHookInterface[BuilderConfig]):
    """Compile ``_fastobs.c`` for the wheel and editable builds (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Build the extension before hatchling collects the wheel's files."""
        self._scratch: str | None = None
        source = Path(self.root) / SOURCE
        if self.target_name != "wheel" or not source.is_file():
            return
        editable = version == "editable"
        if editable:
            target_dir = source.parent
        else:
            self._scratch = tempfile.mkdtemp(prefix="dragonante-build-")
            target_dir = Path(self._scratch)
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
            build_data["pure_python"] = False
            build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the scratch directory once the wheel holds the module."""
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
            self._scratch = None
