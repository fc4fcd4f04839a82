"""The server on PostgreSQL: migrations, a game, a restart, a replay.

Runs when ``DRAGONANTE_TEST_PG_URL`` names a database (``.ci/run`` starts a
local PostgreSQL and sets it); skipped otherwise.
"""

from __future__ import annotations

import os
import random

import pytest
from sqlalchemy import create_engine, inspect

from dragonante.engine.records import digest, record_from_dict, replay
from dragonante.interfaces.web.db import database_url
from tests.web.helpers import LiveServer, Seat, make_table, play

PG_URL = os.environ.get("DRAGONANTE_TEST_PG_URL", "")

pytestmark = pytest.mark.skipif(
    not PG_URL, reason="set DRAGONANTE_TEST_PG_URL=postgresql://... to test PostgreSQL"
)


def test_a_game_on_postgresql_survives_a_restart():
    first = LiveServer(PG_URL).start()
    engine = create_engine(database_url(PG_URL))
    assert {"game_tables", "seats", "answers"} <= set(inspect(engine).get_table_names())
    engine.dispose()
    config = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
    with first.http() as http:
        code, tokens, _host = make_table(http, config, ["Ann", "Bob"], bots=1)
    seats = [Seat(first, code, tok) for tok in tokens]
    play(seats, random.Random(8), until_step=6)
    for s in seats:
        s.close()
    first.stop()  # read the table after the stop: a bot may answer until then
    table = first.hub.tables[code]
    assert table.state is not None
    step, before = len(table.answers), digest(table.state)

    second = LiveServer(PG_URL, port=first.port).start()
    resumed = second.hub.tables[code]
    assert resumed.state is not None
    assert len(resumed.answers) == step and digest(resumed.state) == before
    seats = [Seat(second, code, tok) for tok in tokens]
    play(seats, random.Random(9))
    with second.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
        assert code in [g["code"] for g in http.get("/api/games").json()["games"]]
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    for s in seats:
        s.close()
    second.stop()
