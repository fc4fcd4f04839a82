"""The players' rows behind the storage protocol: memory held to SQLite's (issue 32 §7).

People, the seats their keys hold and their ratings are kept through the
protocol's methods (``storage/players.py`` in SQL, ``storage/memory_players.py``
in dictionaries).  The first test runs the same player operations on both
and compares every answer; the last plays a game between player keys on a
hub with no database at all, which could not even mint a key before the
players' rows were behind the protocol (``Transaction.sql()`` refused).
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from dragonante.interfaces.web.hub import Hub, Settings
from dragonante.interfaces.web.players.ratings import rate_table, rebuild
from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.storage import memory_players, players
from dragonante.interfaces.web.storage.db import open_database
from dragonante.interfaces.web.storage.interface import Storage, Transaction
from dragonante.interfaces.web.storage.memory import MemoryStorage
from dragonante.interfaces.web.storage.players import MAX_LISTED, Rated
from dragonante.interfaces.web.storage.sql import SqlStorage
from dragonante.interfaces.web.storage.store import BOT, FINISHED, HUMAN, SeatInfo
from dragonante.interfaces.web.storage.writer import StorageError, Writer

ANN, BOB, CY = "a" * 43, "b" * 43, "c" * 43
AT = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)


@pytest.fixture
def same_ids(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Public ids from a counter, so both storages give the same people the
    same ids; the returned function starts the counter again."""
    counter: list[Iterator[int]] = [itertools.count(1)]

    def fresh() -> str:
        return f"p{next(counter[0]):010x}"

    monkeypatch.setattr(players, "new_id", fresh)
    monkeypatch.setattr(memory_players, "new_id", fresh)
    return lambda: counter.__setitem__(0, itertools.count(1))


def _table(tx: Transaction, code: str, seats: list[SeatInfo]) -> None:
    tx.create_table(code, {"players": len(seats)}, 1, None)
    tx.flush()
    for info in seats:
        tx.put_seat(code, info)


def _finish(tx: Transaction, code: str, winners: list[int], ended: str | None = None) -> None:
    tx.start_table(code, AT)
    tx.finish_table(code, winners, "digest", ended)


def _rate(tx: Transaction, code: str, hoards: list[int], winners: list[int], day: int) -> int:
    stored = tx.load_table(code)
    assert stored is not None
    return rate_table(tx, code, stored.seats, hoards, winners, AT + timedelta(days=day))


def _human(seat: int, pid: str | None) -> SeatInfo:
    return SeatInfo(seat, f"P{seat}", HUMAN, None, f"t{seat}", pid)


def _held(seats: list[players.HeldSeat]) -> list[Any]:
    """Held seats as comparable data: when things happened only as whether they did."""
    out = []
    for h in seats:
        d = dataclasses.asdict(h)
        d["created_at"] = True
        d["finished_at"] = d["finished_at"] is not None
        out.append(d)
    return out


async def _script(storage: Storage) -> dict[str, Any]:
    """The players' whole vocabulary, one transaction a step, and every answer."""
    run = storage.run
    seen: dict[str, Any] = {}
    a = await run(lambda tx: tx.add_player(ANN))
    b = await run(lambda tx: tx.add_player(BOB))
    c = await run(lambda tx: tx.add_player(CY))  # never seated: on no board
    seen["people"] = [a, b, c]
    seen["by_key"] = await run(lambda tx: [tx.player_by_key(k) for k in (ANN, BOB, "z" * 43)])
    seen["by_id"] = await run(lambda tx: [tx.player_by_id(p) for p in (a.id, "p0000000000")])
    await run(lambda tx: tx.set_name(a.id, "Ann"))
    await run(lambda tx: tx.set_name(b.id, "Bob"))
    await run(lambda tx: tx.set_name("p0000000000", "Nobody"))  # an update of no row
    # Two games between Ann and Bob (and a bot), one Ann alone, one ended idle,
    # one still playing, one open: each created after the one before.
    bot = SeatInfo(2, "Bot", BOT, "easy")
    await run(lambda tx: _table(tx, "G1", [_human(0, a.id), _human(1, b.id), bot]))
    await run(lambda tx: _finish(tx, "G1", [0]))
    seen["g1"] = await run(lambda tx: _rate(tx, "G1", [30, 10, 5], [0], 1))
    seen["again"] = await run(lambda tx: _rate(tx, "G1", [30, 10, 5], [0], 2))  # rated once
    await run(lambda tx: _table(tx, "G2", [_human(0, b.id), _human(1, a.id), bot]))
    await run(lambda tx: _finish(tx, "G2", [0, 1]))
    seen["g2"] = await run(lambda tx: _rate(tx, "G2", [20, 20, 3], [0, 1], 3))
    await run(lambda tx: _table(tx, "G3", [_human(0, a.id), _human(1, None)]))
    await run(lambda tx: _finish(tx, "G3", [1]))
    seen["g3"] = await run(lambda tx: _rate(tx, "G3", [1, 9], [1], 4))
    await run(lambda tx: _table(tx, "IDLE", [_human(0, a.id), _human(1, b.id)]))
    await run(lambda tx: _finish(tx, "IDLE", [], "idle"))
    await run(lambda tx: _table(tx, "LIVE", [_human(0, a.id), bot]))
    await run(lambda tx: tx.start_table("LIVE", AT))
    await run(lambda tx: _table(tx, "OPEN", [_human(1, b.id)]))
    seen["nokey"] = await run(
        lambda tx: rate_table(tx, "OPEN", {0: _human(0, None), 1: bot}, [1, 2], [1])
    )
    # The host hands Bob's open seat to Cy's key: the token opens nothing.
    await run(lambda tx: tx.hand_seat("OPEN", 1, c.id))
    await run(lambda tx: tx.hand_seat("OPEN", 0, c.id))  # no such seat: nothing
    seen["open"] = await run(lambda tx: tx.load_table("OPEN"))
    seen["open_seats"] = {p: dataclasses.asdict(i) for p, i in seen.pop("open").seats.items()}

    def reads(tx: Transaction) -> dict[str, Any]:
        return {
            "seats": {
                (p.id, f): _held(tx.seats_of(p.id, f))
                for p in (a, b, c)
                for f in (None, True, False)
            },
            "board": tx.leaderboard(),
            "top": tx.leaderboard(limit=1),
            "ratings": [tx.rating_of(p) for p in (a.id, b.id, c.id)],
            "history": [tx.history(p) for p in (a.id, b.id, c.id)],
            "rated": [tx.is_rated(code) for code in ("G1", "G3", "IDLE", "LIVE")],
            "now": tx.ratings_now([a.id, b.id, c.id, "p0000000000"]),
            "rateable": tx.rateable(),
        }

    seen |= await run(reads)
    # What both refuse: a second person with a key, a game's step twice.
    refused = []
    twice = Rated(a.id, 1, 1.0, 30.0, 5.0)
    for step in (
        lambda tx: tx.add_player(ANN),
        lambda tx: tx.add_ratings("G1", [twice], AT),
    ):
        try:
            await run(step)
        except StorageError:
            refused.append(True)
        else:
            refused.append(False)
    seen["refused"] = refused
    seen["after"] = await run(reads)  # ... and keep nothing of it
    await run(lambda tx: tx.clear_ratings())
    seen["cleared"] = await run(lambda tx: (tx.leaderboard(), tx.history(a.id), tx.is_rated("G1")))
    return seen


def test_the_players_rows_in_memory_answer_what_sqlite_does(
    tmp_path: Path, same_ids: Callable[[], None]
) -> None:
    memory = asyncio.run(_script(MemoryStorage()))
    same_ids()
    writer = Writer(open_database(str(tmp_path / "players.sqlite3")))
    try:
        kept = asyncio.run(_script(SqlStorage(writer)))
    finally:
        writer.close()
    # the script reaches what it should: a checker of two empty stores would pass
    a, b, c = kept["people"]
    assert [p.id for p in kept["people"]] == ["p0000000001", "p0000000002", "p0000000003"]
    assert kept["by_key"] == [a, b, None] and kept["by_id"] == [a, None]
    assert [kept["g1"], kept["again"], kept["g2"], kept["g3"], kept["nokey"]] == [2, 0, 2, 1, 0]
    board = kept["board"]
    assert {(r["id"], r["name"]) for r in board} == {(a.id, "Ann"), (b.id, "Bob")}
    assert [r["rank"] for r in board] == [1, 2] and board[0]["ordinal"] >= board[1]["ordinal"]
    assert kept["top"] == board[:1]
    assert kept["ratings"][0]["games"] == 3 and kept["ratings"][2] is None
    assert kept["ratings"][1]["wins"] == 0.5  # a win shared by two
    assert [h["code"] for h in kept["history"][0]] == ["G1", "G2", "G3"]
    assert kept["history"][0][0]["at"] == (AT + timedelta(days=1)).isoformat()
    assert kept["rated"] == [True, True, False, False]
    assert set(kept["now"]) == {a.id, b.id}
    assert kept["rateable"] == ["G1", "G2", "G3"]  # not the idle one, oldest first
    ann_all = [h["code"] for h in kept["seats"][a.id, None]]
    assert ann_all == ["LIVE", "IDLE", "G3", "G2", "G1"]  # newest table first
    assert [h["code"] for h in kept["seats"][a.id, False]] == ["LIVE"]
    assert [h["winners"] for h in kept["seats"][a.id, True]][-1] == [0]
    assert [h["code"] for h in kept["seats"][c.id, None]] == ["OPEN"]
    handed = kept["open_seats"][1]
    assert handed["player_id"] == c.id and handed["player_hash"] == c.key_hash
    assert handed["token_hash"] is None
    assert kept["refused"] == [True, True] and kept["after"]["board"] == kept["board"]
    assert kept["cleared"] == ([], [], False)
    assert memory == kept


def test_my_games_list_at_most_max_listed_on_both(tmp_path: Path) -> None:
    """The limit is the storage's, in memory too (a person of many tables)."""

    async def many(storage: Storage) -> list[int]:
        p = await storage.run(lambda tx: tx.add_player(ANN))
        for n in range(MAX_LISTED + 3):
            await storage.run(partial(_table, code=f"T{n:03d}", seats=[_human(0, p.id)]))
        return await storage.run(
            lambda tx: [len(tx.seats_of(p.id, f)) for f in (None, True, False)]
        )

    writer = Writer(open_database(str(tmp_path / "many.sqlite3")))
    try:
        in_sql = asyncio.run(many(SqlStorage(writer)))
    finally:
        writer.close()
    assert in_sql == [MAX_LISTED, 0, MAX_LISTED]
    assert asyncio.run(many(MemoryStorage())) == in_sql


# ------------------------------------------------------- a hub with no database


async def _nothing(_text: str) -> None:
    """Frames stay in the client's queue; nobody reads them."""


async def _keyed_game(hub: Hub, keys: list[str | None]) -> str:
    """A game between ``keys`` (None: a person without one) played at random
    through the hub, as the routes seat a person with a key; its code."""
    table, host, _ = await hub.create_table({"players": len(keys), "gold_per_player": 8})
    clients = []
    for p, key in enumerate(keys):
        player = await hub.players.identify(key, "1.2.3.4") if key else None
        seat, token = await hub.take_seat(
            table.code,
            p,
            f"Name{p}",
            None,
            "1.2.3.4",
            (player.id, player.key_hash) if player else None,
        )
        if player is not None:
            await hub.players.sat_down(player, table.code, seat)
        clients.append(await hub.connect(table.code, token, "en", _nothing))
    await hub.start(table.code, host)
    rng = random.Random(7)
    while table.state is not None and table.state.pending is not None:
        face_down = table.round()
        for d in face_down.questions if face_down is not None else (table.state.pending,):
            await hub.answer(clients[d.seat], d.id, d.options[rng.randrange(len(d.options))])
    assert table.status == FINISHED
    return table.code


def test_a_hub_in_memory_serves_player_keys_my_games_and_ratings() -> None:
    storage = MemoryStorage()

    async def play() -> dict[str, Any]:
        hub = Hub(storage, Settings(bot_delay=0))
        try:
            ann = await hub.players.create("1.2.3.4")  # refused before: no players' rows
            bob = await hub.players.create("1.2.3.5")
            assert (await hub.players.identify(ann["key"], "1.2.3.4")).id == ann["id"]
            with pytest.raises(HubError) as unknown:
                await hub.players.identify("q" * 43, "1.2.3.4")
            assert unknown.value.status == 404
            code = await _keyed_game(hub, [ann["key"], bob["key"], None])
            # A live table: Ann's seat there is handed to Bob's key.
            table, host, _ = await hub.create_table({"players": 3})
            me = await hub.players.identify(ann["key"], "1.2.3.4")
            await hub.take_seat(table.code, 0, "Ann", None, "1.2.3.4", (me.id, me.key_hash))
            await hub.players.hand_seat(table.code, host, 0, bob["id"])
            return {
                "code": code,
                "live": table.code,
                "ids": (ann["id"], bob["id"]),
                "ann": await hub.players.me(ann["key"], "1.2.3.4"),
                "bob": await hub.players.me(bob["key"], "1.2.3.5"),
                "page": await hub.players.page(ann["id"]),
                "board": await hub.players.leaderboard(),
            }
        finally:
            await hub.close()

    got = asyncio.run(play())
    ann_id, bob_id = got["ids"]
    assert got["ann"]["name"] == "Name0" and got["bob"]["name"] == "Name1"
    assert [g["code"] for g in got["ann"]["games"]] == [got["code"]]
    assert [g["code"] for g in got["bob"]["games"]] == [got["live"], got["code"]]
    page = got["page"]
    assert [h["code"] for h in page["history"]] == [got["code"]]
    assert page["rating"]["games"] == 1 and [g["code"] for g in page["games"]] == [got["code"]]
    assert {r["id"] for r in got["board"]} == {ann_id, bob_id}
    # the ratings are derived data: a rebuild from the kept game gives the same
    before = storage.run_sync(lambda tx: tx.leaderboard())
    done = storage.run_sync(rebuild)
    assert (done.games, done.people, done.skipped) == (1, 2, [])
    assert storage.run_sync(lambda tx: tx.leaderboard()) == before == got["board"]
