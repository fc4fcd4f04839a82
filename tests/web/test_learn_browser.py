"""Learn to play in the browser, in Debian's Chromium.

From the lobby's entry a whole tutorial is played through in English and in
Italian, with the suggested answers and with others (a different answer is
explained, never failed); the coach's notes come in the page's language,
the suggested answer is marked, a step is replayed, a reload resumes the
tutorial where it was, and "Skip" opens a normal table against easy bots
with tips on.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from dragonante.tutorial import STEPS
from tests.web.browser import CHROMIUM, ServerProcess
from tests.web.test_browser import new_page

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")

WIDE = {"width": 1280, "height": 900}
# An answer button's label: its own text, without its key and its notes.
LABEL = """(b) => [...b.childNodes]
  .filter((n) => n.nodeType === 3 || n.classList.contains("answer-label"))
  .map((n) => n.textContent).join("").trim()"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("learn") / "learn.sqlite3").start()
    yield server
    server.stop()


def answers_given(page: Any) -> int:
    n: int = page.evaluate("() => window.dragonante?.state.coach?.progress.answers.length ?? -1")
    return n


def saved(page: Any) -> list[int]:
    raw = page.evaluate("() => localStorage.getItem('dragonante.learn')")
    answers: list[int] = json.loads(raw)["answers"] if raw else []
    return answers


def open_lesson(browser: Any, served: ServerProcess, errors: list[str]) -> Any:
    """A page on /learn (a new tutorial: the page's storage is fresh), asked its first question."""
    page = new_page(browser, errors, WIDE)
    page.goto(served.base + "/learn")
    page.wait_for_selector("#coach-notes .note-ask")
    return page


def press(page: Any, button: Any) -> None:
    """Choose an answer by its key, as the page's keys help says (a hovered
    answer grows to show why it triggers, so a mouse click can land beside it)."""
    key = button.get_attribute("aria-keyshortcuts")
    if key:
        page.keyboard.press(key)
    else:
        button.dispatch_event("click")


def answer(page: Any, take_suggestion: bool) -> None:
    """Answer the question on the page (the suggested answer, or another one) and
    wait for the coach to say what it did."""
    before = answers_given(page)
    # the coach has spoken about the question on the page (its frame follows the view's)
    page.wait_for_function(
        "() => { const q = document.querySelector('#question');"
        " return q && !q.querySelector('.answer[disabled]')"
        " && window.dragonante?.state.coach?.decision === Number(q.dataset.decision); }"
    )
    suggested = page.locator("#question .answer.suggested")
    if take_suggestion and suggested.count():
        press(page, suggested)
    else:
        others = page.locator("#question .answer:not(.suggested)")
        press(page, others.last if others.count() else page.locator("#question .answer").first)
    page.wait_for_function(
        f"() => (window.dragonante?.state.coach?.progress.answers.length ?? -1) > {before}"
    )


def play_to_the_end(page: Any, take_suggestion: Any) -> int:
    """Answer until the game is over; the number of answers given."""
    n = 0
    while not page.locator(".board[data-phase=over]").count():
        answer(page, take_suggestion(n))
        n += 1
        assert n < 100, "the tutorial did not end"
    return n


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", {"entry": "Learn to play", "step": "Step 1 of", "rule": "The rule:"}),
        ("it", {"entry": "Impara a giocare", "step": "Passo 1 di", "rule": "La regola:"}),
    ],
)
def test_a_whole_tutorial_from_the_lobby(
    browser: Any, served: ServerProcess, lang: str, words: dict[str, str]
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, WIDE)
    page.add_init_script(f"localStorage.setItem('dragonante.lang', '{lang}');")
    page.goto(served.base + "/")
    entry = page.locator("#learn-link")
    expect(entry).to_have_text(words["entry"])
    entry.click()
    page.wait_for_url("**/learn")
    expect(page.locator("#coach-step")).to_contain_text(words["step"])
    expect(page.locator("#coach-step")).to_contain_text(f" {len(STEPS)}")
    ask = page.locator("#coach-notes .note-ask")
    expect(ask).to_have_count(1)
    expect(page.locator(".seat.me .tag.away")).to_have_count(0)  # your seat is connected
    # the suggested answer is marked, and the ask names it
    suggested = page.locator("#question .answer.suggested")
    expect(suggested).to_have_count(1)
    label = suggested.evaluate(LABEL)
    assert label in ask.inner_text(), (label, ask.inner_text())
    # English: the suggested answers, then others; Italian: the other way round
    right = (lambda n: n % 3 != 2) if lang == "en" else (lambda n: n % 3 == 2)
    given = play_to_the_end(page, right)
    expect(page.locator("#coach-notes .note-done")).to_have_count(1)
    expect(page.locator("#learn-skip")).to_have_class("primary")
    notes = page.locator("#coach-notes .note").all_inner_texts()
    assert any(x.startswith(words["rule"]) for x in notes), notes
    assert len(saved(page)) == given
    assert not errors, errors


def test_a_different_answer_is_explained_and_a_step_replayed(
    browser: Any, served: ServerProcess
) -> None:
    errors: list[str] = []
    page = open_lesson(browser, served, errors)
    step = page.locator("#coach-step").inner_text()
    answer(page, take_suggestion=False)  # not the suggested ante
    outcome = page.locator("#coach-notes .note-outcome")
    expect(outcome.first).to_be_visible()
    assert "lead" in " ".join(outcome.all_inner_texts())  # who leads, and why
    # past the steps that ask, into "play as you like"
    while not page.locator("#coach-notes .note-free").count():
        answer(page, take_suggestion=False)
    before = saved(page)
    page.click("#learn-replay")
    page.wait_for_function(
        f"() => (window.dragonante?.state.coach?.progress.answers.length ?? 99) < {len(before)}"
    )
    expect(page.locator("#coach-notes .note-ask")).to_have_count(1)
    after = saved(page)
    assert after == before[: len(after)]
    page.click("#learn-restart")
    expect(page.locator("#coach-step")).to_have_text(step)
    assert saved(page) == []
    assert not errors, errors


def test_a_reload_resumes_the_tutorial_where_it_was(browser: Any, served: ServerProcess) -> None:
    errors: list[str] = []
    page = open_lesson(browser, served, errors)
    for n in range(4):
        answer(page, take_suggestion=n != 1)
    step = page.locator("#coach-step").inner_text()
    notes = page.locator("#coach-notes .note").all_inner_texts()
    hand = page.locator("#hand .card").count()
    log = page.locator("#log li").count()
    kept = saved(page)
    page.reload()
    page.wait_for_function(
        f"() => (window.dragonante?.state.coach?.progress.answers.length ?? -1) === {len(kept)}"
    )
    expect(page.locator("#coach-step")).to_have_text(step)
    assert page.locator("#coach-notes .note").all_inner_texts() == notes
    assert page.locator("#hand .card").count() == hand
    assert page.locator("#log li").count() == log
    # and it goes on from there
    answer(page, take_suggestion=True)
    assert saved(page)[: len(kept)] == kept
    assert not errors, errors


def test_skip_opens_a_normal_game_against_easy_bots_with_tips(
    browser: Any, served: ServerProcess
) -> None:
    errors: list[str] = []
    page = open_lesson(browser, served, errors)
    page.click("#learn-skip")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#question .answer")
    code = page.url.rsplit("/", 1)[1]
    tips = page.locator("#tips-box")
    expect(tips).to_be_visible()
    expect(tips.locator(".tip").first).to_be_visible()
    first = tips.locator(".tip").all_inner_texts()
    assert len(first) == len(set(first))  # each rule once
    expect(page.locator(".seat .tag", has_text="easy")).to_have_count(2)
    with served.http() as http:
        table = http.get(f"/api/tables/{code}").json()
        listed = http.get("/api/tables").json()
    assert table["status"] == "playing" and table["players"] == 3
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot"]
    assert code not in {t["code"] for t in listed["open"] + listed["playing"]}  # invite only
    # tips off: the panel goes, and stays gone after a reload
    page.click("#tips-off")
    expect(tips).to_be_hidden()
    page.reload()
    page.wait_for_selector("#question .answer")
    expect(page.locator("#tips-box")).to_be_hidden()
    assert not errors, errors
