"""Hints from the best bot in the browser, in Debian's Chromium.

Against bots the table says hints are on, the Hint button asks the server
and the hint appears, naming one of the answers on the page; at a table of
two people hints are off (said to both, no button) and a hint request sent
anyway is refused with ``hints_off``, until the host allows them.  The
hint frame names only answers of the asking seat's own question, and
reaches no other page.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import CHROMIUM, ServerProcess, record_frames
from tests.web.helpers import make_table
from tests.web.test_browser import new_page

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")

WIDE = {"width": 1280, "height": 900}

ASK = """
async ({url, token, decision}) => {
  const ws = new WebSocket(url);
  const got = [];
  ws.onmessage = (e) => got.push(JSON.parse(e.data));
  await new Promise((r) => { ws.onopen = r; });
  ws.send(JSON.stringify({type: "hello", token}));
  await new Promise((r) => setTimeout(r, 400));
  ws.send(JSON.stringify({type: "hint", decision}));
  await new Promise((r) => setTimeout(r, 600));
  ws.close();
  return got.filter((m) => m.type === "error" || m.type === "hint").map((m) => m.code || m.type);
}
"""


def test_a_hint_in_a_game_against_bots(browser: Any, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "hint.sqlite3").start()
    try:
        with server.http() as http:
            code, tokens, _ = make_table(http, {"players": 4}, ["Ann"], bots=3)
        errors: list[str] = []
        page = new_page(browser, errors, WIDE)
        frames = record_frames(page)
        page.goto(f"{server.base}/t/{code}#token={tokens[0]}")
        page.wait_for_selector("#question .answer")
        expect(page.locator("#hint-info")).to_contain_text("on (you play against bots)")
        answers = page.locator("#question .answer").all_inner_texts()
        page.click("#hint-ask")
        hint = page.locator("#hint")
        expect(hint).to_contain_text("Hint: the hard bot would choose", timeout=30000)
        first = hint.locator("li").first.inner_text()
        chosen = first.removeprefix("Hint: the hard bot would choose ").removesuffix(".")
        assert any(chosen in a for a in answers), (chosen, answers)
        expect(hint).to_contain_text("wins the game")
        assert hint.locator("li").count() >= 3  # the choice, the search and its best answers
        # the question is still there to answer, and answering clears the hint
        page.locator("#question .answer").first.click()
        expect(page.locator("#hint")).to_have_count(0)
        sent = [f for f in frames if f["type"] == "hint"]
        asked = [f["view"]["question"] for f in frames if "view" in f and f["view"]["question"]]
        assert len(sent) == 1
        question = next(q for q in asked if q["id"] == sent[0]["decision"])
        assert {a["value"] for a in sent[0]["answers"]} <= set(question["options"])
        assert not errors, errors
    finally:
        server.stop()


def test_with_two_people_a_hint_is_refused_until_the_host_allows_it(
    browser: Any, tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "hint2.sqlite3").start()
    try:
        with server.http() as http:
            code, tokens, host = make_table(http, {"players": 2}, ["Ann", "Bob"])
        errors: list[str] = []
        pages = [new_page(browser, errors, WIDE), new_page(browser, errors, WIDE)]
        frames = [record_frames(page) for page in pages]
        for page, token in zip(pages, tokens, strict=True):
            page.goto(f"{server.base}/t/{code}#token={token}")
        for page in pages:
            page.wait_for_selector("#question, #turn")
            expect(page.locator("#hint-info")).to_contain_text("off (other people play")
            expect(page.locator("#hint-ask")).to_have_count(0)
        mover = next(p for p in pages if p.locator("#question .answer").count())
        token = tokens[pages.index(mover)]
        decision = int(mover.get_attribute("#question", "data-decision") or -1)
        url = f"ws://127.0.0.1:{server.port}/ws/{code}"
        got = mover.evaluate(ASK, {"url": url, "token": token, "decision": decision})
        assert got == ["hints_off"], got
        with server.http() as http:
            r = http.post(
                f"/api/tables/{code}/hints",
                json={"hints": True},
                headers={"Authorization": f"Bearer {host}"},
            )
            assert r.status_code == 200, r.text
        for page in pages:
            expect(page.locator("#hint-info")).to_contain_text("allowed by the host")
        mover.click("#hint-ask")
        expect(mover.locator("#hint")).to_contain_text(
            "Hint: the hard bot would choose", timeout=30000
        )
        other = pages[1 - pages.index(mover)]
        expect(other.locator("#hint")).to_have_count(0)
        assert not [f for f in frames[1 - pages.index(mover)] if f["type"] == "hint"]
        assert not errors, errors
    finally:
        server.stop()
