"""Everyone antes at once, in Debian's Chromium, with two people (issue 32, part 2).

Both pages are asked their ante together; each shows who is still choosing,
the chooser's page its own card (marked, and changeable until the last
chooses), the other page nothing of it; the reveal comes when the second
person chooses, and every frame both pages received is leak-checked.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import CHROMIUM, ServerProcess, record_frames
from tests.web.leaks import check_frames
from tests.web.test_browser import new_page, over, play_until

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")

WIDE = {"width": 1280, "height": 900}
CONFIG = {"players": 2, "gold_per_player": 4, "ending": {"gambits": 1}}


def test_two_people_ante_at_once_in_the_browser(browser: Any, tmp_path: Path):
    server = ServerProcess(tmp_path / "ante.sqlite3").start()
    try:
        with server.http() as http:
            r = http.post("/api/tables", json={"config": CONFIG})
            code, host = r.json()["code"], r.json()["host_token"]
            tokens = [
                http.post(f"/api/tables/{code}/seats", json={"name": n}).json()["token"]
                for n in ("Ann", "Bob")
            ]
        errors: list[str] = []
        ann, bob = new_page(browser, errors, WIDE), new_page(browser, errors, WIDE)
        frames = {0: record_frames(ann), 1: record_frames(bob)}
        for p, page in enumerate((ann, bob)):
            page.goto(f"{server.base}/t/{code}#token={tokens[p]}")
        expect(bob.locator('.seat-row[data-seat="1"]')).to_contain_text("Bob")
        with server.http() as http:
            auth = {"Authorization": f"Bearer {host}"}
            assert http.post(f"/api/tables/{code}/start", headers=auth).status_code == 200

        # Both are asked at once, and both see that both are choosing.
        for page, other in ((ann, "Bob"), (bob, "Ann")):
            expect(page.locator('#question[data-kind="ante"]')).to_be_visible()
            expect(page.locator("#face-down-note")).to_contain_text("at the same time")
            expect(page.locator("#face-down-note")).to_contain_text(other)

        # Ann chooses, then changes her mind: her page shows her card, Bob's only
        # that she is no longer choosing.
        answers = ann.locator("#question .answer")
        answers.nth(0).click()
        expect(ann.locator("#face-down-note")).to_contain_text("Your ante card, face down")
        expect(answers.nth(0)).to_have_attribute("aria-pressed", "true")
        expect(bob.locator("#face-down-note")).not_to_contain_text("Ann")
        last = answers.count() - 1
        answers.nth(last).click()
        expect(answers.nth(last)).to_have_attribute("aria-pressed", "true")
        expect(ann.locator("#question .answer.chosen")).to_have_count(1)
        chosen = int(answers.nth(last).get_attribute("data-answer") or "-1")
        expect(bob.locator("#face-down-note")).to_contain_text("at the same time")
        assert all("chosen" not in (f.get("face_down") or {}) for f in frames[1])

        # Bob chooses: the reveal, on both pages.
        bob.locator("#question .answer").nth(0).click()
        for page in (ann, bob):
            expect(page.locator("#face-down-note")).to_have_count(0)
            expect(page.locator("#log")).to_contain_text("ante")
        play_until([ann, bob], random.Random(5), lambda: over(ann) and over(bob))
        with server.http() as http:
            record = http.get(f"/api/games/{code}/record").json()
        assert record["answers"][0] == chosen  # Ann's second card is the one played
        for p in (0, 1):
            assert check_frames(record, p, frames[p]) > 3
        assert errors == []
    finally:
        server.stop()
