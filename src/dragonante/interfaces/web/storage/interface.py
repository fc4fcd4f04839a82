"""What the game service asks of storage: one small protocol, two implementations.

The tables' code (``tables/``) never names SQLAlchemy: it hands the
:class:`Storage` a function of one :class:`Transaction` and awaits the
result, as boardgame.io's server takes its storage as an interface.  The
transaction's methods are exactly the store's functions the tables call,
without the session.  Two implementations:

* :mod:`.sql` - the server's: each transaction is a session of the database
  thread (:class:`~.writer.Writer`, group commit), each method the function
  of :mod:`.store` of the same name, so the SQL the server runs is the same
  as before the protocol;
* :mod:`.memory` - dictionaries in this process, for fast tests of the game
  service (``tests/web/test_memory_storage.py`` plays games on it and checks
  it against SQLite).

The players' rows are behind the protocol too (issue 32 section 7): people
and the seats their keys hold, their ratings and the leaderboard, each
method a function of :mod:`.players` in SQL (:mod:`.memory_players` in
memory).  So the players' room (``players/``) never names SQLAlchemy either,
and a hub on the in-memory storage serves player keys and rates games;
only ``dragonante ratings``, an offline tool, opens a session of its own
(and hands it to the rebuild as a :class:`~.sql.SqlTransaction`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from dragonante.interfaces.web.storage.players import LEADERBOARD_SIZE

if TYPE_CHECKING:
    from dragonante.interfaces.web.storage.players import HeldSeat, Player, Rated
    from dragonante.interfaces.web.storage.store import SeatInfo, StoredTable

T = TypeVar("T")


class Transaction(Protocol):
    """One transaction: all its writes are kept, or none (``store.py`` documents each)."""

    def code_taken(self, code: str) -> bool: ...

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
    ) -> None: ...

    def flush(self) -> None:
        """Write what is pending before rows that refer to it (a table before its seats)."""

    def put_seat(self, code: str, info: SeatInfo) -> None: ...

    def remove_seat(self, code: str, seat: int) -> None: ...

    def set_seat_token(self, code: str, seat: int, token_hash: str) -> None: ...

    def set_gm(self, code: str, gm_hash: str | None) -> None: ...

    def set_unlisted(self, code: str, unlisted: bool) -> None: ...

    def set_hints(self, code: str, hints: bool) -> None: ...

    def add_bans(self, code: str, bans: list[tuple[str, str]]) -> None: ...

    def clear_bans(self, code: str) -> None: ...

    def set_rematch(self, code: str, rematch: str) -> None: ...

    def start_table(self, code: str, at: datetime) -> None: ...

    def expire_table(self, code: str) -> None: ...

    def add_answer(self, code: str, n: int, decision_id: int, seat: int, answer: int) -> None: ...

    def take_back_answers(self, code: str, n: int, last_gambit_at: int | None) -> None: ...

    def set_last_gambit(self, code: str, n: int) -> None: ...

    def finish_table(
        self, code: str, winners: list[int], digest: str, ended: str | None = None
    ) -> None: ...

    def add_chat(self, code: str, msg: dict[str, Any], keep: int) -> None: ...

    def set_mutes(self, code: str, kind: str, values: list[str], muted: bool) -> None: ...

    def load_table(self, code: str, with_answers: bool = True) -> StoredTable | None: ...

    def load_live(self) -> list[StoredTable]: ...

    def list_finished(self, limit: int = 50, offset: int = 0) -> list[StoredTable]: ...

    # ------------------------------------------- the players' rows (``players.py``)

    def add_player(self, key: str) -> Player: ...

    def player_by_key(self, key: str) -> Player | None: ...

    def player_by_id(self, pid: str) -> Player | None: ...

    def set_name(self, pid: str, name: str) -> None: ...

    def seats_of(self, pid: str, finished: bool | None = None) -> list[HeldSeat]: ...

    def hand_seat(self, code: str, seat: int, pid: str) -> None: ...

    def is_rated(self, code: str) -> bool: ...

    def ratings_now(self, pids: Iterable[str]) -> dict[str, tuple[float, float]]: ...

    def add_ratings(self, code: str, rated: list[Rated], at: datetime) -> None: ...

    def clear_ratings(self) -> None: ...

    def rateable(self) -> list[str]: ...

    def leaderboard(self, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]: ...

    def rating_of(self, pid: str) -> dict[str, Any] | None: ...

    def history(self, pid: str) -> list[dict[str, Any]]: ...


class Storage(Protocol):
    """Where the tables are kept: transactions run in order, one after another."""

    async def run(self, fn: Callable[[Transaction], T]) -> T:
        """Run ``fn`` in a transaction; returns once it is kept.  Any failure
        leaves nothing of ``fn`` behind and raises :class:`~.writer.StorageError`."""
        ...

    def run_sync(self, fn: Callable[[Transaction], T]) -> T:
        """Run ``fn`` in its own transaction on the calling thread (start-up only)."""
        ...

    @property
    def commits(self) -> int:
        """Transactions kept so far (``/api/stats``)."""
        ...

    @property
    def jobs(self) -> int:
        """Functions run in them."""
        ...

    @property
    def commit_ms(self) -> Iterable[float]:
        """Recent transactions' durations in milliseconds."""
        ...
