"""D&D abilities at the web table: lobby options, per-seat views, the
information barrier, and the game-master view."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from dragonante.engine.abilities.catalog import ABILITIES, ID
from dragonante.engine.decisions import ABILITY_KINDS
from dragonante.interfaces.web.shared.narration import ability_name
from tests.web.helpers import LiveServer, Seat, make_table, play
from tests.web.leaks import check_ability_frames, check_frames

#: Abilities that trigger often (an ante card of 2 or less, or of 11 or more,
#: the weakest ante card), so ability questions come up in most games.
FIXED = [
    ["fast_hands", "practice_counts", "confusingly_smooth", "threats_and_promises"],
    ["desperation", "versatile_trickster", "inspiring_leader", "gambling_background"],
    ["draconic_ancestry", "cutting_words"],
]
HIDDEN = {
    "players": 3,
    "gold_per_player": 8,
    "ending": {"gambits": 2},
    "abilities": {
        "system": "disks",
        "assign": "fixed",
        "visibility": "hidden",
        "seats": FIXED,
        "ancestry": ["", "", "red"],
    },
}


def create(http: Any, config: dict[str, Any]) -> Any:
    return http.post("/api/tables", json={"config": config})


def test_the_lobby_offers_abilities_and_play_for_fun(server: LiveServer):
    with server.http() as http:
        meta = http.get("/api/meta").json()
        assert meta["abilities"]["systems"] == ["disks", "skills"]
        assert meta["abilities"]["assign"] == ["random", "draft"]
        assert meta["abilities"]["per_character"]["disks"] == {"default": 2, "max": 4}
        assert meta["abilities"]["per_character"]["skills"] == {"default": 1, "max": 3}
        assert meta["play_for_fun_gold"] == 8 and 8 in meta["gold_choices"]
        texts = http.get("/api/abilities").json()
        assert [a["key"] for a in texts] == [a.key for a in ABILITIES]
        assert all(a["name"]["en"] and a["name"]["it"] for a in texts)

        # Play for fun: 8 gold per player, with disks (hidden by the book's default).
        r = create(
            http,
            {
                "players": 4,
                "gold_per_player": 8,
                "abilities": {"system": "disks", "per_character": 3},
            },
        )
        assert r.status_code == 201, r.text
        made = r.json()
        assert made["table"]["starting_gold"] == 32
        assert made["table"]["abilities"] == {
            "system": "disks",
            "assign": "random",
            "per_character": 3,
            "public": False,
        }
        assert made["gm_token"] and made["gm_token"] != made["host_token"]
        listed = {t["code"]: t for t in http.get("/api/tables").json()["open"]}
        assert listed[made["code"]]["abilities"]["system"] == "disks"

        # Public special abilities: no secret, so no game-master token.
        r = create(http, {"abilities": {"system": "skills", "assign": "draft"}})
        assert r.status_code == 201 and "gm_token" not in r.json()
        assert r.json()["table"]["abilities"]["public"] is True
        # No abilities: the listing says so with null.
        r = create(http, {"players": 3})
        assert r.json()["table"]["abilities"] is None and "gm_token" not in r.json()


def test_bad_ability_combinations_are_clear_errors(server: LiveServer):
    bad = [
        ({"system": "magic"}, "unknown abilities.system"),
        ({"system": "disks", "per_character": 5}, "1-4"),
        ({"system": "skills", "per_character": 4}, "1-3"),
        ({"system": "disks", "visibility": "secret"}, "hidden"),
        ({"system": "disks", "assign": "lottery"}, "assign"),
        ({"assign": "draft"}, "system"),
        ({"system": "disks", "per_character": "two"}, "integer"),
        ({"system": "skills", "per_character": 3}, "special abilities are needed"),
        ({"system": "disks", "assign": "fixed"}, "needs abilities.seats"),
        ({"system": "disks", "assign": "fixed", "seats": [["bluff"]]}, "Emperor's Gambit"),
        ("disks", "must be an object"),
    ]
    with server.http() as http:
        for abilities, words in bad:
            r = create(http, {"players": 6, "abilities": abilities})
            assert r.status_code == 400, (abilities, r.text)
            body = r.json()
            assert body["error"] == "bad_config" and words in body["detail"], (abilities, body)


def test_hidden_abilities_never_reach_another_seat(server: LiveServer):
    names = [ability_name(a.id, "en") for a in ABILITIES]
    with server.http() as http:
        r = create(http, HIDDEN)
        assert r.status_code == 201, r.text
        code, host, gm = r.json()["code"], r.json()["host_token"], r.json()["gm_token"]
        # The creation answer and the public table summary hide every list.
        hidden = [["random"] * len(keys) for keys in FIXED]
        assert r.json()["table"]["config"]["abilities"]["seats"] == hidden
        public = http.get(f"/api/tables/{code}").json()
        assert public["config"]["abilities"]["seats"] == hidden
        assert public["config"]["abilities"]["ancestry"] == ["", "", ""]
        tokens = []
        for i, name in enumerate(["Ann", "Bob"]):
            r = http.post(f"/api/tables/{code}/seats", json={"name": name, "seat": i})
            tokens.append(r.json()["token"])
        http.post(
            f"/api/tables/{code}/bots",
            json={"fill": True, "level": "random"},
            headers={"Authorization": f"Bearer {host}"},
        )
        ann, bob = Seat(server, code, tokens[0]), Seat(server, code, tokens[1])
        watcher = Seat(server, code, None)
        master = Seat(server, code, gm)
        assert master.welcome.get("gm") is True and master.seat is None
        # Each seat's config: its own list, the others as "random".
        ann_cfg = ann.state["table"]["config"]["abilities"]
        assert ann_cfg["seats"] == [FIXED[0], *hidden[1:]]
        assert master.state["table"]["config"]["abilities"]["seats"] == FIXED
        r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
        assert r.status_code == 200
        play([ann, bob], random.Random(11))
        for s in (ann, bob, watcher, master):
            s.wait_over()
        record = http.get(f"/api/games/{code}/record").json()
    assert record["config"]["abilities"]["seats"] == FIXED  # the game is over: all public
    for seat, s in ((0, ann), (1, bob), (None, watcher)):
        assert check_frames(record, seat, s.frames) > 5
        assert check_ability_frames(record, seat, s.frames, names) > 5
    # Seats see their own abilities from the first view; spectators only counts.
    first = next(f for f in ann.frames if "view" in f)["view"]["abilities"]
    assert first["held"][0] == [ID[k] for k in FIXED[0]] and first["counts"] == [4, 4, 2]
    assert first["disks"] == ["ready"] * 3
    first = next(f for f in watcher.frames if "view" in f)["view"]["abilities"]
    assert first["held"] == [[], [], []] and first["ancestry"] == [None, None, None]
    # A question about a hidden ability reads "private" to the others.
    kinds = {
        f["view"]["question"]["kind"] for f in watcher.frames if f.get("view", {}).get("question")
    }
    assert not kinds & ABILITY_KINDS
    asked = {f["view"]["question"]["kind"] for f in ann.frames + bob.frames if f.get("answers")}
    if asked & ABILITY_KINDS:  # the seed is the server's: usually, not always
        assert "private" in kinds
        prompts = [f for f in ann.frames + bob.frames if f.get("answers")]
        uses = [f for f in prompts if f["view"]["question"]["kind"] == "use_ability"]
        assert all(a.get("detail") for f in uses for a in f["answers"] if a["value"] >= 0)
    used = [e for f in watcher.frames for e in f.get("events", []) if e["kind"] == "ability_used"]
    assert all(e["text"] for e in used)
    # The game-master sees every ability and the ancestry, never a hand.
    views = [f for f in master.frames if "view" in f]
    assert views
    for f in views:
        v = f["view"]
        assert v["hand"] is None and f["answers"] == [] and f["hints"] == []
        assert v["abilities"]["held"] == [[ID[k] for k in keys] for keys in FIXED]
        assert v["abilities"]["ancestry"][2] == "red"
        assert v["known_in_hands"] == {} and v["private_look"] == []
    assert check_frames(record, None, master.frames) > 5
    # The checker itself catches a leak: the game-master's first view sent to a spectator.
    doctored = copy.deepcopy(views[0])
    with pytest.raises(AssertionError):
        check_ability_frames(record, None, [doctored], names)
    raw = {"type": "table", "table": {"status": "playing", "config": record["config"]}}
    with pytest.raises(AssertionError):
        check_ability_frames(record, 1, [raw], names)
    for s in (ann, bob, watcher, master):
        s.close()


def test_the_gm_token_is_only_a_gm_token_and_replays_show_all_when_over(server: LiveServer):
    config = {**HIDDEN, "ending": {"gambits": 1}}
    with server.http() as http:
        r = create(http, config)
        code, host, gm = r.json()["code"], r.json()["host_token"], r.json()["gm_token"]
        # The game-master token manages nothing and sits nowhere.
        r = http.post(
            f"/api/tables/{code}/bots",
            json={"fill": True, "level": "random"},
            headers={"Authorization": f"Bearer {gm}"},
        )
        assert r.status_code == 403
        r = http.post(
            f"/api/tables/{code}/bots",
            json={"fill": True, "level": "random"},
            headers={"Authorization": f"Bearer {host}"},
        )
        master = Seat(server, code, gm)
        master.send({"type": "answer", "decision": 0, "answer": 0})
        assert master.wait(lambda m: m["type"] == "error")["code"] in ("not_seated", "not_started")
        http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
        master.wait_over()
        master.close()
        total = http.get(f"/api/games/{code}/replay?step=0").json()["total"]
        spectator = http.get(f"/api/games/{code}/replay?step={total}").json()
        shown = http.get(f"/api/games/{code}/replay?step={total}&gm=1").json()
    assert shown["gm"] is True and shown["view"]["hand"] is None
    assert shown["view"]["abilities"]["held"] == [[ID[k] for k in keys] for keys in FIXED]
    assert spectator["gm"] is False
    # Made with a random bot and one gambit: whatever was not used stays hidden.
    held = spectator["view"]["abilities"]["held"]
    assert all(len(h) <= len(keys) for h, keys in zip(held, FIXED, strict=True))


def test_a_table_without_abilities_is_unchanged(server: LiveServer):
    with server.http() as http:
        code, _tokens, _host = make_table(
            http, {"players": 2, "ending": {"gambits": 1}}, [], bots=2
        )
        seat = Seat(server, code, None)
        assert seat.state["table"]["abilities"] is None
        assert "abilities" not in seat.state["table"]["config"]
        seat.wait_over()
        assert seat.last is not None and seat.last["view"]["abilities"] is None
        seat.close()
