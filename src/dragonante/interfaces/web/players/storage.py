"""The players' rows: making one, finding one by key or id, their seats and games.

Plain synchronous SQLAlchemy like ``store.py``: each function takes an open
:class:`~sqlalchemy.orm.Session` and leaves the commit to its caller (the
server's writer thread, or ``dragonante ratings``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from dragonante.interfaces.web.players.keys import key_hash, new_id, same_hash
from dragonante.interfaces.web.storage.db import PlayerRow, SeatRow, TableRow
from dragonante.interfaces.web.storage.store import FINISHED, aware, fenced

#: Tables "My games" and a player page list at most.
MAX_LISTED = 100


@dataclass(frozen=True, slots=True)
class Player:
    """A person as the server knows them: public id, key hash, last name."""

    id: str
    key_hash: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat a person holds (or held) at one table."""

    code: str
    seat: int
    status: str
    created_at: datetime
    finished_at: datetime | None
    winners: list[int]
    #: Why the table ended before its game did (``idle``, ``runaway``), else None.
    ended: str | None


def add_player(s: Session, key: str) -> Player:
    """A new person for ``key`` (a fresh id; the key itself is not stored)."""
    while True:
        pid = new_id()
        if s.get(PlayerRow, pid) is None:
            break
    row = PlayerRow(id=pid, key_hash=key_hash(key), name=None, created_at=datetime.now(UTC))
    s.add(row)
    return Player(pid, row.key_hash)


def player_by_key(s: Session, key: str) -> Player | None:
    """The person ``key`` belongs to (found by its hash, then compared in
    constant time), or None."""
    row = s.scalar(select(PlayerRow).where(PlayerRow.key_hash == key_hash(key)))
    if row is None or not same_hash(row.key_hash, key):
        return None
    return Player(row.id, row.key_hash, row.name)


def player_by_id(s: Session, pid: str) -> Player | None:
    row = s.get(PlayerRow, pid)
    return None if row is None else Player(row.id, row.key_hash, row.name)


def set_name(s: Session, pid: str, name: str) -> None:
    """The name the person last sat down under (the leaderboard shows it)."""
    s.execute(update(PlayerRow).where(PlayerRow.id == pid).values(name=name))


def seats_of(s: Session, pid: str, finished: bool | None = None) -> list[HeldSeat]:
    """The seats ``pid`` holds, newest table first; ``finished``: only the
    finished games (True), only the others (False), or all (None)."""
    q = (
        select(SeatRow.table_code, SeatRow.seat, TableRow)
        .join(TableRow, TableRow.code == SeatRow.table_code)
        .where(SeatRow.player_id == pid)
    )
    if finished is True:
        q = q.where(TableRow.status == FINISHED).order_by(TableRow.finished_at.desc())
    else:
        if finished is False:
            q = q.where(TableRow.status != FINISHED)
        q = q.order_by(TableRow.created_at.desc())
    out = []
    for code, seat, row in s.execute(q.limit(MAX_LISTED)):
        out.append(
            HeldSeat(
                code,
                seat,
                row.status,
                aware(row.created_at) or datetime.now(UTC),
                aware(row.finished_at),
                json.loads(row.winners) if row.winners else [],
                row.ended,
            )
        )
    return out


def hand_seat(s: Session, code: str, seat: int, pid: str) -> None:
    """The seat is ``pid``'s from now on; its old seat token opens nothing
    (a lost key may have been stolen with the device that had the token)."""
    fenced(s, code)
    s.execute(
        update(SeatRow)
        .where(SeatRow.table_code == code, SeatRow.seat == seat)
        .values(player_id=pid, token_hash=None)
    )


def public(player: Player) -> dict[str, Any]:
    """What anyone may know of a person: the id and the last name."""
    return {"id": player.id, "name": player.name}
