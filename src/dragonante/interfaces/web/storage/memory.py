"""Storage in memory: the protocol of :mod:`.interface` on dictionaries, for fast tests.

A hub on :class:`MemoryStorage` plays whole games with no database file and
no database thread.  It keeps what the SQL store keeps and answers what it
answers (``tests/web/test_memory_storage.py`` runs the same transactions on
both and compares what they load): tables, seats, answers, chat, mutes,
bans.  A transaction works on the live dictionaries after a deep copy of
them is put aside; if its function raises, the copy comes back and the
caller gets :class:`~.writer.StorageError`, as from the database thread.
Primary keys refuse a second row (a seat taken twice, a second answer
number ``n``) like the database's.

It keeps the players' rows too (people, the seats their keys hold, their
ratings: :mod:`.memory_players`), so a hub on it serves player keys, My
games, player pages and the leaderboard, and rates finished games.
"""

from __future__ import annotations

import asyncio
import copy
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

from dragonante import RULES_VERSION
from dragonante.interfaces.web.storage.interface import Transaction
from dragonante.interfaces.web.storage.memory_players import MemoryPlayers, PlayerRows
from dragonante.interfaces.web.storage.store import (
    EXPIRED,
    FINISHED,
    OPEN,
    PLAYING,
    SeatInfo,
    StoredTable,
    now,
)
from dragonante.interfaces.web.storage.writer import StorageError

T = TypeVar("T")


@dataclass(slots=True)
class _Answer:
    decision_id: int
    seat: int
    answer: int
    at: datetime


@dataclass(slots=True)
class _Rows(PlayerRows):
    """Everything kept, by table code (the tables, seats and players' rows
    are :class:`PlayerRows`'); a table's fields are a :class:`StoredTable`
    whose lists of seats, answers, chat, mutes and bans stay empty."""

    answers: dict[str, dict[int, _Answer]] = field(default_factory=dict)
    chat: dict[str, dict[int, str]] = field(default_factory=dict)
    mutes: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    bans: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


class MemoryTransaction(MemoryPlayers):
    """One transaction on :class:`MemoryStorage`'s rows."""

    rows: _Rows

    def __init__(self, rows: _Rows) -> None:
        self.rows = rows

    def _table(self, code: str) -> StoredTable:
        table = self.rows.tables.get(code)
        if table is None:  # the database's foreign key
            raise KeyError(f"no table {code}")
        return table

    def code_taken(self, code: str) -> bool:
        return code in self.rows.tables

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
        if code in self.rows.tables:
            raise KeyError(f"table {code} exists")
        self.rows.tables[code] = StoredTable(
            code=code,
            config=json.loads(json.dumps(config, sort_keys=True)),  # as stored: JSON
            seed=seed,
            status=OPEN,
            created_at=now(),
            rules_version=RULES_VERSION,
            host_hash=host_hash,
            gm_hash=gm_hash,
            turn_seconds=turn_seconds,
            unlisted=unlisted,
            hints=hints,
        )
        for rows in (self.rows.seats, self.rows.answers, self.rows.chat):
            rows[code] = {}
        self.rows.mutes[code] = []
        self.rows.bans[code] = []

    def flush(self) -> None:
        """Nothing waits: every write is in the dictionaries at once."""

    def put_seat(self, code: str, info: SeatInfo) -> None:
        self._table(code)
        seats = self.rows.seats[code]
        if info.seat in seats:
            raise KeyError(f"seat {info.seat} of {code} is taken")
        # The player key's hash is not a seat's column: the SQL store reads it
        # from the players' rows when it loads the seat (as :meth:`_stored` does).
        seats[info.seat] = replace(info, player_hash=None)

    def remove_seat(self, code: str, seat: int) -> None:
        self.rows.seats.get(code, {}).pop(seat, None)

    def set_seat_token(self, code: str, seat: int, token_hash: str) -> None:
        info = self.rows.seats.get(code, {}).get(seat)
        if info is not None:
            info.token_hash = token_hash

    def _update(self, code: str, **values: Any) -> None:
        table = self.rows.tables.get(code)
        if table is not None:  # an UPDATE of no row changes nothing
            for name, value in values.items():
                setattr(table, name, value)

    def set_gm(self, code: str, gm_hash: str | None) -> None:
        self._update(code, gm_hash=gm_hash)

    def set_unlisted(self, code: str, unlisted: bool) -> None:
        self._update(code, unlisted=unlisted)

    def set_hints(self, code: str, hints: bool) -> None:
        self._update(code, hints=hints)

    def add_bans(self, code: str, bans: list[tuple[str, str]]) -> None:
        self._table(code)
        kept = self.rows.bans[code]
        kept.extend(b for b in dict.fromkeys(bans) if b not in kept)

    def clear_bans(self, code: str) -> None:
        self.rows.bans.get(code, []).clear()

    def set_rematch(self, code: str, rematch: str) -> None:
        self._update(code, rematch=rematch)

    def start_table(self, code: str, at: datetime) -> None:
        table = self.rows.tables.get(code)
        if table is not None and table.status == OPEN:
            table.status = PLAYING
            table.started_at = at

    def expire_table(self, code: str) -> None:
        table = self.rows.tables.get(code)
        if table is not None and table.status == OPEN:
            table.status = EXPIRED
            table.finished_at = now()

    def add_answer(self, code: str, n: int, decision_id: int, seat: int, answer: int) -> None:
        self._table(code)
        answers = self.rows.answers[code]
        if n in answers:
            raise KeyError(f"answer {n} of {code} is stored already")
        answers[n] = _Answer(decision_id, seat, answer, now())

    def take_back_answers(self, code: str, n: int, last_gambit_at: int | None) -> None:
        answers = self.rows.answers.get(code, {})
        for i in [i for i in answers if i >= n]:
            del answers[i]
        self._update(code, last_gambit_at=last_gambit_at)

    def set_last_gambit(self, code: str, n: int) -> None:
        self._update(code, last_gambit_at=n)

    def finish_table(
        self, code: str, winners: list[int], digest: str, ended: str | None = None
    ) -> None:
        self._update(
            code,
            status=FINISHED,
            finished_at=now(),
            winners=list(winners),
            final_digest=digest,
            ended=ended,
        )

    def add_chat(self, code: str, msg: dict[str, Any], keep: int) -> None:
        self._table(code)
        chat = self.rows.chat[code]
        if msg["id"] in chat:
            raise KeyError(f"chat message {msg['id']} of {code} is stored already")
        chat[msg["id"]] = json.dumps(msg, separators=(",", ":"))
        for i in [i for i in chat if i <= msg["id"] - keep]:
            del chat[i]

    def set_mutes(self, code: str, kind: str, values: list[str], muted: bool) -> None:
        if not values:
            return
        self._table(code)
        mutes = self.rows.mutes[code]
        mutes[:] = [(k, v) for k, v in mutes if not (k == kind and v in values)]
        if muted:
            mutes.extend((kind, v) for v in dict.fromkeys(values))

    def _stored(self, code: str, with_answers: bool) -> StoredTable:
        """A copy of the table as the SQL store loads it: seats always, the rest
        (answers, chat, mutes, bans) only ``with_answers``."""
        table = replace(self.rows.tables[code])
        table.config = copy.deepcopy(table.config)
        table.winners = list(table.winners)
        table.seats = {
            p: replace(i, player_hash=self.key_hash_of(i.player_id))
            for p, i in sorted(self.rows.seats[code].items())
        }
        table.answers, table.decision_ids, table.chat, table.mutes, table.bans = [], [], [], [], []
        if with_answers:
            answers = [a for _, a in sorted(self.rows.answers[code].items())]
            table.answers = [a.answer for a in answers]
            table.decision_ids = [a.decision_id for a in answers]
            table.last_answer_at = answers[-1].at if answers else None
            table.chat = [json.loads(b) for _, b in sorted(self.rows.chat[code].items())]
            table.mutes = list(self.rows.mutes[code])
            table.bans = list(self.rows.bans[code])
        return table

    def load_table(self, code: str, with_answers: bool = True) -> StoredTable | None:
        if code not in self.rows.tables:
            return None
        return self._stored(code, with_answers)

    def load_live(self) -> list[StoredTable]:
        return [
            self._stored(code, True)
            for code, t in self.rows.tables.items()
            if t.status in (OPEN, PLAYING)
        ]

    def list_finished(self, limit: int = 50, offset: int = 0) -> list[StoredTable]:
        done = [t for t in self.rows.tables.values() if t.status == FINISHED]
        done.sort(key=lambda t: t.code)
        done.sort(key=lambda t: t.finished_at or now(), reverse=True)
        return [self._stored(t.code, False) for t in done[offset : offset + limit]]


class MemoryStorage:
    """:class:`~.interface.Storage` in this process's memory (tests only)."""

    def __init__(self) -> None:
        self.rows = _Rows()
        self.commits = 0
        self.jobs = 0
        self.commit_ms: deque[float] = deque(maxlen=5000)

    def _transaction(self, fn: Callable[[Transaction], T]) -> T:
        kept = copy.deepcopy(self.rows)
        try:
            return fn(MemoryTransaction(self.rows))
        except BaseException:
            self.rows = kept
            raise

    async def run(self, fn: Callable[[Transaction], T]) -> T:
        await asyncio.sleep(0)  # a write is a suspension point, as on the database thread
        started = time.perf_counter()
        try:
            result = self._transaction(fn)
        except Exception as e:
            raise StorageError(f"the database refused the write: {e}") from e
        self.commit_ms.append((time.perf_counter() - started) * 1000)
        self.commits += 1
        self.jobs += 1
        return result

    def run_sync(self, fn: Callable[[Transaction], T]) -> T:
        """Like the database thread's: counted in no figure, its errors as raised."""
        return self._transaction(fn)
