"""Your turn, announced (issue 32, part 3), in Debian's Chromium with two people.

The tab's title says when a question waits for you (and stops saying it once
your face-down ante is chosen), the turn clock shows for every timed
decision, the optional sound is generated on the page and its on/off is
remembered, and a hidden tab gets a desktop notification once the person
allowed it, the permission asked only from its button, and only once.  The
page's ``Notification`` and ``document.hidden`` are stand-ins here (a
headless browser shows no notification and is never hidden): they record
what the page asked for.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import CHROMIUM, ServerProcess
from tests.web.test_browser import new_page

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")

WIDE = {"width": 1280, "height": 900}
CONFIG = {"players": 2, "gold_per_player": 4, "ending": {"gambits": 1}}
#: A page's Notification and visibility, recording what the page does with them.
STAND_INS = """
window.notes = []; window.asked = 0; window.fakeHidden = false;
class FakeNotification {
  static get permission() { return localStorage.getItem("fake.permission") || "default"; }
  static requestPermission() {
    window.asked += 1; localStorage.setItem("fake.permission", "granted");
    return Promise.resolve("granted");
  }
  constructor(title, opts) { window.notes.push([title, opts.body, opts.tag]); }
  close() {}
}
window.Notification = FakeNotification;
Object.defineProperty(document, "hidden", { get: () => window.fakeHidden });
"""


def test_the_title_the_clock_the_sound_and_the_notification(browser: Any, tmp_path: Path):
    server = ServerProcess(tmp_path / "turns.sqlite3", args=("--min-turn-timer", "1")).start()
    try:
        with server.http() as http:
            r = http.post("/api/tables", json={"config": CONFIG, "turn_seconds": 60})
            code, host = r.json()["code"], r.json()["host_token"]
            tokens = [
                http.post(f"/api/tables/{code}/seats", json={"name": n}).json()["token"]
                for n in ("Ann", "Bob")
            ]
        errors: list[str] = []
        ann, bob = new_page(browser, errors, WIDE), new_page(browser, errors, WIDE)
        ann.context.add_init_script(STAND_INS)
        for p, page in enumerate((ann, bob)):
            page.goto(f"{server.base}/t/{code}#token={tokens[p]}")

        # Asked politely, once: only from its button, and never offered again.
        ask = ann.locator("#notify-ask")
        expect(ask).to_be_visible()
        assert ann.evaluate("window.asked") == 0  # nothing asked on opening the page
        ask.click()
        expect(ask).to_be_hidden()
        assert ann.evaluate("window.asked") == 1
        ann.reload()
        expect(ann.locator("#sound-toggle")).to_be_visible()
        expect(ann.locator("#notify-ask")).to_be_hidden()  # once is enough (remembered)

        # The sound: off until switched on, remembered across a reload.
        sound = ann.locator("#sound-toggle")
        expect(sound).to_have_attribute("aria-pressed", "false")
        sound.click()
        expect(sound).to_have_attribute("aria-pressed", "true")
        assert ann.evaluate("window.dragonanteChimes") == 1  # a sample on switching on
        ann.reload()
        expect(ann.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
        ann.evaluate("window.fakeHidden = true")  # Ann looks at another tab
        assert "Your turn" not in ann.title()

        with server.http() as http:
            auth = {"Authorization": f"Bearer {host}"}
            assert http.post(f"/api/tables/{code}/start", headers=auth).status_code == 200

        # Everyone antes at once: both titles say it, both see the one clock.
        for page in (ann, bob):
            expect(page.locator('#question[data-kind="ante"]')).to_be_visible()
            expect(page).to_have_title("● Your turn · Three-Dragon Ante")
            expect(page.locator("#turn-timer")).to_contain_text("for everyone to choose")
        for _ in range(300):  # (wait_for_function compiles a string: the page's CSP refuses)
            if ann.evaluate("window.notes.length") >= 1:
                break
            ann.wait_for_timeout(50)
        assert ann.evaluate("window.notes.length") == 1
        title, body, tag = ann.evaluate("window.notes[0]")
        assert code in title and body and tag == f"dragonante-{code}"
        assert ann.evaluate("window.dragonanteChimes") == 1  # the new question's chime
        assert ann.locator('link[rel="icon"]').get_attribute("href", timeout=1000) != "data:,"

        # Ann chooses: her tab no longer says it is her turn; Bob's still does.
        ann.locator("#question .answer").first.click()
        expect(ann.locator("#face-down-note")).to_contain_text("Your ante card, face down")
        expect(ann).to_have_title("Three-Dragon Ante")
        expect(bob).to_have_title("● Your turn · Three-Dragon Ante")
        bob.locator("#question .answer").first.click()
        # The reveal: the next question's clock names whoever decides it.
        for page in (ann, bob):
            expect(page.locator("#face-down-note")).to_have_count(0)
            expect(page.locator("#turn-timer")).to_contain_text("s to decide")
        assert ann.evaluate("window.notes.length") in (1, 2)  # a second if Ann leads
        assert errors == []
    finally:
        server.stop()
