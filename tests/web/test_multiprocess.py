"""Two ``dragonante serve`` processes on one PostgreSQL database.

A table lives in one process; clients of the other process reach it through
the relay (``web/cluster/member.py``).  Checked here: a table created on one process
is played to the end by clients of the other (and of both); the relayed
frames leak nothing a seat may not see; a killed owner loses no acknowledged
answer and the survivor takes the table over while the clients reconnect.

Each run uses a fresh PostgreSQL schema of ``DRAGONANTE_TEST_PG_URL`` (dropped
afterwards), so it neither sees nor changes other tests' tables.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any, cast

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import InvalidStatus

from dragonante.engine.records import digest, record_from_dict, replay
from dragonante.interfaces.web.storage.db import database_url
from tests.web.helpers import LiveServer, Seat, free_port, make_table, play
from tests.web.leaks import check_frames
from tests.web.pg import PG_URL, fresh_schema

pytestmark = pytest.mark.skipif(
    not PG_URL, reason="set DRAGONANTE_TEST_PG_URL=postgresql://... to test several processes"
)

#: Short, so a takeover happens within the test's time (the default is 10 s).
LEASE = 2.0


class Server:
    """One ``dragonante serve`` subprocess (the tests kill it for real)."""

    def __init__(self, db: str, *args: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-c", "from dragonante.interfaces.cli import main; main()",
               "serve", "--port", str(self.port), "--db", db, "--bot-delay", "0",
               "--lease", str(LEASE), "--log-level", "warning", "--max-rate", "1000",
               *args]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def wait_up(self) -> Server:
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"the server exited: {err[-2000:]}")
            try:
                httpx.get(self.base + "/api/meta", timeout=2)
                return self
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("the server did not start")

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=20)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def seat_at(server: Server, code: str, token: str | None) -> Seat:
    return Seat(cast(LiveServer, server), code, token)


@pytest.fixture(scope="module")
def db() -> Iterator[str]:
    with fresh_schema("multi") as url:
        yield url


@pytest.fixture(scope="module")
def pair(db: str) -> Iterator[tuple[Server, Server]]:
    a, b = Server(db), Server(db)
    try:
        yield a.wait_up(), b.wait_up()
    finally:
        a.stop()
        b.stop()


def test_a_table_of_one_process_is_played_from_the_other(pair: tuple[Server, Server]) -> None:
    a, b = pair
    config = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
    with a.http() as http:
        code, _tokens, host = make_table(http, config, [], start=False)
    with b.http() as http:  # seating, bots and the start all relayed to A
        tokens = [
            http.post(f"/api/tables/{code}/seats", json={"name": n}).json()["token"]
            for n in ("Ann", "Bob")
        ]
        auth = {"Authorization": f"Bearer {host}"}
        r = http.post(
            f"/api/tables/{code}/bots", json={"fill": True, "level": "random"}, headers=auth
        )
        assert r.status_code == 201, r.text
        listed = http.get("/api/tables").json()
        assert code in [t["code"] for t in listed["open"]]
        assert http.post(f"/api/tables/{code}/start", headers=auth).status_code == 200
    bad = seat_at(b, code, "not-a-token")  # the owner checks tokens of relayed sockets
    assert bad.welcome["type"] == "error" and bad.welcome["code"] == "bad_token"
    seats = [seat_at(b, code, tokens[0]), seat_at(a, code, tokens[1])]
    watcher = seat_at(b, code, None)
    play(seats, random.Random(3), timeout=45)
    watcher.wait_over(20)
    with b.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
        stats = http.get("/api/stats").json()
    assert stats["cluster"]["alive"] == 2 and stats["cluster"]["relayed_in"] >= 1
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    assert check_frames(record, 0, seats[0].frames) > 5  # relayed
    assert check_frames(record, 1, seats[1].frames) > 5  # direct
    assert check_frames(record, None, watcher.frames) > 5  # relayed spectator
    for s in (*seats, watcher, bad):
        s.close()


@pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="/usr/bin/chromium is missing")
def test_two_browsers_on_two_processes_play_one_table(
    pair: tuple[Server, Server], browser: Any
) -> None:
    """In Chromium: the table's creator plays on the process that owns it, the
    other person on the other process (every frame relayed), to the end, and
    each page's frames pass the leak checks."""
    from tests.web.browser import record_frames
    from tests.web.test_browser import new_page, over, play_until

    a, b = pair
    config = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
    with a.http() as http:
        code, tokens, _host = make_table(http, config, ["Ann", "Bob"], bots=1)
    errors: list[str] = []
    ann, bob = new_page(browser, errors), new_page(browser, errors)
    ann_frames, bob_frames = record_frames(ann), record_frames(bob)
    ann.goto(f"{a.base}/t/{code}#token={tokens[0]}")
    bob.goto(f"{b.base}/t/{code}#token={tokens[1]}")
    for page in (ann, bob):
        page.wait_for_selector(".board")
    play_until([ann, bob], random.Random(9), lambda: over(ann) and over(bob), timeout=120)
    bob.wait_for_selector("#game-summary")
    with b.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    assert check_frames(record, 0, ann_frames) > 5  # direct, from the owner
    assert check_frames(record, 1, bob_frames) > 5  # relayed through the other process
    assert not errors


def test_killing_the_owner_loses_no_acknowledged_answer(
    pair: tuple[Server, Server], db: str
) -> None:
    a, b = pair
    config = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
    with a.http() as http:
        code, tokens, _host = make_table(http, config, ["Ann", "Bob"], bots=1)
    before = [seat_at(a, code, tokens[0]), seat_at(b, code, tokens[1])]
    play(before, random.Random(5), until_step=8, timeout=30)
    for s in before:  # one more answer on its way while the owner dies
        q = s.question
        if q and q.get("options"):
            s.send({"type": "answer", "decision": q["id"], "answer": q["options"][0]})
    a.stop(signal.SIGKILL)
    for s in before:
        s.drain(0.2)
    acked = {m["ack"] for s in before for m in s.frames if "ack" in m}
    assert acked

    started = time.monotonic()
    after: list[Seat] = []
    for tok in tokens:  # clients reconnect (to B) until the table is taken over
        while True:
            again: Seat | None
            try:
                again = seat_at(b, code, tok)
            except (InvalidStatus, AssertionError):  # refused or closed: not taken over yet
                again = None
            if again is not None and again.welcome["type"] == "welcome":
                after.append(again)
                break
            if again is not None:
                again.close()
            assert time.monotonic() - started < 4 * LEASE + 20, "the table was not taken over"
            time.sleep(0.3)
    play(after, random.Random(6), timeout=45)
    with b.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    engine = create_engine(database_url(db))
    with engine.connect() as c:
        stored = {
            row[0]
            for row in c.execute(
                text("SELECT decision_id FROM answers WHERE table_code = :c"), {"c": code}
            )
        }
        owner = c.execute(text("SELECT owner FROM game_tables WHERE code = :c"), {"c": code})
        owner_id: Any = owner.scalar()
    engine.dispose()
    assert acked <= stored, f"acknowledged but not stored: {sorted(acked - stored)}"
    assert len(stored) == len(record["answers"])
    with b.http() as http:
        assert http.get("/api/stats").json()["cluster"]["process"] == owner_id
    for s in (*before, *after):
        s.close()


def _reconnect(server: Server, code: str, token: str | None, started: float) -> Seat:
    """Connect to ``server`` until it runs the table (it takes it over first)."""
    while True:
        again: Seat | None
        try:
            again = seat_at(server, code, token)
        except (InvalidStatus, AssertionError):  # refused or closed: not taken over yet
            again = None
        if again is not None and again.welcome["type"] == "welcome":
            return again
        if again is not None:
            again.close()
        assert time.monotonic() - started < 4 * LEASE + 20, "the table was not taken over"
        time.sleep(0.3)


def test_chat_history_and_mutes_survive_a_takeover(db: str) -> None:
    """The host's mutes and the recent chat are the table's, not its process's:
    after the owner is killed, the process that takes the table over shows
    the same history, keeps the same people muted and numbers on."""
    a, b = Server(db), Server(db)
    try:
        a.wait_up(), b.wait_up()
        config = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
        with a.http() as http:
            code, tokens, host = make_table(http, config, ["Ann", "Bob"], bots=1)
        ann, bob = seat_at(a, code, tokens[0]), seat_at(b, code, tokens[1])  # direct, relayed
        watcher = seat_at(b, code, None)
        assert watcher.wait(lambda m: m["type"] == "chat_history")["spectator"] == 1
        said = [(ann, "hello <b>all</b>"), (bob, "hi"), (watcher, "boo")]
        for who, words in said:
            who.send({"type": "chat", "text": words})
            ann.wait(lambda m, w=words: m["type"] == "chat" and m["text"] == w)
        with b.http() as http:  # relayed to the owner
            for body in ({"seat": 1}, {"spectator": 1}):
                r = http.post(
                    f"/api/tables/{code}/mute",
                    json=body,
                    headers={"Authorization": f"Bearer {host}"},
                )
                assert r.status_code == 200, r.text
        ann.wait(lambda m: m["type"] == "mute" and m["spectator"] == 1)
        a.stop(signal.SIGKILL)

        started = time.monotonic()
        ann2 = _reconnect(b, code, tokens[0], started)
        history = ann2.wait(lambda m: m["type"] == "chat_history")
        assert [(m["id"], m["text"]) for m in history["messages"]] == [
            (1, "hello <b>all</b>"), (2, "hi"), (3, "boo")
        ]  # fmt: skip
        assert history["messages"][2]["spectator"] == 1
        assert history["muted_seats"] == [1] and history["muted_spectators"] == [1]
        bob2 = _reconnect(b, code, tokens[1], started)
        bob2.send({"type": "chat", "text": "let me speak"})
        assert bob2.wait(lambda m: m["type"] == "error")["code"] == "muted"
        # A new spectator never gets a number already used, and the muted
        # spectator's address stays muted.
        watcher2 = _reconnect(b, code, None, started)
        assert watcher2.wait(lambda m: m["type"] == "chat_history")["spectator"] == 2
        watcher2.send({"type": "chat", "text": "boo again"})
        assert watcher2.wait(lambda m: m["type"] == "error")["code"] == "muted"
        ann2.send({"type": "chat", "text": "still here"})
        said_again = bob2.wait(lambda m: m["type"] == "chat")
        # Numbering goes on (refused messages use numbers too): never an old one.
        assert said_again["text"] == "still here" and said_again["id"] > 3
        for s in (ann, bob, watcher, ann2, bob2, watcher2):
            s.close()
    finally:
        a.stop()
        b.stop()
