"""The Dice Gambit at the full-screen table: ``dragonante dice play`` and ``dice track``.

A package of its own beside the card table's modules, reusing only their
pages (:mod:`..screens`), log panel and color badges: the dice game has
its own engine, its own questions (a die's face, roll or withdraw, a good
dragon's demand, Bahamut's sacrifice) and no hidden information, so the
card table's snapshot and narrator do not apply.

:mod:`.game` the game behind the screen (people, bots, real dice, undo),
:mod:`.sheets` every player's tracker sheet as one table, :mod:`.question`
the question and its legal answers, :mod:`.app` the application.
"""

from dragonante.interfaces.tui.dice.app import DiceApp
from dragonante.interfaces.tui.dice.game import DiceTableGame

__all__ = ["DiceApp", "DiceTableGame"]
