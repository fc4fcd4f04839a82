"""The table polished (issue 32 §6), in Debian's Chromium, in English and Italian.

From a newcomer's hour at the table: the lobby leads with Quick play (you
and three medium bots, one click) and folds the full options; it asks your
name once and remembers it; the hand is in the answers' order (weakest
first); the chat stays in view at 1280x800 and 1366x768; each ante card
says whose it is; the gambit's box closes by itself once you act on your
next decision; a card's text never covers a dialog; and a person alone
among bots takes an answer back.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.browser import CHROMIUM, ServerProcess, record_frames
from tests.web.test_browser import answer_if_asked, new_page

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")

WORDS = {
    "en": {
        "quick": "Quick play",
        "name_needed": "Your name first",
        "you": "You",
        "back": "took back",
    },
    "it": {
        "quick": "Partita veloce",
        "name_needed": "Prima il tuo nome",
        "you": "Tu",
        "back": "ha ritirato",
    },
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path / "polish.sqlite3", bot_delay=0.02).start()
    yield s
    s.stop()


def in_language(page: Any, base: str, lang: str) -> None:
    page.goto(base + "/")
    page.select_option("#lang-select", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


def quick_play(page: Any, name: str) -> str:
    """Quick play from the lobby; returns the table's code once the game is on."""
    page.fill("#f-name", name)
    page.click("#quick-play")
    page.wait_for_selector("#hand .card")
    return str(page.evaluate("location.pathname.split('/')[2]"))


def strengths(base: str) -> list[int]:
    return [int(c["strength"]) for c in httpx.get(base + "/api/cards").json()]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_quick_play_leads_the_lobby_and_asks_the_name_once(
    browser: Any, server: ServerProcess, lang: str
) -> None:
    errors: list[str] = []
    words = WORDS[lang]
    page = new_page(browser, errors, {"width": 1280, "height": 800})
    in_language(page, server.base, lang)
    # Quick play first; the full options folded under it.
    first = page.locator(".lobby-new h2").first
    expect(first).to_have_text(words["quick"])
    expect(page.locator("#quick-play")).to_have_text(words["quick"])
    expect(page.locator("#create-box")).not_to_have_attribute("open", "")
    expect(page.locator("#f-ruleset")).to_be_hidden()
    page.click("#quick-play")  # no name yet: said, and nothing made
    expect(page.locator("#quick-box .error")).to_contain_text(words["name_needed"])
    with server.http() as http:
        assert http.get("/api/tables").json()["open"] == []

    code = quick_play(page, "Ann")
    with server.http() as http:
        table = http.get(f"/api/tables/{code}").json()
    assert table["status"] == "playing" and table["players"] == 4
    assert table["seats"][0]["name"] == "Ann" and table["seats"][0]["kind"] == "human"
    assert [s["bot"] for s in table["seats"][1:]] == ["medium"] * 3

    # The name is remembered: the lobby, its full form and another table's seats offer it.
    page.goto(server.base + "/")
    expect(page.locator("#f-name")).to_have_value("Ann")
    page.click("#create-box summary")
    page.select_option("#f-players", "3")
    page.click("#create")
    page.wait_for_selector("#seating")
    expect(page.locator(".seat-row.taken").first).to_contain_text("Ann")
    with server.http() as http:
        other = http.post("/api/tables", json={"config": {"players": 2}}).json()["code"]
    page.goto(f"{server.base}/t/{other}")
    expect(page.locator(".seat-row.free .seat-name").first).to_have_value("Ann")
    assert errors == []


def my_question(page: Any) -> Any:
    return page.locator("#question .answer:not([disabled])")


def play_until(page: Any, rng: random.Random, done: Any, rounds: int = 3000) -> None:
    for _ in range(rounds):
        if done():
            return
        answer_if_asked(page, rng)
        page.wait_for_timeout(30)
    raise AssertionError("the game did not get there in time")


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return bool(
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize(
    ("lang", "viewport"),
    [("en", {"width": 1280, "height": 800}), ("it", {"width": 1366, "height": 768})],
)
def test_one_person_against_bots_at_a_laptops_screen(
    browser: Any, server: ServerProcess, lang: str, viewport: dict[str, int]
) -> None:
    errors: list[str] = []
    words = WORDS[lang]
    rng = random.Random(11)
    power = strengths(server.base)
    page = new_page(browser, errors, viewport)
    frames = record_frames(page)
    in_language(page, server.base, lang)
    quick_play(page, "Ann")
    chat = page.locator("#chat-input")

    def chat_in_view() -> None:
        box = chat.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box

    chat_in_view()

    # The hand in the answers' order: weakest first, the answer keys 1, 2, 3...
    def check_hand() -> None:
        cards = [
            int(n)
            for n in page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        ]
        assert [(power[c], c) for c in cards] == sorted((power[c], c) for c in cards)
        keys = page.locator("#hand .card .card-key").all_inner_texts()
        assert keys == sorted(keys, key=int)

    check_hand()

    # The ante revealed: each card over the name of whose it is.
    play_until(page, rng, lambda: page.locator("#ante[data-revealed='1']").count() > 0)
    reveal = [e for f in frames for e in f.get("events", []) if e["kind"] == "ante_reveal"][-1]
    with server.http() as http:
        code = page.evaluate("location.pathname.split('/')[2]")
        names = [s["name"] for s in http.get(f"/api/tables/{code}").json()["seats"]]
    for card in page.locator("#ante .ante-card").all():
        n = int(card.get_attribute("data-card") or -1)
        seat = reveal["data"]["cards"].index(n)
        expect(card.locator(".ante-owner")).to_have_text(words["you"] if seat == 0 else names[seat])

    # Take-back: the last answer and what followed undone, said to the table.
    play_until(
        page,
        rng,
        lambda: (
            my_question(page).count() > 0
            and page.locator("#question[data-kind='play']").count() > 0
        ),
    )
    step = max(f["step"] for f in frames if "step" in f)
    answer_if_asked(page, rng)
    expect(page.locator("#take-back")).to_be_visible()
    page.wait_for_timeout(300)
    page.click("#take-back")
    expect(page.locator(".toast")).to_contain_text(words["back"])
    states = [f for f in frames if f["type"] == "state"]
    assert states[-1]["step"] <= step
    check_hand()
    chat_in_view()

    # The gambit's box: open when the gambit ends, closed once you act on your
    # next decision (no "OK" clicked).
    play_until(page, rng, lambda: page.locator("#gambit-summary").count() > 0)
    summary = page.locator("#gambit-summary")
    expect(summary).to_be_visible()
    # A card's text never covers it: hovered beside it, even on a narrower screen.
    page.set_viewport_size({"width": 900, "height": viewport["height"]})
    page.locator("#hand .card").last.hover()
    page.wait_for_timeout(200)
    detail = page.locator("#card-detail")
    if detail.is_visible():
        assert not overlap(detail.bounding_box(), summary.bounding_box())
    page.mouse.move(1, 1)
    page.set_viewport_size(viewport)
    chat_in_view()
    expect(my_question(page).first).to_be_visible()
    my_question(page).first.click()
    expect(page.locator("#gambit-summary")).to_have_count(0)
    assert errors == []
