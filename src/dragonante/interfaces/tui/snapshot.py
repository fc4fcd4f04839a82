"""What the screen shows at one moment, computed once on the screen's thread.

The widgets draw from a :class:`Snapshot`, never from the game state: a bot
may be reading the state in a worker thread while the screen redraws (on a
resize, say), and a snapshot taken between answers keeps the two apart.
It is also the information barrier in one place: the only view in it is
the table source's for its seat (``table_view(state, viewer)`` for a local
game: the seat at the keyboard's own, a spectator's when nobody is, as
behind the hot-seat cover), and the only question with answers is that
seat's own, from the narrator for that seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from dragonante.interfaces.gambit_history import GambitHistory
from dragonante.interfaces.narrate import Narrator, Prompt
from dragonante.interfaces.render import TableView


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The table as the viewer sees it, and what the screen adds (who is thinking)."""

    view: TableView
    narrator: Narrator
    #: The viewer's own question, or None.
    prompt: Prompt | None
    #: The bot seat whose answer is being worked out, or None.
    thinking: int | None
    #: The bots at this table, as the header names them ("medium"), or "".
    opponents: str = ""
    #: The current gambit round by round, from the viewer's own events.
    history: GambitHistory | None = None

    @property
    def lang(self) -> str:
        return self.narrator.lang
