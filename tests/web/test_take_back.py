"""Take-back at the web table (issue 32 §6): one person among bots undoes an answer.

The game goes back to the person's last question, exactly: the same view,
the stored answers cut there, and, answered the same way again, the same
game after it (the bots are put back with their random generators, the
draws come from the seed).  Every connection is sent the earlier game from
its own seat's view, as a fresh connection would get it, so no hidden card
reaches anyone.  With another person at the table, from a spectator, with
nothing to take back, and after the game ends it is refused and changes
nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select

from dragonante.interfaces.web.shared.settings import Settings
from dragonante.interfaces.web.storage.db import AnswerRow
from dragonante.interfaces.web.tables.kept_bots import TAKE_BACKS
from tests.web.helpers import LiveServer, Seat, make_table, play
from tests.web.leaks import cards_in_view, hidden_from

THREE = {"players": 3}


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("take_back") / "web.sqlite3"
    live = LiveServer(str(db), Settings(bot_delay=0)).start()
    yield live
    live.stop()


def stored_answers(serve: LiveServer, code: str) -> int:
    engine = create_engine(f"sqlite:///{serve.db}")
    with engine.connect() as c:
        n = c.execute(select(func.count()).where(AnswerRow.table_code == code)).scalar_one()
    engine.dispose()
    return int(n)


def my_turn(seat: Seat, answered: int | None = None) -> dict[str, Any]:
    """The frame asking this seat a question other than ``answered`` (the bots
    answer first)."""

    def mine(m: dict[str, Any] | None) -> bool:
        q = ((m or {}).get("view") or {}).get("question") or {}
        return q.get("seat") == seat.seat and q.get("id") != answered

    seat.drain()
    if mine(seat.last):
        assert seat.last is not None
        return seat.last
    return seat.wait(lambda m: m["type"] in ("state", "update") and mine(m))


def take_back(seat: Seat) -> dict[str, Any]:
    seat.send({"type": "take_back"})
    return seat.wait(lambda m: m["type"] in ("state", "error"))


def test_the_person_takes_back_and_the_same_answer_gives_the_same_game(
    serve: LiveServer,
) -> None:
    with serve.http() as http:
        # random bots: their every answer comes from their random generator
        code, tokens, _ = make_table(http, THREE, ["Ada"], bots=2, level="random")
    me = Seat(serve, code, tokens[0])
    watcher = Seat(serve, code, None)
    table = serve.hub.tables[code]
    rng = random.Random(3)
    # A few of my answers, each one's frame and the game's answers after it.
    done = None
    for _ in range(3):
        asked = my_turn(me, done)
        q = asked["view"]["question"]
        done = q["id"]
        me.send({"type": "answer", "decision": done, "answer": rng.choice(q["options"])})
        me.wait(lambda m, asked_id=done: m.get("ack") == asked_id)
    asked = my_turn(me, done)
    q = asked["view"]["question"]
    n = len(table.answers)
    choice = rng.choice(q["options"])
    me.send({"type": "answer", "decision": q["id"], "answer": choice})
    me.wait(lambda m: m.get("ack") == q["id"])
    after = my_turn(me, q["id"])  # the bots have moved: my next question
    original = list(table.answers)
    assert len(original) > n

    back = take_back(me)
    assert back["type"] == "state", back
    assert back["step"] == n and len(table.answers) == n
    assert back["view"] == asked["view"] and back["answers"] == asked["answers"]
    assert stored_answers(serve, code) == n  # the database forgot them too
    notice = me.wait(lambda m: m["type"] == "notice")
    assert notice["code"] == "taken_back" and "Ada took back" in notice["message"]

    # Every connection got the earlier game as a fresh connection gets it.
    seen = watcher.wait(lambda m: m["type"] == "state")
    fresh_me, fresh_watcher = Seat(serve, code, tokens[0]), Seat(serve, code, None)
    for pushed, fresh in ((back, fresh_me.state), (seen, fresh_watcher.state)):
        assert pushed["view"] == fresh["view"] and pushed["events"] == fresh["events"]
    state = table.state
    assert state is not None
    assert "hand" not in seen["view"] or not seen["view"]["hand"]
    assert not cards_in_view(seen["view"]) & hidden_from(state, None)
    assert not cards_in_view(back["view"]) & hidden_from(state, 0)
    fresh_me.close()
    fresh_watcher.close()

    # The same answer again: the same bots' answers, the same draws.
    me.send({"type": "answer", "decision": q["id"], "answer": choice})
    again = my_turn(me, q["id"])
    assert again["view"] == after["view"] and again["answers"] == after["answers"]
    assert table.answers == original

    # Back twice: to the question before, then to the one before that.
    first = take_back(me)
    assert first["step"] == n
    second = take_back(me)
    assert second["type"] == "state" and second["step"] < n
    assert second["view"]["question"]["seat"] == 0
    me.close()
    watcher.close()


def test_take_back_is_refused_where_it_may_not_be_and_changes_nothing(
    serve: LiveServer,
) -> None:
    with serve.http() as http:
        code, tokens, _ = make_table(http, THREE, ["Bea"], bots=2)
        people, two, _ = make_table(http, THREE, ["Cid", "Dee"], bots=1)
    me = Seat(serve, code, tokens[0])
    refused = take_back(me)  # nothing answered yet
    assert refused["type"] == "error" and refused["code"] == "take_back_none"
    assert "No answer of yours" in refused["message"]
    watcher = Seat(serve, code, None)
    assert take_back(watcher)["code"] == "not_seated"
    watcher.close()

    # Another person at the table has seen what followed: refused.
    cid, dee = Seat(serve, people, two[0]), Seat(serve, people, two[1])
    play([cid, dee], random.Random(5), until_step=6)
    table = serve.hub.tables[people]
    step = len(table.answers)
    for seat in (cid, dee):
        got = take_back(seat)
        assert got["type"] == "error" and got["code"] == "take_back_people"
        assert "another person" in got["message"]
    assert len(table.answers) == step and stored_answers(serve, people) == step
    cid.close()
    dee.close()

    # A finished game has nothing to take back.
    play([me], random.Random(6))
    me.wait_over()
    over = take_back(me)
    assert over["type"] == "error" and over["code"] == "take_back_over"
    me.close()


def test_a_full_view_kept_from_before_a_take_back_is_not_served_after_it(
    serve: LiveServer,
) -> None:
    """The cache of full views (``snapshots.py``) knows a game by its answers'
    count and log length; after a take-back another answer can make a game
    of the same count and length, so a take-back makes every kept view stale."""
    with serve.http() as http:
        code, tokens, _ = make_table(http, THREE, ["Hal"], bots=2)
    me = Seat(serve, code, tokens[0])
    my_turn(me)
    table = serve.hub.tables[code]
    snapshots = serve.hub.snapshots
    first = snapshots.view(table, None, False, "en")
    built = snapshots.built
    assert snapshots.view(table, None, False, "en") == first and snapshots.built == built
    table.taken_back += 1  # what a take-back does, on the event loop's behalf
    assert snapshots.view(table, None, False, "en") == first and snapshots.built == built + 1
    me.close()


def test_only_the_last_questions_are_kept_for_a_take_back(serve: LiveServer) -> None:
    with serve.http() as http:
        code, tokens, _ = make_table(http, {"players": 2}, ["Eve"], bots=1)
    me = Seat(serve, code, tokens[0])
    play([me], random.Random(8))
    table = serve.hub.tables[code]
    assert 0 < len(table.bots_at) <= TAKE_BACKS  # one person's game: kept, and bounded
    me.close()


def test_tables_of_several_people_keep_no_bots(serve: LiveServer) -> None:
    with serve.http() as http:
        code, tokens, _ = make_table(http, THREE, ["Fay", "Gus"], bots=1)
    seats = [Seat(serve, code, tokens[0]), Seat(serve, code, tokens[1])]
    play(seats, random.Random(9), until_step=10)
    assert serve.hub.tables[code].bots_at == {}  # no copies where take-back is refused
    for s in seats:
        s.close()
