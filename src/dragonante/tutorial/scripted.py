"""A bot that plays its scripted first moves, then as the easy bot.

The tutorial's bots follow the deal's script so that each rule comes up on
time, but the game is real: when the player has answered otherwise, a
scripted card may no longer be in hand or the question may be another.  The
bot then plays the easy bot's answer instead, so the game adapts and never
stalls:

* a question of the scripted kind with the scripted answer among the legal
  ones: the scripted answer (and the script moves on);
* a question of the scripted kind whose scripted answer is not legal now:
  that entry is dropped and the easy bot answers;
* a question of another kind (a power asks something the script did not
  foresee): the easy bot answers and the script waits.

Like every bot it sees only its seat's view.
"""

from __future__ import annotations

from collections.abc import Sequence

from dragonante.bots import Bot, SeatView, make_bot
from dragonante.tutorial.deal import Scripted

#: The bots the tutorial falls back on, and the normal game after it.
EASY = "easy"


class ScriptedBot:
    """``script`` first (while it fits the questions asked), then the easy bot."""

    name = "scripted"

    def __init__(self, script: Sequence[Scripted], seed: int) -> None:
        self.script = list(script)
        self.easy: Bot = make_bot(EASY, seed)

    def choose(self, view: SeatView) -> int:
        d = view.decision
        if self.script and self.script[0].kind == d.kind:
            scripted = self.script.pop(0)
            if scripted.answer in d.options:
                return scripted.answer
        return self.easy.choose(view)


__all__ = ["EASY", "ScriptedBot"]
