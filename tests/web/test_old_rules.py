"""A table stored under an older ``RULES_VERSION`` is refused with a clear message,
never replayed into a different game (issue 21 §3): at start-up, when another
process's table is taken over, and when a visitor asks for it."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from dragonante import RULES_VERSION
from dragonante.engine.config import GameConfig, config_to_dict
from dragonante.engine.game import apply, new_game
from dragonante.interfaces.web.hub import Hub, HubError
from dragonante.interfaces.web.storage import store
from dragonante.interfaces.web.storage.db import TableRow, open_database
from dragonante.interfaces.web.storage.writer import Writer

CONFIG = GameConfig(players=3)


def _store_game(writer: Writer, code: str, version: int, answers: int, finish: bool) -> None:
    """A table with ``answers`` real answers, stored as if made under ``version``."""
    s = new_game(CONFIG, 5, log=False)
    pick = random.Random(1)
    stored: list[tuple[int, int, int]] = []
    while s.pending is not None and len(stored) < answers:
        d = s.pending
        answer = pick.choice(d.options)
        stored.append((d.id, d.seat, answer))
        apply(s, answer, d.id)

    def write(session: Session) -> None:
        store.create_table(session, code, config_to_dict(CONFIG), 5, "host")
        store.start_table(session, code, store.now())
        for n, (decision_id, seat, answer) in enumerate(stored):
            store.add_answer(session, code, n, decision_id, seat, answer)
        if finish:
            store.finish_table(session, code, [0], "x")
        session.execute(update(TableRow).where(TableRow.code == code).values(rules_version=version))

    writer.run_sync(write)


@pytest.fixture
def writer(tmp_path: Path) -> Writer:
    return Writer(open_database(str(tmp_path / "web.sqlite3")))


def test_old_tables_are_not_resumed_and_visitors_get_the_reason(
    writer: Writer, caplog: pytest.LogCaptureFixture
) -> None:
    _store_game(writer, "OLDONE", RULES_VERSION - 1, 12, finish=False)
    _store_game(writer, "OLDFIN", RULES_VERSION - 1, 12, finish=True)
    _store_game(writer, "NEWONE", RULES_VERSION, 12, finish=False)
    hub = Hub(writer)
    with caplog.at_level(logging.ERROR):
        hub.resume()
    # The current table resumes where it was; the old one is left alone.
    assert set(hub.tables) == {"NEWONE"}
    assert len(hub.tables["NEWONE"].answers) == 12
    refused = (
        f"OLDONE cannot be resumed: table OLDONE was played under rules version {RULES_VERSION - 1}"
    )
    assert refused in caplog.text

    async def visit(code: str) -> HubError:
        with pytest.raises(HubError) as info:
            await hub.table(code)
        return info.value

    for code in ("OLDONE", "OLDFIN"):
        e = asyncio.run(visit(code))
        assert (e.code, e.status) == ("old_game", 410)
        assert f"rules version {RULES_VERSION - 1}" in e.detail
        assert f"this server plays version {RULES_VERSION}" in e.detail
        assert "different game" in e.detail
        assert code not in hub.tables
    writer.close()


def test_an_old_table_is_not_taken_over_from_another_process(
    writer: Writer, caplog: pytest.LogCaptureFixture
) -> None:
    _store_game(writer, "OLDTWO", RULES_VERSION - 1, 6, finish=False)
    _store_game(writer, "NEWTWO", RULES_VERSION, 6, finish=False)
    hub = Hub(writer)
    old = writer.run_sync(lambda s: store.load_table(s, "OLDTWO"))
    new = writer.run_sync(lambda s: store.load_table(s, "NEWTWO"))
    assert old is not None and new is not None
    with caplog.at_level(logging.ERROR):
        assert hub.adopt(old) is None
    assert "table OLDTWO cannot be taken over" in caplog.text
    assert "OLDTWO" not in hub.tables
    adopted = hub.adopt(new)
    assert adopted is not None and len(adopted.answers) == 6
    writer.close()
