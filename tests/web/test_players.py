"""Player keys (issue 32, section 4): a seat that follows its person from any
device, My games, the host handing a seat to a new key, and keys kept secret.

Over the real server with real WebSockets; the browser's side is in
``test_players_browser.py``.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from dragonante.interfaces.web.players.keys import KEY_RE, check_id, check_key
from dragonante.interfaces.web.players.qr import link_svg
from tests.web.helpers import LiveServer, Seat, play

SMALL = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def keyed(key: str) -> dict[str, str]:
    return {"X-Player-Key": key}


def new_player(http: httpx.Client) -> tuple[str, str]:
    r = http.post("/api/players")
    assert r.status_code == 201, r.text
    return r.json()["key"], r.json()["id"]


def open_table(http: httpx.Client, config: dict[str, Any] = SMALL) -> tuple[str, str]:
    r = http.post("/api/tables", json={"config": config})
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["host_token"]


def sit(http: httpx.Client, code: str, name: str, seat: int, key: str | None = None) -> str:
    r = http.post(
        f"/api/tables/{code}/seats",
        json={"name": name, "seat": seat},
        headers=keyed(key) if key else {},
    )
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


def hello(live: LiveServer, code: str, token: str | None, key: str | None) -> Seat:
    """A connection whose hello carries a player key."""
    return Seat(live, code, token, key=key)


def start(http: httpx.Client, code: str, host: str, bots: bool = True) -> None:
    if bots:
        r = http.post(
            f"/api/tables/{code}/bots", json={"fill": True, "level": "random"}, headers=auth(host)
        )
        assert r.status_code == 201, r.text
    r = http.post(f"/api/tables/{code}/start", headers=auth(host))
    assert r.status_code == 200, r.text


def until(pred: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.02)


# ------------------------------------------------------------------ the key


def test_a_key_is_256_random_bits_and_only_its_hash_is_stored(serve):
    live = serve()
    with live.http() as http:
        key, pid = new_player(http)
        other, _ = new_player(http)
    assert KEY_RE.fullmatch(key) and len(key) == 43 and key != other
    assert check_id(pid) == pid
    db = sqlite3.connect(live.db)
    rows = db.execute("SELECT id, key_hash FROM players").fetchall()
    dump = "\n".join(db.iterdump())
    db.close()
    assert (pid, hashlib.sha256(key.encode()).hexdigest()) in rows
    assert key not in dump  # the database never holds a key


def test_malformed_and_unknown_keys_are_refused_plainly(serve):
    live = serve()
    with live.http() as http:
        assert http.get("/api/players/me").json()["error"] == "bad_key"
        r = http.get("/api/players/me", headers=keyed("x" * 43))
        assert (r.status_code, r.json()["error"]) == (404, "unknown_key")
        code, _ = open_table(http)
        r = http.post(
            f"/api/tables/{code}/seats", json={"name": "Ann"}, headers=keyed("no such key!")
        )
        assert (r.status_code, r.json()["error"]) == (400, "bad_key")
        assert http.get(f"/api/tables/{code}").json()["seats"] == [None] * 3  # none taken
    with pytest.raises(Exception, match="not a player key"):
        check_key(None)


def test_guessing_keys_is_rate_limited_like_invite_codes(serve):
    live = serve(limit_misses=3)
    with live.http() as http:
        key, _ = new_player(http)
        statuses = [
            http.get("/api/players/me", headers=keyed(f"{i:043d}")).status_code for i in range(5)
        ]
        assert statuses == [404, 404, 404, 429, 429]
        r = http.get("/api/players/me", headers=keyed(key))  # even the right key waits now
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1


def test_new_keys_are_rate_limited_per_address(serve):
    live = serve(limit_players=2)
    with live.http() as http:
        got = [http.post("/api/players").status_code for _ in range(3)]
    assert got == [201, 201, 429]


# ------------------------------------------------------- a seat that follows


def test_a_key_puts_its_person_back_in_their_seat_from_a_new_device(serve):
    """Ann sits down with her key on her laptop; on her phone (no seat token,
    the same key) the server seats her, not among the spectators."""
    live = serve()
    with live.http() as http:
        key, _ = new_player(http)
        code, host = open_table(http)
        sit(http, code, "Ann", 1, key)
        start(http, code, host)
    phone = hello(live, code, None, key)
    assert phone.welcome == {"type": "welcome", "table": code, "seat": 1, "lang": "en"}
    terminal = Seat(live, code, key)  # ``play --join URL#key=...`` sends it as the token
    assert terminal.seat == 1
    phone.close()
    terminal.close()


def test_a_key_that_holds_no_seat_here_watches_without_an_error(serve):
    live = serve()
    with live.http() as http:
        key, _ = new_player(http)
        code, host = open_table(http)
        start(http, code, host)
    watcher = hello(live, code, None, key)
    assert watcher.welcome["type"] == "welcome" and watcher.seat is None
    watcher.close()
    refused = Seat(live, code, key)  # as a token it is refused, like any token
    assert refused.welcome["code"] == "bad_token"


def test_one_key_holds_one_seat_per_table(serve):
    live = serve()
    with live.http() as http:
        key, _ = new_player(http)
        code, _ = open_table(http)
        sit(http, code, "Ann", 0, key)
        r = http.post(
            f"/api/tables/{code}/seats", json={"name": "Ann2", "seat": 1}, headers=keyed(key)
        )
        assert (r.status_code, r.json()["error"]) == (409, "seated")


def test_my_games_lists_every_table_of_the_key_with_whose_turn_it_is(serve):
    """Two people, two tables: My games says at which one each is awaited."""
    live = serve()
    with live.http() as http:
        ann, ann_id = new_player(http)
        bob, _ = new_player(http)
        first, host1 = open_table(http, {**SMALL, "players": 2})
        sit(http, first, "Ann", 0, ann)
        sit(http, first, "Bob", 1, bob)
        start(http, first, host1, bots=False)
        second, _ = open_table(http)
        sit(http, second, "Ann", 2, ann)
        seat = hello(live, first, None, ann)
        me = http.get("/api/players/me", headers=keyed(ann))
        assert me.status_code == 200 and me.headers["cache-control"] == "no-store"
        got = me.json()
        assert got["id"] == ann_id and got["name"] == "Ann"
        games = {g["code"]: g for g in got["games"]}
        assert set(games) == {first, second}
        assert games[second] == {
            "code": second,
            "seat": 2,
            "status": "open",
            "names": ["?", "?", "Ann"],
            "waiting": [],
            "your_turn": False,
            "winners": [],
            "ended": None,
        }
        live_game = games[first]
        assert live_game["status"] == "playing" and live_game["names"] == ["Ann", "Bob"]
        # the ante is chosen by everyone at once: both are awaited
        assert sorted(live_game["waiting"]) == [0, 1] and live_game["your_turn"]
        assert got["your_turn"] == 1
        q = seat.question
        assert q is not None and q["seat"] == 0
        seat.send({"type": "answer", "decision": q["id"], "answer": q["options"][0]})
        table = live.hub.tables[first]
        until(lambda: (r := table.round()) is not None and 0 in r.chosen)
        after = http.get("/api/players/me", headers=keyed(ann)).json()
        now = next(g for g in after["games"] if g["code"] == first)
        assert now["waiting"] == [1] and not now["your_turn"]
        bobs = http.get("/api/players/me", headers=keyed(bob)).json()
        assert [g["your_turn"] for g in bobs["games"]] == [True]
        seat.close()


def test_the_seat_follows_its_key_to_the_rematch(serve):
    live = serve()
    with live.http() as http:
        key, _ = new_player(http)
        code, host = open_table(http, {**SMALL, "players": 2})
        token = sit(http, code, "Ann", 0, key)
        start(http, code, host)
        table = live.hub.tables[code]
        until(lambda: table.state is not None)
        seat = Seat(live, code, token)
        play([seat], random.Random(3))
        seat.close()
        r = http.post(f"/api/tables/{code}/rematch", headers=auth(host))
        assert r.status_code == 201, r.text
        again = hello(live, r.json()["code"], None, key)
        assert again.seat == 0
        again.close()


# ------------------------------------------------------------- the hand-over


def test_the_host_hands_a_lost_keys_seat_to_a_new_key(serve):
    """Bob lost his key (and his device with the seat token): the host gives
    his seat to Bob's new key.  The old key and the old token open nothing,
    their connection watches; the new key opens the seat from any device."""
    live = serve()
    with live.http() as http:
        old, _ = new_player(http)
        new, new_id = new_player(http)
        stranger, _ = new_player(http)
        code, host = open_table(http, {**SMALL, "players": 2})
        ann_token = sit(http, code, "Ann", 0)
        bob_token = sit(http, code, "Bob", 1, old)
        start(http, code, host, bots=False)
        thief = hello(live, code, None, old)
        assert thief.seat == 1
        url = f"/api/tables/{code}/seats/1/player"
        r = http.post(url, json={"player": new_id}, headers=auth(ann_token))
        assert (r.status_code, r.json()["error"]) == (403, "forbidden")
        r = http.post(url, json={"player": "p0000000000"}, headers=auth(host))
        assert (r.status_code, r.json()["error"]) == (404, "unknown_player")
        r = http.post(url, json={"player": "Bob"}, headers=auth(host))
        assert r.json()["error"] == "bad_player"
        r = http.post(f"/api/tables/{code}/seats/0/player", json={"player": new_id})
        assert r.status_code == 403
        r = http.post(url, json={"player": new_id}, headers=auth(host))
        assert r.status_code == 200, r.text
        gone = thief.wait(lambda m: m["type"] == "removed")
        assert gone["reason"] == "rekeyed" and gone["seat"] == 1
        assert "new key" in gone["message"]
        assert Seat(live, code, bob_token).welcome["code"] == "bad_token"
        assert hello(live, code, None, old).seat is None
        back = hello(live, code, None, new)
        assert back.seat == 1
        assert hello(live, code, None, stranger).seat is None
        mine = http.get("/api/players/me", headers=keyed(new)).json()
        assert [g["code"] for g in mine["games"]] == [code]
        assert http.get("/api/players/me", headers=keyed(old)).json()["games"] == []
        back.close()
        thief.close()


def test_a_hand_over_is_stored_and_survives_a_restart(serve, tmp_path):
    live = serve()
    with live.http() as http:
        old, _ = new_player(http)
        new, new_id = new_player(http)
        code, host = open_table(http)
        sit(http, code, "Bob", 0, old)
        start(http, code, host)
        r = http.post(
            f"/api/tables/{code}/seats/0/player", json={"player": new_id}, headers=auth(host)
        )
        assert r.status_code == 200
    live.stop()
    live.start()
    assert hello(live, code, None, new).seat == 0
    assert hello(live, code, None, old).seat is None


# ------------------------------------------------------------- keys secret


def test_a_key_reaches_no_frame_and_no_list(serve):
    """Ann's key (and its hash) is in nothing the server sends: not her own
    frames, not Bob's, not a spectator's, not the lobby's or the record."""
    live = serve()
    with live.http() as http:
        ann, _ = new_player(http)
        bob, _ = new_player(http)
        code, host = open_table(http, {**SMALL, "players": 2})
        sit(http, code, "Ann", 0, ann)
        sit(http, code, "Bob", 1, bob)
        start(http, code, host, bots=False)
        seats = [hello(live, code, None, ann), hello(live, code, None, bob)]
        watcher = Seat(live, code, None)
        play(seats, random.Random(5))
        watcher.drain(0.2)
        for s in seats:
            s.drain(0.2)
        texts = [
            *(raw for s in [*seats, watcher] for raw in s.raw),
            http.get("/api/tables").text,
            http.get(f"/api/tables/{code}").text,
            http.get("/api/games").text,
            http.get(f"/api/games/{code}/record").text,
            http.get("/api/leaderboard").text,
        ]
        pages = [http.get(f"/api/players/{p}").text for p in (seats_ids(http, ann, bob))]
    for secret in (ann, bob):
        digest = hashlib.sha256(secret.encode()).hexdigest()
        for text in texts + pages:
            assert secret not in text and digest not in text
    for s in [*seats, watcher]:
        s.close()


def seats_ids(http: httpx.Client, *keys: str) -> list[str]:
    return [http.get("/api/players/me", headers=keyed(k)).json()["id"] for k in keys]


def test_the_qr_code_is_the_personal_link_for_its_holder_only(serve):
    live = serve()
    with live.http() as http:
        key, _ = new_player(http)
        r = http.get("/api/players/me/qr", headers=keyed(key))
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert r.headers["cache-control"] == "no-store"
        assert r.text.startswith("<svg") and "<path" in r.text
        assert http.get("/api/players/me/qr").status_code == 400
        # the link it encodes: this server's My games page, the key in the fragment
        assert r.text == link_svg(f"{live.base}/me#key={key}")
        assert r.text != link_svg(f"{live.base}/me#key={key[:-1]}")


def test_play_join_takes_a_table_address_with_the_key(serve):
    """``play --join http://HOST/t/CODE#key=KEY``: the terminal's seat is the key's."""
    from dragonante.interfaces.tui.lobby import join, parse_target

    live = serve()
    with live.http() as http:
        key, _ = new_player(http)
        code, host = open_table(http)
        sit(http, code, "Ann", 2, key)
        start(http, code, host)
    target = parse_target(f"{live.base}/t/{code}#key={key}")
    assert (target.code, target.token) == (code, key)
    seating = join(target, None)
    assert seating.token == key
    assert Seat(live, code, seating.token).seat == 2
