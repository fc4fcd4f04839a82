"""Storage: the schema is created and upgraded by migrations; answers commit in groups."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import inspect
from sqlalchemy.orm import Session

from dragonante.interfaces.web import store
from dragonante.interfaces.web.db import database_url, open_database
from dragonante.interfaces.web.writer import StorageError, Writer


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
