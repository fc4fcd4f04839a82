"""``play --join --plain``: a seat on a server, played at the plain prompts.

The same loop as a local ``play --plain``
(:class:`~dragonante.interfaces.cli.plain_table.PlainTable`), drawing an
:class:`~dragonante.interfaces.online_source.OnlineSource`: the server
deals, checks every answer and plays the bots; the prompts show what the
seat's frames carry.  What only a server's table has is here: before the
start the lobby (who sits where, told again as it fills); the host (the
terminal that made the table with ``--create``) fills the free seats with
bots (``b``) and starts (``g``), a guest waits for the host; on leaving,
the line to come back to the seat.
"""

from __future__ import annotations

from typing import TextIO

from dragonante.i18n import t
from dragonante.interfaces.cli.plain_table import QUIT_WORDS, PlainTable
from dragonante.interfaces.online_source import OnlineSource
from dragonante.interfaces.tui.lobby import JoinError, manage


class JoinPlainTable(PlainTable):
    """The plain prompts at one seat of a server's table."""

    def __init__(self, source: OnlineSource, stdin: TextIO, bot_level: str = "medium") -> None:
        super().__init__(source, stdin)
        self.online = source
        self.bot_level = bot_level

    def _loop(self) -> int:
        hosting = self.online.seating.host is not None and not self.online.started
        if hosting and not self.host_lobby():
            self.say(t("play.quit", self.lang))
            self.on_leave()
            return 0
        return super()._loop()

    def host_lobby(self) -> bool:
        """Before the start, for the host: ``b`` bots, ``g`` start, Enter the lobby
        again, ``q`` leave (False).  True once the game is started."""
        lang = self.lang
        self.say(t("join.plain.waiting", lang))
        while not self.online.started:
            self.tell_notes()
            word = self.read(t("join.plain.lobby_input", lang)).lower()
            if word in QUIT_WORDS:
                return False
            if word == "b":
                self.manage("fill_bots")
            elif word == "g":
                if self.manage("start"):
                    return True
            elif word:
                self.say(t("join.plain.lobby_bad", lang, text=word))
            else:
                for line in self.online.remote.lobby_lines():
                    self.say(line)
        return True

    def manage(self, what: str) -> bool:
        """Fill the free seats with bots, or start, with the host's token; a refusal
        is one line (False)."""
        try:
            manage(self.online.seating, what, self.bot_level)
        except JoinError as e:
            self.say(e.message(self.lang))
            return False
        return True

    def on_leave(self) -> None:
        """The line to come back to the seat, while the game goes on without us."""
        if not self.online.over:
            seating = self.online.seating
            self.say(t("join.resume", self.lang, code=seating.code, url=seating.resume_url))


__all__ = ["JoinPlainTable"]
