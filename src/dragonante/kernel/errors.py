"""Errors shared by both rules engines, in the lowest layer they both import.

The card game (:mod:`dragonante.engine`) and the Dice Gambit
(:mod:`dragonante.dice`) refuse a table they cannot play, and a saved game
they cannot read or replay, with the same exceptions, so an interface
catches one class and translates one family of codes
(``config_error.<code>`` in the catalogs) whichever game it sets up.
Standard library only: the engines must not import anything heavier to get it.
"""

from __future__ import annotations

__all__ = ["ConfigError", "RecordError", "RunawayGame"]


class ConfigError(ValueError):
    """Settings the rules cannot play; the message names the offending one.

    ``str(e)`` stays the English message; ``code`` and ``params`` let an
    interface show it in another language.  Both survive pickling (they live
    in the instance ``__dict__``), so a worker process can report one.
    """

    def __init__(self, message: str, code: str = "", **params: object) -> None:
        super().__init__(message)
        #: A stable name for the catalog (``config_error.<code>``); ``""`` if none.
        self.code = code
        #: The values the message names, for a translated message.
        self.params = params


class RecordError(ValueError):
    """A saved game (a card game's record, a Dice Gambit save) that cannot be read
    or does not replay; the message says why."""


class RunawayGame(RuntimeError):
    """A game that exceeded the engine's bounds on work: too many steps without a
    question after one answer, or too many questions in one game.

    No table the books describe comes near either bound (every known endless
    chain has a ruling that ends it: ``docs/rules.md``, "Every game ends"), so
    this is a bug or a table the engine cannot finish; an interface stops that
    one game with this message instead of hanging (the web server stops the
    table, never the process).  The state is left where the bound was hit.
    """

    def __init__(self, message: str, bound: str, limit: int) -> None:
        super().__init__(message)
        #: Which bound: ``"steps"`` (per answer) or ``"questions"`` (per game).
        self.bound = bound
        self.limit = limit
