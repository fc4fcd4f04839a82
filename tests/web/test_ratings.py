"""Ratings (issue 32, section 5): finished games update each player key's
openskill rating (bots at their level's fixed rating), the leaderboard and a
player's page show them, and ``dragonante ratings rebuild`` gives the same
ratings again from the stored records."""

from __future__ import annotations

import random
import sqlite3
import time

import httpx
import pytest

from dragonante.interfaces.cli import main
from dragonante.interfaces.web.players.ratings import BOT_RATINGS, places, rate, shares
from dragonante.interfaces.web.storage.store import BOT, HUMAN, SeatInfo
from tests.web.helpers import LiveServer, Seat, play

TWO = {"players": 2, "gold_per_player": 8, "ending": {"gambits": 1}}


def test_places_and_shares_follow_the_final_gold():
    assert places([10, 30, 10, 5]) == [2, 1, 2, 4]
    assert shares([1, 2], 1) == 0.5 and shares([1], 0) == 0.0


def test_a_person_beating_a_bot_goes_up_and_the_bot_stays_put():
    seats = {0: SeatInfo(0, "Ann", HUMAN, player_id="pa"), 1: SeatInfo(1, "T", BOT, "medium")}
    [won] = rate({}, seats, [20, 3], [0])
    [lost] = rate({}, seats, [3, 20], [1])
    assert won.mu > 25 > lost.mu and won.place == 1 and lost.place == 2
    assert won.won == 1.0 and lost.won == 0.0
    # beating a stronger level is worth more than beating a weaker one
    easy = {**seats, 1: SeatInfo(1, "T", BOT, "easy")}
    [won_easy] = rate({}, easy, [20, 3], [0])
    assert won.mu > won_easy.mu
    assert BOT_RATINGS["random"] < BOT_RATINGS["easy"] < BOT_RATINGS["medium"]
    assert BOT_RATINGS["medium"] < BOT_RATINGS["hard"]


def test_between_people_the_winner_takes_from_the_loser():
    seats = {
        0: SeatInfo(0, "Ann", HUMAN, player_id="pa"),
        1: SeatInfo(1, "Bob", HUMAN, player_id="pb"),
    }
    ann, bob = rate({"pa": (30.0, 5.0), "pb": (30.0, 5.0)}, seats, [12, 4], [0])
    assert ann.mu > 30 > bob.mu and ann.sigma < 5 and bob.sigma < 5


def keyed(key: str) -> dict[str, str]:
    return {"X-Player-Key": key}


def finished_game(live: LiveServer, http: httpx.Client, keys: list[str | None], seed: int) -> str:
    """A two-person game played to its end (a key per seat, or None: no key)."""
    r = http.post("/api/tables", json={"config": TWO})
    code: str = r.json()["code"]
    host = r.json()["host_token"]
    tokens = []
    for i, key in enumerate(keys):
        r = http.post(
            f"/api/tables/{code}/seats",
            json={"name": ("Ann", "Bob")[i], "seat": i},
            headers=keyed(key) if key else {},
        )
        tokens.append(r.json()["token"])
    started = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
    assert started.status_code == 200
    seats = [Seat(live, code, tok) for tok in tokens]
    play(seats, random.Random(seed))
    for s in seats:
        s.close()
    return code


def test_finished_games_rate_the_keys_and_a_rebuild_gives_the_same(serve, capsys):
    live = serve()
    with live.http() as http:
        ann, ann_id = http.post("/api/players").json().values()
        bob, bob_id = http.post("/api/players").json().values()
        games = [finished_game(live, http, [ann, bob], seed) for seed in (1, 2, 3)]
        finished_game(live, http, [None, None], 4)  # no key: rated nowhere
        board = http.get("/api/leaderboard").json()["players"]
        assert {p["id"] for p in board} == {ann_id, bob_id}
        assert [p["rank"] for p in board] == [1, 2]
        assert board[0]["ordinal"] >= board[1]["ordinal"]
        assert all(p["games"] == 3 for p in board)
        assert sum(p["wins"] for p in board) == pytest.approx(3.0)
        page = http.get(f"/api/players/{ann_id}").json()
        assert page["name"] == "Ann" and len(page["games"]) == 3
        assert [h["code"] for h in page["history"]] == games
        assert page["rating"]["mu"] == page["history"][-1]["mu"]
        assert page["wins"] == sum(1 for g in page["games"] if g["won"])
        assert http.get("/api/players/p0000000000").status_code == 404
        assert http.get("/api/players/nonsense").json()["error"] == "bad_player"
    before = ratings(live.db)
    rebuild(live.db)
    assert "3 games rated, 6 ratings" in capsys.readouterr().out
    assert ratings(live.db) == before  # the same games, the same ratings
    db = sqlite3.connect(live.db)
    db.execute("UPDATE ratings SET mu = 0")  # a damaged table is put right
    db.commit()
    db.close()
    rebuild(live.db)
    assert ratings(live.db) == before


def rebuild(db: str) -> None:
    with pytest.raises(SystemExit) as done:
        main(["ratings", "rebuild", "--db", db])
    assert done.value.code == 0


def ratings(db: str) -> list[tuple[str, float, float, int, float]]:
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT player_id, mu, sigma, games, wins FROM ratings ORDER BY player_id"
    ).fetchall()
    con.close()
    return [(pid, round(mu, 9), round(sigma, 9), n, wins) for pid, mu, sigma, n, wins in rows]


def test_a_game_ended_for_idleness_is_not_rated(serve):
    live = serve(idle_after=0.3, sweep_interval=0.05)
    with live.http() as http:
        key, pid = http.post("/api/players").json().values()
        r = http.post("/api/tables", json={"config": TWO})
        code, host = r.json()["code"], r.json()["host_token"]
        http.post(f"/api/tables/{code}/seats", json={"name": "Ann", "seat": 0}, headers=keyed(key))
        auth = {"Authorization": f"Bearer {host}"}
        http.post(f"/api/tables/{code}/bots", json={"fill": True, "level": "easy"}, headers=auth)
        http.post(f"/api/tables/{code}/start", headers=auth)
        deadline = time.monotonic() + 10
        while http.get(f"/api/tables/{code}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert http.get("/api/leaderboard").json()["players"] == []
        assert http.get(f"/api/players/{pid}").json()["rating"] is None
