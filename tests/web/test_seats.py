"""Who holds a seat, who manages a table, and how long an unplayed table lives
(issue 22, holes 1, 4, 5, 6, 7), over the real server with real WebSockets.

Each test reproduces a hole of the security review first: it failed on the
server as it was, and passes because of the fix it names.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from dragonante.interfaces.web.hub import Settings
from tests.web.helpers import LiveServer, Seat, make_table, play

SMALL = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
HIDDEN = {
    "players": 2,
    "gold_per_player": 8,
    "ending": {"gambits": 1},
    "abilities": {"system": "disks", "assign": "random", "per_character": 1},
}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def until(pred: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.02)


# ------------------------------------------------------------------ hole 1


def test_leaving_a_seat_demotes_every_socket_of_it_before_someone_else_sits(serve):
    """Ann leaves her seat herself and Bob takes it: none of Ann's old sockets
    may see Bob's hand, answer his questions or chat as him."""
    server = serve()
    with server.http() as http:
        code, tokens, host = make_table(http, SMALL, ["Ann"], start=False)
        phone, laptop = Seat(server, code, tokens[0]), Seat(server, code, tokens[0])
        assert phone.seat == laptop.seat == 0
        r = http.delete(f"/api/tables/{code}/seats/0", headers=auth(tokens[0]))
        assert r.status_code == 200
        for s in (phone, laptop):
            notice = s.wait(lambda m: m["type"] == "removed")
            assert notice["seat"] == 0 and notice["reason"] == "left"
            assert "left" in notice["message"]
        r = http.post(f"/api/tables/{code}/seats", json={"name": "Bob", "seat": 0})
        bob_token = r.json()["token"]
        r = http.post(f"/api/tables/{code}/bots", json={"fill": True, "level": "random"},
                      headers=auth(host))  # fmt: skip
        assert r.status_code == 201
        bob = Seat(server, code, bob_token)
        assert http.post(f"/api/tables/{code}/start", headers=auth(host)).status_code == 200
        bob.wait(lambda m: m["type"] == "update")
        for s in (phone, laptop):
            update = s.wait(lambda m: m["type"] == "update")
            assert update["view"]["hand"] is None  # a spectator's view: no hand at all
        # Whatever the old sockets send, it is not Bob's.
        q = None
        deadline = time.monotonic() + 20
        while q is None and time.monotonic() < deadline:
            bob.drain(0.05)
            if bob.question is not None and bob.question["seat"] == 0:
                q = bob.question
        assert q is not None, "Bob was never asked anything"
        phone.send({"type": "answer", "decision": q["id"], "answer": 0})
        refused = phone.wait(lambda m: m["type"] == "error")
        assert refused["code"] == "not_seated"
        laptop.send({"type": "chat", "text": "hi, I am Bob"})
        said = bob.wait(lambda m: m["type"] == "chat")
        assert said["seat"] is None and said["name"] is None and said["spectator"]
        bob.drain(0.1)
        assert bob.question is not None and bob.question["id"] == q["id"]  # unanswered
    for s in (phone, laptop, bob):
        s.close()


def test_a_connection_that_lost_its_seat_is_checked_against_the_holder_now(serve):
    """Even a connection the demotion missed (it was being made while the seat
    changed hands) answers for nobody: answers and chat are checked against
    the token that holds the seat now."""
    server = serve()
    with server.http() as http:
        code, tokens, _host = make_table(http, SMALL, ["Ann"], bots=2)
        ann = Seat(server, code, tokens[0])
        table = server.hub.tables[code]
        # The seat changes hands behind the connection's back.
        info = table.seats[0]
        table.seats[0] = type(info)(0, "Mallory", info.kind, None, "0" * 64)
        deadline = time.monotonic() + 20
        while ann.question is None and time.monotonic() < deadline:
            ann.drain(0.05)
        q = ann.question
        assert q is not None
        ann.send({"type": "answer", "decision": q["id"], "answer": 0})
        assert ann.wait(lambda m: m["type"] == "error")["code"] == "not_seated"
        ann.send({"type": "chat", "text": "x"})
        assert ann.wait(lambda m: m["type"] == "error")["code"] == "not_seated"
        table.seats[0] = info
    ann.close()


# ------------------------------------------------------------------ hole 4


def test_spectators_coming_and_going_send_no_table_frames(serve):
    server = serve()
    with server.http() as http:
        code, tokens, _host = make_table(http, SMALL, ["Ann"], bots=2)
    ann = Seat(server, code, tokens[0])
    ann.drain(0.2)
    before = len(ann.frames)
    watchers = [Seat(server, code, None) for _ in range(15)]
    for w in watchers:
        w.close()
    until(lambda: len(server.hub.tables[code].clients) == 1)
    ann.drain(0.2)
    table_frames = [m for m in ann.frames[before:] if m["type"] == "table"]
    assert table_frames == []
    # A real change of the summary (the game's end) still reaches everyone.
    play([ann], random.Random(3))
    ann.wait_over()
    ann.drain(0.2)
    assert any(m["type"] == "table" and m["table"]["status"] == "finished" for m in ann.frames)
    ann.close()


# ------------------------------------------------------------------ hole 5


def test_a_started_table_nobody_plays_ends_idle_and_keeps_its_record(serve):
    server = serve(idle_after=0.6, sweep_interval=0.1, finished_grace=0.2)
    with server.http() as http:
        code, tokens, _host = make_table(http, SMALL, ["Ann"], bots=2)
        ann = Seat(server, code, tokens[0])
        # Ann plays a little (each answer keeps the table alive) ...
        play([ann], random.Random(1), until_step=2, timeout=30)
        assert server.hub.tables[code].status == "playing"
        # ... then nobody acts: the table ends as idle, visible to whoever looks.
        ended = ann.wait(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        assert ended["table"]["ended"] == "idle" and ended["table"]["winners"] == []
        assert server.hub.stats()["ended_idle"] == 1
        assert server.hub.live_count() == 0
        ann.close()
        until(lambda: code not in server.hub.tables)  # nobody watches: memory freed
        record = http.get(f"/api/games/{code}/record")
        assert record.status_code == 200 and len(record.json()["answers"]) >= 2
        summary = http.get(f"/api/tables/{code}").json()
        assert summary["status"] == "finished" and summary["ended"] == "idle"
        # A table played by people is never ended.
        code2, tokens2, _ = make_table(http, SMALL, ["Ann"], bots=2)
        ann2 = Seat(server, code2, tokens2[0])
        play([ann2], random.Random(2), timeout=60)
        over = ann2.wait_over()
        assert over["view"]["phase"] == "over"
        assert http.get(f"/api/tables/{code2}").json()["ended"] is None
        ann2.close()


def test_an_idle_table_ends_after_a_restart_too(serve, tmp_path):
    server = serve(idle_after=0, sweep_interval=0.1)
    with server.http() as http:
        code, _tokens, _host = make_table(http, SMALL, ["Ann"], bots=2)
    server.stop()
    again = LiveServer(server.db, Settings(bot_delay=0, idle_after=0.5, sweep_interval=0.1))
    again.start()
    try:
        assert again.hub.tables[code].status == "playing"
        until(lambda: code not in again.hub.tables)
        with again.http() as http:
            assert http.get(f"/api/tables/{code}").json()["ended"] == "idle"
    finally:
        again.stop()


# ------------------------------------------------------------------ hole 6


def test_only_the_host_adds_bots_starts_and_removes(serve):
    server = serve()
    with server.http() as http:
        code, tokens, host = make_table(http, SMALL, ["Ann", "Stranger"], start=False)
        stranger = tokens[1]
        fill = {"fill": True, "level": "random"}
        r = http.post(f"/api/tables/{code}/bots", json=fill, headers=auth(stranger))
        assert r.status_code == 403 and r.json()["error"] == "forbidden"
        r = http.post(f"/api/tables/{code}/bots", json={"seat": 2, "level": "random"},
                      headers=auth(stranger))  # fmt: skip
        assert r.status_code == 403
        r = http.post(f"/api/tables/{code}/bots", json=fill, headers=auth(host))
        assert r.status_code == 201
        r = http.delete(f"/api/tables/{code}/seats/2", headers=auth(stranger))
        assert r.status_code == 403  # a bot is the host's to take off
        r = http.post(f"/api/tables/{code}/start", headers=auth(stranger))
        assert r.status_code == 403 and server.hub.tables[code].status == "open"
        # The host removes the stranger, who cannot sit again under any name
        # from the same address, nor under the same name.
        assert http.delete(f"/api/tables/{code}/seats/1", headers=auth(host)).status_code == 200
        for name in ("Stranger", "stranger", "Someone Else"):
            r = http.post(f"/api/tables/{code}/seats", json={"name": name, "seat": 1})
            assert r.status_code == 403 and r.json()["error"] == "banned", name
        # The ban survives a restart.
        server.stop()
        server.start()
        r = http.post(f"/api/tables/{code}/seats", json={"name": "Other", "seat": 1})
        assert r.status_code == 403 and r.json()["error"] == "banned"
        # The host, behind the same address, still sits (and leaves again).
        r = http.post(f"/api/tables/{code}/seats", json={"name": "Hostess", "seat": 1},
                      headers=auth(host))  # fmt: skip
        assert r.status_code == 201
        r = http.delete(f"/api/tables/{code}/seats/1", headers=auth(r.json()["token"]))
        assert r.status_code == 200
        r = http.post(f"/api/tables/{code}/seats", json={"name": "Hostess", "seat": 1})
        assert r.status_code == 403  # without the host token: the address ban
        # Only the host lifts it.
        assert http.delete(f"/api/tables/{code}/bans", headers=auth(tokens[0])).status_code == 403
        assert http.delete(f"/api/tables/{code}/bans", headers=auth(host)).status_code == 200
        r = http.post(f"/api/tables/{code}/seats", json={"name": "Friend", "seat": 1})
        assert r.status_code == 201
        assert http.post(f"/api/tables/{code}/start", headers=auth(host)).status_code == 200


def test_an_unlisted_table_is_invite_only(serve):
    server = serve()
    with server.http() as http:
        r = http.post("/api/tables", json={"config": SMALL, "unlisted": True})
        code, host = r.json()["code"], r.json()["host_token"]
        assert r.json()["table"]["unlisted"] is True
        r = http.post("/api/tables", json={"config": SMALL, "unlisted": "yes"})
        assert r.status_code == 400 and r.json()["error"] == "bad_field"
        listed = http.post("/api/tables", json={"config": SMALL}).json()["code"]
        lobby = http.get("/api/tables").json()
        assert [t["code"] for t in lobby["open"]] == [listed]
        # The invite link still works for anyone.
        assert http.post(f"/api/tables/{code}/seats", json={"name": "Ann"}).status_code == 201
        # Only the host changes the listing.
        r = http.post(f"/api/tables/{code}/listing", json={"unlisted": False})
        assert r.status_code == 403
        r = http.post(f"/api/tables/{listed}/listing", json={"unlisted": True}, headers=auth(host))
        assert r.status_code == 403  # another table's host token
        r = http.post(f"/api/tables/{code}/listing", json={"unlisted": False}, headers=auth(host))
        assert r.status_code == 200
        assert {t["code"] for t in http.get("/api/tables").json()["open"]} == {code, listed}
        server.stop()
        server.start()
        r = http.post(f"/api/tables/{code}/listing", json={"unlisted": True}, headers=auth(host))
        assert r.status_code == 200
        server.stop()
        server.start()
        assert [t["code"] for t in http.get("/api/tables").json()["open"]] == [listed]


# ------------------------------------------------------------------ hole 7


def test_the_game_master_link_ends_when_its_creator_sits_down(serve):
    server = serve()
    with server.http() as http:
        made = http.post("/api/tables", json={"config": HIDDEN}).json()
        code, host, gm = made["code"], made["host_token"], made["gm_token"]
        gm_page = Seat(server, code, gm)
        assert gm_page.welcome.get("gm") is True
        # The creator takes a seat (the lobby sends the host token with it).
        r = http.post(f"/api/tables/{code}/seats", json={"name": "Ann"}, headers=auth(host))
        assert r.status_code == 201
        ann_token = r.json()["token"]
        notice = gm_page.wait(lambda m: m["type"] == "removed")
        assert notice["reason"] == "gm_ended" and notice["seat"] is None
        assert Seat(server, code, gm).welcome["code"] == "bad_token"
        # Not back after a restart either.
        server.stop()
        server.start()
        assert Seat(server, code, gm).welcome["code"] == "bad_token"
        http.post(f"/api/tables/{code}/bots", json={"fill": True, "level": "random"},
                  headers=auth(host))  # fmt: skip
        assert http.post(f"/api/tables/{code}/start", headers=auth(host)).status_code == 200
        ann = Seat(server, code, ann_token)
        play([ann], random.Random(4), timeout=60)
        ann.wait_over()
        # Her rematch has no game-master either, and her seat token is new there.
        r = http.post(f"/api/tables/{code}/rematch", headers=auth(ann_token))
        assert r.status_code == 201 and "gm_token" not in r.json()
        new, fresh = r.json()["code"], r.json()["token"]
        assert fresh != ann_token
        assert Seat(server, new, gm).welcome["code"] == "bad_token"
        assert Seat(server, new, ann_token).welcome["code"] == "bad_token"
        assert Seat(server, new, fresh).seat == 0
        # The host's call gets no game-master token for a table whose creator played.
        again = http.post(f"/api/tables/{code}/rematch", headers=auth(host))
        assert again.status_code == 200 and "gm_token" not in again.json()
    gm_page.close()
    ann.close()


def test_rematch_seat_tokens_are_fresh_and_game_master_tokens_new(serve):
    server = serve()
    with server.http() as http:
        made = http.post("/api/tables", json={"config": HIDDEN}).json()
        code, host, gm = made["code"], made["host_token"], made["gm_token"]
        ann = http.post(f"/api/tables/{code}/seats", json={"name": "Ann"}).json()["token"]
        bob = http.post(f"/api/tables/{code}/seats", json={"name": "Bob"}).json()["token"]
        assert http.post(f"/api/tables/{code}/start", headers=auth(host)).status_code == 200
        pages = [Seat(server, code, ann), Seat(server, code, bob)]
        play(pages, random.Random(6), timeout=60)
        pages[0].wait_over()
        # The creator never sat: their rematch call gets a new game-master token.
        r = http.post(f"/api/tables/{code}/rematch", headers=auth(host))
        assert r.status_code == 201 and "token" not in r.json()
        new, gm2 = r.json()["code"], r.json()["gm_token"]
        assert gm2 != gm
        assert Seat(server, new, gm).welcome["code"] == "bad_token"
        assert Seat(server, new, gm2).welcome["gm"] is True
        again = http.post(f"/api/tables/{code}/rematch", headers=auth(host)).json()
        assert "gm_token" not in again  # once
        # Each person claims their seat with their old token, once, for a fresh token.
        assert Seat(server, new, ann).welcome["code"] == "bad_token"
        r = http.post(f"/api/tables/{code}/rematch", headers=auth(ann))
        assert r.status_code == 200 and r.json()["code"] == new
        ann2 = r.json()["token"]
        assert ann2 not in (ann, bob)
        assert "token" not in http.post(f"/api/tables/{code}/rematch", headers=auth(ann)).json()
        assert Seat(server, new, ann2).seat == 0
        bob2 = http.post(f"/api/tables/{code}/rematch", headers=auth(bob)).json()["token"]
        assert Seat(server, new, bob2).seat == 1
        # And again one table further: new tokens once more.
        assert http.post(f"/api/tables/{new}/start", headers=auth(host)).status_code == 200
        pages2 = [Seat(server, new, ann2), Seat(server, new, bob2)]
        play(pages2, random.Random(7), timeout=60)
        pages2[0].wait_over()
        third = http.post(f"/api/tables/{new}/rematch", headers=auth(ann2)).json()
        assert third["token"] not in (ann, ann2)
        assert Seat(server, third["code"], ann).welcome["code"] == "bad_token"
        for p in pages + pages2:
            p.close()
