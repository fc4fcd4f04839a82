"""The plain prompts over a local game: ``play --plain``'s session.

Its own module so that ``learn``, whose tutorial draws these prompts, and
``play``, which offers the tutorial to a newcomer, do not import each other.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from dragonante.bots.hint import HINT_ITERS
from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError
from dragonante.interfaces.cli.plain_table import PlainTable
from dragonante.interfaces.launch import command
from dragonante.interfaces.local_source import LocalSource
from dragonante.interfaces.narrate import Narrator
from dragonante.interfaces.session import LocalGame
from dragonante.interfaces.table_record import TableSeats, record_text


def is_terminal(stream: object) -> bool:
    """Whether ``stream`` is a terminal; anything else (a pipe, a file, a test's
    stand-in without ``isatty``) gets the plain prompts."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (OSError, ValueError):  # a closed stream
        return False


class PlaySession(PlainTable):
    """The plain prompts over a local game (:class:`PlainTable` drawing a
    :class:`~dragonante.interfaces.local_source.LocalSource`): the record saved
    after every answer, the time limit's last gambit, the note on leaving."""

    #: The search budget of a hint (tests ask for fewer iterations).
    hint_iters = HINT_ITERS

    def __init__(
        self,
        game: LocalGame,
        narrator: Narrator,
        record: Path | None,
        stdin: TextIO,
        time_limit_minutes: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(LocalSource(game, narrator, self.hint_iters), stdin)
        self.game = game
        #: Emperor's Gambit optional rule 5: when this clock time is reached,
        #: the current gambit is followed by exactly one more.
        self.deadline = clock() + 60 * time_limit_minutes if time_limit_minutes > 0 else None
        self.clock = clock
        self.record_path = record
        #: Who sits where, saved with the record (``play --resume``, ``replay``).
        self.seating: TableSeats | None = None

    def save(self) -> None:
        """Write the record (if asked): after every answer, so nothing is lost."""
        if self.record_path is None:
            return
        try:
            self.record_path.write_text(
                record_text(self.game.record, self.seating), encoding="utf-8"
            )
        except OSError as e:
            reason = e.strerror or str(e)
            raise UserError(
                t("cli.error.record_write", self.lang, path=str(self.record_path), reason=reason)
            ) from None

    def before_answer(self) -> None:
        self.check_clock()

    def after_answer(self) -> None:
        self.save()

    def on_hang_up(self) -> None:
        if self.record_path is not None:
            self.save()

    def on_leave(self) -> None:
        if self.record_path is not None:
            self.save()
            path = str(self.record_path)
            self.say(t("play.record_saved", self.lang, path=path, command=command("replay", path)))
            if not self.game.over:
                self.say(
                    t("play.resume_hint", self.lang, command=command("play", "--resume", path))
                )

    def check_clock(self) -> None:
        """Call the last gambit once the time limit has run out (recorded)."""
        if self.deadline is not None and self.clock() >= self.deadline:
            self.deadline = None
            self.game.call_last_gambit()


__all__ = ["PlaySession", "is_terminal"]
