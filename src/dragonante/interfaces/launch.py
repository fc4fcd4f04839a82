"""How the player started this program, so a hint names a command they can type.

A player who installed the package types ``dragonante replay FILE``; a
player in a checkout who started the table with ``./dev play`` has no
``dragonante`` on their path and must type ``./dev run replay FILE``.
``./dev`` runs the command through ``uv run`` (which marks its children
with ``UV_RUN_RECURSION_DEPTH``) from the checkout holding the ``dev``
script, so that pair tells the two apart; so does a checkout whose
``dragonante`` is on no ``PATH`` (the program was started some other way than
by typing its name).  ``DRAGONANTE_LAUNCHER`` names the prefix outright for
any other wrapper.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

#: The checkout's root when running from one (``src/dragonante/interfaces/launch.py``).
CHECKOUT = Path(__file__).resolve().parents[3]


def launcher(environ: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    """The words that start a ``dragonante`` sub-command as this player types it."""
    env = os.environ if environ is None else environ
    named = env.get("DRAGONANTE_LAUNCHER", "").strip()
    if named:
        return named
    dev = CHECKOUT / "dev"
    through_dev = env.get("UV_RUN_RECURSION_DEPTH") or not shutil.which(
        "dragonante", path=env.get("PATH", "")
    )
    if through_dev and dev.is_file():
        here = (cwd or Path.cwd()).resolve()
        try:
            rel = os.path.relpath(dev, here)
        except ValueError:  # another drive (Windows)
            rel = str(dev)
        if not rel.startswith(("/", "..")):
            rel = "./" + rel
        return f"{rel} run"
    return "dragonante"


def command(*args: str, environ: dict[str, str] | None = None) -> str:
    """A whole command line to show: ``command("replay", "game.json")``."""
    return " ".join([launcher(environ), *(shlex.quote(a) for a in args)])
