"""Who sat where in a saved game: the people, the bots and the names the table used.

A game record (:mod:`dragonante.engine.records`) is enough to replay a game
but not to sit down at it again: it does not say which seats were people,
which bot played each other seat, or what the table called everyone.  The
terminal tables add that as a ``"table"`` object beside the record's own
keys (the engine's reader ignores keys it does not know, so such a record
still replays anywhere), and read it back to continue a game
(``play --resume``) or to narrate a replay with the names the table used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from dragonante.engine.records import GameRecord, RecordError
from dragonante.interfaces.narrate import table_names


@dataclass(frozen=True, slots=True)
class TableSeats:
    """The people's seats, each other seat's bot spec, and every seat's name when
    the people typed theirs in (else empty: the table's own names, "Player 1",
    "Bot 1"..., made again in the language of whoever reads the record)."""

    humans: tuple[int, ...]
    bots: dict[int, str]
    names: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "humans": list(self.humans),
            "bots": {str(p): spec for p, spec in sorted(self.bots.items())},
            "names": list(self.names),
        }


def record_text(record: GameRecord, seating: TableSeats | None) -> str:
    """The record as saved: the engine's JSON with the seating beside it."""
    data = record.to_dict()
    if seating is not None:
        data["table"] = seating.to_dict()
    return json.dumps(data, indent=1) + "\n"


def read_seating(text: str, players: int) -> TableSeats | None:
    """The seating saved with a record (None if it has none: the engine's own
    records, the web server's); :class:`RecordError` if it is malformed."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None  # the record reader says what is wrong with the JSON
    table = data.get("table") if isinstance(data, dict) else None
    if table is None:
        return None
    try:
        humans = tuple(int(p) for p in table["humans"])
        bots = {int(p): str(spec) for p, spec in table["bots"].items()}
        names = tuple(str(n) for n in table["names"])
    except (KeyError, TypeError, ValueError, AttributeError):
        raise RecordError('the record\'s "table" (who sat where) is malformed') from None
    seats = set(range(players))
    if (
        len(names) not in (0, players)
        or not humans
        or set(humans) | set(bots) != seats
        or set(humans) & set(bots)
        or any(isinstance(p, bool) for p in humans)
    ):
        raise RecordError(f'the record\'s "table" does not seat {players} players')
    return TableSeats(tuple(sorted(humans)), bots, names)


def names_of(seating: TableSeats, players: int, lang: str) -> list[str]:
    """The names the table used for its seats, in ``lang`` unless typed in."""
    if seating.names:
        return list(seating.names)
    return table_names(players, seating.humans, lang)
