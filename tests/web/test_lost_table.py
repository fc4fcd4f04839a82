"""A table this process lost to another (``serve --workers``, a takeover) stays lost.

Found with ``test_workers.py`` (a worker stopped with SIGSTOP for longer
than the lease, then woken): the woken worker's bot answered a table the
other worker had taken over meanwhile, the fence refused the write, and the
bot's retry (one second later, for a database that was briefly down)
outlived the heartbeat that dropped the table: it kept answering a table
nobody here runs, once a second, for the life of the process -- one refused
transaction, a lock on the owner's table row and two error lines each time,
one such loop per table ever lost.  ``Lease.drop`` -> ``Hub.evict`` cancels
the table's bot task, but the retrying move had already let go of it.

Staged on one process and SQLite, with a fence that refuses the table's
writes exactly as the cluster's does once another process owns the row.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from sqlalchemy.orm import Session

from dragonante.interfaces.web.hub import Hub, Settings
from dragonante.interfaces.web.storage.db import open_database
from dragonante.interfaces.web.storage.writer import Batch, StorageError, Writer


def test_a_bot_stops_answering_a_table_taken_over_by_another_process(tmp_path: Path) -> None:
    async def scenario() -> None:
        writer = Writer(open_database(f"sqlite:///{tmp_path / 'lost.db'}"))
        hub = Hub(writer, Settings(bot_delay=0))
        lost: set[str] = set()
        refused: list[float] = []

        def fence(_s: Session, batch: Batch) -> None:
            # The cluster's ownership fence, once another process owns the row.
            if batch.touched & lost:
                refused.append(time.monotonic())
                raise StorageError("table is now run by another process")

        writer.add_fence(fence)
        try:
            table, host, _gm = await hub.create_table({"players": 2})
            code = table.code
            await hub.add_bots(code, host, None, "random", True)
            lost.add(code)  # taken over: every answer from here on is refused
            await hub.start(code, host)
            deadline = time.monotonic() + 10
            while not refused:  # the first bot's answer, refused
                assert time.monotonic() < deadline, "the bot never answered"
                await asyncio.sleep(0.01)
            assert table.answers == []
            hub.evict(code)  # the heartbeat's drop: another process runs it now
            evicted = len(refused)
            await asyncio.sleep(2.5)  # two of the bot's one-second retries
            assert code not in hub.tables
            assert len(refused) == evicted, (
                f"{len(refused) - evicted} answers tried for a table dropped from this process"
            )
            assert table.bot_task is None or table.bot_task.done()
            assert table.turn_task is None
        finally:
            await hub.close()
            writer.close()

    asyncio.run(scenario())
