"""Storage: the schema is created and upgraded by migrations; answers commit in groups."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect
from sqlalchemy.orm import Session

from dragonante.interfaces.web.storage import store
from dragonante.interfaces.web.storage.db import database_url, open_database
from dragonante.interfaces.web.storage.writer import StorageError, Writer
from tests.web.pg import PG_URL, fresh_schema


def test_first_run_creates_the_schema_and_a_second_run_changes_nothing(tmp_path: Path):
    path = tmp_path / "sub" / "web.sqlite3"
    engine = open_database(str(path))
    assert path.exists()
    tables = set(inspect(engine).get_table_names())
    assert {"game_tables", "seats", "answers", "alembic_version"} <= tables
    engine.dispose()
    again = open_database(str(path))  # migrating an up-to-date database is a no-op
    assert set(inspect(again).get_table_names()) == tables
    again.dispose()


def test_database_urls():
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert database_url("/tmp/a/b.sqlite3") == "sqlite:////tmp/a/b.sqlite3"


def test_tokens_are_stored_only_as_hashes():
    h = store.hash_token("secret")
    assert len(h) == 64 and "secret" not in h


def test_answers_commit_in_groups_and_a_bad_one_fails_alone(tmp_path: Path):
    writer = Writer(open_database(str(tmp_path / "w.db")))

    async def main() -> None:
        await writer.run(lambda s: store.create_table(s, "ABCDEF", {"players": 2}, 7, "h"))

        def answer(i: int) -> Callable[[Session], None]:
            return lambda s: store.add_answer(s, "ABCDEF", i, i, 0, 3)

        await asyncio.gather(*(writer.run(answer(i)) for i in range(50)))
        # Answer 10 exists: the primary key refuses it, the neighbours still commit.
        results = await asyncio.gather(
            writer.run(lambda s: store.add_answer(s, "ABCDEF", 50, 50, 0, 1)),
            writer.run(lambda s: store.add_answer(s, "ABCDEF", 10, 10, 0, 1)),
            writer.run(lambda s: store.add_answer(s, "ABCDEF", 51, 51, 0, 2)),
            return_exceptions=True,
        )
        assert isinstance(results[1], StorageError)
        assert results[0] is None and results[2] is None
        table = await writer.run(lambda s: store.load_table(s, "ABCDEF"))
        assert table is not None
        assert table.answers == [3] * 50 + [1, 2]
        assert table.decision_ids == list(range(52))

    asyncio.run(main())
    assert writer.commits < writer.jobs  # several answers shared a transaction
    writer.close()


async def _held(writer: Writer) -> tuple[threading.Event, asyncio.Future[None]]:
    """Block the database thread until the returned event is set, so the jobs
    queued meanwhile are taken together as one group; the future is the
    holding job's."""
    release, busy = threading.Event(), threading.Event()

    def hold(_s: Session) -> None:
        busy.set()
        release.wait(10)

    held = asyncio.ensure_future(writer.run(hold))
    assert await asyncio.to_thread(busy.wait, 10)
    return release, held


def test_answers_of_many_tables_commit_in_one_group(tmp_path: Path):
    writer = Writer(open_database(str(tmp_path / "w.db")))
    codes = [f"T{i:05d}" for i in range(40)]

    def create(s: Session) -> None:
        for i, code in enumerate(codes):
            store.create_table(s, code, {"players": 2}, i, "h")

    writer.run_sync(create)

    def answer(code: str, n: int) -> Callable[[Session], str]:
        def job(s: Session) -> str:
            store.add_answer(s, code, n, n + 10, n % 2, len(code) + n)
            return f"{code}/{n}"

        return job

    async def main() -> list[str]:
        commits = writer.commits
        release, held = await _held(writer)
        jobs = [asyncio.ensure_future(writer.run(answer(c, n))) for n in range(3) for c in codes]
        await asyncio.sleep(0.05)  # all queued behind the held job
        release.set()
        await held
        results = await asyncio.gather(*jobs)
        assert writer.commits - commits == 2  # the held job, then one for all 120 answers
        return results

    results = asyncio.run(main())
    assert results == [f"{c}/{n}" for n in range(3) for c in codes]  # each job's own result
    for code in codes:
        table = writer.run_sync(partial(store.load_table, code=code))
        assert table is not None
        assert table.answers == [len(code) + n for n in range(3)]
        assert table.decision_ids == [10, 11, 12]
    writer.close()


def test_a_duplicate_answer_fails_alone_and_the_rest_of_its_group_commits(tmp_path: Path):
    writer = Writer(open_database(str(tmp_path / "w.db")))
    writer.run_sync(lambda s: store.create_table(s, "AAAAAA", {"players": 2}, 1, "h"))
    writer.run_sync(lambda s: store.create_table(s, "BBBBBB", {"players": 2}, 2, "h"))
    writer.run_sync(lambda s: store.add_answer(s, "AAAAAA", 0, 1, 0, 5))

    def answer(code: str, n: int, value: int) -> Callable[[Session], None]:
        return lambda s: store.add_answer(s, code, n, n + 1, 0, value)

    async def main() -> list[object]:
        release, held = await _held(writer)
        commits = writer.commits
        jobs = [
            asyncio.ensure_future(writer.run(answer("AAAAAA", 1, 6))),
            asyncio.ensure_future(writer.run(answer("BBBBBB", 0, 7))),
            # Answer 0 of AAAAAA is stored already: the primary key refuses it.
            asyncio.ensure_future(writer.run(answer("AAAAAA", 0, 9))),
            asyncio.ensure_future(writer.run(answer("BBBBBB", 1, 8))),
        ]
        await asyncio.sleep(0.05)  # all queued behind the held job
        release.set()
        await held
        results: list[object] = await asyncio.gather(*jobs, return_exceptions=True)
        # The group failed as a whole, then each job ran alone: three commits.
        assert writer.commits - commits == 1 + 3
        return results

    results = asyncio.run(main())
    assert results[0] is None and results[1] is None and results[3] is None
    assert isinstance(results[2], StorageError)
    assert "refused" in str(results[2])
    a = writer.run_sync(lambda s: store.load_table(s, "AAAAAA"))
    b = writer.run_sync(lambda s: store.load_table(s, "BBBBBB"))
    assert a is not None and b is not None
    assert a.answers == [5, 6] and b.answers == [7, 8]
    writer.close()


def test_the_last_answer_and_the_end_of_the_game_are_stored_together(tmp_path: Path):
    writer = Writer(open_database(str(tmp_path / "w.db")))
    writer.run_sync(lambda s: store.create_table(s, "AAAAAA", {"players": 2}, 1, "h"))
    writer.run_sync(lambda s: store.start_table(s, "AAAAAA", store.now()))

    def last(s: Session) -> None:  # what Answers._submit_now commits when the game ends
        store.add_answer(s, "AAAAAA", 2, 3, 1, 4)
        store.finish_table(s, "AAAAAA", [1], "f" * 64)

    async def main() -> None:
        await asyncio.gather(
            writer.run(lambda s: store.add_answer(s, "AAAAAA", 0, 1, 0, 2)),
            writer.run(lambda s: store.add_answer(s, "AAAAAA", 1, 2, 1, 3)),
        )
        await writer.run(last)
        with pytest.raises(StorageError):  # nothing is added after the last answer twice
            await writer.run(last)

    asyncio.run(main())
    table = writer.run_sync(lambda s: store.load_table(s, "AAAAAA"))
    assert table is not None
    assert table.status == store.FINISHED and table.finished_at is not None
    assert table.winners == [1] and table.final_digest == "f" * 64
    assert table.answers == [2, 3, 4] and table.decision_ids == [1, 2, 3]
    assert writer.run_sync(store.load_live) == []
    assert [t.code for t in writer.run_sync(store.list_finished)] == ["AAAAAA"]
    writer.close()


def test_load_live_skips_finished_tables(tmp_path: Path):
    writer = Writer(open_database(str(tmp_path / "w.db")))
    writer.run_sync(lambda s: store.create_table(s, "AAAAAA", {"players": 2}, 1, "h"))
    writer.run_sync(lambda s: store.create_table(s, "BBBBBB", {"players": 2}, 2, "h"))
    writer.run_sync(lambda s: store.finish_table(s, "BBBBBB", [0], "d" * 64))
    live = writer.run_sync(store.load_live)
    assert [t.code for t in live] == ["AAAAAA"]
    done = writer.run_sync(store.list_finished)
    assert [t.code for t in done] == ["BBBBBB"] and done[0].winners == [0]
    writer.close()


@pytest.mark.parametrize("bad", ["", "   "])
def test_default_database_lives_in_the_data_directory(bad: str, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert database_url(bad or None) == f"sqlite:///{tmp_path}/dragonante/web.sqlite3"


def _serve_refuses(url: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> str:
    """``serve --db url`` must stop with one line before it serves anything."""
    import uvicorn

    from dragonante.interfaces.cli import main
    from tests.web.helpers import free_port

    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: served.append(a))
    with pytest.raises(SystemExit) as info:
        main(["serve", "--db", url, "--port", str(free_port())])
    err: list[str] = capsys.readouterr().err.strip().splitlines()
    assert info.value.code == 2 and not served and len(err) == 1, err
    return err[0]


def test_serve_refuses_a_database_it_cannot_write_at_its_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
):
    """Issue 32, hole 4: a read-only database was found only at the first
    write, so the server started, and the first table's creation (or a bot's
    first move) failed.  Now ``serve`` tries a write nobody sees at its start
    and refuses to start, in one line that says why and what to do."""
    from dragonante.interfaces.web.storage.db import refuses_writes

    path = tmp_path / "ro.sqlite3"
    open_database(str(path)).dispose()  # migrated: opening it read-only writes nothing
    url = f"sqlite:///file:{path}?mode=ro&uri=true"
    assert refuses_writes(open_database(url)) == "attempt to write a readonly database"
    assert refuses_writes(open_database(str(path))) is None
    line = _serve_refuses(url, monkeypatch, capsys)
    assert "refuses writes (attempt to write a readonly database)" in line


@pytest.mark.skipif(not PG_URL, reason="set DRAGONANTE_TEST_PG_URL=postgresql://... to test it")
def test_serve_refuses_a_read_only_postgresql_at_its_start(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
):
    with fresh_schema("ro") as url:
        open_database(url).dispose()
        read_only = url + "%20-cdefault_transaction_read_only%3Don"
        line = _serve_refuses(read_only, monkeypatch, capsys)
        assert "refuses writes" in line and "read-only transaction" in line
