"""Table affinity (``serve --affinity``): a table moves to the process its requests reach.

Behind a proxy that routes each table to one process, the process that gets
a request for another live process's table asks for it instead of relaying:
checked here, with two real ``dragonante serve --affinity`` processes on one
PostgreSQL database, that

* a table created on A and then seated, started and played through B moves
  to B once (the database names B its owner), its sockets are B's own (no
  relay), and the game is whole and leaks nothing;
* a table that moves in the middle of a game loses no acknowledged answer:
  A closes its sockets with 1012, the clients reconnect to B and play on;
* a table that has just moved is not moved back at once: a request on the
  other process is relayed, so a proxy that does not route by table cannot
  make tables bounce;
* without ``--affinity`` nothing moves (the relay of ``test_multiprocess``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed

from dragonante.engine.records import digest, record_from_dict, replay
from dragonante.interfaces.web.storage.db import database_url
from tests.web.helpers import make_table, play
from tests.web.leaks import check_frames
from tests.web.pg import PG_URL, fresh_schema
from tests.web.test_multiprocess import Server, seat_at

pytestmark = pytest.mark.skipif(
    not PG_URL, reason="set DRAGONANTE_TEST_PG_URL=postgresql://... to test several processes"
)

CONFIG = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}


@pytest.fixture(scope="module")
def db() -> Iterator[str]:
    with fresh_schema("affinity") as url:
        yield url


@pytest.fixture(scope="module")
def pair(db: str) -> Iterator[tuple[Server, Server]]:
    a, b = Server(db, "--affinity"), Server(db, "--affinity")
    try:
        yield a.wait_up(), b.wait_up()
    finally:
        a.stop()
        b.stop()


def cluster_stats(server: Server) -> dict[str, Any]:
    with server.http() as http:
        stats: dict[str, Any] = http.get("/api/stats").json()["cluster"]
        return stats


def owner_of(db: str, code: str) -> Any:
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as c:
            row = c.execute(text("SELECT owner FROM game_tables WHERE code = :c"), {"c": code})
            return row.scalar()
    finally:
        engine.dispose()


def stored_answers(db: str, code: str) -> set[int]:
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as c:
            rows = c.execute(
                text("SELECT decision_id FROM answers WHERE table_code = :c"), {"c": code}
            )
            return {r[0] for r in rows}
    finally:
        engine.dispose()


def test_a_table_moves_once_to_the_process_its_requests_reach(
    pair: tuple[Server, Server], db: str
) -> None:
    a, b = pair
    before_a, before_b = cluster_stats(a), cluster_stats(b)
    with a.http() as http:
        code, _tokens, host = make_table(http, CONFIG, [], start=False)
    assert owner_of(db, code) == before_a["process"]
    with b.http() as http:  # the proxy sends everything naming the table to B
        tokens = [
            http.post(f"/api/tables/{code}/seats", json={"name": n}).json()["token"]
            for n in ("Ann", "Bob")
        ]
        auth = {"Authorization": f"Bearer {host}"}
        bots = {"fill": True, "level": "random"}
        r = http.post(f"/api/tables/{code}/bots", json=bots, headers=auth)
        assert r.status_code == 201, r.text
        assert http.post(f"/api/tables/{code}/start", headers=auth).status_code == 200
    assert owner_of(db, code) == before_b["process"]
    after_a, after_b = cluster_stats(a), cluster_stats(b)
    assert after_b["moved_in"] == before_b["moved_in"] + 1  # once, for five requests
    assert after_a["moved_out"] == before_a["moved_out"] + 1
    assert after_b["affinity"] is True

    seats = [seat_at(b, code, tokens[0]), seat_at(b, code, tokens[1])]
    watcher = seat_at(b, code, None)
    play(seats, random.Random(3), timeout=45)
    watcher.wait_over(20)
    stats = cluster_stats(b)
    assert stats["relayed_in"] == 0 and stats["relayed_out"] == 0  # B's own sockets
    with b.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    for seat, frames in ((0, seats[0].frames), (1, seats[1].frames), (None, watcher.frames)):
        assert check_frames(record, seat, frames) > 5
    assert cluster_stats(a)["moved_out"] == after_a["moved_out"]  # it stayed on B
    for s in (*seats, watcher):
        s.close()


def test_a_table_moved_mid_game_loses_no_acknowledged_answer(
    pair: tuple[Server, Server], db: str
) -> None:
    a, b = pair
    with a.http() as http:
        code, tokens, _host = make_table(http, CONFIG, ["Ann", "Bob"], bots=1)
    on_a = [seat_at(a, code, tokens[0]), seat_at(a, code, tokens[1])]
    play(on_a, random.Random(5), until_step=8, timeout=30)
    # Everyone antes at once: a bot's choice may reveal a round (several answers
    # stored at once) just after the people stopped; let its frames arrive.
    for s in on_a:
        s.drain(0.5)
    # A face-down choice acknowledged while others still choose is not an answer
    # yet: it is stored at the reveal, and asked again if the table moves before
    # it (docs/web.md, "Everyone antes at once").
    acked = {
        m["ack"]
        for s in on_a
        for m in s.frames
        if "ack" in m and not (m.get("face_down") or {}).get("waiting")
    }
    assert acked

    ann = seat_at(b, code, tokens[0])  # the proxy now sends Ann to B: the table follows
    assert ann.welcome["type"] == "welcome" and ann.seat == 0
    assert owner_of(db, code) == cluster_stats(b)["process"]
    for s in on_a:  # A closed its sockets: "reconnect"
        with pytest.raises(ConnectionClosed) as closed:
            s.drain_until_closed(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    bob = seat_at(b, code, tokens[1])
    # The game B rebuilt is the one A played: the same step, every answer kept.
    assert ann.state["step"] == max(m["step"] for s in on_a for m in s.frames if "step" in m)
    assert acked <= stored_answers(db, code)
    play([ann, bob], random.Random(6), timeout=45)
    with b.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    assert len(stored_answers(db, code)) == len(record["answers"])
    # Nothing hidden reached a seat, before the move (A) or after it (B).
    assert check_frames(record, 0, on_a[0].frames) > 5
    assert check_frames(record, 1, on_a[1].frames) > 5
    assert check_frames(record, 0, ann.frames) > 0
    assert check_frames(record, 1, bob.frames) > 0
    for s in (*on_a, ann, bob):
        s.close()


def test_a_table_that_just_moved_is_relayed_not_moved_back(
    pair: tuple[Server, Server], db: str
) -> None:
    """A proxy that does not route by table (or a client that reaches the
    other process once) gets the relay for the minimum stay, not a bounce."""
    a, b = pair
    with a.http() as http:
        code, tokens, _host = make_table(http, CONFIG, ["Ann"], bots=2)
    ann_b = seat_at(b, code, tokens[0])  # moves to B
    assert ann_b.welcome["type"] == "welcome"
    owner = owner_of(db, code)
    assert owner == cluster_stats(b)["process"]
    moved_out = cluster_stats(b)["moved_out"]
    ann_a = seat_at(a, code, tokens[0])  # now A's turn to be asked for it: relayed
    assert ann_a.welcome["type"] == "welcome" and ann_a.seat == 0
    with a.http() as http:
        assert http.get(f"/api/tables/{code}").status_code == 200
    assert owner_of(db, code) == owner
    assert cluster_stats(b)["moved_out"] == moved_out
    assert cluster_stats(a)["relayed_in"] >= 1
    play([ann_b], random.Random(8), until_step=6, timeout=30)
    ann_a.drain(0.3)
    assert ann_a.last is not None and ann_a.last["step"] >= 6  # the relayed socket follows
    for s in (ann_a, ann_b):
        s.close()
