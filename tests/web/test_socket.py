"""The table protocol over real WebSockets: per-seat views, refusals, reconnects."""

from __future__ import annotations

import json
import random
import time

import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from dragonante.engine.records import record_from_dict, replay
from dragonante.interfaces.web.storage.db import database_url
from tests.web.helpers import LiveServer, Seat, make_table, play
from tests.web.leaks import check_frames

SMALL = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}


def stored_answers(server: LiveServer, code: str) -> int:
    engine = create_engine(database_url(server.db))
    with engine.connect() as c:
        n = c.execute(text("SELECT count(*) FROM answers WHERE table_code = :c"), {"c": code})
        count = int(n.scalar_one())
    engine.dispose()
    return count


def test_a_game_to_the_end_leaks_nothing_to_any_seat(server: LiveServer):
    with server.http() as http:
        code, tokens, _host = make_table(http, SMALL, ["Ann", "Bob"], bots=1)
        ann, bob = Seat(server, code, tokens[0]), Seat(server, code, tokens[1])
        watcher = Seat(server, code, None)
        assert (ann.seat, bob.seat, watcher.seat) == (0, 1, None)
        play([ann, bob], random.Random(5))
        for s in (ann, bob, watcher):
            s.wait_over()
        record = http.get(f"/api/games/{code}/record").json()
    # The record replays to the same final state the server reached.
    assert replay(record_from_dict(record)).over
    assert record["final_digest"]
    assert check_frames(record, 0, ann.frames) > 5
    assert check_frames(record, 1, bob.frames) > 5
    assert check_frames(record, None, watcher.frames) > 5
    for f in watcher.frames:
        if "view" in f:
            assert f["view"]["hand"] is None and f["answers"] == [] and f["hints"] == []
    for f in ann.frames:
        if "view" in f:
            assert f["view"]["seat"] == 0
            q = f["view"]["question"]
            if q and q["seat"] != 0:
                assert "options" not in q and f["answers"] == []
    for s in (ann, bob, watcher):
        s.close()


def test_replays_step_through_a_finished_game(server: LiveServer):
    with server.http() as http:
        code, _tokens, _host = make_table(http, SMALL, [], bots=3)
        seat = Seat(server, code, None)
        seat.wait_over()
        seat.close()
        games = http.get("/api/games").json()["games"]
        assert code in [g["code"] for g in games]
        first = http.get(f"/api/games/{code}/replay?step=0").json()
        total = first["total"]
        assert first["step"] == 0 and total > 5 and first["view"]["hand"] is None
        one = http.get(f"/api/games/{code}/replay?step=1&seat=1&lang=it").json()
        assert one["view"]["seat"] == 1 and one["view"]["hand"] is not None
        assert any(e["new"] for e in one["events"]) and not all(e["new"] for e in one["events"])
        assert any("pesca" in e["text"] for e in one["events"])
        last = http.get(f"/api/games/{code}/replay?step={total}").json()
        assert last["view"]["phase"] == "over"
        assert http.get(f"/api/games/{code}/replay?step={total + 1}").status_code == 400
        assert http.get(f"/api/games/{code}/replay?step=1&seat=3").status_code == 400


def test_refused_messages_change_nothing(server: LiveServer):
    with server.http() as http:
        code, tokens, _host = make_table(http, SMALL, ["Ann", "Bob", "Cid"])
    ann, bob = Seat(server, code, tokens[0]), Seat(server, code, tokens[1])
    watcher = Seat(server, code, None)
    table = server.hub.tables[code]
    q = ann.question
    assert q is not None and q["seat"] == 0

    def position() -> tuple[int, int | None]:
        pending = table.state.pending if table.state else None
        return len(table.answers), pending.id if pending else None

    before = position()

    def refused(seat: Seat, msg: object) -> str:
        seat.send(msg)
        err = seat.wait(lambda m: m["type"] == "error")
        assert err["message"] and err["detail"]
        return str(err["code"])

    assert refused(bob, {"type": "answer", "decision": q["id"], "answer": 0}) == "not_your_turn"
    assert refused(ann, {"type": "answer", "decision": q["id"] - 1, "answer": 0}) == "stale"
    assert refused(ann, {"type": "answer", "decision": q["id"], "answer": 9999}) == "illegal"
    assert refused(ann, "{garbage") == "malformed"
    assert refused(ann, b"\x00\x01binary") == "malformed"
    assert refused(ann, {"type": "answer", "decision": str(q["id"]), "answer": 1}) == "bad_field"
    assert refused(ann, {"type": "answer", "decision": q["id"], "answer": True}) == "bad_field"
    assert refused(ann, {"type": "launch_missiles"}) == "bad_type"
    assert refused(ann, {"type": "hello", "token": tokens[1]}) == "bad_type"
    assert refused(ann, json.dumps({"type": "ping", "pad": "x" * 5000})) == "too_large"
    assert refused(watcher, {"type": "answer", "decision": q["id"], "answer": 0}) == "not_seated"
    assert position() == before
    assert stored_answers(server, code) == 0

    # A frame over the transport limit closes that connection (1009) and nothing else.
    huge = Seat(server, code, tokens[1])
    huge.send("[" + "1," * 40000 + "1]")
    with pytest.raises(ConnectionClosed) as closed:
        huge.drain_until_closed()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert position() == before

    # The rightful answer still goes through.  The ante is chosen face down by
    # everyone at once: it is kept until the last seat chooses, and the whole
    # round is stored before the reveal is acknowledged.
    ann.send({"type": "answer", "decision": q["id"], "answer": q["options"][0]})
    ack = ann.wait(lambda m: m.get("ack") == q["id"])
    assert ack["step"] == 0 and stored_answers(server, code) == 0
    assert ack["face_down"]["chosen"] == q["options"][0]
    cid = Seat(server, code, tokens[2])
    for s in (bob, cid):
        mine = s.question
        assert mine is not None and mine["seat"] == s.seat
        s.send({"type": "answer", "decision": mine["id"], "answer": mine["options"][0]})
    cid.wait(lambda m: m["type"] == "update" and m["step"] == 3)
    assert stored_answers(server, code) == 3
    for s in (ann, bob, cid, watcher):
        s.close()


def test_hello_comes_first_and_tokens_must_match(server: LiveServer):
    with server.http() as http:
        code, _tokens, _host = make_table(http, SMALL, ["Ann"], bots=2, start=False)
        other, other_tokens, _ = make_table(http, SMALL, ["Zed"], bots=2, start=False)
    for first, code_expected, close in [
        ({"type": "answer", "decision": 1, "answer": 1}, "hello_first", 4400),
        ("nonsense", "malformed", 4400),
        ({"type": "hello", "token": other_tokens[0]}, "bad_token", 4401),
        ({"type": "hello", "token": "forged-token"}, "bad_token", 4401),
    ]:
        with connect(f"{server.ws_base}/ws/{code}") as ws:
            ws.send(first if isinstance(first, str) else json.dumps(first))
            err = json.loads(ws.recv(timeout=10))
            assert err["type"] == "error" and err["code"] == code_expected
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == close
    with connect(f"{server.ws_base}/ws/NOSUCH") as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(ws.recv(timeout=10))["code"] == "unknown_table"
    assert other != code


def test_reconnecting_restores_the_seat_and_language(server: LiveServer):
    with server.http() as http:
        code, tokens, _host = make_table(http, SMALL, ["Ann"], bots=2)
    first = Seat(server, code, tokens[0])
    hand = first.state["view"]["hand"]
    first.close()
    again = Seat(server, code, tokens[0], lang="it")
    assert again.seat == 0
    state = again.state
    assert state["view"]["hand"] == hand
    assert any("pesca" in e["text"] for e in state["events"])
    again.send({"type": "lang", "lang": "en"})
    state = again.wait(lambda m: m["type"] == "state")
    assert any("draws" in e["text"] for e in state["events"])
    again.send({"type": "ping"})
    assert again.wait(lambda m: m["type"] in ("pong",))
    again.close()


def test_a_flood_of_messages_is_slowed_down(server: LiveServer):
    with server.http() as http:
        code, tokens, _host = make_table(http, SMALL, ["Ann"], bots=2, start=False)
    seat = Seat(server, code, tokens[0])
    for _ in range(80):
        seat.send({"type": "ping"})
    codes = [m.get("code") for m in seat.drain(0.3)]
    assert "busy" in codes
    seat.close()


def test_a_flood_of_ping_frames_closes_the_socket_and_spares_the_other_tables(
    server: LiveServer,
):
    """Issue 32, hole 4: WebSocket control-frame pings went around the message
    limit: uvicorn answered each one below the app, so a client could send
    them at line rate, each parsed and answered (and the pongs kept in memory
    when it did not read them).  Now a connection's pings and pongs are
    counted (``pings.CONTROL_BURST`` at once, then one a second) and a flood
    is closed with 1008; another table plays on, and a well-behaved socket
    of the flooder's own table stays."""
    from dragonante.interfaces.web.http.pings import CONTROL_BURST

    with server.http() as http:
        target, _, _ = make_table(http, SMALL, [], bots=3)
        other, tokens, _ = make_table(http, SMALL, ["Ann"], bots=2)
    watcher = Seat(server, target, None)
    ann = Seat(server, other, tokens[0])
    refused = server.hub.refused.get("pings", 0)
    pongs = []
    with connect(f"{server.ws_base}/ws/{target}") as flooder:
        flooder.send(json.dumps({"type": "hello", "token": None}))
        started = time.monotonic()

        def flood() -> None:
            for _ in range(5000):
                pongs.append(flooder.ping())
            while True:
                flooder.recv(timeout=10)

        with pytest.raises(ConnectionClosed):
            flood()
    assert time.monotonic() - started < 10
    assert sum(p.is_set() for p in pongs) <= CONTROL_BURST  # the excess got no pong
    deadline = time.monotonic() + 5
    while server.hub.refused.get("pings", 0) == refused and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.hub.refused.get("pings", 0) == refused + 1  # in /api/stats
    play([ann], random.Random(5))
    assert ann.wait_over()["view"]["phase"] == "over"
    watcher.send({"type": "sync"})
    assert watcher.wait(lambda m: m["type"] == "state")  # the table's other socket stays
    # A client keeping its socket alive with a ping now and then is never closed.
    with connect(f"{server.ws_base}/ws/{target}") as polite:
        polite.send(json.dumps({"type": "hello", "token": None}))
        for _ in range(CONTROL_BURST):
            assert polite.ping().wait(5)
    watcher.close()
    ann.close()


@pytest.mark.parametrize("compression", [False, True])
def test_permessage_deflate_only_when_the_server_is_asked(
    tmp_path_factory: pytest.TempPathFactory, compression: bool
):
    """Browsers offer permessage-deflate (so does this client); ``serve``
    accepts it only with ``--ws-compression``, and a game plays the same."""
    db = str(tmp_path_factory.mktemp("deflate") / "t.sqlite")
    live = LiveServer(db, compression=compression).start()
    try:
        with live.http() as http:
            code, tokens, _host = make_table(http, SMALL, ["Ann", "Bob"], bots=1)
        ann, bob = Seat(live, code, tokens[0]), Seat(live, code, tokens[1])
        for s in (ann, bob):
            assert s.ws.response is not None
            extensions = s.ws.response.headers.get("Sec-WebSocket-Extensions", "")
            assert ("permessage-deflate" in extensions) is compression
        play([ann, bob], random.Random(7))
        assert ann.wait_over()["view"]["phase"] == "over"
        for s in (ann, bob):
            s.close()
    finally:
        live.stop()


def test_a_bot_answer_the_database_refuses_is_announced_to_the_table(server: LiveServer):
    """Issue 32, hole 4: when the database refused a bot's answer, the bot
    retried every second and its table's people saw it wait without a word.
    Now every connection is told once, in its language, and told again when
    the answer is stored; the game then goes on to its end."""
    with server.http() as http:
        code, tokens, host = make_table(http, SMALL, ["Ann"], bots=2, start=False)
        seated = http.get(f"/api/tables/{code}").json()["seats"]
        bots = {1: seated[1]["name"], 2: seated[2]["name"]}
    engine = create_engine(database_url(server.db))
    with engine.begin() as c:  # the database itself refuses seat 1's answers
        c.execute(
            text(
                "CREATE TRIGGER refuse_bot BEFORE INSERT ON answers "
                # past the first ante (chosen face down by all at once, stored at
                # the reveal): a bot's answer of its own turn is refused
                f"WHEN NEW.table_code = '{code}' AND NEW.seat = 1 AND NEW.n >= 3 "
                "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END"
            )
        )
    ann = Seat(server, code, tokens[0])
    watcher = Seat(server, code, None, lang="it")
    rng = random.Random(3)
    try:
        with server.http() as http:
            r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
            assert r.status_code == 200
        deadline = time.monotonic() + 30
        notice = None
        answered: set[int] = set()
        while notice is None and time.monotonic() < deadline:
            notice = next((m for m in ann.drain(0.05) if m["type"] == "notice"), None)
            q = ann.question
            if notice is None and q and q.get("options") and q["id"] not in answered:
                answered.add(q["id"])
                ann.send(
                    {"type": "answer", "decision": q["id"], "answer": rng.choice(q["options"])}
                )
        assert notice is not None and notice["code"] == "bot_unstored"
        assert notice["seat"] == 1 and bots[1] in notice["message"]
        assert "could not save" in notice["message"]
        seen = watcher.wait(lambda m: m["type"] == "notice")
        assert seen["code"] == "bot_unstored" and "non è riuscito a salvare" in seen["message"]
        time.sleep(2.5)  # the bot retries every second: its people are told once
        assert [m for m in ann.drain() if m["type"] == "notice"] == []
        assert stored_answers(server, code) == len(server.hub.tables[code].answers)
    finally:
        with engine.begin() as c:
            c.execute(text("DROP TRIGGER IF EXISTS refuse_bot"))
        engine.dispose()
    back = ann.wait(lambda m: m["type"] == "notice", 10)
    assert back["code"] == "bot_stored" and back["seat"] == 1 and bots[1] in back["message"]
    play([ann], rng)
    assert ann.wait_over()["view"]["phase"] == "over"
    ann.close()
    watcher.close()
