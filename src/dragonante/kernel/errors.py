"""Errors shared by both rules engines, in the lowest layer they both import.

The card game (:mod:`dragonante.engine`) and the Dice Gambit
(:mod:`dragonante.dice`) refuse a table they cannot play, and a saved game
they cannot read or replay, with the same exceptions, so an interface
catches one class and translates one family of codes
(``config_error.<code>`` in the catalogs) whichever game it sets up.
Standard library only: the engines must not import anything heavier to get it.
"""

from __future__ import annotations

__all__ = ["ConfigError", "RecordError"]


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
