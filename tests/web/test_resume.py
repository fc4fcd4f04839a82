"""Nothing lost: a restarted server resumes every table exactly where it was."""

from __future__ import annotations

import json
import random
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, text

from dragonante.engine.config import config_from_dict
from dragonante.engine.game import apply, call_last_gambit, new_game
from dragonante.engine.records import digest, record_from_dict, replay
from dragonante.interfaces.table_record import read_seating
from dragonante.interfaces.web.hub import Settings
from dragonante.interfaces.web.storage.db import database_url
from dragonante.interfaces.web.tables.live import replay_state
from tests.web.helpers import LiveServer, Seat, make_table, play

CONFIG = {"players": 4, "gold_per_player": 8, "ending": {"gambits": 2}}


def test_a_restart_resumes_people_and_bots_where_they_were(tmp_path: Path):
    db = str(tmp_path / "web.sqlite3")
    first = LiveServer(db).start()
    with first.http() as http:
        code, tokens, _host = make_table(http, CONFIG, ["Ann", "Bob"], bots=2)
    ann, bob = Seat(first, code, tokens[0]), Seat(first, code, tokens[1])
    play([ann, bob], random.Random(1), until_step=12)
    ann.close()
    bob.close()
    first.stop()  # read the table after the stop: a bot may answer until then
    table = first.hub.tables[code]
    assert table.state is not None
    step, before = len(table.answers), digest(table.state)
    pending = table.state.pending
    assert pending is not None

    second = LiveServer(db, port=first.port).start()
    resumed = second.hub.tables[code]
    assert resumed.state is not None
    assert len(resumed.answers) == step
    assert digest(resumed.state) == before
    assert resumed.state.pending is not None and resumed.state.pending.id == pending.id
    ann, bob = Seat(second, code, tokens[0]), Seat(second, code, tokens[1])
    assert ann.state["step"] == step and ann.state["view"]["hand"] == resumed.state.hands[0]
    play([ann, bob], random.Random(2))
    with second.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
    assert len(record["answers"]) > step
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    seating = read_seating(json.dumps(record), 4)
    assert seating is not None and seating.humans == (0, 1) and set(seating.bots) == {2, 3}
    assert seating.names[:2] == ("Ann", "Bob")
    ann.close()
    bob.close()
    second.stop()


def test_an_all_bot_table_keeps_playing_after_a_restart(tmp_path: Path):
    db = str(tmp_path / "web.sqlite3")
    slow = Settings(bot_delay=0.01)
    first = LiveServer(db, slow).start()
    with first.http() as http:
        code, _tokens, _host = make_table(http, CONFIG, [], bots=4)
    while len(first.hub.tables[code].answers) < 10:
        time.sleep(0.01)
    first.stop()
    step = len(first.hub.tables[code].answers)
    second = LiveServer(db, slow, port=first.port).start()
    table = second.hub.tables[code]
    assert len(table.answers) >= step
    deadline = time.monotonic() + 60
    while table.status != "finished" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert table.status == "finished" and len(table.answers) > step
    second.stop()


def test_an_open_table_survives_a_restart(tmp_path: Path):
    db = str(tmp_path / "web.sqlite3")
    first = LiveServer(db).start()
    with first.http() as http:
        code, _tokens, _host = make_table(http, CONFIG, [], bots=4, start=False)
    first.stop()
    second = LiveServer(db, port=first.port).start()
    assert second.hub.tables[code].status == "open"
    with second.http() as http:
        host_less = http.post(f"/api/tables/{code}/start")
        assert host_less.status_code == 403
    table = second.hub.tables[code]
    second.stop()
    assert table.status == "open"


def test_the_time_limit_call_is_stored_and_replayed(tmp_path: Path):
    db = str(tmp_path / "web.sqlite3")
    config = {"players": 3, "gold_per_player": 10, "ending": {"time_limit_minutes": 5}}
    first = LiveServer(db).start()
    with first.http() as http:
        code, tokens, _host = make_table(http, config, ["Ann", "Bob", "Cid"])
    seats = [Seat(first, code, tok) for tok in tokens]
    play(seats, random.Random(3), until_step=4)
    for s in seats:
        s.close()
    first.stop()
    # Pretend the game started long ago: on resume the time is up at once.
    engine = create_engine(database_url(db))
    with engine.begin() as c:
        c.execute(
            text("UPDATE game_tables SET started_at = :t WHERE code = :c"),
            {"t": datetime.now(UTC) - timedelta(minutes=10), "c": code},
        )
    engine.dispose()
    second = LiveServer(db, port=first.port).start()
    table = second.hub.tables[code]
    deadline = time.monotonic() + 10
    while table.last_gambit_at is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert table.last_gambit_at is not None
    assert table.state is not None and table.state.last_gambit
    called = digest(table.state)
    second.stop()
    third = LiveServer(db, port=first.port).start()
    again = third.hub.tables[code]
    assert again.state is not None and digest(again.state) == called
    # Played to its end, the game's record replays from the command line: the
    # time-limit call at the same answer, the players by their names.
    seats = [Seat(third, code, tok) for tok in tokens]
    play(seats, random.Random(5))
    for s in seats:
        s.wait_over()
    with third.http() as http:
        data = http.get(f"/api/games/{code}/record").json()
    assert data["last_gambit_called_after"] == again.last_gambit_at is not None
    record = record_from_dict(data)
    assert digest(replay(record)) == data["final_digest"]
    seating = read_seating(json.dumps(data), 3)
    assert seating is not None and seating.names == ("Ann", "Bob", "Cid")
    assert seating.humans == (0, 1, 2) and seating.bots == {}
    for s in seats:
        s.close()
    third.stop()


def test_replay_state_makes_the_time_limit_call_at_the_same_point():
    config = config_from_dict({"players": 3, "ending": {"time_limit_minutes": 1}})
    live = new_game(config, 11)
    answers = []
    rng = random.Random(4)
    for i in range(40):
        if i == 17:
            call_last_gambit(live)
        assert live.pending is not None
        a = rng.choice(live.pending.options)
        apply(live, a)
        answers.append(a)
    assert digest(replay_state(config, 11, answers, 17)) == digest(live)
    assert digest(replay_state(config, 11, answers, None)) != digest(live)
