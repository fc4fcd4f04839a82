"""Player keys and ratings in Debian's Chromium (issue 32, sections 4 and 5),
with two and three people.

What only real pages show: the browser makes its key on the first visit and
sits down with it; the personal link opened on a new device takes the key
out of the address bar and puts its person back in their seat, not among
the spectators; My games says whose turn it is; the host hands a lost key's
seat to the person's new key; the leaderboard and a player's page after a
finished game.  No key is in any frame another page receives, nor in any
address a page asks for.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import CHROMIUM, ServerProcess, record_frames
from tests.web.test_browser import new_page, over, play_until

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")

WIDE = {"width": 1280, "height": 900}
TWO = {"players": 2, "gold_per_player": 8, "ending": {"gambits": 1}}
THREE = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}


def watch_urls(page: Any) -> list[str]:
    """Every address the page asks the server for (navigations, fetches, sockets)."""
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


def key_of(page: Any) -> str:
    key = page.evaluate("localStorage.getItem('dragonante.player.key')")
    assert isinstance(key, str) and len(key) == 43, key
    return key


def sit_down(page: Any, base: str, code: str, name: str) -> None:
    """Take the first free seat on the table page, as a person does."""
    page.goto(f"{base}/t/{code}")
    page.wait_for_selector("#seating")
    page.fill(".seat-row.free .seat-name >> nth=0", name)
    page.click(".seat-row.free .sit button >> nth=0")
    page.wait_for_selector("#playing-as")


def game_line(page: Any, code: str) -> Any:
    """My games' line of table ``code``."""
    return page.locator(f'#my-games .my-game[data-code="{code}"]')


def welcomed_seat(frames: list[dict[str, Any]]) -> Any:
    return [f["seat"] for f in frames if f.get("type") == "welcome"][-1]


def new_table(server: ServerProcess, config: dict[str, Any]) -> tuple[str, str]:
    with server.http() as http:
        r = http.post("/api/tables", json={"config": config})
        return r.json()["code"], r.json()["host_token"]


def start(server: ServerProcess, code: str, host: str) -> None:
    with server.http() as http:
        r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
        assert r.status_code == 200, r.text


def test_a_new_device_puts_you_back_in_your_seat_and_my_games_shows_whose_turn(
    browser: Any, tmp_path: Path
):
    server = ServerProcess(tmp_path / "keys.sqlite3").start()
    try:
        errors: list[str] = []
        ann, bob = new_page(browser, errors, WIDE), new_page(browser, errors, WIDE)
        urls = {"ann": watch_urls(ann), "bob": watch_urls(bob)}
        bob_frames = record_frames(bob)
        code, host = new_table(server, TWO)
        sit_down(ann, server.base, code, "Ann")
        sit_down(bob, server.base, code, "Bob")
        ann_key, bob_key = key_of(ann), key_of(bob)
        assert ann_key != bob_key
        start(server, code, host)
        ann.wait_for_selector("#question .answer")

        # Ann's phone: a fresh browser opens her personal link.
        phone = new_page(browser, errors)
        urls["phone"] = watch_urls(phone)
        phone_frames = record_frames(phone)
        phone.goto(f"{server.base}/me#key={ann_key}")
        phone.wait_for_selector("#my-games .my-game")
        assert phone.url == f"{server.base}/me"  # the key left the address bar at once
        assert key_of(phone) == ann_key
        line = game_line(phone, code)
        expect(line).to_contain_text("your turn!")  # the ante: both choose at once
        expect(line).to_contain_text("Ann (you)")
        assert phone.title().startswith("(1)")
        game_line(phone, code).locator("a").click()
        phone.wait_for_selector("#question .answer")  # her question: seated, not watching
        assert welcomed_seat(phone_frames) == 0
        assert phone.locator("#playing-as").count() or phone.locator("#hand .card").count()

        # She chooses her ante on the phone; My games on the laptop says Bob's turn.
        phone.locator("#question .answer:not([disabled])").first.click()
        ann.goto(f"{server.base}/me")
        mine = game_line(ann, code)
        expect(mine).to_contain_text("waiting for Bob")
        bob.goto(f"{server.base}/me")
        expect(game_line(bob, code)).to_contain_text("your turn!")

        # The personal link and its QR code, on request.
        ann.click("#show-personal-link")
        expect(ann.locator("#personal-link")).to_have_value(f"{server.base}/me#key={ann_key}")
        ann.wait_for_selector("#personal-qr")
        ann.wait_for_function("document.getElementById('personal-qr').naturalWidth > 0")

        text = json.dumps(bob_frames)
        assert ann_key not in text and welcomed_seat(bob_frames) == 1
        for name, seen in urls.items():
            for url in seen:
                assert ann_key not in url and bob_key not in url, (name, url)
        assert errors == []
    finally:
        server.stop()


def test_three_people_the_host_hands_a_lost_keys_seat_to_a_new_key(browser: Any, tmp_path: Path):
    server = ServerProcess(tmp_path / "handover.sqlite3").start()
    try:
        errors: list[str] = []
        ann, bob, cat = (new_page(browser, errors, WIDE) for _ in range(3))
        frames = {"ann": record_frames(ann), "bob": record_frames(bob)}
        code, host = new_table(server, THREE)
        ann.goto(f"{server.base}/static/index.html")
        ann.evaluate("([c, t]) => localStorage.setItem(`dragonante.host.${c}`, t)", [code, host])
        for page, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            sit_down(page, server.base, code, name)
        cat_key = key_of(cat)
        start(server, code, host)
        cat.wait_for_selector("#question .answer")

        # Cat's laptop is gone with her key; her new phone has a new key.
        phone = new_page(browser, errors)
        phone_frames = record_frames(phone)
        phone.goto(f"{server.base}/me")
        phone.wait_for_selector("#my-player-id")
        new_id = phone.inner_text("#my-player-id")
        assert key_of(phone) != cat_key
        expect(phone.locator("#my-games")).to_contain_text("No games yet")

        # The host gives Cat's seat to it.
        ann.wait_for_selector("#hand-seat")
        ann.click("#hand-seat summary")
        ann.select_option("#hand-seat-seat", "2")
        ann.fill("#hand-seat-player", new_id)
        ann.click("#hand-seat-go")
        cat.wait_for_selector("#removed-notice")  # the old key's page watches now
        expect(cat.locator("#removed-notice")).to_contain_text("new key")

        phone.goto(f"{server.base}/t/{code}")
        phone.wait_for_selector("#question .answer")
        assert welcomed_seat(phone_frames) == 2
        cat.reload()
        cat.wait_for_selector(".board")
        assert cat.locator("#question .answer:not([disabled])").count() == 0  # a spectator
        phone.goto(f"{server.base}/me")
        expect(game_line(phone, code)).to_contain_text("Cat (you)")

        for seen in frames.values():
            assert cat_key not in json.dumps(seen)
            assert key_of(phone) not in json.dumps(seen)
        assert errors == []
    finally:
        server.stop()


def test_the_leaderboard_and_a_players_page_after_a_finished_game(browser: Any, tmp_path: Path):
    server = ServerProcess(tmp_path / "ratings.sqlite3").start()
    try:
        errors: list[str] = []
        ann, bob = new_page(browser, errors, WIDE), new_page(browser, errors, WIDE)
        code, host = new_table(server, TWO)
        sit_down(ann, server.base, code, "Ann")
        sit_down(bob, server.base, code, "Bob")
        start(server, code, host)
        ann.wait_for_selector(".board")
        play_until([ann, bob], random.Random(7), lambda: over(ann) and over(bob))

        ann.goto(f"{server.base}/leaderboard")
        ann.wait_for_selector("#leaderboard tbody tr")
        rows = ann.locator("#leaderboard tbody tr")
        assert rows.count() == 2
        assert sorted(rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)) == [
            "Ann",
            "Bob",
        ]
        assert {rows.nth(i).locator("td").nth(3).inner_text() for i in range(2)} == {"1"}
        rows.locator("a", has_text="Ann").click()
        ann.wait_for_selector("#player-page")
        expect(ann.locator("#player-record")).to_contain_text("1 finished games")
        ann.wait_for_selector("#rating-chart polyline")
        expect(ann.locator("#player-games")).to_contain_text(code)
        assert errors == []
    finally:
        server.stop()
