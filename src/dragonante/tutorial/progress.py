"""A tutorial's saved progress: the player's answers, as small JSON.

The deal and the bots are deterministic, so the answers the player gave are
all it takes to rebuild the game, the step reached and the coach's state
exactly (:meth:`~dragonante.tutorial.tutorial.Tutorial.resume`).  The file
also remembers that ``play`` has offered the tutorial once
(:data:`offered`).  It lives where the project keeps its user data: the XDG
data directory (``$XDG_DATA_HOME/dragonante/tutorial.json``, by default
under ``~/.local/share``), beside the web server's default database.

A file that cannot be read, or was saved under other rules
(``rules_version``), is a :class:`ProgressError`: the front end says so and
starts afresh; the player loses a few minutes of tutorial, never a game.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dragonante import RULES_VERSION

FORMAT = "dragonante-tutorial"
FILE_NAME = "tutorial.json"


class ProgressError(ValueError):
    """Saved progress that cannot be used (unreadable, other rules, does not replay)."""


@dataclass(frozen=True, slots=True)
class Progress:
    """The player's answers so far and the step reached (a check on the replay)."""

    answers: tuple[int, ...] = ()
    step: int = 0
    #: Whether the tutorial has been played to its end.
    finished: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules_version": RULES_VERSION,
            "answers": list(self.answers),
            "step": self.step,
            "finished": self.finished,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Progress:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ProgressError(f'not a dragonante tutorial (missing "format": "{FORMAT}")')
        if data.get("rules_version") != RULES_VERSION:
            raise ProgressError("saved under other rules")
        answers = data.get("answers")
        step = data.get("step", 0)
        if not isinstance(answers, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in answers
        ):
            raise ProgressError("answers must be a list of integers")
        if isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise ProgressError("step must be a non-negative integer")
        return cls(tuple(answers), step, bool(data.get("finished", False)))


def default_path() -> Path:
    """``$XDG_DATA_HOME/dragonante/tutorial.json`` (default ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "dragonante" / FILE_NAME


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ProgressError(f"{path}: cannot be read: {e}") from None
    return data if isinstance(data, dict) else {}


def load(path: Path | None = None) -> Progress | None:
    """The saved progress (None if there is none); :class:`ProgressError` if unusable."""
    data = _read(path or default_path())
    if "answers" not in data:
        return None
    return Progress.from_dict(data)


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    tmp.replace(path)


def _was_offered(path: Path) -> bool:
    try:
        return bool(_read(path).get("offered", False))
    except ProgressError:
        return False


def save(progress: Progress, path: Path | None = None) -> None:
    """Write the progress (keeping the ``offered`` mark); ``OSError`` if it cannot."""
    path = path or default_path()
    _write(path, {**progress.to_dict(), "offered": _was_offered(path)})


def try_save(progress: Progress, path: Path | None = None) -> str:
    """:func:`save`, for a front end that goes on anyway: "" when saved, else why
    not (the tutorial can then not be resumed, nothing else is lost)."""
    try:
        save(progress, path)
    except OSError as e:
        return e.strerror or str(e)
    return ""


def clear(path: Path | None = None) -> None:
    """Forget the progress (a restart), keeping the ``offered`` mark."""
    path = path or default_path()
    _write(path, {"format": FORMAT, "offered": _was_offered(path)})


def offered(path: Path | None = None) -> bool:
    """Whether ``play`` has already offered the tutorial (or it was ever started)."""
    try:
        data = _read(path or default_path())
    except ProgressError:
        return True  # a file is there: this is no newcomer
    return bool(data.get("offered")) or "answers" in data


def mark_offered(path: Path | None = None) -> None:
    """Remember that the tutorial was offered, keeping any progress (``OSError``
    if it cannot be written)."""
    path = path or default_path()
    try:
        data = _read(path)
    except ProgressError:
        data = {}
    _write(path, {**data, "format": FORMAT, "offered": True})


__all__ = [
    "FORMAT",
    "Progress",
    "ProgressError",
    "clear",
    "default_path",
    "load",
    "mark_offered",
    "offered",
    "save",
    "try_save",
]
