"""Chat, mutes, rematches, the turn timer and removing a player, over the real server.

Each test runs its own server with the settings it needs (tiny limits and
timeouts), so none waits long; every frame of every connection goes through
the leak checks.
"""

from __future__ import annotations

import random
from typing import Any

from dragonante.interfaces.web.tables.turns import TURN_MAX
from tests.web.helpers import Seat, make_table, play
from tests.web.leaks import check_frames, check_social_frames

SMALL = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
PAYLOAD = '<img src=x onerror="alert(1)"><script>alert(2)</script> &amp; 1 < 2'


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error_of(seat: Seat, msg: dict[str, Any]) -> dict[str, Any]:
    seat.send(msg)
    return seat.wait(lambda m: m["type"] == "error")


def test_chat_is_plain_text_for_seats_and_spectators_with_history(serve):
    server = serve(chat_history=3)
    with server.http() as http:
        code, tokens, _host = make_table(http, SMALL, ["Ann", "Bob"], bots=1, start=False)
    ann, bob = Seat(server, code, tokens[0]), Seat(server, code, tokens[1])
    watcher = Seat(server, code, None)
    history = watcher.wait(lambda m: m["type"] == "chat_history")
    assert history["messages"] == [] and history["spectator"] == 1

    ann.send({"type": "chat", "text": PAYLOAD})
    for s in (ann, bob, watcher):
        msg = s.wait(lambda m: m["type"] == "chat")
        # Raw, exactly as typed: escaping is the page's job (it shows text nodes).
        assert msg["text"] == PAYLOAD and msg["seat"] == 0 and msg["name"] == "Ann"
    watcher.send({"type": "chat", "text": "  hello\n\tthere \u202eevil\x00 "})
    msg = bob.wait(lambda m: m["type"] == "chat")
    assert msg == {**msg, "seat": None, "spectator": 1, "name": None, "text": "hello there evil"}
    for text in ("three", "four"):
        bob.send({"type": "chat", "text": text})
        ann.wait(lambda m, text=text: m["type"] == "chat" and m["text"] == text)

    # A late joiner gets the last chat_history messages, oldest first.
    late = Seat(server, code, None)
    history = late.wait(lambda m: m["type"] == "chat_history")
    assert [m["text"] for m in history["messages"]] == ["hello there evil", "three", "four"]
    assert history["spectator"] == 2

    assert error_of(ann, {"type": "chat", "text": "x" * 301})["code"] == "chat_too_long"
    assert error_of(ann, {"type": "chat", "text": " \n "})["code"] == "chat_empty"
    assert error_of(ann, {"type": "chat", "text": 5})["code"] == "bad_field"
    bob.send({"type": "chat", "text": "x" * 300})
    assert ann.wait(lambda m: m["type"] == "chat")["text"] == "x" * 300
    typed = {PAYLOAD, "hello there evil", "three", "four", "x" * 300}
    for s in (ann, bob, watcher, late):
        s.drain(0.05)
        assert check_social_frames(s.frames, ["Ann", "Bob", "Thorinn"], typed) >= 1
        s.close()


def test_chat_is_rate_limited_per_connection_and_per_address(serve):
    server = serve(chat_burst=3, chat_window=30, chat_address_burst=5, chat_address_window=60)
    with server.http() as http:
        code, tokens, _host = make_table(http, SMALL, ["Ann"], bots=2, start=False)
    ann = Seat(server, code, tokens[0])
    for i in range(3):
        ann.send({"type": "chat", "text": f"m{i}"})
        ann.wait(lambda m, i=i: m["type"] == "chat" and m["text"] == f"m{i}")
    refused = error_of(ann, {"type": "chat", "text": "one too many"})
    assert refused["code"] == "chat_rate" and refused["retry_after"] >= 1
    # Another connection from the same address has its own bucket, but the
    # address's bucket (5) runs out after two more.
    watcher = Seat(server, code, None)
    for i in range(2):
        watcher.send({"type": "chat", "text": f"w{i}"})
        watcher.wait(lambda m, i=i: m["type"] == "chat" and m["text"] == f"w{i}")
    assert error_of(watcher, {"type": "chat", "text": "w2"})["code"] == "chat_rate"
    assert all(m["text"] != "one too many" for m in watcher.frames if m["type"] == "chat")
    ann.close()
    watcher.close()


def test_the_host_mutes_and_unmutes_seats_and_spectators(serve):
    server = serve()
    with server.http() as http:
        code, tokens, host = make_table(http, SMALL, ["Ann", "Bob"], bots=1, start=False)
        ann, bob = Seat(server, code, tokens[0]), Seat(server, code, tokens[1])
        watcher = Seat(server, code, None)

        # Only the host mutes: not a seated player, not a stranger.
        r = http.post(f"/api/tables/{code}/mute", json={"seat": 1}, headers=auth(tokens[0]))
        assert r.status_code == 403
        assert http.post(f"/api/tables/{code}/mute", json={"seat": 1}).status_code == 403
        for body in ({}, {"seat": 1, "spectator": 1}, {"seat": 2.5}, {"seat": 1, "muted": "y"}):
            r = http.post(f"/api/tables/{code}/mute", json=body, headers=auth(host))
            assert r.status_code == 400, body

        r = http.post(f"/api/tables/{code}/mute", json={"seat": 1}, headers=auth(host))
        assert r.status_code == 200
        for s in (ann, bob, watcher):
            msg = s.wait(lambda m: m["type"] == "mute")
            assert msg == {"type": "mute", "seat": 1, "spectator": None, "muted": True}
        refused = error_of(bob, {"type": "chat", "text": "let me speak"})
        assert refused["code"] == "muted" and "muted" in refused["message"]

        r = http.post(f"/api/tables/{code}/mute", json={"spectator": 1}, headers=auth(host))
        assert r.status_code == 200
        assert error_of(watcher, {"type": "chat", "text": "boo"})["code"] == "muted"
        # Reconnecting as a new spectator from the same address does not unmute.
        again = Seat(server, code, None)
        history = again.wait(lambda m: m["type"] == "chat_history")
        assert history["muted_seats"] == [1] and history["muted_spectators"] == [1]
        assert error_of(again, {"type": "chat", "text": "boo"})["code"] == "muted"

        body = {"seat": 1, "muted": False}
        assert http.post(f"/api/tables/{code}/mute", json=body, headers=auth(host)).is_success
        bob.wait(lambda m: m["type"] == "mute" and not m["muted"])
        bob.send({"type": "chat", "text": "thanks"})
        assert ann.wait(lambda m: m["type"] == "chat")["text"] == "thanks"
        assert not any(m["type"] == "chat" for m in ann.frames if m.get("text") == "boo")
    for s in (ann, bob, watcher, again):
        s.drain(0.05)
        assert check_social_frames(s.frames, ["Ann", "Bob", "Thorinn"], {"thanks"}) >= 2
        s.close()


def test_the_host_removes_a_player_before_the_start(serve):
    server = serve()
    with server.http() as http:
        code, tokens, host = make_table(http, SMALL, ["Ann", "Bob"], start=False)
        ann, bob = Seat(server, code, tokens[0]), Seat(server, code, tokens[1])
        # A seated player may not remove another person; the host may.
        r = http.delete(f"/api/tables/{code}/seats/1", headers=auth(tokens[0]))
        assert r.status_code == 403
        assert http.delete(f"/api/tables/{code}/seats/1", headers=auth(host)).status_code == 200
        notice = bob.wait(lambda m: m["type"] == "removed")
        assert notice["seat"] == 1 and "removed" in notice["message"]
        state = bob.wait(lambda m: m["type"] == "state")
        assert state["table"]["seats"][1] is None
        # Bob watches now: he may not answer, and his old token holds no seat.
        assert Seat(server, code, tokens[1]).welcome["code"] == "bad_token"
        ann.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1] is None)
        assert not any(m["type"] == "removed" for m in ann.frames)
        # Once the game started nobody is removed.
        r = http.post(f"/api/tables/{code}/bots", json={"fill": True, "level": "random"},
                      headers=auth(host))  # fmt: skip
        assert r.status_code == 201
        assert http.post(f"/api/tables/{code}/start", headers=auth(host)).status_code == 200
        r = http.delete(f"/api/tables/{code}/seats/0", headers=auth(host))
        assert r.status_code == 409
    for s in (ann, bob):
        assert check_social_frames(s.frames, ["Ann", "Bob", "Thorinn"]) >= 1
        s.close()


def test_a_rematch_keeps_seats_and_options_with_a_new_seed_and_fresh_tokens(serve):
    server = serve()
    config = {**SMALL, "gold_per_player": 6}
    with server.http() as http:
        r = http.post("/api/tables", json={"config": config, "turn_seconds": 45})
        code, host = r.json()["code"], r.json()["host_token"]
        ann_token = http.post(f"/api/tables/{code}/seats", json={"name": "Ann"}).json()["token"]
        http.post(f"/api/tables/{code}/bots", json={"fill": True, "level": "random"},
                  headers=auth(host))  # fmt: skip
        ann = Seat(server, code, ann_token)
        watcher = Seat(server, code, None)
        r = http.post(f"/api/tables/{code}/rematch", headers=auth(ann_token))
        assert r.status_code == 409 and r.json()["error"] == "not_finished"
        assert http.post(f"/api/tables/{code}/start", headers=auth(host)).status_code == 200
        ann.wait(lambda m: m["type"] == "turn" and m["of"] == 45)
        play([ann], random.Random(5))
        ann.wait_over()
        # Strangers and spectators cannot; a seated player (or the host) can.
        assert http.post(f"/api/tables/{code}/rematch").status_code == 403
        r = http.post(f"/api/tables/{code}/rematch", headers=auth(ann_token))
        assert r.status_code == 201
        new = r.json()["code"]
        assert new != code
        for s in (ann, watcher):
            assert s.wait(lambda m: m["type"] == "rematch") == {
                "type": "rematch",
                "code": new,
                "by": 0,
            }
            s.wait(lambda m: m["type"] == "table" and m["table"]["rematch"] == new)
        # Asking again (the host, another page) gets the same table.
        again = http.post(f"/api/tables/{code}/rematch", headers=auth(host))
        assert again.status_code == 200 and again.json()["code"] == new
        old_summary = http.get(f"/api/tables/{code}").json()
        summary = http.get(f"/api/tables/{new}").json()
        assert old_summary["rematch"] == new and summary["status"] == "open"
        assert summary["config"] == old_summary["config"] and summary["turn_seconds"] == 45
        assert summary["seats"] == old_summary["seats"]
        assert server.hub.tables[new].seed != server.hub.tables[code].seed
        # Ann's seat is hers at the new table, with a fresh token her old one
        # claims (the offer did); the old token holds nothing there.
        assert Seat(server, new, ann_token).welcome["code"] == "bad_token"
        ann2 = Seat(server, new, r.json()["token"])
        assert ann2.seat == 0
        assert http.post(f"/api/tables/{new}/start", headers=auth(host)).status_code == 200
        ann2.wait(lambda m: m["type"] == "update")
        record = http.get(f"/api/games/{code}/record").json()
    names = record["names"]
    for seat, s in ((0, ann), (None, watcher)):
        assert check_frames(record, seat, s.frames) > 3
        assert check_social_frames(s.frames, names) >= 2
    for s in (ann, watcher, ann2):
        s.close()


def test_a_turn_timer_lets_a_bot_answer_when_time_runs_out(serve):
    server = serve(turn_min=0.1, away_bot="random")
    with server.http() as http:
        for bad in (0.05, TURN_MAX + 1, "30", True, [1]):
            r = http.post("/api/tables", json={"config": SMALL, "turn_seconds": bad})
            assert r.status_code == 400 and r.json()["error"] == "bad_config", bad
        r = http.post("/api/tables", json={"config": SMALL, "turn_seconds": 0.25})
        code, host = r.json()["code"], r.json()["host_token"]
        tokens = [
            http.post(f"/api/tables/{code}/seats", json={"name": n}).json()["token"]
            for n in ("Ann", "Bob")
        ]
        http.post(f"/api/tables/{code}/bots", json={"fill": True, "level": "random"},
                  headers=auth(host))  # fmt: skip
        ann, bob = (Seat(server, code, tok) for tok in tokens)
        watcher = Seat(server, code, None)
        assert http.post(f"/api/tables/{code}/start", headers=auth(host)).status_code == 200
        # Bob never answers: each of his decisions times out and a bot answers it.
        play([ann], random.Random(11))
        for s in (ann, bob, watcher):
            s.wait_over()
        record = http.get(f"/api/games/{code}/record").json()
    watcher.drain(0.1)
    timeouts = [m for m in watcher.frames if m["type"] == "timeout"]
    turns = [m for m in watcher.frames if m["type"] == "turn"]
    # Bob's decisions all time out (Ann's may too on a slow machine); the
    # bot's seat never has a clock.
    assert any(m["seat"] == 1 for m in timeouts)
    assert all(m["seat"] in (0, 1) and m["bot"] == "random" for m in timeouts)
    assert {m["seat"] for m in turns} == {0, 1}  # the bot's seat (2) has no clock
    assert all(0 < m["seconds"] <= 0.25 and m["of"] == 0.25 for m in turns)
    assert server.hub.turns.timeouts == len(timeouts)
    # Everyone was told about each timeout.
    for s in (ann, bob):
        s.drain(0.05)
        assert [m for m in s.frames if m["type"] == "timeout"] == timeouts
    for seat, s in ((0, ann), (1, bob), (None, watcher)):
        assert check_frames(record, seat, s.frames) > 3
        assert check_social_frames(s.frames, record["names"]) >= len(timeouts)
        s.close()
