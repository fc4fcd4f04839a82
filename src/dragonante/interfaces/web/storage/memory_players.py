"""The players' rows in memory: :mod:`.players` on dictionaries.

The part of :class:`~.memory.MemoryTransaction` that keeps people, the seats
they hold and their ratings, in its own module so that ``memory.py`` stays
short.  Each method answers what the SQL function of the same name in
:mod:`.players` answers, in the same order and within the same limits
(``tests/web/test_memory_players.py`` runs both and compares), and a second
row under a primary or unique key (a key's hash, a rating step) is refused
like the database refuses it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from dragonante.interfaces.web.storage.players import (
    LEADERBOARD_SIZE,
    MAX_LISTED,
    HeldSeat,
    Player,
    Rated,
    new_id,
    rating_dict,
    same_hash,
    step_dict,
)
from dragonante.interfaces.web.storage.store import (
    FINISHED,
    SeatInfo,
    StoredTable,
    aware,
    hash_token,
)


@dataclass(slots=True)
class _Rating:
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: float


@dataclass(slots=True)
class _Step:
    at: datetime
    place: int
    won: float
    mu: float
    sigma: float


@dataclass(slots=True)
class PlayerRows:
    """The rows the players' methods read: the tables and seats (which
    :class:`~.memory.MemoryStorage` keeps too), the people by id, their
    ratings by id, their rating steps by ``(id, table code)``."""

    tables: dict[str, StoredTable] = field(default_factory=dict)
    seats: dict[str, dict[int, SeatInfo]] = field(default_factory=dict)
    players: dict[str, Player] = field(default_factory=dict)
    ratings: dict[str, _Rating] = field(default_factory=dict)
    steps: dict[tuple[str, str], _Step] = field(default_factory=dict)


class MemoryPlayers:
    """The players' methods of the in-memory transaction (a mixin of
    :class:`~.memory.MemoryTransaction`, which sets :attr:`rows`)."""

    rows: PlayerRows

    def key_hash_of(self, pid: str | None) -> str | None:
        """The key hash a seat of ``pid`` is opened by, as the SQL store's
        outer join of the seats with the players reads it."""
        player = self.rows.players.get(pid) if pid is not None else None
        return None if player is None else player.key_hash

    # -------------------------------------------------------------- people

    def add_player(self, key: str) -> Player:
        digest = hash_token(key)
        if any(p.key_hash == digest for p in self.rows.players.values()):
            raise KeyError("a player has this key already")  # the unique index
        while True:
            pid = new_id()
            if pid not in self.rows.players:
                break
        self.rows.players[pid] = player = Player(pid, digest)
        return player

    def player_by_key(self, key: str) -> Player | None:
        digest = hash_token(key)
        for player in self.rows.players.values():
            if player.key_hash == digest:
                return player if same_hash(player.key_hash, key) else None
        return None

    def player_by_id(self, pid: str) -> Player | None:
        return self.rows.players.get(pid)

    def set_name(self, pid: str, name: str) -> None:
        player = self.rows.players.get(pid)
        if player is not None:
            self.rows.players[pid] = Player(player.id, player.key_hash, name)

    def seats_of(self, pid: str, finished: bool | None = None) -> list[HeldSeat]:
        held = [
            (self.rows.tables[code], info.seat)
            for code, seats in self.rows.seats.items()
            for info in seats.values()
            if info.player_id == pid
        ]
        if finished is not None:
            held = [(t, p) for t, p in held if (t.status == FINISHED) == finished]
        if finished is True:
            held.sort(key=lambda h: _at(h[0].finished_at), reverse=True)
        else:
            held.sort(key=lambda h: h[0].created_at, reverse=True)
        return [
            HeldSeat(
                t.code,
                seat,
                t.status,
                t.created_at,
                aware(t.finished_at),
                list(t.winners),
                t.ended,
            )
            for t, seat in held[:MAX_LISTED]
        ]

    def hand_seat(self, code: str, seat: int, pid: str) -> None:
        info = self.rows.seats.get(code, {}).get(seat)
        if info is not None:
            info.player_id = pid
            info.token_hash = None

    # ------------------------------------------------------------- ratings

    def is_rated(self, code: str) -> bool:
        return any(c == code for _, c in self.rows.steps)

    def ratings_now(self, pids: Iterable[str]) -> dict[str, tuple[float, float]]:
        got = {pid: self.rows.ratings.get(pid) for pid in pids}
        return {pid: (r.mu, r.sigma) for pid, r in got.items() if r is not None}

    def add_ratings(self, code: str, rated: list[Rated], at: datetime) -> None:
        for r in rated:
            if (r.player_id, code) in self.rows.steps:
                raise KeyError(f"{r.player_id} was rated at {code} already")
            old = self.rows.ratings.get(r.player_id)
            games, wins = (old.games, old.wins) if old is not None else (0, 0.0)
            self.rows.ratings[r.player_id] = _Rating(
                r.mu, r.sigma, r.mu - 3 * r.sigma, games + 1, wins + r.won
            )
            self.rows.steps[r.player_id, code] = _Step(_at(at), r.place, r.won, r.mu, r.sigma)

    def clear_ratings(self) -> None:
        self.rows.ratings.clear()
        self.rows.steps.clear()

    def rateable(self) -> list[str]:
        done = [
            t
            for code, t in self.rows.tables.items()
            if t.status == FINISHED
            and t.ended is None
            and any(i.player_id is not None for i in self.rows.seats[code].values())
        ]
        done.sort(key=lambda t: (_at(t.finished_at), t.code))
        return [t.code for t in done]

    def leaderboard(self, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
        rated = [(pid, r) for pid, r in self.rows.ratings.items() if pid in self.rows.players]
        rated.sort(key=lambda x: x[0])
        rated.sort(key=lambda x: x[1].ordinal, reverse=True)
        return [
            {"rank": i + 1, "id": pid, "name": self.rows.players[pid].name, **_dict(r)}
            for i, (pid, r) in enumerate(rated[:limit])
        ]

    def rating_of(self, pid: str) -> dict[str, Any] | None:
        r = self.rows.ratings.get(pid)
        return None if r is None else _dict(r)

    def history(self, pid: str) -> list[dict[str, Any]]:
        steps = sorted(
            ((st.at, code, st) for (p, code), st in self.rows.steps.items() if p == pid),
            key=lambda x: (x[0], x[1]),
        )
        return [step_dict(code, at, st.place, st.won, st.mu, st.sigma) for at, code, st in steps]


#: Where a missing time sorts: first, as SQLite sorts NULL.
_NEVER = datetime.min.replace(tzinfo=UTC)


def _at(at: datetime | None) -> datetime:
    return aware(at) or _NEVER


def _dict(r: _Rating) -> dict[str, Any]:
    return rating_dict(r.mu, r.sigma, r.ordinal, r.games, r.wins)
