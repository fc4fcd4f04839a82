"""Chat, mutes, removing a player, the turn countdown and a rematch, in Debian's Chromium.

What only a real page can show: a chat message carrying HTML and a script
is displayed as the text typed (no element made, no script run); the host's
mute and remove buttons work and the removed person is told; the countdown
appears and a bot answers when it runs out; a rematch moves both people to
the new table with their seats.  Every frame the pages receive goes through
the leak checks.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import CHROMIUM, ServerProcess, record_frames
from tests.web.helpers import make_table
from tests.web.leaks import check_frames, check_social_frames
from tests.web.test_browser import new_page, over, play_until

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")

PAYLOAD = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script> & <b>bold</b>'
WIDE = {"width": 1280, "height": 900}


def as_host(page: Any, base: str, code: str, host: str) -> None:
    """Give a page the host token, as the lobby does for a table's creator."""
    page.goto(f"{base}/static/index.html")
    page.evaluate("([c, t]) => localStorage.setItem(`dragonante.host.${c}`, t)", [code, host])


def test_chat_mute_and_removing_a_player(browser: Any, tmp_path: Path):
    server = ServerProcess(tmp_path / "chat.sqlite3").start()
    try:
        with server.http() as http:
            code, tokens, host = make_table(http, {"players": 3}, ["Ann", "Bob"], start=False)
        errors: list[str] = []
        dialogs: list[str] = []
        ann = new_page(browser, errors, WIDE)
        bob = new_page(browser, errors)
        bob_frames = record_frames(bob)

        def on_dialog(dialog: Any) -> None:
            dialogs.append(dialog.message)
            dialog.dismiss()

        for page in (ann, bob):
            page.on("dialog", on_dialog)
        as_host(ann, server.base, code, host)
        ann.goto(f"{server.base}/t/{code}#token={tokens[0]}")
        bob.goto(f"{server.base}/t/{code}#token={tokens[1]}")
        bob.wait_for_selector("#seating")

        ann.fill("#chat-input", PAYLOAD)
        ann.press("#chat-input", "Enter")
        shown = bob.locator("#chat-list .chat-msg .chat-text")
        expect(shown).to_have_text(PAYLOAD)
        expect(bob.locator("#chat-list .chat-author")).to_have_text("Ann")
        assert bob.locator("#chat-list img, #chat-list script, #chat-list b").count() == 0
        assert bob.evaluate("window.pwned") is None and ann.evaluate("window.pwned") is None
        assert dialogs == []

        # Bob speaks; the host mutes him from his message; he is refused.
        bob.fill("#chat-input", "hello Ann")
        bob.click("#chat-send")
        line = ann.locator("#chat-list .chat-msg", has_text="hello Ann")
        expect(line).to_be_visible()
        assert bob.locator("#chat-list .chat-mute").count() == 0  # only the host's page
        line.locator(".chat-mute").click()
        expect(bob.locator("#chat-list .system")).to_contain_text("Bob")
        bob.fill("#chat-input", "still here")
        bob.click("#chat-send")
        expect(bob.locator("#toast")).to_contain_text("muted")
        expect(ann.locator("#chat-list")).not_to_contain_text("still here")

        # The host removes Bob before the start: his page says so and watches.
        ann.click('.remove-player[data-seat="1"]')
        expect(bob.locator("#removed-notice")).to_contain_text("removed")
        expect(bob.locator('.seat-row.free[data-seat="1"]')).to_be_visible()
        expect(ann.locator('.seat-row.free[data-seat="1"]')).to_be_visible()
        assert bob.evaluate(f"localStorage.getItem('dragonante.seat.{code}')") is None
        assert check_social_frames(bob_frames, ["Ann", "Bob", "?"], {PAYLOAD, "hello Ann"}) >= 3
        assert errors == []
    finally:
        server.stop()


def test_turn_countdown_bot_answer_and_rematch(browser: Any, tmp_path: Path):
    server = ServerProcess(tmp_path / "turns.sqlite3", args=("--min-turn-timer", "1")).start()
    try:
        with server.http() as http:
            r = http.post(
                "/api/tables",
                json={"config": {"players": 2, "gold_per_player": 4, "ending": {"gambits": 1}},
                      "turn_seconds": 1},
            )  # fmt: skip
            code, host = r.json()["code"], r.json()["host_token"]
            tokens = [
                http.post(f"/api/tables/{code}/seats", json={"name": n}).json()["token"]
                for n in ("Ann", "Bob")
            ]
            auth = {"Authorization": f"Bearer {host}"}
        errors: list[str] = []
        ann, bob = new_page(browser, errors, WIDE), new_page(browser, errors, WIDE)
        frames = {0: record_frames(ann), 1: record_frames(bob)}
        for p, page in enumerate((ann, bob)):
            page.goto(f"{server.base}/t/{code}#token={tokens[p]}")
        expect(ann.locator("#turn-info")).to_contain_text("1 s")
        with server.http() as http:
            assert http.post(f"/api/tables/{code}/start", headers=auth).status_code == 200

        # Nobody answers: the countdown runs, then a bot answers, announced to both
        # (both at once: the ante is everyone's at once, on one clock).
        expect(ann.locator("#turn-timer")).to_be_visible()
        expect(ann.locator("#turn-timer")).to_contain_text(" s")
        for page in (ann, bob):
            expect(page.locator("#chat-list .system").first).to_contain_text("time ran out")
        play_until([ann, bob], random.Random(2), lambda: over(ann) and over(bob))
        first_game = {p: list(f) for p, f in frames.items()}  # before any page moves on

        # Ann offers a rematch and moves there; Bob's page offers to join it.
        ann.click("#rematch-offer")
        ann.wait_for_url(lambda url: f"/t/{code}" not in url and "token" not in url)
        new = ann.url.split("/t/")[1].split("#")[0]
        assert new != code
        bob.click("#rematch-join")
        bob.wait_for_url(lambda url: f"/t/{new}" in url)
        expect(bob.locator("#playing-as")).to_contain_text("Bob")
        expect(ann.locator('.seat-row[data-seat="0"]')).to_contain_text("Ann")
        # Fresh seat tokens there: neither page carries its old one.
        assert tokens[0] not in ann.url and tokens[1] not in bob.url
        assert ann.locator("#start").count() == 0  # the host starts, not a seated player
        with server.http() as http:
            assert http.post(f"/api/tables/{new}/start", headers=auth).status_code == 200
        expect(bob.locator(".board")).to_be_visible()
        with server.http() as http:
            record = http.get(f"/api/games/{code}/record").json()
        for p in (0, 1):
            assert check_frames(record, p, first_game[p]) > 3
            assert check_social_frames(frames[p], record["names"]) >= 2
        assert errors == []
    finally:
        server.stop()
