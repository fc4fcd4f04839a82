"""Each table's gambit histories, kept between updates, one per point of view.

After every answer ``seat_view`` sends each seat (and a spectator, a
game-master) the current gambit's history.  It cannot be shared among the
seats of one broadcast (a seat's own plays read "you", and a seat may see a
private event of it), but each point of view's history only grows between
two updates: a :class:`~dragonante.interfaces.gambit_history.HistoryKeeper`
per table and point of view extends it with the new events instead of
reading the whole gambit again.  A spectator and a game-master share one
(both read the public events).  A keeper starts over by itself when the
table's log is replaced (a take-back, a replay) or a new gambit starts; the
table's keepers go with the table.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from dragonante.engine.state import Event
from dragonante.interfaces.gambit_history import HistoryKeeper
from dragonante.interfaces.narrate import Narrator

#: The keepers of each live table, by seat (None: the public events).
_KEEPERS: WeakKeyDictionary[object, dict[int | None, HistoryKeeper]] = WeakKeyDictionary()


def seat_history(
    table: object, log: list[Event], seat: int | None, narrator: Narrator
) -> dict[str, Any]:
    """``history_dict(gambit_history(log, seat), narrator)`` for ``table``'s view
    from ``seat``, from what its keeper has read before."""
    keepers = _KEEPERS.get(table)
    if keepers is None:
        keepers = _KEEPERS[table] = {}
    keeper = keepers.get(seat)
    if keeper is None:
        keeper = keepers[seat] = HistoryKeeper(seat)
    return keeper.worded(log, narrator)
