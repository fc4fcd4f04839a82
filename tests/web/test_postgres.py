"""The server on PostgreSQL: migrations, a game, a restart, a replay; the
writer's ownership fence (``web/cluster/member.py``) against another process.

Runs when ``DRAGONANTE_TEST_PG_URL`` names a database (``.ci/run`` starts a
local PostgreSQL and sets it); skipped otherwise.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.orm import Session

from dragonante.engine.records import digest, record_from_dict, replay
from dragonante.interfaces.web.cluster.lease import ownership_fence
from dragonante.interfaces.web.storage import store
from dragonante.interfaces.web.storage.db import database_url, open_database
from dragonante.interfaces.web.storage.store import BOT, SeatInfo
from dragonante.interfaces.web.storage.writer import Batch, StorageError, Writer
from tests.web.helpers import LiveServer, Seat, make_table, play
from tests.web.pg import PG_URL, fresh_schema

pytestmark = pytest.mark.skipif(
    not PG_URL, reason="set DRAGONANTE_TEST_PG_URL=postgresql://... to test PostgreSQL"
)


def test_a_game_on_postgresql_survives_a_restart():
    first = LiveServer(PG_URL).start()
    engine = create_engine(database_url(PG_URL))
    assert {"game_tables", "seats", "answers"} <= set(inspect(engine).get_table_names())
    engine.dispose()
    config = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
    with first.http() as http:
        code, tokens, _host = make_table(http, config, ["Ann", "Bob"], bots=1)
    seats = [Seat(first, code, tok) for tok in tokens]
    play(seats, random.Random(8), until_step=6)
    for s in seats:
        s.close()
    first.stop()  # read the table after the stop: a bot may answer until then
    table = first.hub.tables[code]
    assert table.state is not None
    step, before = len(table.answers), digest(table.state)

    second = LiveServer(PG_URL, port=first.port).start()
    resumed = second.hub.tables[code]
    assert resumed.state is not None
    assert len(resumed.answers) == step and digest(resumed.state) == before
    seats = [Seat(second, code, tok) for tok in tokens]
    play(seats, random.Random(9))
    with second.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
        assert code in [g["code"] for g in http.get("/api/games").json()["games"]]
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    for s in seats:
        s.close()
    second.stop()


@pytest.fixture
def fenced() -> Iterator[tuple[Writer, str]]:
    """A writer fenced as process ``me`` on a fresh schema (dropped afterwards),
    and the schema's URL for a second connection playing the other process."""
    with fresh_schema("fence") as url:
        writer = Writer(open_database(url))

        def fence(s: Session, batch: Batch) -> None:
            ownership_fence(s, batch, "me")

        writer.add_fence(fence)
        yield writer, url
        writer.close()


def _answer(code: str, n: int) -> Callable[[Session], None]:
    return lambda s: store.add_answer(s, code, n, n + 1, 0, 1)


def _owners(writer: Writer) -> dict[str, Any]:
    rows = writer.run_sync(lambda s: s.execute(text("SELECT code, owner FROM game_tables")))
    return dict(rows.all())


#: A chat frame as ``social.py`` stores it.
CHAT = {"type": "chat", "id": 1, "seat": 0, "spectator": None, "name": "Ann", "text": "hi", "at": 0}


def test_the_fence_refuses_answers_seats_and_chat_of_another_process_table(
    fenced: tuple[Writer, str],
) -> None:
    writer, _url = fenced

    def create(s: Session) -> None:
        for code in ("MINE01", "THEIRS"):
            store.create_table(s, code, {"players": 2}, 1, "h")
        s.flush()  # the table rows first: the seat refers to one
        store.put_seat(s, "THEIRS", SeatInfo(0, "Ann", BOT, "easy"))  # a new table's seat

    writer.run_sync(create)
    assert _owners(writer) == {"MINE01": "me", "THEIRS": "me"}  # new tables are ours
    writer.run_sync(lambda s: s.execute(text("UPDATE game_tables SET owner = 'other' "
                                              "WHERE code = 'THEIRS'")))  # fmt: skip

    async def main() -> list[object]:
        release, busy = threading.Event(), threading.Event()

        def hold(_s: Session) -> None:
            busy.set()
            release.wait(10)

        held = asyncio.ensure_future(writer.run(hold))
        assert await asyncio.to_thread(busy.wait, 10)
        jobs = [  # one group: the fence fails it, then each job runs alone
            asyncio.ensure_future(writer.run(_answer("MINE01", 0))),
            asyncio.ensure_future(writer.run(_answer("THEIRS", 0))),
            asyncio.ensure_future(
                writer.run(lambda s: store.put_seat(s, "THEIRS", SeatInfo(1, "Bo", BOT, "easy")))
            ),
            asyncio.ensure_future(writer.run(_answer("MINE01", 1))),
            asyncio.ensure_future(writer.run(lambda s: store.add_chat(s, "THEIRS", CHAT, 50))),
            asyncio.ensure_future(
                writer.run(lambda s: store.set_mutes(s, "THEIRS", "seat", ["0"], True))
            ),
        ]
        await asyncio.sleep(0.05)
        release.set()
        await held
        return await asyncio.gather(*jobs, return_exceptions=True)

    results = asyncio.run(main())
    assert results[0] is None and results[3] is None
    for refused in (results[1], results[2], results[4], results[5]):
        assert isinstance(refused, StorageError)
        assert "THEIRS is now run by another process" in str(refused)
    mine = writer.run_sync(lambda s: store.load_table(s, "MINE01"))
    theirs = writer.run_sync(lambda s: store.load_table(s, "THEIRS"))
    assert mine is not None and theirs is not None
    assert mine.answers == [1, 1] and theirs.answers == []
    assert list(theirs.seats) == [0]
    assert (
        writer.run_sync(lambda s: s.execute(text("SELECT count(*) FROM chat_messages")).scalar())
        == 0
    )
    assert (
        writer.run_sync(lambda s: s.execute(text("SELECT count(*) FROM chat_mutes")).scalar()) == 0
    )


def test_a_takeover_in_progress_holds_the_answer_until_it_ends(
    fenced: tuple[Writer, str],
) -> None:
    writer, url = fenced
    writer.run_sync(lambda s: store.create_table(s, "MINE01", {"players": 2}, 1, "h"))
    other = create_engine(database_url(url))

    async def answer_during_takeover(n: int, commit: bool) -> object:
        with other.connect() as c:
            c.execute(text("UPDATE game_tables SET owner = 'other' WHERE code = 'MINE01'"))
            job = asyncio.ensure_future(writer.run(_answer("MINE01", n)))
            await asyncio.sleep(0.5)
            assert not job.done()  # the fence waits for the takeover's row lock
            if commit:
                c.commit()
            else:
                c.rollback()
        return (await asyncio.gather(job, return_exceptions=True))[0]

    # A takeover that gives up leaves the table ours: the answer is stored.
    assert asyncio.run(answer_during_takeover(0, commit=False)) is None
    # A takeover that commits first is seen: the answer is refused.
    refused = asyncio.run(answer_during_takeover(1, commit=True))
    assert isinstance(refused, StorageError)
    other.dispose()
    table = writer.run_sync(lambda s: store.load_table(s, "MINE01"))
    assert table is not None and table.answers == [1]
