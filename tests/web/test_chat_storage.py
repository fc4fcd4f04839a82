"""A table's recent chat and the host's mutes are stored with the table.

A restarted server (and, with several processes, the process that takes a
table over: ``test_multiprocess.py``) shows late joiners the same history
and keeps the same people muted; only the last ``chat_history`` messages are
kept in the database, as in memory.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, text

from dragonante.interfaces.web.hub import Settings
from dragonante.interfaces.web.storage.db import database_url
from tests.web.helpers import LiveServer, Seat, make_table

SMALL = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}


def test_chat_history_and_mutes_survive_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "chat.sqlite3")
    settings = Settings(bot_delay=0, chat_history=3)
    first = LiveServer(db, settings).start()
    with first.http() as http:
        code, tokens, host = make_table(http, SMALL, ["Ann", "Bob"], bots=1)
    ann, bob = Seat(first, code, tokens[0]), Seat(first, code, tokens[1])
    for i in range(5):
        ann.send({"type": "chat", "text": f"m{i} <i>x</i>"})
        bob.wait(lambda m, i=i: m["type"] == "chat" and m["text"].startswith(f"m{i} "))
    with first.http() as http:
        r = http.post(
            f"/api/tables/{code}/mute",
            json={"seat": 1},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert r.status_code == 200, r.text
    bob.wait(lambda m: m["type"] == "mute")
    for s in (ann, bob):
        s.close()
    first.stop()
    engine = create_engine(database_url(db))
    with engine.connect() as c:  # the database keeps the last chat_history only
        ids = [r[0] for r in c.execute(text("SELECT id FROM chat_messages ORDER BY id"))]
    engine.dispose()
    assert ids == [3, 4, 5]

    second = LiveServer(db, settings, port=first.port).start()
    late = Seat(second, code, tokens[0])
    history = late.wait(lambda m: m["type"] == "chat_history")
    assert [m["text"] for m in history["messages"]] == ["m2 <i>x</i>", "m3 <i>x</i>", "m4 <i>x</i>"]
    assert history["messages"][0]["name"] == "Ann" and history["muted_seats"] == [1]
    bob = Seat(second, code, tokens[1])
    bob.send({"type": "chat", "text": "let me speak"})
    assert bob.wait(lambda m: m["type"] == "error")["code"] == "muted"
    late.send({"type": "chat", "text": "again"})
    assert bob.wait(lambda m: m["type"] == "chat")["id"] > 5
    for s in (late, bob):
        s.close()
    second.stop()
