"""Races of one cluster member (``web/cluster/member.py``), staged in one process.

The multi-process tests (``test_multiprocess.py``) run real servers; here one
:class:`Cluster` runs on the test's event loop, so an interleaving that a
busy server meets once in many runs can be staged exactly.  Each run uses a
fresh PostgreSQL schema of ``DRAGONANTE_TEST_PG_URL`` (dropped afterwards).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import psycopg
import pytest

from dragonante.interfaces.web.cluster.member import Cluster, ClusterSettings
from dragonante.interfaces.web.cluster.transport import Kind
from dragonante.interfaces.web.hub import Hub, Settings
from dragonante.interfaces.web.storage.db import open_database
from dragonante.interfaces.web.storage.writer import Writer
from tests.web.pg import PG_URL, fresh_schema

pytestmark = pytest.mark.skipif(
    not PG_URL, reason="set DRAGONANTE_TEST_PG_URL=postgresql://... to test several processes"
)


@pytest.fixture(scope="module")
def db() -> Iterator[str]:
    with fresh_schema("races") as url:
        yield url


async def _until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.001)


def test_a_claim_racing_a_new_table_does_not_replace_it(db: str) -> None:
    """A heartbeat's claim of "tables this process owns but does not run" can
    see a table the moment it is committed, before ``create_table`` puts it in
    memory; the copy it loads must not replace the live table afterwards (the
    seats taken and sockets connected meanwhile would be on a table nobody
    plays: the load test's table slot that never finished)."""

    async def scenario() -> None:
        writer = Writer(open_database(db))
        hub = Hub(writer, Settings(bot_delay=0))
        # A long lease: no heartbeat of its own during the test.
        cluster = Cluster(hub, object(), ClusterSettings(lease=120))
        await cluster.start()
        try:
            table, _host, _gm = await hub.create_table({"players": 3})
            code = table.code
            # As if create_table's last line had not run yet: committed, not in memory.
            del hub.tables[code]
            claim = asyncio.create_task(cluster.lease.claim_orphans(limit=None))
            await _until(lambda: code in cluster.lease.adopting)  # its copy is loading
            hub.tables[code] = table  # create_table's last line runs
            seat, _token = await hub.take_seat(code, None, "Ann")
            await claim
            assert hub.tables[code] is table
            assert hub.tables[code].seats[seat].name == "Ann"
        finally:
            await hub.close()  # also its garbage-collector hook
            await cluster.close()
            writer.close()

    asyncio.run(scenario())


def test_identical_relay_messages_in_one_batch_all_arrive(db: str) -> None:
    """PostgreSQL delivers one of several identical notifications sent in one
    transaction; the relay sends a burst in one statement, so two identical
    frames of one client (the same chat line twice, two pings) would lose one."""

    async def scenario() -> None:
        writer = Writer(open_database(db))
        hub = Hub(writer, Settings(bot_delay=0))
        cluster = Cluster(hub, object(), ClusterSettings(lease=120))
        await cluster.start()
        url = cluster.url
        listener = await psycopg.AsyncConnection.connect(url, autocommit=True)
        try:
            channel = "dragonante_" + secrets.token_hex(8)
            await listener.execute(f"LISTEN {channel}".encode())
            frame = '{"type":"ping"}'
            for _ in range(3):  # queued together: one statement
                cluster.transport.frame(channel, Kind.FRAME_IN, "c0ffee", frame)
            # A NUL (no PostgreSQL text may hold one) travels escaped, and
            # does not cost the batch's other frames.
            cluster.transport.frame(channel, Kind.FRAME_IN, "c0ffee", '{"text":"a\x00b"}')
            cluster.transport.frame(channel, Kind.FRAME_IN, "c0ffee", '{"type":"sync"}')
            got = [note.payload async for note in listener.notifies(timeout=2)]
            assert got[:3] == ["ic0ffee " + frame] * 3
            assert json.loads(got[3]) == {"k": "wi", "c": "c0ffee", "t": '{"text":"a\x00b"}'}
            assert got[4:] == ['ic0ffee {"type":"sync"}']
        finally:
            await listener.close()
            await hub.close()  # also its garbage-collector hook
            await cluster.close()
            writer.close()

    asyncio.run(scenario())


def test_a_relayed_socket_that_closes_leaves_no_relay_behind(db: str) -> None:
    """A browser whose socket landed on a process that does not own its table
    goes away while the owner has nothing more to send: the relay must end
    (it used to wait for the owner's next frame for ever, one per socket)."""

    async def scenario() -> None:
        writer = Writer(open_database(db))
        hub = Hub(writer, Settings(bot_delay=0))
        cluster = Cluster(hub, object(), ClusterSettings(lease=120))
        await cluster.start()
        try:
            incoming: asyncio.Queue[dict[str, object]] = asyncio.Queue()
            sent: list[dict[str, object]] = []

            async def receive() -> dict[str, object]:
                return await incoming.get()

            async def send(message: MutableMapping[str, Any]) -> None:
                sent.append(dict(message))

            scope = {"type": "websocket", "path": "/ws/ABCDEF", "headers": []}
            incoming.put_nowait({"type": "websocket.connect"})
            relay = asyncio.create_task(
                cluster.relay.relay_socket("elsewhere", scope, receive, send)
            )
            await _until(lambda: len(cluster.relay.relays) == 1)
            (cid,) = cluster.relay.relays
            cluster.relay.to_relay(cid, {"type": "websocket.accept"})  # the owner accepts
            await _until(lambda: bool(sent))
            incoming.put_nowait({"type": "websocket.disconnect", "code": 1001})
            await asyncio.wait_for(relay, 5)
            assert cluster.relay.relays == {} and sent[0]["type"] == "websocket.accept"
        finally:
            await cluster.close()
            await hub.close()
            writer.close()

    asyncio.run(scenario())


def test_the_lobby_of_every_process_leaves_invite_only_tables_out(db: str) -> None:
    """With several processes the lobby's lists come from the database (every
    process's tables); they listed invite-only tables, which one process never
    does (issue 22, hole 6: a stranger must not find the host's table)."""

    async def scenario() -> None:
        writer = Writer(open_database(db))
        hub = Hub(writer, Settings(bot_delay=0))
        cluster = Cluster(hub, object(), ClusterSettings(lease=120))
        await cluster.start()
        try:
            listed, _host, _gm = await hub.create_table({"players": 3})
            hidden, _host, _gm = await hub.create_table({"players": 3}, unlisted=True)
            codes = [t["code"] for t in (await cluster.lobby())["open"]]
            assert listed.code in codes and hidden.code not in codes
            assert [t["code"] for t in hub.live()["open"]].count(hidden.code) == 0
        finally:
            await hub.close()
            await cluster.close()
            writer.close()

    asyncio.run(scenario())
