"""The web table's gambit history and rules primer (issue 31 §4), without a browser.

Every view frame carries ``history``: the shared ``gambit_history`` of that
seat's own events, worded in the connection's language; ``GET /api/primer``
gives the catalogues' primer, and refuses an unknown language cleanly.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

from dragonante.engine.game import apply
from dragonante.interfaces import primer
from dragonante.interfaces.gambit_history import gambit_history, history_dict
from dragonante.interfaces.narrate import Narrator
from dragonante.interfaces.web.storage.store import HUMAN, PLAYING, SeatInfo, StoredTable
from dragonante.interfaces.web.tables.live import LiveTable, seat_view
from tests.web.helpers import LiveServer

NAMES = ["Ann", "Bo", "Cy"]


def _table() -> LiveTable:
    stored = StoredTable(
        code="HISTRY",
        config={"players": 3},
        seed=4,
        status=PLAYING,
        created_at=datetime(2024, 1, 1, tzinfo=UTC),
        seats={p: SeatInfo(p, NAMES[p], HUMAN) for p in range(3)},
    )
    return LiveTable(stored)


def test_every_view_carries_the_seats_own_gambit_history() -> None:
    table = _table()
    s = table.state
    assert s is not None and s.log is not None
    rng = random.Random(1)
    for _ in range(400):
        if s.pending is None:
            break
        apply(s, rng.choice(s.pending.options))
        if len([e for e in s.log if e[1] == "round_end"]) >= 2:
            break
    for seat, lang in ((0, "en"), (1, "it"), (None, "en")):
        frame = seat_view(table, s, seat, lang, 0)
        narrator = Narrator(NAMES, lang, seat, s.config.rules.debt_model)
        assert frame["history"] == history_dict(gambit_history(s.log, seat), narrator)
        assert frame["history"]["rounds"], frame["history"]
        json.dumps(frame)  # a JSON value, as sent
    first = seat_view(table, s, 0, "en", 0)["history"]
    assert first["title"].startswith("Gambit ") and first["ante"].startswith("Ante: ")
    assert first["rounds"][0]["title"].startswith("Round 1, led by")
    assert any(line.startswith("You: ") for r in first["rounds"] for line in r["lines"])
    # a game-master's view: the public events only
    gm = seat_view(table, s, None, "en", 0, gm=True)["history"]
    assert gm == history_dict(gambit_history(s.log, None), Narrator(NAMES, "en", None))


def test_the_primer_api_in_both_languages_and_a_bad_one(server: LiveServer) -> None:
    with server.http() as http:
        for lang in ("en", "it"):
            r = http.get(f"/api/primer?lang={lang}")
            assert r.status_code == 200
            body = r.json()
            assert body == json.loads(json.dumps(primer.primer_dict(lang)))
            assert [s["id"] for s in body["sections"]] == list(primer.SECTIONS)
            assert body["sections"][5]["key"] == "primer.trigger"
        assert http.get("/api/primer").json()["lang"] == "en"
        bad = http.get("/api/primer?lang=xx<script>")
        assert bad.status_code == 400
        assert bad.json()["error"] == "bad_param" and "Traceback" not in bad.text


def test_the_online_terminal_table_draws_the_same_history_as_the_browser() -> None:
    """``play --join``: the remote seat folds the events the server sent it."""
    from dragonante.interfaces.gambit_history import history_lines
    from dragonante.interfaces.tui.remote import RemoteSeat

    table = _table()
    s = table.state
    assert s is not None and s.log is not None
    rng = random.Random(2)
    for _ in range(40):
        if s.pending is None:
            break
        apply(s, rng.choice(s.pending.options))
    for seat in range(3):
        frame = json.loads(json.dumps(seat_view(table, s, seat, "en", 0)))
        remote = RemoteSeat("en")
        remote.welcome({"seat": seat})
        remote.apply({"type": "state", **frame})
        narrator = Narrator(NAMES, "en", me=seat)
        snap = remote.snapshot(narrator)
        assert snap is not None and snap.history is not None
        assert snap.history == gambit_history(s.log, seat)
        assert history_lines(snap.history, narrator)[0] == frame["history"]["title"]


def test_an_update_that_changes_nothing_in_the_history_does_not_resend_it() -> None:
    table = _table()
    s = table.state
    assert s is not None and s.log is not None
    assert seat_view(table, s, 0, "en", len(s.log))["history"] is None  # nothing new
    assert seat_view(table, s, 0, "en", 0)["history"] is not None  # a full state
    before = len(s.log)
    while s.pending is not None and not any(e[1] == "play" for e in s.log[before:]):
        apply(s, s.pending.options[0])
    assert seat_view(table, s, 0, "en", before)["history"]["rounds"]
