"""Everyone antes at once (issue 32, part 2): the face-down ante at the web table.

The books: every player puts an ante card face down, and they are revealed
once all have chosen.  The server asks every seat of the round at once,
keeps each choice to itself (a seat may choose again until the last has
chosen), and plays the whole round in seat order at the reveal.  These
tests read every frame the other connections receive: nothing of a choice
reaches anyone else before the reveal, except that the seat has chosen.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from dragonante.engine.decisions import ANTE
from dragonante.engine.records import digest, record_from_dict, replay
from dragonante.engine.tables import STRENGTH
from dragonante.interfaces.web.hub import Settings
from tests.web.helpers import LiveServer, Seat, make_table, play
from tests.web.leaks import check_frames

TWO = {"players": 2, "gold_per_player": 8, "ending": {"gambits": 1}}
THREE = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
#: The keys of an ``update`` another seat gets when a seat has chosen.
UPDATE_KEYS = {
    "type", "step", "view", "hints", "answers", "effects", "totals", "events", "log_size",
    "face_down", "history",
}  # fmt: skip


def stored(server: LiveServer, code: str) -> int:
    """The answers the table has played (its summary's ``step``)."""
    with server.http() as http:
        step: int = http.get(f"/api/tables/{code}").json()["step"]
    return step


def ante_q(seat: Seat) -> dict[str, Any]:
    q = seat.question
    assert q is not None and q["kind"] == ANTE and q["seat"] == seat.seat, q
    assert q["options"], "the seat's own question carries its options"
    return q


def test_two_people_are_asked_at_once_and_see_nothing_of_each_other(server: LiveServer):
    with server.http() as http:
        code, tokens, _ = make_table(http, TWO, ["Ann", "Bob"])
    ann, bob = Seat(server, code, tokens[0]), Seat(server, code, tokens[1])
    watcher = Seat(server, code, None)
    qa, qb = ante_q(ann), ante_q(bob)
    assert qa["id"] != qb["id"]
    for s in (ann, bob, watcher):
        assert s.state["face_down"] == {"kind": ANTE, "seats": [0, 1], "waiting": [0, 1]}
    # The spectator sees a question pending, never anyone's options.
    assert watcher.question is not None and "options" not in watcher.question
    bob_before, watcher_before = bob.last, watcher.last
    assert bob_before is not None and watcher_before is not None

    # Ann chooses: hers is acknowledged; the others learn only that she chose.
    first = qa["options"][0]
    ann.send({"type": "answer", "decision": qa["id"], "answer": first})
    ack = ann.wait(lambda m: m.get("ack") == qa["id"])
    assert ack["face_down"] == {"kind": ANTE, "seats": [0, 1], "waiting": [1], "chosen": first}
    assert ack["step"] == 0 and ack["events"] == []
    assert ack["view"]["question"]["id"] == qa["id"]  # still hers: she may change it
    for s, before in ((bob, bob_before), (watcher, watcher_before)):
        got = s.wait(lambda m: m["type"] == "update")
        assert set(got) == UPDATE_KEYS, got.keys()
        assert got["face_down"] == {"kind": ANTE, "seats": [0, 1], "waiting": [1]}
        # Everything else is the frame the seat had: nothing depends on her card.
        for key in ("view", "answers", "hints", "effects", "totals", "step", "log_size"):
            assert got[key] == before[key], key
        assert got["events"] == []
        assert got["history"] is None  # the gambit's history says nothing new either
        assert s.drain(0.2) == []
    assert stored(server, code) == 0

    # She changes her mind: the others receive nothing at all.
    second = qa["options"][-1]
    ann.send({"type": "answer", "decision": qa["id"], "answer": second})
    again = ann.wait(lambda m: m.get("ack") == qa["id"])
    assert again["face_down"]["chosen"] == second
    assert bob.drain(0.3) == [] and watcher.drain(0.05) == []

    # Bob may not answer hers, nor with a card he does not hold.
    bob.send({"type": "answer", "decision": qa["id"], "answer": qa["options"][0]})
    assert bob.wait(lambda m: m["type"] == "error")["code"] == "not_your_turn"
    bad = next(c for c in range(200) if c not in qb["options"])
    bob.send({"type": "answer", "decision": qb["id"], "answer": bad})
    assert bob.wait(lambda m: m["type"] == "error")["code"] == "illegal"
    assert ann.drain(0.2) == [] and watcher.drain(0.05) == []

    # Bob chooses last: the reveal, played in seat order, in one frame each
    # (a card of another strength than hers: tied antes would be anted again).
    bobs = next(c for c in qb["options"] if STRENGTH[c] != STRENGTH[second])
    bob.send({"type": "answer", "decision": qb["id"], "answer": bobs})
    reveal = bob.wait(lambda m: m.get("ack") == qb["id"])
    assert reveal["step"] == 2 and "face_down" not in reveal
    kinds = [e["kind"] for e in reveal["events"]]
    assert kinds.index("ante_reveal") > kinds.index("ante_placed")
    placed = [e["data"]["seat"] for e in reveal["events"] if e["kind"] == "ante_placed"]
    assert placed == [0, 1]  # seat order, not the order they chose in
    public = [k for k in kinds if k != "ante_chosen"]
    for s in (ann, watcher):
        got = s.wait(lambda m: m["type"] == "update" and m["step"] == 2)
        assert [e["kind"] for e in got["events"] if e["kind"] != "ante_chosen"] == public
        own = [e["data"]["seat"] for e in got["events"] if e["kind"] == "ante_chosen"]
        assert own == ([] if s is watcher else [0])  # each seat is told its own card only
    table = server.hub.tables[code]
    assert table.answers[:2] == [second, bobs]

    # The rest of the game, every frame checked for hidden cards.
    play([ann, bob], random.Random(3))
    with server.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    for s in (ann, bob, watcher):
        s.drain(0.05)
        assert check_frames(record, s.seat, s.frames) > 5
    for s in (ann, bob, watcher):
        s.close()


def test_three_people_choose_in_any_order_and_the_record_is_in_seat_order(
    server: LiveServer,
):
    with server.http() as http:
        code, tokens, _ = make_table(http, THREE, ["Ann", "Bob", "Cid"])
    seats = [Seat(server, code, t) for t in tokens]
    qs = [ante_q(s) for s in seats]
    choice = {s.seat: q["options"][-1] for s, q in zip(seats, qs, strict=True)}
    waits = []
    for k in (2, 0):  # Cid first, then Ann: Bob is waited on
        seats[k].send({"type": "answer", "decision": qs[k]["id"], "answer": choice[k]})
        seats[k].wait(lambda m, k=k: m.get("ack") == qs[k]["id"])
        waits.append(seats[1].wait(lambda m: m["type"] == "update")["face_down"]["waiting"])
    assert waits == [[0, 1], [1]]
    # Nobody's frame ever named another's choice.
    for s in seats:
        s.drain(0.1)
        for f in s.frames:
            part = f.get("face_down") or {}
            if "chosen" in part:
                assert part["chosen"] == choice[s.seat] and s.seat in (0, 2)
    seats[1].send({"type": "answer", "decision": qs[1]["id"], "answer": choice[1]})
    for s in seats:
        s.wait(lambda m: m["type"] == "update" and m["step"] == 3)
    assert server.hub.tables[code].answers[:3] == [choice[0], choice[1], choice[2]]
    # A choice sent after the reveal is stale.
    seats[0].send({"type": "answer", "decision": qs[0]["id"], "answer": choice[0]})
    assert seats[0].wait(lambda m: m["type"] == "error")["code"] == "stale"
    play(seats, random.Random(4))
    with server.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    for s in seats:
        s.drain(0.05)
        assert check_frames(record, s.seat, s.frames) > 5
        s.close()


def test_bots_choose_at_once_and_people_choose_beside_them(server: LiveServer):
    with server.http() as http:
        code, tokens, _ = make_table(
            http, {**THREE, "players": 4}, ["Ann", "Bob"], bots=2, level="medium"
        )
    ann, bob = Seat(server, code, tokens[0]), Seat(server, code, tokens[1])
    qa, qb = ante_q(ann), ante_q(bob)

    # The bots (seats 2 and 3) choose without waiting for the people before them.
    def bots_chose(m: dict[str, Any]) -> bool:
        return bool((m.get("face_down") or {}).get("waiting") == [0, 1])

    seen = ann.state if bots_chose(ann.state) else ann.wait(bots_chose)
    assert seen["step"] == 0
    assert server.hub.tables[code].answers == []
    ann.send({"type": "answer", "decision": qa["id"], "answer": qa["options"][0]})
    bob.send({"type": "answer", "decision": qb["id"], "answer": qb["options"][0]})
    for s in (ann, bob):
        s.wait(lambda m: m["type"] == "update" and m["step"] >= 4)
    assert server.hub.tables[code].answers[:2] == [qa["options"][0], qb["options"][0]]
    ann.close()
    bob.close()


def test_the_turn_timer_runs_for_everyone_at_once(tmp_path: Path):
    live = LiveServer(
        str(tmp_path / "web.sqlite3"), Settings(bot_delay=0, turn_min=0.5, away_bot="random")
    ).start()
    try:
        with live.http() as http:
            r = http.post("/api/tables", json={"config": THREE, "turn_seconds": 1.5})
            code, host = r.json()["code"], r.json()["host_token"]
            tokens = []
            for i, name in enumerate(["Ann", "Bob", "Cid"]):
                made = http.post(f"/api/tables/{code}/seats", json={"name": name, "seat": i})
                tokens.append(made.json()["token"])
            auth = {"Authorization": f"Bearer {host}"}
            assert http.post(f"/api/tables/{code}/start", headers=auth).status_code == 200
        seats = [Seat(live, code, t) for t in tokens]
        turn = seats[1].wait(lambda m: m["type"] == "turn")
        qs = [ante_q(s) for s in seats]
        assert turn["seats"] == [0, 1, 2] and turn["decisions"] == [q["id"] for q in qs]
        assert turn["decision"] == qs[0]["id"]
        mine = qs[1]["options"][-1]
        seats[1].send({"type": "answer", "decision": qs[1]["id"], "answer": mine})
        seats[1].wait(lambda m: m.get("ack") == qs[1]["id"])
        started = time.monotonic()
        timeouts = []
        for _ in range(2):
            timeouts.append(seats[1].wait(lambda m: m["type"] == "timeout", 5)["seat"])
        assert time.monotonic() - started < 3
        assert sorted(timeouts) == [0, 2]  # Bob chose: no bot for him
        seats[1].wait(lambda m: m["type"] == "update" and m["step"] >= 3)
        assert live.hub.tables[code].answers[1] == mine
        for s in seats:
            s.close()
    finally:
        live.stop()


def test_a_restart_mid_round_asks_the_round_again(tmp_path: Path):
    db = str(tmp_path / "web.sqlite3")
    first = LiveServer(db).start()
    with first.http() as http:
        code, tokens, _ = make_table(http, TWO, ["Ann", "Bob"])
    ann = Seat(first, code, tokens[0])
    qa = ante_q(ann)
    ann.send({"type": "answer", "decision": qa["id"], "answer": qa["options"][0]})
    ann.wait(lambda m: m.get("ack") == qa["id"])
    ann.close()
    first.stop()

    second = LiveServer(db, port=first.port).start()
    try:
        table = second.hub.tables[code]
        assert table.answers == []  # a choice is kept until the reveal, not stored
        ann, bob = Seat(second, code, tokens[0]), Seat(second, code, tokens[1])
        assert ann.state["face_down"] == {"kind": ANTE, "seats": [0, 1], "waiting": [0, 1]}
        assert ante_q(ann)["id"] == qa["id"]  # the same question, asked again
        qb = ante_q(bob)
        bob.send({"type": "answer", "decision": qb["id"], "answer": qb["options"][0]})
        bob.wait(lambda m: m.get("ack") == qb["id"])
        ann.send({"type": "answer", "decision": qa["id"], "answer": qa["options"][-1]})
        ann.wait(lambda m: m.get("ack") == qa["id"] and m["step"] == 2)
        assert table.answers == [qa["options"][-1], qb["options"][0]]
        ann.close()
        bob.close()
    finally:
        second.stop()


def ante_q_options(seat: Seat) -> list[int]:
    """The options of the ante question a seat was first asked."""
    q = seat.state["view"]["question"]
    return list(q["options"])


def test_an_away_seat_handed_to_a_bot_chooses_at_once(tmp_path: Path):
    live = LiveServer(
        str(tmp_path / "web.sqlite3"),
        Settings(bot_delay=0, away_after=0.3, sweep_interval=0.05, away_bot="random"),
    ).start()
    try:
        with live.http() as http:
            code, tokens, _ = make_table(http, THREE, ["Ann", "Bob", "Cid"])
        ann, bob, cid = (Seat(live, code, t) for t in tokens)
        qa = ante_q(ann)
        ann.send({"type": "answer", "decision": qa["id"], "answer": qa["options"][0]})
        ann.wait(lambda m: m.get("ack") == qa["id"])
        cid.close()  # Cid leaves without choosing
        ann.wait(lambda m: m["type"] == "table" and m["table"]["away"] == [False, False, True], 30)
        ann.send({"type": "hand_to_bot", "seat": 2})
        # The bot chooses for Cid at once; the round waits on Bob alone.
        ann.wait(lambda m: (m.get("face_down") or {}).get("waiting") == [1], 30)
        table = live.hub.tables[code]
        assert table.answers == []
        qb = ante_q(bob)
        bob.send({"type": "answer", "decision": qb["id"], "answer": qb["options"][0]})
        ann.wait(lambda m: m["type"] == "update" and m["step"] == 3, 30)
        assert table.answers[:2] == [qa["options"][0], qb["options"][0]]
        assert table.answers[2] in ante_q_options(cid)
        ann.close()
        bob.close()
    finally:
        live.stop()
