"""The players' rows in SQL: people, the seats they hold, their ratings.

Plain synchronous SQLAlchemy like :mod:`.store`: each function takes an
open :class:`~sqlalchemy.orm.Session` and leaves the commit to its caller.
The server reaches them through the storage protocol (:mod:`.interface`;
:mod:`.sql` delegates each method to the function of the same name here,
:mod:`.memory_players` is the same in dictionaries), and ``dragonante
ratings`` through a session of its own.  They live in the storage room, not
in ``players/``, because the storage protocol is typed with their rows
(:class:`Player`, :class:`HeldSeat`, :class:`Rated`) and storage imports no
room above it.  The ratings themselves (openskill) are computed in
``players/ratings.py``; only their rows are kept here.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from dragonante.interfaces.web.storage.db import (
    PlayerRow,
    RatingRow,
    RatingStepRow,
    SeatRow,
    TableRow,
)
from dragonante.interfaces.web.storage.store import FINISHED, aware, fenced, hash_token

#: Tables "My games" and a player page list at most.
MAX_LISTED = 100
#: Rows the leaderboard shows at most.
LEADERBOARD_SIZE = 100


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


@dataclass(frozen=True, slots=True)
class Rated:
    """A person's rating after one game."""

    player_id: str
    place: int
    won: float
    mu: float
    sigma: float


def new_id() -> str:
    """A fresh public player id (the caller retries on the rare collision)."""
    return "p" + secrets.token_hex(5)


def same_hash(stored: str, key: str) -> bool:
    """Whether ``key`` hashes to ``stored``, compared in constant time."""
    return hmac.compare_digest(stored, hash_token(key))


# ------------------------------------------------------------------ people


def add_player(s: Session, key: str) -> Player:
    """A new person for ``key`` (a fresh id; the key itself is not stored)."""
    while True:
        pid = new_id()
        if s.get(PlayerRow, pid) is None:
            break
    row = PlayerRow(id=pid, key_hash=hash_token(key), name=None, created_at=datetime.now(UTC))
    s.add(row)
    return Player(pid, row.key_hash)


def player_by_key(s: Session, key: str) -> Player | None:
    """The person ``key`` belongs to (found by its hash, then compared in
    constant time), or None."""
    row = s.scalar(select(PlayerRow).where(PlayerRow.key_hash == hash_token(key)))
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


# ----------------------------------------------------------------- ratings


def is_rated(s: Session, code: str) -> bool:
    """Whether the game at ``code`` has been rated (a step of anyone's names it)."""
    done = s.scalar(select(RatingStepRow.player_id).where(RatingStepRow.table_code == code))
    return done is not None


def ratings_now(s: Session, pids: Iterable[str]) -> dict[str, tuple[float, float]]:
    """The current ``(mu, sigma)`` of those of ``pids`` rated before."""
    rows = s.scalars(select(RatingRow).where(RatingRow.player_id.in_(list(pids))))
    return {r.player_id: (r.mu, r.sigma) for r in rows}


def add_ratings(s: Session, code: str, rated: list[Rated], at: datetime) -> None:
    """Keep each person's rating after the game at ``code``: their rating now
    (one more game, their share of the win) and a step of their history."""
    for r in rated:
        row = s.get(RatingRow, r.player_id)  # loaded by ratings_now: no query
        if row is None:
            row = RatingRow(player_id=r.player_id, games=0, wins=0.0)
            s.add(row)
        row.mu, row.sigma, row.ordinal = r.mu, r.sigma, r.mu - 3 * r.sigma
        row.games = (row.games or 0) + 1
        row.wins = (row.wins or 0.0) + r.won
        s.add(
            RatingStepRow(
                player_id=r.player_id,
                table_code=code,
                at=at,
                place=r.place,
                won=r.won,
                mu=r.mu,
                sigma=r.sigma,
            )
        )


def clear_ratings(s: Session) -> None:
    """Forget every rating and step (``rebuild`` rates every game again)."""
    s.execute(delete(RatingStepRow))
    s.execute(delete(RatingRow))
    s.flush()


def rateable(s: Session) -> list[str]:
    """The finished games a player key sat at and that ended by their rules,
    oldest first (what ``rebuild`` rates)."""
    codes = s.scalars(
        select(TableRow.code)
        .where(
            TableRow.status == FINISHED,
            TableRow.ended.is_(None),
            TableRow.code.in_(select(SeatRow.table_code).where(SeatRow.player_id.is_not(None))),
        )
        .order_by(TableRow.finished_at, TableRow.code)
    ).all()
    return list(codes)


def rating_dict(mu: float, sigma: float, ordinal: float, games: int, wins: float) -> dict[str, Any]:
    """A rating as the API shows it (both storages build theirs with this)."""
    return {
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "ordinal": round(ordinal, 2),
        "games": games,
        "wins": round(wins, 2),
    }


def step_dict(
    code: str, at: datetime, place: int, won: float, mu: float, sigma: float
) -> dict[str, Any]:
    """A step of a person's history as the API shows it."""
    return {
        "code": code,
        "at": at.isoformat(),
        "place": place,
        "won": won,
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "ordinal": round(mu - 3 * sigma, 2),
    }


def _rating(r: RatingRow) -> dict[str, Any]:
    return rating_dict(r.mu, r.sigma, r.ordinal, r.games, r.wins)


def leaderboard(s: Session, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The rated people, best ordinal first, with their last names."""
    rows = s.execute(
        select(RatingRow, PlayerRow.name)
        .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
        .order_by(RatingRow.ordinal.desc(), RatingRow.player_id)
        .limit(limit)
    )
    return [
        {"rank": i + 1, "id": r.player_id, "name": name, **_rating(r)}
        for i, (r, name) in enumerate(rows)
    ]


def rating_of(s: Session, pid: str) -> dict[str, Any] | None:
    row = s.get(RatingRow, pid)
    return None if row is None else _rating(row)


def history(s: Session, pid: str) -> list[dict[str, Any]]:
    """A person's rating after each rated game, oldest first."""
    steps = s.scalars(
        select(RatingStepRow)
        .where(RatingStepRow.player_id == pid)
        .order_by(RatingStepRow.at, RatingStepRow.table_code)
    )
    return [
        step_dict(
            st.table_code,
            aware(st.at) or datetime.now(UTC),
            st.place,
            st.won,
            st.mu,
            st.sigma,
        )
        for st in steps
    ]
