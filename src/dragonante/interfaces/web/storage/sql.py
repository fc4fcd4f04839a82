"""The server's storage: the protocol of :mod:`.interface` on SQLAlchemy.

Each transaction is a session of the database thread (:class:`~.writer.Writer`,
with its group commit, its fences and its batch of answers), and each
method is the function of :mod:`.store` (or, for the players' rows,
:mod:`.players`) of the same name on that session:
the SQL the server runs, and when, is what it was before the protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from dragonante.interfaces.web.storage import players, store
from dragonante.interfaces.web.storage.interface import Transaction
from dragonante.interfaces.web.storage.players import LEADERBOARD_SIZE, HeldSeat, Player, Rated
from dragonante.interfaces.web.storage.store import SeatInfo, StoredTable
from dragonante.interfaces.web.storage.writer import Writer

T = TypeVar("T")


class SqlTransaction:
    """One session of the database thread, seen through :class:`~.interface.Transaction`."""

    __slots__ = ("session",)

    def __init__(self, session: Session) -> None:
        self.session = session

    def code_taken(self, code: str) -> bool:
        return store.code_taken(self.session, code)

    def create_table(
        self,
        code: str,
        config: dict[str, Any],
        seed: int,
        host_hash: str | None,
        gm_hash: str | None = None,
        turn_seconds: float | None = None,
        unlisted: bool = False,
        hints: bool = False,
    ) -> None:
        store.create_table(
            self.session, code, config, seed, host_hash, gm_hash, turn_seconds, unlisted, hints
        )

    def flush(self) -> None:
        self.session.flush()

    def put_seat(self, code: str, info: SeatInfo) -> None:
        store.put_seat(self.session, code, info)

    def remove_seat(self, code: str, seat: int) -> None:
        store.remove_seat(self.session, code, seat)

    def set_seat_token(self, code: str, seat: int, token_hash: str) -> None:
        store.set_seat_token(self.session, code, seat, token_hash)

    def set_gm(self, code: str, gm_hash: str | None) -> None:
        store.set_gm(self.session, code, gm_hash)

    def set_unlisted(self, code: str, unlisted: bool) -> None:
        store.set_unlisted(self.session, code, unlisted)

    def set_hints(self, code: str, hints: bool) -> None:
        store.set_hints(self.session, code, hints)

    def add_bans(self, code: str, bans: list[tuple[str, str]]) -> None:
        store.add_bans(self.session, code, bans)

    def clear_bans(self, code: str) -> None:
        store.clear_bans(self.session, code)

    def set_rematch(self, code: str, rematch: str) -> None:
        store.set_rematch(self.session, code, rematch)

    def start_table(self, code: str, at: datetime) -> None:
        store.start_table(self.session, code, at)

    def expire_table(self, code: str) -> None:
        store.expire_table(self.session, code)

    def add_answer(self, code: str, n: int, decision_id: int, seat: int, answer: int) -> None:
        store.add_answer(self.session, code, n, decision_id, seat, answer)

    def take_back_answers(self, code: str, n: int, last_gambit_at: int | None) -> None:
        store.take_back_answers(self.session, code, n, last_gambit_at)

    def set_last_gambit(self, code: str, n: int) -> None:
        store.set_last_gambit(self.session, code, n)

    def finish_table(
        self, code: str, winners: list[int], digest: str, ended: str | None = None
    ) -> None:
        store.finish_table(self.session, code, winners, digest, ended)

    def add_chat(self, code: str, msg: dict[str, Any], keep: int) -> None:
        store.add_chat(self.session, code, msg, keep)

    def set_mutes(self, code: str, kind: str, values: list[str], muted: bool) -> None:
        store.set_mutes(self.session, code, kind, values, muted)

    def load_table(self, code: str, with_answers: bool = True) -> StoredTable | None:
        return store.load_table(self.session, code, with_answers)

    def load_live(self) -> list[StoredTable]:
        return store.load_live(self.session)

    def list_finished(self, limit: int = 50, offset: int = 0) -> list[StoredTable]:
        return store.list_finished(self.session, limit, offset)

    # ------------------------------------------------------ the players' rows

    def add_player(self, key: str) -> Player:
        return players.add_player(self.session, key)

    def player_by_key(self, key: str) -> Player | None:
        return players.player_by_key(self.session, key)

    def player_by_id(self, pid: str) -> Player | None:
        return players.player_by_id(self.session, pid)

    def set_name(self, pid: str, name: str) -> None:
        players.set_name(self.session, pid, name)

    def seats_of(self, pid: str, finished: bool | None = None) -> list[HeldSeat]:
        return players.seats_of(self.session, pid, finished)

    def hand_seat(self, code: str, seat: int, pid: str) -> None:
        players.hand_seat(self.session, code, seat, pid)

    def is_rated(self, code: str) -> bool:
        return players.is_rated(self.session, code)

    def ratings_now(self, pids: Iterable[str]) -> dict[str, tuple[float, float]]:
        return players.ratings_now(self.session, pids)

    def add_ratings(self, code: str, rated: list[Rated], at: datetime) -> None:
        players.add_ratings(self.session, code, rated, at)

    def clear_ratings(self) -> None:
        players.clear_ratings(self.session)

    def rateable(self) -> list[str]:
        return players.rateable(self.session)

    def leaderboard(self, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
        return players.leaderboard(self.session, limit)

    def rating_of(self, pid: str) -> dict[str, Any] | None:
        return players.rating_of(self.session, pid)

    def history(self, pid: str) -> list[dict[str, Any]]:
        return players.history(self.session, pid)


class SqlStorage:
    """:class:`~.interface.Storage` on the database thread ``writer``."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer

    async def run(self, fn: Callable[[Transaction], T]) -> T:
        return await self.writer.run(lambda s: fn(SqlTransaction(s)))

    def run_sync(self, fn: Callable[[Transaction], T]) -> T:
        return self.writer.run_sync(lambda s: fn(SqlTransaction(s)))

    @property
    def commits(self) -> int:
        return self.writer.commits

    @property
    def jobs(self) -> int:
        return self.writer.jobs

    @property
    def commit_ms(self) -> Iterable[float]:
        return self.writer.commit_ms
