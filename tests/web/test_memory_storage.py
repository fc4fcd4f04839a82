"""The game service on the in-memory storage, and that storage held to SQLite's (issue 32 §7).

The tables' code reaches storage only through ``storage/interface.py``'s
protocol, so a hub runs on :class:`MemoryStorage` with no database file and
no database thread: these tests play whole games on it in a fraction of a
second.  They are only worth having if the dictionaries keep what the SQL
store keeps, so the last test runs the same transactions on both and
compares everything they load back.  The rest of ``tests/web`` runs the
service on SQLAlchemy, as the server does.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from dragonante.engine.config import config_from_dict
from dragonante.engine.records import digest
from dragonante.interfaces.web.hub import Hub, Settings
from dragonante.interfaces.web.storage.db import open_database
from dragonante.interfaces.web.storage.interface import Storage, Transaction
from dragonante.interfaces.web.storage.memory import MemoryStorage
from dragonante.interfaces.web.storage.sql import SqlStorage
from dragonante.interfaces.web.storage.store import (
    BOT,
    FINISHED,
    HUMAN,
    PLAYING,
    SeatInfo,
    StoredTable,
)
from dragonante.interfaces.web.storage.writer import StorageError, Writer
from dragonante.interfaces.web.tables.live import LiveTable, replay_state

CONFIG = {"players": 3, "gold_per_player": 10}


async def _until(done: Callable[[], bool], seconds: float = 60.0) -> None:
    """Wait (the bots play on the event loop) until ``done()``."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not done():
        assert asyncio.get_running_loop().time() < deadline, "the bots did not get there"
        await asyncio.sleep(0.01)


def _load(storage: Storage, code: str) -> StoredTable:
    stored = storage.run_sync(lambda tx: tx.load_table(code))
    assert stored is not None
    return stored


def test_a_hub_in_memory_plays_a_game_of_bots_to_its_end_and_keeps_it() -> None:
    storage = MemoryStorage()

    async def play() -> tuple[LiveTable, dict[str, Any]]:
        hub = Hub(storage, Settings(bot_delay=0))
        try:
            table, host, _ = await hub.create_table(CONFIG)
            await hub.add_bots(table.code, host, None, "random", True)
            await hub.start(table.code, host)
            await _until(lambda: table.status == FINISHED)
            return table, hub.stats()
        finally:
            await hub.close()

    table, stats = asyncio.run(play())
    assert table.state is not None and table.state.over
    stored = _load(storage, table.code)
    assert stored.status == FINISHED
    assert [i.kind for i in stored.seats.values()] == [BOT] * 3
    assert len(stored.answers) > 20 and stored.answers == table.answers
    assert stored.final_digest == digest(table.state)
    assert stored.winners == list(table.state.winners)
    # what is kept rebuilds the same game: config, seed and the answers
    again = replay_state(
        config_from_dict(stored.config), stored.seed, stored.answers, stored.last_gambit_at
    )
    assert digest(again) == stored.final_digest
    assert stats["commits"] == storage.commits > 10  # /api/stats reads the storage's figures


def test_a_second_hub_on_the_same_storage_resumes_a_game_where_a_person_must_answer() -> None:
    storage = MemoryStorage()

    async def first() -> tuple[str, list[int], str]:
        hub = Hub(storage, Settings(bot_delay=0))
        try:
            table, host, _ = await hub.create_table(CONFIG)
            await hub.take_seat(table.code, 0, "Ada")
            await hub.add_bots(table.code, host, None, "random", True)
            await hub.start(table.code, host)
            # the bots answer until the person's question (or a face-down
            # round's, which waits for every seat): then nothing more comes
            while True:
                n = len(table.answers)
                await asyncio.sleep(0.3)
                if len(table.answers) == n and table.bot_task is None:
                    break
            assert table.state is not None and not table.state.over
            return table.code, list(table.answers), digest(table.state)
        finally:
            await hub.close()

    code, answers, seen = asyncio.run(first())
    second = Hub(storage, Settings(bot_delay=0))
    assert second.resume() == 1
    table = second.house.tables[code]
    assert table.status == PLAYING and table.answers == answers
    assert table.state is not None and digest(table.state) == seen
    assert table.seats[0].kind == HUMAN and table.seats[0].name == "Ada"


def test_a_failed_transaction_leaves_nothing_behind() -> None:
    storage = MemoryStorage()

    def half(tx: Transaction) -> None:
        tx.create_table("HALF", CONFIG, 1, None)
        tx.add_answer("HALF", 0, 1, 0, 0)
        tx.add_answer("HALF", 0, 2, 1, 0)  # the primary key refuses a second answer 0

    with pytest.raises(StorageError):
        asyncio.run(storage.run(half))
    assert not storage.run_sync(lambda tx: tx.code_taken("HALF"))


# ---------------------------------------------------------------- the same as SQLite

AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def _answer(tx: Transaction, n: int) -> None:
    tx.add_answer("AAAA", n, 10 + n, n % 2, n % 3)


def _chat(tx: Transaction, i: int) -> None:
    tx.add_chat("AAAA", {"id": i, "text": f"hi {i}"}, 2)


#: One transaction each, the tables' whole vocabulary, in a game's order.
SCRIPT: list[Callable[[Transaction], object]] = [
    lambda tx: tx.create_table("AAAA", {"players": 2, "b": [1, 2], "a": 1}, 7, "h", "g", 30.0),
    lambda tx: tx.put_seat("AAAA", SeatInfo(0, "Ada", HUMAN, None, "t0", None)),
    lambda tx: tx.put_seat("AAAA", SeatInfo(1, "Bot", BOT, "random")),
    lambda tx: tx.put_seat("AAAA", SeatInfo(2, "Cy", HUMAN, None, "t2")),
    lambda tx: tx.remove_seat("AAAA", 2),
    lambda tx: tx.add_bans("AAAA", [("name", "Cy"), ("address", "1.2.3.4"), ("name", "Cy")]),
    lambda tx: tx.add_bans("AAAA", [("name", "Cy")]),
    lambda tx: tx.set_seat_token("AAAA", 0, "t0b"),
    lambda tx: tx.set_gm("AAAA", None),
    lambda tx: tx.set_unlisted("AAAA", True),
    lambda tx: tx.set_hints("AAAA", True),
    lambda tx: tx.start_table("AAAA", AT),
    lambda tx: tx.start_table("AAAA", datetime(2030, 1, 1, tzinfo=UTC)),  # started once only
    *[partial(_answer, n=n) for n in range(5)],
    *[partial(_chat, i=i) for i in range(1, 5)],
    lambda tx: tx.set_mutes("AAAA", "seat", ["1", "0"], True),
    lambda tx: tx.set_mutes("AAAA", "seat", ["0"], False),
    lambda tx: tx.set_mutes("AAAA", "address", [], True),
    lambda tx: tx.take_back_answers("AAAA", 3, 2),
    lambda tx: tx.set_last_gambit("AAAA", 3),
    lambda tx: tx.create_table("BBBB", {"players": 3}, 8, None, unlisted=False, hints=False),
    lambda tx: tx.expire_table("BBBB"),
    lambda tx: tx.create_table("CCCC", {"players": 4}, 9, "h2", turn_seconds=None, hints=True),
    lambda tx: tx.put_seat("CCCC", SeatInfo(3, "Dee", HUMAN, None, "t3")),
    lambda tx: tx.clear_bans("AAAA"),
    lambda tx: tx.add_bans("AAAA", [("address", "5.6.7.8")]),
    lambda tx: tx.create_table("DDDD", {"players": 2}, 10, None),
    lambda tx: tx.start_table("DDDD", AT),
    lambda tx: tx.finish_table("DDDD", [0, 1], "d1", "idle"),
    lambda tx: tx.set_rematch("DDDD", "CCCC"),
    lambda tx: tx.finish_table("AAAA", [1], "d0"),
    lambda tx: tx.set_gm("NONE", "x"),  # an update of no table changes nothing
]

#: What each refuses, on both: a seat taken twice, an answer number twice.
REFUSED: list[Callable[[Transaction], object]] = [
    lambda tx: tx.put_seat("CCCC", SeatInfo(3, "Eve", HUMAN)),
    lambda tx: tx.add_answer("AAAA", 0, 99, 0, 0),
]


def _plain(t: StoredTable | None) -> Any:
    """A stored table as comparable data: when things happened only as whether they did."""
    if t is None:
        return None
    d = dataclasses.asdict(t)
    for when in ("created_at", "started_at", "finished_at", "last_answer_at"):
        d[when] = d[when] is not None if when != "started_at" else d[when]
    return d


def _everything(storage: Storage) -> Any:
    def read(tx: Transaction) -> Any:
        return {
            "tables": {
                (code, full): _plain(tx.load_table(code, with_answers=full))
                for code in ("AAAA", "BBBB", "CCCC", "DDDD", "NONE")
                for full in (True, False)
            },
            "live": [_plain(t) for t in tx.load_live()],
            "finished": [_plain(t) for t in tx.list_finished()],
            "page": [t.code for t in tx.list_finished(limit=1, offset=1)],
            "taken": [tx.code_taken(c) for c in ("AAAA", "ZZZZ")],
        }

    return storage.run_sync(read)


async def _script(storage: Storage) -> list[bool]:
    for step in SCRIPT:
        await storage.run(step)
    refused = []
    for step in REFUSED:
        try:
            await storage.run(step)
        except StorageError:
            refused.append(True)
        else:
            refused.append(False)
    return refused


def test_the_memory_storage_keeps_and_loads_what_sqlite_does(tmp_path: Path) -> None:
    memory = MemoryStorage()
    writer = Writer(open_database(str(tmp_path / "same.sqlite3")))
    sql = SqlStorage(writer)
    try:
        assert asyncio.run(_script(memory)) == [True, True]
        assert asyncio.run(_script(sql)) == [True, True]
        kept = _everything(sql)
    finally:
        writer.close()
    # the script reaches what it should: a checker of two empty stores would pass
    a = kept["tables"][("AAAA", True)]
    assert a["answers"] == [0, 1, 2] and a["decision_ids"] == [10, 11, 12]
    assert [m["id"] for m in a["chat"]] == [3, 4] and a["mutes"] == [("seat", "1")]
    assert a["bans"] == [("address", "5.6.7.8")] and a["status"] == FINISHED
    assert a["started_at"] == AT and a["last_gambit_at"] == 3 and a["config"]["b"] == [1, 2]
    assert [t["code"] for t in kept["live"]] == ["CCCC"] and kept["page"] == ["DDDD"]
    assert _everything(memory) == kept
