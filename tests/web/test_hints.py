"""Hints from the best bot at a web table: who may ask, what comes back, the limits.

A seated person alone among bots gets the hint the library gives for their
own view of their current question, in their language and to their
connection only; at a table with other people the request is refused
until the host allows hints (the ``hints`` option, stored with the table
and shown in its summary); a stale question, a spectator, a bad field, a
second request of the same seat while one is searched and an address over
its limit are refused, and change nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dragonante.bots import SeatView
from dragonante.bots.hint import hint, hint_seed
from dragonante.interfaces.web.shared.limits import RateLimiter
from dragonante.interfaces.web.shared.settings import Settings
from tests.web.helpers import LiveServer, Seat, make_table, play

ITERS = 40
TWO = {"players": 2}


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("hints") / "web.sqlite3"
    live = LiveServer(str(db), Settings(bot_delay=0, hint_iters=ITERS)).start()
    yield live
    live.stop()


def my_question(seat: Seat) -> dict[str, Any]:
    """This seat's current question (waiting for the bots to move first)."""
    if (seat.question or {}).get("seat") != seat.seat:
        seat.wait(lambda m: "view" in m and (m["view"]["question"] or {}).get("seat") == seat.seat)
    q = seat.question
    assert q is not None
    return q


def ask(seat: Seat, decision: Any) -> dict[str, Any]:
    seat.send({"type": "hint", "decision": decision})
    return seat.wait(lambda m: m["type"] in ("hint", "error"))


def test_alone_among_bots_a_seat_gets_the_hard_bots_hint(serve: LiveServer) -> None:
    with serve.http() as http:
        code, tokens, _ = make_table(http, {"players": 3}, ["Ada"], bots=2)
        summary = http.get(f"/api/tables/{code}").json()
    assert summary["hints"] is False and summary["hints_on"] is True  # one person: on
    me = Seat(serve, code, tokens[0])
    q = my_question(me)
    got = ask(me, q["id"])
    assert got["type"] == "hint", got
    assert got["decision"] == q["id"] and got["seat"] == me.seat
    assert got["answer"] in q["options"]
    assert got["lines"][0] == f"Hint: the hard bot would choose {got['label']}."
    labels = {a["value"]: a["label"] for a in me.last["answers"]}  # type: ignore[index]
    assert got["label"] == labels[got["answer"]]
    assert 1 <= len(got["answers"]) <= 3 and got["answers"][0]["value"] == got["answer"]
    for a in got["answers"]:
        assert a["label"] == labels[a["value"]] and 0 <= a["win"] <= 1 and 0 <= a["stakes"] <= 1
    # the library's hint for the same view of the same question
    table = serve.hub.tables[code]
    assert table.state is not None
    expected = hint(SeatView(table.state, me.seat), hint_seed(table.seed, q["id"]), ITERS)
    assert got["answer"] == expected.choice
    assert [a["visits"] for a in got["answers"]] == [w.visits for w in expected.answers]
    # asked again: the same hint, kept (no second search)
    searched = serve.hub.hints.searched
    again = ask(me, q["id"])
    assert again["lines"] == got["lines"] and serve.hub.hints.searched == searched
    # in Italian after a language switch
    me.send({"type": "lang", "lang": "it"})
    me.wait(lambda m: m["type"] == "state")
    italian = ask(me, q["id"])
    assert italian["lines"][0].startswith("Consiglio: il bot difficile sceglierebbe ")
    me.close()


def test_bad_requests_are_refused_and_change_nothing(serve: LiveServer) -> None:
    with serve.http() as http:
        code, tokens, _ = make_table(http, TWO, ["Bea"], bots=1)
    me = Seat(serve, code, tokens[0])
    q = my_question(me)
    step = me.last["step"]  # type: ignore[index]
    assert ask(me, q["id"] + 1)["code"] == "stale"
    assert ask(me, "one")["code"] == "bad_field"
    watcher = Seat(serve, code, None)
    assert ask(watcher, q["id"])["code"] == "not_seated"
    watcher.close()
    assert len(serve.hub.tables[code].answers) == step  # nothing was answered
    assert ask(me, q["id"])["type"] == "hint"  # still this question's hint
    me.close()


def test_with_other_people_hints_are_off_until_the_host_allows_them(serve: LiveServer) -> None:
    with serve.http() as http:
        code, tokens, host = make_table(http, TWO, ["Cid", "Dee"])
        assert http.get(f"/api/tables/{code}").json()["hints_on"] is False
        seats = [Seat(serve, code, tokens[0]), Seat(serve, code, tokens[1])]
        mover = next(s for s in seats if s.question and s.question["seat"] == s.seat)
        q = mover.question
        assert q is not None
        refused = ask(mover, q["id"])
        assert refused["type"] == "error" and refused["code"] == "hints_off"
        assert "hints are off" in refused["detail"]
        # only the host may allow them, with a true or false
        r = http.post(
            f"/api/tables/{code}/hints",
            json={"hints": True},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        assert r.status_code == 403
        bearer = {"Authorization": f"Bearer {host}"}
        r = http.post(f"/api/tables/{code}/hints", json={"hints": "yes"}, headers=bearer)
        assert r.status_code == 400 and r.json()["error"] == "bad_field"
        r = http.post(f"/api/tables/{code}/hints", json={"hints": True}, headers=bearer)
        assert r.status_code == 200
        table = mover.wait(lambda m: m["type"] == "table" and m["table"]["hints"])["table"]
        assert table["hints_on"] is True
        assert ask(mover, q["id"])["type"] == "hint"
    for s in seats:
        s.close()


def test_one_hint_at_a_time_per_seat_and_a_limit_per_address(serve: LiveServer) -> None:
    with serve.http() as http:
        code, tokens, _ = make_table(http, {"players": 4}, ["Eve"], bots=3)
    tab, other_tab = Seat(serve, code, tokens[0]), Seat(serve, code, tokens[0])
    q = my_question(tab)
    my_question(other_tab)
    serve.hub.settings.hint_iters = 1500  # long enough for the second request to meet it
    try:
        tab.send({"type": "hint", "decision": q["id"]})
        refused = ask(other_tab, q["id"])
        assert refused["type"] == "error" and refused["code"] == "hint_busy"
        # the connection is not held up while its hint is searched: its answer goes through
        start = len(tab.frames)
        tab.send({"type": "answer", "decision": q["id"], "answer": q["options"][0]})
        tab.wait(lambda m: m["type"] == "hint", timeout=60)
        frames = tab.frames[start:]
        kinds = [m["type"] for m in frames]
        assert "update" in kinds and kinds.index("update") < kinds.index("hint"), kinds
        assert frames[kinds.index("hint")]["decision"] == q["id"]  # of the question gone by
    finally:
        serve.hub.settings.hint_iters = ITERS
    limiter = serve.hub.house.limiters["hints"]
    serve.hub.house.limiters["hints"] = RateLimiter(1, 3600)
    try:
        nxt = tab.last
        if not nxt or (nxt["view"]["question"] or {}).get("seat") != tab.seat:
            nxt = tab.wait(
                lambda m: "view" in m and (m["view"]["question"] or {}).get("seat") == tab.seat
            )
        decision = nxt["view"]["question"]["id"]
        assert ask(tab, decision)["type"] == "hint"  # the one allowed
        assert ask(tab, decision)["type"] == "hint"  # the same again: kept, not counted
        serve.hub.hints._kept.clear()
        over = ask(tab, decision)
        assert over["code"] == "rate_limited" and over["retry_after"] >= 1
    finally:
        serve.hub.house.limiters["hints"] = limiter
    tab.close()
    other_tab.close()


def test_the_option_is_chosen_at_creation_and_kept_across_a_restart(tmp_path: Path) -> None:
    live = LiveServer(str(tmp_path / "web.sqlite3"), Settings(bot_delay=0, hint_iters=ITERS))
    live.start()
    try:
        with live.http() as http:
            r = http.post("/api/tables", json={"config": TWO, "hints": "on"})
            assert r.status_code == 400 and r.json()["error"] == "bad_field"
            r = http.post("/api/tables", json={"config": TWO, "hints": True})
            assert r.status_code == 201 and r.json()["table"]["hints"] is True
            code = r.json()["code"]
        live.stop()
        live.start()
        with live.http() as http:
            summary = http.get(f"/api/tables/{code}").json()
        assert summary["hints"] is True and summary["hints_on"] is True
    finally:
        live.stop()


def test_a_rematch_keeps_the_hosts_choice(serve: LiveServer) -> None:
    config = {"players": 2, "gold_per_player": 6, "ending": {"gambits": 1}}
    with serve.http() as http:
        r = http.post("/api/tables", json={"config": config, "hints": True})
        code, host = r.json()["code"], r.json()["host_token"]
        token = http.post(f"/api/tables/{code}/seats", json={"name": "Fay"}).json()["token"]
        bearer = {"Authorization": f"Bearer {host}"}
        http.post(
            f"/api/tables/{code}/bots", json={"fill": True, "level": "random"}, headers=bearer
        )
        assert http.post(f"/api/tables/{code}/start", headers=bearer).status_code == 200
        me = Seat(serve, code, token)
        play([me], random.Random(3))
        me.wait_over()
        r = http.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201
        assert r.json()["table"]["hints"] is True
        assert http.get(f"/api/tables/{r.json()['code']}").json()["hints"] is True
    me.close()
