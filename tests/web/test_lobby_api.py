"""The lobby over HTTP: create a table, take seats, add bots, start; every refusal
is a clear JSON error and changes nothing."""

from __future__ import annotations

import pytest

from dragonante.interfaces.cli import main
from dragonante.interfaces.web.http.routes.info import meta
from dragonante.interfaces.web.hub import Settings
from tests.web.helpers import LiveServer, make_table

SMALL = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_pages_meta_and_cards(server: LiveServer):
    with server.http() as http:
        for path in ("/", "/t/ABCDEF", "/r/ABCDEF"):
            r = http.get(path)
            assert r.status_code == 200 and "<main" in r.text
            assert "default-src 'self'" in r.headers["content-security-policy"]
        assert http.get("/static/js/main.js").status_code == 200
        meta = http.get("/api/meta").json()
        assert "legendary" in meta["rulesets"] and "eg_full" in meta["presets"]
        assert "random" in meta["bots"] and meta["levels"]
        assert meta["defaults"] == {
            "ruleset": "legendary",
            "preset": "legendary",
            "abilities": "",
            "ability_visibility": "",
            "bot_level": "medium",
        }
        cards = http.get("/api/cards").json()
        red = next(c for c in cards if c["id"] == "L-std-red-12")
        assert red["name"] == {"en": "Red Dragon", "it": "Drago Rosso"}
        assert red["strength"] == 12 and red["power"]["it"]


def test_create_table_checks_the_config(server: LiveServer):
    with server.http() as http:
        for config, words in [
            ({"players": 7}, "players must be 2-6"),
            ({"rules": {"ruleset": "house"}}, "unknown ruleset"),
            ({"deck": {"preset": "nope"}}, "unknown deck preset"),
            ({"colour": "red"}, "unknown config option"),
            ({"ending": {"series_games": 3}}, "series"),
            ({"gold_per_player": "lots"}, "must be an integer"),
            ("four players", "config must be an object"),
        ]:
            r = http.post("/api/tables", json={"config": config})
            assert r.status_code == 400, config
            assert r.json()["error"] == "bad_config" and words in r.json()["detail"]
        r = http.post(
            "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert r.status_code == 400 and r.json()["error"] == "malformed"
        r = http.post("/api/tables", content=b"x" * 20000)
        assert r.status_code == 413
        before = http.get("/api/tables").json()
        assert before == http.get("/api/tables").json()


def test_seats_bots_and_start(server: LiveServer):
    with server.http() as http:
        r = http.post("/api/tables", json={"config": SMALL})
        assert r.status_code == 201
        code, host = r.json()["code"], r.json()["host_token"]
        assert len(code) == 6 and code.isalnum()
        assert code in [t["code"] for t in http.get("/api/tables").json()["open"]]

        ann = http.post(f"/api/tables/{code}/seats", json={"name": "  Ann  "}).json()
        assert ann["seat"] == 0
        for body, err in [
            ({"name": ""}, "bad_name"),
            ({"name": "x" * 25}, "bad_name"),
            ({"name": "ann"}, "bad_name"),  # someone is already called Ann
            ({"name": "Bob\u0000"}, "bad_name"),
            ({"name": "Bob", "seat": 0}, "taken"),
            ({"name": "Bob", "seat": 9}, "bad_seat"),
            ({"name": "Bob", "seat": "1"}, "bad_seat"),
        ]:
            r = http.post(f"/api/tables/{code}/seats", json=body)
            assert r.status_code in (400, 409) and r.json()["error"] == err, body

        # Only the host manages the table: not a stranger, not a seated player.
        r = http.post(f"/api/tables/{code}/bots", json={"level": "random", "seat": 1})
        assert r.status_code == 403
        r = http.post(
            f"/api/tables/{code}/bots", json={"level": "grandmaster", "seat": 1}, headers=auth(host)
        )
        assert r.status_code == 400 and "choose from" in r.json()["detail"]
        r = http.post(f"/api/tables/{code}/start", headers=auth(host))
        assert r.status_code == 409 and r.json()["error"] == "seats_free"

        r = http.post(
            f"/api/tables/{code}/bots",
            json={"level": "random", "seat": 1},
            headers=auth(ann["token"]),
        )
        assert r.status_code == 403
        r = http.post(
            f"/api/tables/{code}/bots", json={"level": "random", "seat": 1}, headers=auth(host)
        )
        assert r.json() == {"seats": [1]}
        # A person's seat is freed by its player or by the host, never by another
        # seated player; a bot's by the host.
        r = http.post(f"/api/tables/{code}/seats", json={"name": "Bob", "seat": 2})
        assert r.status_code == 201
        r = http.delete(f"/api/tables/{code}/seats/2", headers=auth(ann["token"]))
        assert r.status_code == 403
        assert http.delete(f"/api/tables/{code}/seats/2", headers=auth(host)).status_code == 200
        assert http.delete(f"/api/tables/{code}/seats/1", headers=auth(host)).status_code == 200
        r = http.post(
            f"/api/tables/{code}/bots", json={"level": "random", "fill": True}, headers=auth(host)
        )
        assert r.json() == {"seats": [1, 2]}
        summary = http.get(f"/api/tables/{code}").json()
        assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "bot"]
        assert "token" not in str(summary) and "seed" not in summary

        r = http.post(f"/api/tables/{code}/start", headers=auth(ann["token"]))
        assert r.status_code == 403
        r = http.post(f"/api/tables/{code}/start", headers=auth(host))
        assert r.status_code == 200
        assert http.get(f"/api/tables/{code}").json()["status"] == "playing"
        r = http.post(f"/api/tables/{code}/seats", json={"name": "Late"})
        assert r.status_code == 409 and r.json()["error"] == "started"
        r = http.post(f"/api/tables/{code}/start", headers=auth(host))
        assert r.status_code == 409
        # No record or replay while the game runs: the seed would reveal the deck.
        assert http.get(f"/api/games/{code}/record").status_code == 409
        assert http.get(f"/api/games/{code}/replay").status_code == 409


def test_unknown_tables_and_bad_parameters(server: LiveServer):
    with server.http() as http:
        assert http.get("/api/tables/ZZZZZZ").status_code == 404
        assert http.get("/api/tables/ZZZZZZ").json()["error"] == "unknown_table"
        assert http.post("/api/tables/ZZZZZZ/seats", json={"name": "A"}).status_code == 404
        assert http.get("/api/games?limit=0").status_code == 400
        assert http.get("/api/games?limit=abc").status_code == 400
        code, _tokens, _host = make_table(http, SMALL, ["Ann"], bots=2, start=False)
        assert http.get(f"/api/games/{code}/replay?step=x").status_code == 400


def test_serve_sets_the_lobby_defaults():
    eg = meta(Settings(default_ruleset="emperors_gambit", default_preset="evil_times"))
    assert eg["defaults"]["ruleset"] == "emperors_gambit"
    assert eg["defaults"]["preset"] == "evil_times"
    assert eg["defaults"]["abilities"] == ""


def test_serve_refuses_an_unknown_default_in_one_line(capsys: pytest.CaptureFixture[str]):
    for args, words in (
        (["serve", "--deck", "tarot"], "unknown deck 'tarot'"),
        (["serve", "--ruleset", "poker"], "unknown ruleset 'poker'"),
    ):
        with pytest.raises(SystemExit) as info:
            main(args)
        err = capsys.readouterr().err.strip().splitlines()
        assert info.value.code == 2 and len(err) == 1 and words in err[0]


def test_serve_sets_the_lobby_ability_defaults():
    settings = Settings()
    for name, value in (("default_abilities", "disks"), ("default_ability_visibility", "public")):
        if hasattr(settings, name):
            setattr(settings, name, value)
            assert meta(settings)["defaults"][name.removeprefix("default_")] == value


def test_every_rule_switch_is_offered_and_labelled():
    """Issue 21, deviation 15: every optional rule is settable where games are set up,
    the "hole in the house" (Legendary: 'Any gold paid into the hole goes to the
    house') included; each switch and choice has a label in both languages."""
    import json
    from dataclasses import fields
    from pathlib import Path

    import dragonante.interfaces.web as web
    from dragonante.engine.config import Rules

    m = meta()
    keys = [sw["key"] for sw in m["rule_switches"]]
    assert keys == [f.name for f in fields(Rules) if f.name != "ruleset"]
    hole = next(sw for sw in m["rule_switches"] if sw["key"] == "hole_recipient")
    assert hole["choices"] == ["game_winner", "house"]
    assert m["ruleset_rules"]["original"]["starting_hoard"] == 50
    static = Path(web.__file__).parent / "static" / "i18n"
    for lang in ("en", "it"):
        catalog = json.loads((static / f"{lang}.json").read_text(encoding="utf-8"))
        for sw in m["rule_switches"]:
            assert f"rule.{sw['key']}" in catalog, (lang, sw["key"])
            for choice in sw.get("choices", []):
                assert f"rule.{sw['key']}.{choice}" in catalog, (lang, sw["key"], choice)
        for key in (
            "lobby.rules",
            "lobby.rules_help",
            "lobby.special_count",
            "lobby.original_six_cards",
        ):
            assert key in catalog


def test_a_table_with_the_hole_in_the_house_and_other_switches(server: LiveServer):
    config = {
        **SMALL,
        "rules": {"ruleset": "emperors_gambit", "hole_recipient": "house", "min_rounds": 4},
        "deck": {"special_count": 12},
    }
    with server.http() as http:
        r = http.post("/api/tables", json={"config": config})
        assert r.status_code == 201, r.text
        theme = {"preset": "oddshuffle", "original_colors_six_cards": True}
        r = http.post("/api/tables", json={"config": {**SMALL, "deck": theme}})
        assert r.status_code == 201, r.text
        r = http.post("/api/tables", json={"config": {**config, "rules": {"ante_redo": "x"}}})
        assert r.status_code == 400 and "ante_redo is one of" in r.json()["detail"]
        r = http.post(
            "/api/tables",
            json={"config": {**SMALL, "deck": {"selection": "traditional", "special_count": 8}}},
        )
        assert r.status_code == 400 and "special_count must be 10" in r.json()["detail"]
