"""Long games, like Board Game Arena's turn-based mode (issue 32, section 4):
a turn timer of hours or days, an idle timeout and an away time to match,
and a clock that counts the time a decision waited across a restart."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from dragonante.interfaces.web.hub import Settings
from dragonante.interfaces.web.tables.turns import IDLE_TURNS, RESUME_GRACE, TURN_MAX, idle_limit
from tests.web.helpers import LiveServer, Seat

SMALL = {"players": 2, "gold_per_player": 8, "ending": {"gambits": 1}}
DAY = 86400


def until(pred: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.02)


def table_with(live: LiveServer, turn: float | None, people: int = 1) -> tuple[str, list[str]]:
    """A started two-seat table: ``people`` persons, then a bot."""
    with live.http() as http:
        body: dict[str, object] = {"config": SMALL}
        if turn is not None:
            body["turn_seconds"] = turn
        r = http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        code, host = r.json()["code"], r.json()["host_token"]
        tokens = [
            http.post(f"/api/tables/{code}/seats", json={"name": n, "seat": i}).json()["token"]
            for i, n in enumerate(("Ann", "Bob")[:people])
        ]
        auth = {"Authorization": f"Bearer {host}"}
        if people < 2:
            http.post(
                f"/api/tables/{code}/bots", json={"fill": True, "level": "random"}, headers=auth
            )
        assert http.post(f"/api/tables/{code}/start", headers=auth).status_code == 200
    return code, tokens


def test_a_turn_timer_may_be_days_long():
    assert TURN_MAX == 14 * DAY


def test_the_server_takes_timers_of_hours_and_days(serve):
    live = serve()
    with live.http() as http:
        for ok in (2 * 3600, 3 * DAY, TURN_MAX):
            r = http.post("/api/tables", json={"config": SMALL, "turn_seconds": ok})
            assert r.status_code == 201 and r.json()["table"]["turn_seconds"] == ok
        r = http.post("/api/tables", json={"config": SMALL, "turn_seconds": TURN_MAX + 1})
        assert r.status_code == 400 and "1209600" in r.json()["detail"]
        assert http.get("/api/meta").json()["turn_timer"]["max"] == TURN_MAX


def test_the_idle_timeout_matches_a_long_turn_timer():
    assert idle_limit(3600, None) == 3600
    assert idle_limit(3600, 60) == 3600
    assert idle_limit(3600, DAY) == IDLE_TURNS * DAY
    assert idle_limit(0, DAY) == 0  # --idle-timeout 0: never


def test_a_table_of_a_move_a_day_is_not_ended_as_idle_after_the_servers_timeout(serve):
    live = serve(idle_after=0.5, sweep_interval=0.05, turn_min=0.1)
    short, _ = table_with(live, None)
    long, _ = table_with(live, DAY)
    until(lambda: short not in live.hub.tables or live.hub.tables[short].status == "finished")
    time.sleep(0.3)  # several more sweeps
    assert live.hub.tables[long].status == "playing"
    # the long table's own limit passes: it ends too
    live.hub.tables[long].acted -= IDLE_TURNS * DAY
    until(lambda: long not in live.hub.tables or live.hub.tables[long].status == "finished")


def test_a_person_of_a_turn_based_game_is_not_away_before_their_turn_is_up(serve):
    """Away after ``away_after`` at an ordinary table; after a whole turn at a
    table with a long timer, so nobody hands their seat to a bot overnight."""
    live = serve(away_after=0.1, sweep_interval=0.05)
    quick, _ = table_with(live, None)
    slow, _ = table_with(live, 2 * 3600)
    assert live.hub.tables[quick].away_after == 0.1
    assert live.hub.tables[slow].away_after == 2 * 3600
    until(lambda: live.hub.tables[quick].away_seats(time.monotonic()) == [0])
    assert live.hub.tables[slow].away_seats(time.monotonic()) == []


def turn_left(live: LiveServer, code: str, token: str) -> float:
    seat = Seat(live, code, token)
    frame = seat.wait(lambda m: m["type"] == "turn")
    seat.close()
    left: float = frame["seconds"]
    return left


def test_a_decision_keeps_the_time_it_waited_across_a_restart(serve, tmp_path):
    """An hour's timer: the ante has waited 30 minutes when the server stops;
    after the restart it has 30 minutes left, not a fresh hour.  One that
    waited 59 minutes gets the grace minute, not an instant bot."""
    live = serve()
    half, half_tokens = table_with(live, 3600, people=2)
    most, most_tokens = table_with(live, 3600, people=2)
    assert turn_left(live, half, half_tokens[0]) > 3590  # a fresh clock before
    live.stop()
    db = sqlite3.connect(live.db)
    for code, ago in ((half, 30 * 60), (most, 59 * 60)):
        at = (datetime.now(UTC) - timedelta(seconds=ago)).isoformat(" ")
        db.execute("UPDATE game_tables SET started_at = ? WHERE code = ?", (at, code))
    db.commit()
    db.close()
    again = LiveServer(live.db, Settings(bot_delay=0))
    again.start()
    try:
        assert 1790 <= turn_left(again, half, half_tokens[0]) <= 1801
        assert RESUME_GRACE - 10 <= turn_left(again, most, most_tokens[1]) <= RESUME_GRACE
    finally:
        again.stop()
