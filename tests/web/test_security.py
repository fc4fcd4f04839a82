"""Issue 22's holes in the web server's limits, each reproduced against a real server.

Every test here failed before its fix: it does what an attacker with a
browser console (or ``curl``) would do, and checks that the server refuses
it at once, clearly, and without anyone else noticing.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from dragonante.interfaces.web.hub import Settings
from dragonante.interfaces.web.shared.limits import client_address, parse_networks
from dragonante.interfaces.web.shared.protocol import ProtocolError
from tests.web.helpers import LiveServer, Seat, make_table

SMALL = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(str(tmp_path_factory.mktemp("sec") / "web.sqlite3")).start()
    yield live
    live.stop()


def raw_request(server: LiveServer, head: str, body: bytes = b"", wait: float = 3.0) -> str:
    """Send a hand-made HTTP/1.1 request (the body may be shorter than announced)
    and return the answer's status code, or "" if none came within ``wait``."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=wait) as s:
        s.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        got = b""
        deadline = time.monotonic() + wait
        while b"\r\n" not in got and time.monotonic() < deadline:
            try:
                chunk = s.recv(4096)
            except TimeoutError:
                break
            if not chunk:
                break
            got += chunk
        line = got.split(b"\r\n", 1)[0].decode(errors="replace")
        return line.split(" ")[1] if line.startswith("HTTP/") else ""


# ------------------------------------------------------- hole 3: the body


def test_an_oversized_content_length_is_refused_before_the_body_arrives(serve):
    """Hole 3: a 300 MB POST to a table that does not exist, with no token, was
    read whole before anything was checked (memory 141 MB -> 728 MB).  Now the
    announced size alone is refused, before a byte of the body is sent."""
    for path in ("/api/tables", "/api/tables/NOPE22/seats", "/api/tables/NOPE22/bots"):
        head = (
            f"POST {path} HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\n"
            "Content-Length: 300000000\n"
        )
        assert raw_request(serve, head) == "413", path


def test_a_table_endpoint_looks_up_the_table_and_token_before_reading(serve):
    """A body under the cap, announced but never sent: the unknown table, or the
    missing token, is answered at once instead of waiting for the body."""
    head = (
        "POST /api/tables/NOPE22/seats HTTP/1.1\nHost: 127.0.0.1\n"
        "Content-Type: application/json\nContent-Length: 9000\n"
    )
    assert raw_request(serve, head) == "404"
    with serve.http() as http:
        code = http.post("/api/tables", json={"config": SMALL}).json()["code"]
    for what in ("bots", "mute"):
        head = (
            f"POST /api/tables/{code}/{what} HTTP/1.1\nHost: 127.0.0.1\n"
            "Content-Type: application/json\nContent-Length: 9000\n"
        )
        assert raw_request(serve, head) == "403", what


def test_a_chunked_body_is_read_as_a_capped_stream(serve):
    """Without a Content-Length (chunked), the body is read only up to the cap."""
    head = (
        "POST /api/tables HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\n"
        "Transfer-Encoding: chunked\n"
    )
    chunk = b"a" * 8192
    body = (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * 4  # 32 KB, no end chunk
    assert raw_request(serve, head, body) == "413"
    with serve.http() as http:
        r = http.post("/api/tables", json={"config": SMALL})
        assert r.status_code == 201  # the server is fine


# --------------------------------------------------- hole 2: sync amplification


def finished_game(server: LiveServer, players: int = 4) -> str:
    """A whole game of bots, played to its end (a few hundred answers)."""
    with server.http() as http:
        code, _, _ = make_table(http, {"players": players}, [], bots=players)
        deadline = time.monotonic() + 90
        while http.get(f"/api/tables/{code}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots' game did not finish"
            time.sleep(0.1)
    return code


@pytest.fixture(scope="module")
def long_game(serve: LiveServer) -> str:
    return finished_game(serve)


def test_sync_is_built_once_and_weighed_by_its_size(serve, long_game):
    """Hole 2: every sync rebuilt and re-narrated the whole history (122 KB at
    the end of a long game) and was charged like a ping, so a spectator could
    ask for 40 of them at once and 20 a second after that.  Now the view is
    built once per state and kind of view, and a sync costs its size: a burst
    of syncs gets a few states and then ``busy``."""
    hub = serve.hub
    watcher = Seat(serve, long_game, None)
    first = watcher.raw[-1]
    assert len(first) > 12_000, "a long game's state is big"
    price = 1 + len(first) // 4096  # tokens one sync costs now
    built = hub.snapshots.built
    other = Seat(serve, long_game, None)  # the same kind of view: served from the cache
    assert other.raw[-1] == first
    assert hub.snapshots.built == built
    time.sleep(2.5)  # the allowance refills (the connections' own states were free)
    for _ in range(40):
        watcher.send({"type": "sync"})
    frames = watcher.drain(0.5)
    states = [f for f in frames if f["type"] == "state"]
    busy = [f for f in frames if f["type"] == "error" and f["code"] == "busy"]
    # a burst is 40 tokens (twice the rate of 20 a second), plus what refills meanwhile
    assert 1 <= len(states) <= 40 // price + 2 < 20, (len(states), price)
    assert len(busy) == 40 - len(states)
    assert hub.snapshots.built == built  # every state came from the cache
    assert all(s["events"] == watcher.state["events"] for s in states)
    other.close()
    watcher.close()


def test_sync_since_sends_only_the_missing_history(serve, long_game):
    """``since``: a client that holds the log up to ``log_size`` gets only the
    events after it, a frame of a few kilobytes instead of the whole history."""
    watcher = Seat(serve, long_game, None)
    size = watcher.state["log_size"]
    full = len(watcher.raw[-1])
    watcher.send({"type": "sync", "since": size})
    fresh = watcher.wait(lambda m: m["type"] == "state")
    assert fresh["events"] == [] and fresh["since"] == size
    assert fresh["view"] == watcher.state["view"]
    # only the history is left out: the frame is the whole one less its events
    # (compact JSON, as sent), a few kilobytes whatever the game's length (a
    # ratio to the whole frame failed on a short finished game)
    history = len(json.dumps(watcher.state["events"], separators=(",", ":"), ensure_ascii=False))
    assert len(watcher.raw[-1]) <= full - history + 100
    assert len(watcher.raw[-1]) < 8 * 1024
    watcher.send({"type": "sync", "since": size - 5})
    tail = watcher.wait(lambda m: m["type"] == "state")
    assert 0 < len(tail["events"]) <= 5
    # the tail is the history's last events (a membership filter broke on repeated events)
    assert tail["events"] == watcher.state["events"][-len(tail["events"]) :]
    # Far behind (or pretending to be, to defeat the cache): the whole cached view.
    built = serve.hub.snapshots.built
    watcher.send({"type": "sync", "since": 1})
    whole = watcher.wait(lambda m: m["type"] == "state")
    assert "since" not in whole and whole["events"] == watcher.state["events"]
    assert serve.hub.snapshots.built == built
    watcher.send({"type": "sync", "since": "all"})
    assert watcher.wait(lambda m: m["type"] == "error")["code"] == "bad_field"
    watcher.close()


def test_the_first_view_of_a_long_game_is_built_off_the_loop(serve, long_game, monkeypatch):
    """Leftover of hole 2: the first full view of a long game (none kept for it
    yet: a table opened, a new language, a view the cache let go) was narrated
    on the event loop, holding every other table up meanwhile.  It is built
    in a worker thread now: while that build runs (made 2 s slow here),
    another table's socket is answered at once, and the view is the same."""
    from dragonante.interfaces.web.tables import snapshots

    with serve.http() as http:
        code, tokens, _ = make_table(http, SMALL, ["Ann"], bots=2)
    ann = Seat(serve, code, tokens[0])
    ann.drain(0.1)
    before = Seat(serve, long_game, None).state  # (as built by the code under test)
    building = threading.Event()
    threads: list[threading.Thread] = []
    real = snapshots.build

    def slow_build(table: Any, *args: Any) -> tuple[str, int]:
        # only the long game's build is made slow: a small table's views are
        # built on the loop by design (cheap), and slowing those too made the
        # test fail whenever Ann's table needed one during the window
        if table.code == long_game:
            threads.append(threading.current_thread())
            building.set()
            time.sleep(2.0)
        return real(table, *args)

    monkeypatch.setattr(snapshots, "build", slow_build)
    monkeypatch.setattr(serve.hub.house, "snapshots", snapshots.Snapshots())  # nothing kept
    # "long" is a log of OFF_LOOP_LOG entries or more; the finished game's length
    # varies with the bots' play (it was under 300 entries about one run in three,
    # and its view was then rightly built on the loop), so the bar is set under it
    log_size = before["log_size"]
    assert log_size > 100
    monkeypatch.setattr(snapshots, "OFF_LOOP_LOG", 100)
    opened: list[Seat] = []
    opener = threading.Thread(target=lambda: opened.append(Seat(serve, long_game, None)))
    opener.start()
    assert building.wait(10)
    asked = time.monotonic()
    ann.send({"type": "ping"})
    ann.wait(lambda m: m["type"] == "pong", 5)
    assert time.monotonic() - asked < 1.0  # not behind the build (a shared machine: slack)
    opener.join(10)
    assert opened and opened[0].state["events"] == before["events"]
    assert opened[0].state["view"] == before["view"]
    assert threads and serve.thread not in threads
    assert serve.hub.house.snapshots.off_loop == 1
    for seat in (ann, *opened):
        seat.close()


def test_cached_views_stay_per_seat(serve):
    """The cache is keyed by the kind of view: a spectator's sync never gets a
    seat's hand, and each seat gets its own."""
    with serve.http() as http:
        code, tokens, _ = make_table(http, SMALL, ["Ann", "Bea"], bots=1)
    seats = [Seat(serve, code, tok) for tok in tokens]
    spectator = Seat(serve, code, None)
    for who in (*seats, spectator):
        who.drain(0.1)
        who.send({"type": "sync"})
    hands = []
    for who in (*seats, spectator):
        state = who.wait(lambda m: m["type"] == "state")
        hands.append(state["view"]["hand"])
    assert hands[0] != hands[1] and hands[2] in (None, [])
    assert hands[0] == seats[0].state["view"]["hand"] or seats[0].state["step"] != 0
    for who in (*seats, spectator):
        who.close()


# ------------------------------------------------------- hole 8: the smaller ones


def test_look_alike_and_invisible_names_are_refused(serve):
    """Hole 8: "Аnn" (Cyrillic А), full-width "Ａnn", "Ann" plus an invisible
    filler, and a bot's name with a Cyrillic "о" were all accepted beside Ann
    and the bot.  Now names are normalized (RFC 8266) and look-alikes refused;
    names wholly in another script are welcome."""
    with serve.http() as http:
        code, _, host = make_table(http, {"players": 6}, ["Ann"], start=False)
        r = http.post(
            f"/api/tables/{code}/bots",
            json={"seat": 1, "level": "random"},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert r.status_code == 201
        bot = http.get(f"/api/tables/{code}").json()["seats"][1]["name"]
        assert bot == "Thorinn"

        def sit(name: str) -> tuple[int, str]:
            r = http.post(f"/api/tables/{code}/seats", json={"name": name})
            return r.status_code, r.json().get("error", "")

        assert sit("\u0410nn") == (400, "bad_name")  # Cyrillic А
        assert sit("\uff21nn") == (409, "bad_name")  # full-width Ａ: it is "Ann", taken
        assert sit("Ann\u3164") == (400, "bad_name")  # a Hangul filler
        assert sit("\u3164") == (400, "bad_name")
        assert sit("Ann\u200b") == (400, "bad_name")  # a zero-width space
        assert sit("Th\u043erinn") == (400, "bad_name")  # Cyrillic о
        assert sit("\u0422\u0435\u043e") == (400, "bad_name")  # "Тео" reads as Latin "Teo"
        assert sit("Ze\u0301\u0301\u0301\u0301d") == (400, "bad_name")  # a stack of marks
        assert sit("  Zo\u00eb   Lee ")[0] == 201
        assert sit("\u0410\u043d\u043d\u0430")[0] == 201  # Анна
        assert sit("ursula")[0] == 201  # a person may take a bot's name first ...
        r = http.post(
            f"/api/tables/{code}/bots",
            json={"fill": True, "level": "random"},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert r.status_code == 201
        names = [s and s["name"] for s in http.get(f"/api/tables/{code}").json()["seats"]]
        assert names[:2] == ["Ann", "Thorinn"] and "Zo\u00eb Lee" in names
        assert "Ursula" not in names  # ... and then no bot takes it in another case


def test_blank_looking_names_and_blank_tails_are_refused(serve):
    """Issue 32, hole 4: a name of Braille blanks (U+2800, which PRECIS allows)
    sat as an empty name, and "Ann" plus a musical null notehead (U+1D159,
    drawn as nothing) sat beside Ann.  Now a name may hold no blank, needs a
    visible character, and is compared by its key with nothing unseen in it."""
    from dragonante.interfaces.web.shared.names import BadName, name_key, normalize, same_name

    for blank in (
        "\u2800",
        "\u2800\u2800\u2800",
        "\u2800 \u2800",
        "\U0001d159",
        "\U0001da7f",
        "\u3164",
        "\u115f",
        "\u200b",
        "\u0301",  # a mark with nothing under it
        "\u00b4",  # an acute accent: NFKC makes it a space and a mark
    ):
        with pytest.raises(BadName):
            normalize(blank)
    for tail in ("\u2800", "\U0001d159", "\U00016fe4", "\u200d", "\u2063", "\ufe0f"):
        with pytest.raises(BadName):
            normalize("Ann" + tail)
        assert same_name("Ann" + tail, "ann")  # even stored before this check
    assert name_key("\uff21NN\u2800") == "ann" == name_key("  Ann ")
    assert normalize(".") == "." and normalize("\u674e\u5c0f\u9f8d") == "\u674e\u5c0f\u9f8d"
    with serve.http() as http:
        code, _, _ = make_table(http, {"players": 4}, ["Ann"], start=False)

        def sit(name: str) -> tuple[int, str]:
            r = http.post(f"/api/tables/{code}/seats", json={"name": name})
            return r.status_code, r.json().get("error", "")

        assert sit("\u2800") == (400, "bad_name")
        assert sit("\u2800\u2800") == (400, "bad_name")
        assert sit("Ann\U0001d159") == (400, "bad_name")
        assert sit("ANN") == (409, "bad_name")  # the same name, taken
        assert sit("Ann Lee")[0] == 201
        names = [s and s["name"] for s in http.get(f"/api/tables/{code}").json()["seats"]]
        assert names == ["Ann", "Ann Lee", None, None]


def test_chat_drops_invisible_characters_and_stacks_of_marks():
    """Hole 8: zero-width and tag characters and stacks of combining marks went
    through chat.  Now they are dropped (marks cut to two per letter)."""
    from dragonante.interfaces.web.tables.chat import ChatRoom, message

    room = ChatRoom()

    def said(text: str) -> str:
        return str(message(room, text, 0, "Ann", 0)["text"])

    assert said("gg\u200b\u200c\u200d\u2060\ufeff wp") == "gg wp"
    assert said("hi\U000e0001\U000e0068\U000e0069\U000e007f there") == "hi there"
    zalgo = "Z\u0301\u0302\u0303\u0304\u0305\u0306alg\u0300\u0300\u0300o"
    assert said(zalgo) == unicodedata.normalize("NFC", "Z\u0301\u0302alg\u0300\u0300o")
    assert said("Nguy\u1ec5n \u00e8 qui") == "Nguy\u1ec5n \u00e8 qui"
    assert said("a\u3164b\u2800c") == "abc"
    with pytest.raises(ProtocolError) as e:
        said("\u200b\U000e0041\u3164")
    assert e.value.code == "chat_empty"


def test_ipv6_clients_are_limited_by_their_64():
    """Hole 8: per-address limits keyed on exact addresses, so a client with a
    /64 (2**64 addresses) was not limited at all."""
    trusted = parse_networks(["127.0.0.1"])

    def key(addr: str) -> str:
        return client_address("127.0.0.1", {"x-forwarded-for": addr}, trusted)

    assert key("2001:db8:1:2::1") == key("2001:db8:1:2:ffff:ffff:ffff:ffff")
    assert key("2001:db8:1:2::1") != key("2001:db8:1:3::1")
    assert key("::ffff:192.0.2.7") == key("192.0.2.7") == "192.0.2.7"
    assert client_address("2001:db8::5", {}, ()) == "2001:db8::/64"


def test_ipv6_64_shares_one_limit_on_a_real_server(tmp_path):
    settings = Settings(bot_delay=0, limit_tables=2, trusted_proxies=("127.0.0.1",))
    live = LiveServer(str(tmp_path / "v6.sqlite3"), settings).start()
    try:
        with live.http() as http:

            def create(addr: str) -> int:
                r = http.post(
                    "/api/tables", json={"config": SMALL}, headers={"X-Forwarded-For": addr}
                )
                return r.status_code

            got = [create(f"2001:db8:7:7::{i:x}") for i in range(1, 4)]
            assert got == [201, 201, 429]
            assert create("2001:db8:7:8::1") == 201  # another /64 is another client
    finally:
        live.stop()


def test_bots_start_mute_and_replays_are_rate_limited(tmp_path):
    """Hole 8: adding bots, starting, muting and replays had no limit at all."""
    settings = Settings(bot_delay=0, limit_manage=3, limit_replays=3)
    live = LiveServer(str(tmp_path / "rate.sqlite3"), settings).start()
    try:
        with live.http() as http:
            code, _, host = make_table(http, SMALL, [], start=False)
            auth = {"Authorization": f"Bearer {host}"}
            statuses = [
                http.post(f"/api/tables/{code}/bots", json={"level": "random"}, headers=auth)
                for _ in range(3)
            ]
            assert [r.status_code for r in statuses] == [201, 201, 201]
            r = http.post(f"/api/tables/{code}/start", headers=auth)
            assert r.status_code == 429 and r.json()["error"] == "rate_limited"
            assert int(r.headers["Retry-After"]) >= 1
            assert http.get(f"/api/tables/{code}").json()["status"] == "open"  # unchanged
            r = http.post(f"/api/tables/{code}/mute", json={"seat": 0}, headers=auth)
            assert r.status_code == 429
            replays = [http.get("/api/games/NOPE22/replay").status_code for _ in range(4)]
            assert replays == [404, 404, 404, 429]
    finally:
        live.stop()


def test_replays_are_built_once_off_the_event_loop(serve, long_game, monkeypatch):
    """Hole 8: each replay request rebuilt the game on the event loop (600 in
    3.5 s stalled every table).  Now a step is built in a worker thread, once."""
    import dragonante.interfaces.web.tables.replays as replays_module

    threads: list[int] = []
    real = replays_module.build

    def watched(*args: Any) -> str:
        threads.append(threading.get_ident())
        return real(*args)

    monkeypatch.setattr(replays_module, "build", watched)
    loop_thread = serve.thread.ident if serve.thread else None
    with serve.http() as http:
        total = http.get(f"/api/games/{long_game}/replay").json()["total"]
        step = total // 2
        got = [http.get(f"/api/games/{long_game}/replay?step={step}&seat=1") for _ in range(3)]
    assert all(r.status_code == 200 for r in got)
    assert got[0].json() == got[1].json() == got[2].json()
    assert got[0].json()["step"] == step and got[0].json()["view"]["seat"] == 1
    assert len(threads) == 2  # step 0 once, the middle step once for three requests
    assert loop_thread not in threads


# ------------------------------------------------- the socket's other limits


def test_fifty_refusals_in_a_row_close_the_socket(serve):
    """A client that only sends refused messages is closed after MAX_STRIKES."""
    from dragonante.interfaces.web.http.routes.socket import MAX_STRIKES

    with serve.http() as http:
        code, tokens, _ = make_table(http, SMALL, ["Ann"], bots=2, start=False)
    seat = Seat(serve, code, tokens[0])
    for _ in range(MAX_STRIKES + 10):  # malformed, and busy past the rate: all refusals
        seat.send("not json")
    refusals = 0
    while not seat.closed:
        frame = seat.recv(5)
        refusals += frame is not None and frame["type"] == "error"
    assert refusals == MAX_STRIKES


def test_a_socket_that_never_says_hello_is_closed(serve, monkeypatch):
    import dragonante.interfaces.web.http.routes.socket as socket_routes

    monkeypatch.setattr(socket_routes, "HELLO_TIMEOUT", 0.5)
    with serve.http() as http:
        code, _, _ = make_table(http, SMALL, ["Ann"], bots=2, start=False)
    with connect(f"{serve.ws_base}/ws/{code}") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408


def test_a_costly_message_delays_the_next_ones_by_at_most_a_burst():
    """The charge for a huge frame leaves a debt of at most one burst: a person
    who switches language late in a very long game answers again within 2 s."""
    import asyncio

    from dragonante.interfaces.web.tables.live import Client

    async def run() -> list[bool]:
        client = Client(None, 0, "en", None, 10, 20.0)  # type: ignore[arg-type]
        assert client.allow()
        client.charge(10_000)  # a frame of 40 MB
        first = client.allow()
        await asyncio.sleep(2.2)
        return [first, client.allow()]

    assert asyncio.run(run()) == [False, True]


def test_stats_read_a_deque_that_changes_while_it_is_read():
    """Found by the API fuzzer: ``GET /api/stats`` answered 500 ("deque mutated
    during iteration") when a garbage collection ended, and its callback
    recorded the pause, while the pauses were being read."""
    from collections import deque

    from dragonante.interfaces.web.shared.stats import copied

    class Busy(deque[int]):
        """A deque another writer appends to the first time it is read."""

        touched = False

        def __iter__(self) -> Any:
            it = super().__iter__()
            if not self.touched:
                self.touched = True
                self.append(99)
            return it

    pauses = Busy([1, 2, 3])
    with pytest.raises(RuntimeError):
        sorted(Busy([1, 2, 3]))  # what stats() did
    assert copied(pauses) == [1, 2, 3, 99]
