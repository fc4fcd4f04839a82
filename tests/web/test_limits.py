"""Abuse limits: per-address rates, caps, expiry, finished tables leaving memory,
and away seats handed to a bot.  Every refusal is checked for its status or
close code and for changing nothing."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from dragonante.interfaces.web.hub import Settings
from dragonante.interfaces.web.shared.limits import (
    RateLimiter,
    SocketCounter,
    client_address,
    parse_networks,
    retry_after,
)
from dragonante.interfaces.web.storage.db import database_url
from tests.web.helpers import LiveServer, Seat, make_table, play
from tests.web.leaks import check_frames, check_handover_frames

SMALL = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ------------------------------------------------------------------ unit tests


def test_the_token_bucket_allows_a_burst_then_its_rate():
    clock = FakeClock()
    limiter = RateLimiter(3, 60.0, clock)
    assert [limiter.hit("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = limiter.hit("a")
    assert wait == pytest.approx(20.0)  # 3 per 60 s: one token every 20 s
    assert retry_after(wait) == 20 and retry_after(0.01) == 1
    assert limiter.hit("b") == 0.0  # another address has its own bucket
    clock.now += 10
    assert limiter.hit("a") == pytest.approx(10.0)  # refused hits do not take tokens
    clock.now += 10
    assert limiter.hit("a") == 0.0
    assert limiter.hit("a") > 0
    clock.now += 1000
    assert [limiter.hit("a") for _ in range(4)][:3] == [0.0, 0.0, 0.0]  # never above the burst


def test_a_disabled_limiter_allows_everything_and_memory_stays_bounded():
    off = RateLimiter(0, 60.0)
    assert all(off.hit("a") == 0.0 for _ in range(1000)) and len(off) == 0
    clock = FakeClock()
    limiter = RateLimiter(2, 60.0, clock, max_keys=100)
    for i in range(1000):
        limiter.hit(f"10.0.{i // 256}.{i % 256}")
        clock.now += 0.001
    assert len(limiter) <= 100
    limiter.hit("x")
    assert limiter.hit("x") == 0.0 and limiter.hit("x") > 0  # still limits after pruning


def test_the_socket_counter_caps_total_and_per_address():
    sockets = SocketCounter(total=3, per_address=2)
    assert sockets.open("a") is None and sockets.open("a") is None
    assert sockets.open("a") == "too_many_sockets"
    assert sockets.open("b") is None
    assert sockets.open("c") == "server_full"
    sockets.close("a")
    assert sockets.of("a") == 1 and sockets.open("c") is None
    sockets.close("zzz")  # never opened: ignored
    assert sockets.total == 3


def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy():
    proxies = parse_networks(["10.0.0.1", "192.168.0.0/16"])
    headers = {"x-forwarded-for": "6.6.6.6, 203.0.113.9, 192.168.1.2"}
    assert client_address("198.51.100.7", headers, proxies) == "198.51.100.7"  # not a proxy
    assert client_address("10.0.0.1", headers, proxies) == "203.0.113.9"  # right-most untrusted
    assert client_address("10.0.0.1", {}, proxies) == "10.0.0.1"
    assert client_address("10.0.0.1", {"x-forwarded-for": "bogus"}, proxies) == "10.0.0.1"
    assert client_address("127.0.0.1", headers, ()) == "127.0.0.1"
    with pytest.raises(ValueError):
        parse_networks(["not-an-address"])


# ------------------------------------------------------------------- servers


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    started: list[LiveServer] = []

    def start(**settings: Any) -> LiveServer:
        live = LiveServer(str(tmp_path / f"web{len(started)}.sqlite3"), Settings(**settings))
        started.append(live.start())
        return live

    yield start
    for live in started:
        live.stop()


def closed_with(ws: Any) -> tuple[int, str]:
    def read_until_closed() -> None:
        for _ in range(20):
            ws.recv(timeout=10)

    with pytest.raises(ConnectionClosed) as info:
        read_until_closed()
    rcvd = info.value.rcvd
    assert rcvd is not None
    return rcvd.code, rcvd.reason


def test_creating_tables_and_taking_seats_are_limited_per_address(serve):
    server = serve(bot_delay=0, limit_tables=3, limit_seats=2)
    with server.http() as http:
        codes = [http.post("/api/tables", json={"config": SMALL}).json()["code"] for _ in range(3)]
        before = http.get("/api/tables").json()
        r = http.post("/api/tables", json={"config": SMALL})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert r.json()["detail"] and 1 <= int(r.headers["retry-after"]) <= 200
        assert http.get("/api/tables").json() == before  # nothing was created
        assert http.post(f"/api/tables/{codes[0]}/seats", json={"name": "Ann"}).status_code == 201
        assert http.post(f"/api/tables/{codes[1]}/seats", json={"name": "Bob"}).status_code == 201
        r = http.post(f"/api/tables/{codes[2]}/seats", json={"name": "Cid"})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        assert http.get(f"/api/tables/{codes[2]}").json()["seats"] == [None, None, None]
        # Another address (a trusted proxy's client) is not affected... only when trusted.
        r = http.post("/api/tables", json={"config": SMALL}, headers={"X-Forwarded-For": "1.2.3.4"})
        assert r.status_code == 429
        assert server.hub.stats()["refused"] == {"tables": 2, "seats": 1}


def test_guessing_invite_codes_is_limited_and_a_miss_costs_more_than_a_hit(serve):
    """Issue 32, hole 4: one address looked up 187 codes a second and never got
    a 429, so an unlisted table's code (its only protection) could be guessed,
    and the table then showed its names and could be sat at.  Now every lookup
    by code counts, and a code no table has counts again in a much smaller
    bucket of misses: once it is empty every lookup is refused (429,
    ``Retry-After``), over HTTP and the socket alike, while another address
    and the table's own people are untouched."""
    server = serve(
        bot_delay=0,
        limit_misses=5,
        limit_lookups=40,
        lookup_window=60.0,
        trusted_proxies=("127.0.0.1",),
    )
    with server.http() as http:
        r = http.post("/api/tables", json={"config": SMALL, "unlisted": True})
        code = r.json()["code"]
        assert http.post(f"/api/tables/{code}/seats", json={"name": "Ann"}).status_code == 201
        assert code not in [t["code"] for t in http.get("/api/tables").json()["open"]]
        # Hits cost one lookup each, no miss: ten in a row are fine.
        assert all(http.get(f"/api/tables/{code}").status_code == 200 for _ in range(10))
        guesses = [f"ZZZZZ{c}" for c in "23456789"]
        statuses = [http.get(f"/api/tables/{g}").status_code for g in guesses]
        assert statuses == [404] * 5 + [429] * 3
        r = http.get(f"/api/tables/{code}")  # even the right code, now: the guesser is stopped
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert 1 <= int(r.headers["Retry-After"]) <= 600
        r = http.post(f"/api/tables/{code}/seats", json={"name": "Eve"})
        assert r.status_code == 429
        with connect(f"{server.ws_base}/ws/{code}") as ws:  # the socket's lookup too
            assert closed_with(ws) == (1013, "rate_limited")
        # Another address (here a trusted proxy's client) still finds the table.
        other = {"X-Forwarded-For": "203.0.113.9"}
        r = http.get(f"/api/tables/{code}", headers=other)
        assert r.status_code == 200 and r.json()["seats"][0]["name"] == "Ann"
        assert server.hub.stats()["refused"]["misses"] >= 5
    # Misses over the socket count too (a socket is a lookup by code).
    server = serve(bot_delay=0, limit_misses=2)
    for _ in range(2):
        with connect(f"{server.ws_base}/ws/NOSUCH") as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(ws.recv(timeout=10))["code"] == "unknown_table"
    with connect(f"{server.ws_base}/ws/NOSUCH") as ws:
        assert closed_with(ws) == (1013, "rate_limited")
    with server.http() as http:
        assert http.get("/api/tables/NOSUCH").status_code == 429


def test_a_cluster_asks_no_owner_for_the_codes_of_an_address_out_of_misses():
    """With several processes the router asks PostgreSQL who runs each code
    before the app sees the request: an address that used up its misses goes
    straight to the app's refusal, and costs no query."""
    import asyncio
    from types import SimpleNamespace

    from dragonante.interfaces.web.cluster.member import ClusterRouter
    from dragonante.interfaces.web.storage.memory import MemoryStorage
    from dragonante.interfaces.web.tables.house import House

    house = House(MemoryStorage(), Settings(limit_misses=2))
    asked: list[str] = []
    reached: list[str] = []

    async def route(code: str) -> None:
        asked.append(code)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])

    hub = SimpleNamespace(trusted=house.trusted, misses_wait=house.misses_wait)
    cluster = SimpleNamespace(
        route=route, relay=SimpleNamespace(inner=None), settings=SimpleNamespace(relay_timeout=1)
    )
    state = SimpleNamespace(cluster=cluster, hub=hub)
    router = ClusterRouter(app)

    def request(code: str, peer: str) -> None:
        scope = {
            "type": "http",
            "method": "GET",
            "path": f"/api/tables/{code}",
            "headers": [],
            "client": (peer, 5000),
            "app": SimpleNamespace(state=state),
        }
        asyncio.run(router(scope, None, None))  # type: ignore[arg-type]

    request("AAAAAA", "10.0.0.1")
    assert asked == ["AAAAAA"]
    house.missed("10.0.0.1")
    house.missed("10.0.0.1")
    request("BBBBBB", "10.0.0.1")
    request("CCCCCC", "10.0.0.2")
    assert asked == ["AAAAAA", "CCCCCC"]  # the guesser's code was not looked up
    assert reached == ["/api/tables/AAAAAA", "/api/tables/BBBBBB", "/api/tables/CCCCCC"]


def test_the_misses_bucket_is_looked_at_without_taking_from_it():
    clock = FakeClock()
    misses = RateLimiter(2, 60.0, clock)
    assert misses.wait("a") == 0.0 and misses.wait("a") == 0.0  # looking takes nothing
    misses.hit("a")
    misses.hit("a")
    assert misses.wait("a") == pytest.approx(30.0)
    clock.now += 30
    assert misses.wait("a") == 0.0 and misses.wait("b") == 0.0


def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_limit(serve):
    server = serve(bot_delay=0, limit_tables=1, trusted_proxies=("127.0.0.1",))
    with server.http() as http:
        for who in ("1.2.3.4", "5.6.7.8"):
            r = http.post("/api/tables", json={"config": SMALL}, headers={"X-Forwarded-For": who})
            assert r.status_code == 201
        r = http.post("/api/tables", json={"config": SMALL}, headers={"X-Forwarded-For": "1.2.3.4"})
        assert r.status_code == 429


def test_the_live_table_cap_refuses_with_503_and_retry_after(serve):
    server = serve(bot_delay=0, max_tables=2)
    with server.http() as http:
        for _ in range(2):
            assert http.post("/api/tables", json={"config": SMALL}).status_code == 201
        r = http.post("/api/tables", json={"config": SMALL})
        assert r.status_code == 503 and r.json()["error"] == "server_full"
        assert int(r.headers["retry-after"]) >= 1
        assert len(http.get("/api/tables").json()["open"]) == 2


def test_sockets_are_limited_per_address_and_capped(serve):
    server = serve(bot_delay=0, limit_sockets=4, max_sockets_per_address=2)
    with server.http() as http:
        code, tokens, _host = make_table(http, SMALL, ["Ann"], bots=2, start=False)
    a, b = Seat(server, code, tokens[0]), Seat(server, code, None)
    with connect(f"{server.ws_base}/ws/{code}") as ws:
        assert closed_with(ws) == (1008, "too_many_sockets")
    assert server.hub.sockets.total == 2
    b.close()
    deadline = time.monotonic() + 10
    while server.hub.sockets.total > 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    c = Seat(server, code, None)  # the fourth socket of the burst: allowed again
    assert c.welcome["type"] == "welcome"
    with connect(f"{server.ws_base}/ws/{code}") as ws:
        assert closed_with(ws) == (1013, "rate_limited")
    # The seated connection never noticed.
    a.send({"type": "ping"})
    assert a.wait(lambda m: m["type"] == "pong")
    a.close()
    c.close()


def status_in_db(server: LiveServer, code: str) -> str:
    engine = create_engine(database_url(server.db))
    with engine.connect() as c:
        row = c.execute(text("SELECT status FROM game_tables WHERE code = :c"), {"c": code})
        status = str(row.scalar_one())
    engine.dispose()
    return status


def wait_until(pred: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never came true")
        time.sleep(0.02)


def test_an_open_table_that_never_starts_expires(serve):
    server = serve(bot_delay=0, open_table_ttl=0.6, sweep_interval=0.05)
    with server.http() as http:
        code, tokens, host = make_table(http, SMALL, ["Ann"], start=False)
        started, _t, _h = make_table(http, SMALL, ["Bob"], bots=2)
        seat = Seat(server, code, tokens[0])
        err = seat.wait(lambda m: m["type"] == "error", timeout=15)
        assert err["code"] == "expired" and err["message"]
        with pytest.raises(ConnectionClosed) as info:
            seat.drain_until_closed()
        assert info.value.rcvd is not None and info.value.rcvd.code == 4410
        assert code not in server.hub.tables
        assert status_in_db(server, code) == "expired"
        for r in (
            http.get(f"/api/tables/{code}"),
            http.post(f"/api/tables/{code}/seats", json={"name": "Late"}),
            http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"}),
        ):
            assert r.status_code == 410 and r.json()["error"] == "expired", r.text
        assert code not in [t["code"] for t in http.get("/api/tables").json()["open"]]
        with connect(f"{server.ws_base}/ws/{code}") as ws:
            ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
            assert json.loads(ws.recv(timeout=10))["code"] == "expired"
            assert closed_with(ws)[0] == 4410
        # A table that started is never expired.
        assert http.get(f"/api/tables/{started}").json()["status"] in ("playing", "finished")
    seat.close()


def test_finished_tables_leave_memory_and_replays_still_work(serve):
    server = serve(bot_delay=0, finished_grace=0.3, sweep_interval=0.05)
    with server.http() as http:
        code, _tokens, _host = make_table(http, SMALL, [], bots=3)
        watcher = Seat(server, code, None)
        watcher.wait_over()
        time.sleep(0.6)
        assert code in server.hub.tables  # someone is still looking at it
        watcher.close()
        wait_until(lambda: code not in server.hub.tables)
        assert status_in_db(server, code) == "finished"
        replay = http.get(f"/api/games/{code}/replay?step=1")
        assert replay.status_code == 200 and replay.json()["total"] > 5
        assert http.get(f"/api/games/{code}/record").status_code == 200
        wait_until(lambda: code not in server.hub.tables)  # and it leaves again


def test_an_away_seat_is_handed_to_a_bot_and_taken_back(serve):
    server = serve(bot_delay=0, away_after=0.4, sweep_interval=0.05, away_bot="random")
    # Room for the bot's turns and Cid's return before the game can end (the
    # table's seed is the server's: a short game must not end in between).
    config = {"players": 3, "gold_per_player": 15, "ending": {"gambits": 4}}
    with server.http() as http:
        code, tokens, _host = make_table(http, config, ["Ann", "Bob", "Cid"])
    ann, bob, cid = (Seat(server, code, tok) for tok in tokens)
    watcher = Seat(server, code, None)
    cid_frames = list(cid.frames)

    def refused(seat: Seat, target: int) -> str:
        seat.send({"type": "hand_to_bot", "seat": target})
        return str(seat.wait(lambda m: m["type"] == "error")["code"])

    assert refused(ann, 2) == "not_away"  # Cid is here
    cid.close()
    assert refused(ann, 2) == "not_away"  # gone, but not for long enough
    assert refused(watcher, 2) == "not_seated"
    ann.wait(lambda m: m["type"] == "table" and m["table"]["away"] == [False, False, True])
    assert refused(ann, 0) == "not_away"  # one's own seat
    table = server.hub.tables[code]
    step = len(table.answers)
    ann.send({"type": "hand_to_bot", "seat": 2})
    for s in (ann, bob, watcher):
        msg = s.wait(lambda m: m["type"] == "handover")
        assert msg == {"type": "handover", "seat": 2, "to": "bot", "by": 0, "bot": "random"}
    assert table.handed == {2: "random"}
    assert refused(bob, 2) == "not_away"  # already handed
    # Ann and Bob play; the bot answers for Cid.
    rng = random.Random(3)
    play([ann, bob], rng, until_step=step + 15)
    assert len(table.answers) >= step + 15
    back_at = len(table.answers)
    engine = create_engine(database_url(server.db))
    with engine.connect() as c:
        by_bot = c.execute(
            text("SELECT count(*) FROM answers WHERE table_code = :c AND seat = 2 AND n >= :s"),
            {"c": code, "s": step},
        ).scalar_one()
    engine.dispose()
    assert by_bot > 0 and back_at > step  # the bot answered for Cid on the server
    # Cid comes back: the seat is theirs again from the next decision on.
    cid = Seat(server, code, tokens[2])
    assert cid.seat == 2
    for s in (ann, bob, watcher):
        s.wait(lambda m: m["type"] == "handover" and m["to"] == "player")
    assert table.handed == {} and 2 not in table.bots
    play([ann, bob, cid], rng)
    for s in (ann, bob, cid, watcher):
        s.wait_over()
    with server.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
    for seat, s in ((0, ann), (1, bob), (None, watcher)):
        assert check_frames(record, seat, s.frames) > 5
        assert check_handover_frames(s.frames, 3) == 2
    assert check_frames(record, 2, cid_frames + cid.frames) > 1
    for s in (ann, bob, cid, watcher):
        s.close()
