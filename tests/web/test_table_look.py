"""The table as people see it, in Debian's Chromium: the seats around the
table, cards drawn as cards, names that never break inside a word, the
current player and the leader marked, animations that stop when the system
asks for reduced motion, screen-reader labels, and a whole game played with
the number keys.

The screenshots (375, 768 and 1280 px wide, English and Italian, a table
mid-game) are saved as PNGs in the test's temporary directory
(``pytest --basetemp DIR`` keeps them somewhere known) and checked for their
layout, not compared pixel by pixel.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import CHROMIUM, ServerProcess
from tests.web.helpers import make_table

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"{CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)

WIDTHS = (375, 768, 1280)
#: Counts every Web Animations call (motion.js animates with element.animate).
COUNT_ANIMATIONS = """
window.__animations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__animations += 1;
  return animate.apply(this, args);
};
"""

#: For every visible card name: its words each on one line (no word split
#: across lines, measured with one Range per word) and no overflow.
NAME_CHECK = """
(root) => {
  const bad = [];
  let checked = 0;
  for (const name of root.querySelectorAll('.card .name')) {
    if (!name.offsetParent || !name.clientWidth) continue;
    const node = name.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) continue;
    checked += 1;
    const text = node.textContent;
    const re = /\\S+/g;
    let m;
    while ((m = re.exec(text))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
      const tops = new Set(rects.map((r) => Math.round(r.top)));
      if (tops.size > 1) bad.push(`${text}: "${m[0]}" on ${tops.size} lines`);
    }
    if (name.scrollWidth > name.clientWidth + 1) {
      bad.push(`${text}: ${name.scrollWidth}px in ${name.clientWidth}px`);
    }
  }
  return {bad, checked};
}
"""

#: Every control in the page has a name a screen reader can say.
UNNAMED = """
() => Array.from(document.querySelectorAll('#app :is(button, a, select, input, summary)'))
  .filter((el) => !(el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')
                    || el.textContent.trim()))
  .map((el) => el.outerHTML.slice(0, 120))
"""


@pytest.fixture(scope="module")
def look_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("look") / "web.sqlite3").start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("screenshots")


def open_page(
    browser: Any,
    errors: list[str],
    width: int,
    lang: str = "en",
    reduced_motion: str = "no-preference",
) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": 900}, reduced_motion=reduced_motion
    )
    context.add_init_script(f"localStorage.setItem('dragonante.lang', '{lang}');")
    context.add_init_script(COUNT_ANIMATIONS)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def key_answer(page: Any, rng: random.Random) -> bool:
    """Answer this page's question with a number key, if it has one."""
    answers = page.locator("#question .answer:not([disabled])")
    n = answers.count()
    if not n:
        return False
    decision = page.get_attribute("#question", "data-decision", timeout=1000)
    page.keyboard.press(str(rng.randint(1, min(n, 9))))
    try:  # the next frame replaces the question
        gone = page.locator(f'#question[data-decision="{decision}"]')
        expect(gone).to_have_count(0, timeout=5000)
    except AssertionError:
        return False
    return True


def over(page: Any) -> bool:
    return bool(page.locator(".board[data-phase=over]").count() > 0)


@pytest.fixture(scope="module")
def midgame(browser: Any, look_server: ServerProcess) -> tuple[str, str]:
    """A 4-seat table in its first gambit, flights on the table, Ann to answer."""
    with look_server.http() as http:
        code, tokens, _host = make_table(
            http, {"players": 4, "gold_per_player": 8}, ["Ann"], bots=3
        )
    errors: list[str] = []
    page = open_page(browser, errors, 1280)
    page.goto(f"{look_server.base}/t/{code}#token={tokens[0]}")
    rng = random.Random(7)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page.wait_for_selector("#question .answer:not([disabled])")
        flights = page.locator(".seat .flight .card").count()
        if flights >= 3 and page.locator("#question[data-kind=play]").count():
            break
        key_answer(page, rng)
    else:
        raise AssertionError("the game did not reach the middle of a gambit")
    page.context.close()
    assert not errors, errors
    return code, tokens[0]


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    found: list[dict[str, float]] = page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}; })",
    )
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"] - 1
        and b["x"] < a["x"] + a["w"] - 1
        and a["y"] < b["y"] + b["h"] - 1
        and b["y"] < a["y"] + a["h"] - 1
    )


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_table_mid_game_at_every_width(
    browser: Any,
    look_server: ServerProcess,
    midgame: tuple[str, str],
    shots: Path,
    width: int,
    lang: str,
):
    code, token = midgame
    errors: list[str] = []
    page = open_page(browser, errors, width, lang)
    page.goto(f"{look_server.base}/t/{code}#token={token}")
    page.wait_for_selector("#question .answer")
    page.wait_for_timeout(150)  # let the names be fitted and the fonts settle
    shot = shots / f"table-{width}-{lang}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000

    # No sideways scrolling, at any width.
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # Every seat is there, inside the page, and (around the oval) apart.
    seats = boxes(page, "#seats .seat")
    assert len(seats) == 4
    for box in seats:
        assert box["w"] > 100 and box["h"] > 40
        assert box["x"] >= 0 and box["x"] + box["w"] <= width
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            assert not overlap(a, b), (a, b)
    if width >= 768:  # the oval: a seat on each side of the felt, one across
        felt = boxes(page, "#seats .felt")[0]
        left = boxes(page, ".ring-left .seat")[0]
        right = boxes(page, ".ring-right .seat")[0]
        top = boxes(page, ".ring-top .seat")[0]
        me = boxes(page, ".ring-bottom .seat")[0]
        assert left["x"] + left["w"] <= felt["x"] + 1 < right["x"]
        assert top["y"] + top["h"] <= me["y"]
    assert page.locator(".ring-bottom .seat.me").count() == 1

    # Ann is asked: her seat is the one marked, for eyes and screen readers.
    acting = page.locator(".seat.acting")
    expect(acting).to_have_count(1)
    expect(acting).to_have_attribute("data-seat", "0")
    expect(acting).to_have_attribute("aria-current", "true")
    expect(acting.locator(".turn-mark")).to_be_visible()
    expect(page.locator(".seat.leader .tag.lead")).to_have_count(1)

    # Cards are drawn as cards, and no name is broken inside a word.
    assert page.locator("#hand .card svg.card-art").count() >= 1
    result = page.evaluate(NAME_CHECK, page.locator("#app").element_handle())
    assert result["checked"] >= 5
    assert not result["bad"], result["bad"]

    # Texts in the chosen language; every control has a name.
    words = {"en": ("Hoard", "Your decision"), "it": ("Tesoro", "Tocca a te")}[lang]
    assert words[0] in page.inner_text("#seats .seat.me")
    assert words[1] in page.inner_text("#question")
    assert page.evaluate(UNNAMED) == []
    page.context.close()
    assert not errors, errors


def test_no_card_name_breaks_inside_a_word_at_phone_width(browser: Any, look_server: ServerProcess):
    """Every card of every deck, both sizes, both languages, at 375 px."""
    errors: list[str] = []
    page = open_page(browser, errors, 375)
    page.goto(look_server.base + "/")
    page.wait_for_selector(
        "#create", state="attached"
    )  # the lobby is drawn once the cards are loaded
    for lang in ("en", "it"):
        page.select_option("#lang-select", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        result = page.evaluate(
            """async () => {
              const cards = await import('/static/js/cards.js');
              const box = document.createElement('div');
              box.id = 'every-card';
              for (const small of [false, true]) {
                const row = document.createElement('div');
                row.className = 'cards';
                cards.allCards().forEach((c, n) => row.append(cards.cardEl(n, {small})));
                box.append(row);
              }
              document.getElementById('app').append(box);
              cards.fitNames(box);
              return null;
            }"""
        )
        assert result is None
        checked = page.evaluate(NAME_CHECK, page.locator("#every-card").element_handle())
        assert checked["checked"] >= 2 * 150
        assert not checked["bad"], (lang, checked["bad"][:10])
        # The long names are there, whole: "Dragon" / "Drago" on one line.
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        page.evaluate("document.getElementById('every-card').remove()")
    assert not errors, errors


def play_some(page: Any, rng: random.Random, answers: int) -> None:
    done = 0
    deadline = time.monotonic() + 30
    while done < answers and time.monotonic() < deadline and not over(page):
        page.wait_for_selector("#question .answer:not([disabled]), .board[data-phase=over]")
        if key_answer(page, rng):
            done += 1
    assert done >= min(answers, 3)


@pytest.mark.parametrize("reduced", [False, True])
def test_animations_and_reduced_motion(browser: Any, look_server: ServerProcess, reduced: bool):
    with look_server.http() as http:
        config = {"players": 3, "gold_per_player": 8}
        code, tokens, _host = make_table(http, config, ["Ann"], bots=2)
    errors: list[str] = []
    page = open_page(browser, errors, 1280, reduced_motion="reduce" if reduced else "no-preference")
    page.goto(f"{look_server.base}/t/{code}#token={tokens[0]}")
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches") is reduced
    play_some(page, random.Random(1), 8)  # antes paid, the ante revealed, cards played
    played = page.evaluate("window.__animations")
    if reduced:
        assert played == 0
        assert page.evaluate("document.getAnimations().length") == 0
        hover = page.locator("#hand .card").first
        hover.hover()
        assert page.evaluate(
            "getComputedStyle(document.querySelector('#hand .card')).transitionDuration"
        ) in ("0s", "0s, 0s")
    else:
        assert played > 0
    assert not errors, errors


def test_a_whole_game_with_the_number_keys(browser: Any, look_server: ServerProcess):
    with look_server.http() as http:
        code, tokens, _host = make_table(
            http, {"players": 2, "gold_per_player": 8, "ending": {"gambits": 1}}, ["Ann"], bots=1
        )
    errors: list[str] = []
    page = open_page(browser, errors, 375)
    page.goto(f"{look_server.base}/t/{code}#token={tokens[0]}")
    page.wait_for_selector("#question .answer")
    # The question and the log are announced; answers show their keys.
    expect(page.locator("#log")).to_have_attribute("aria-live", "polite")
    expect(page.locator("#announcer")).to_have_attribute("aria-live", "assertive")
    expect(page.locator("#announcer")).not_to_be_empty()
    expect(page.locator("#question .answer").first).to_have_attribute("aria-keyshortcuts", "1")
    for card in page.locator("#hand .card").all():
        assert "strength" in (card.get_attribute("aria-label") or "").lower()

    # Enter presses the focused answer; the next question gets the focus.
    decision = page.get_attribute("#question", "data-decision")
    page.locator("#question .answer").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f'#question[data-decision="{decision}"]')).to_have_count(0)
    # The game may be over already: a card that takes all the stakes in the
    # first round ends the only gambit (one game in many thousands).
    page.wait_for_selector("#question .answer:not([disabled]), .board[data-phase=over]")
    if not over(page):
        assert page.evaluate("document.activeElement?.classList.contains('answer')")

    rng = random.Random(11)
    deadline = time.monotonic() + 90
    while not over(page):
        assert time.monotonic() < deadline, "the game did not end"
        if not key_answer(page, rng):
            page.wait_for_timeout(30)
    summary = page.locator("#game-summary")
    expect(summary).to_be_visible()
    expect(summary.locator(".scores tbody tr")).to_have_count(2)
    expect(summary.locator(".scores tr.winner")).not_to_have_count(0)
    # Each change is counted from the starting gold (one gambit was played).
    with look_server.http() as http:
        start = http.get(f"/api/tables/{code}").json()["starting_gold"]
    rows = summary.locator(".scores tbody tr")
    for i in range(2):
        gold = int(rows.nth(i).locator(".gold").inner_text())
        change = rows.nth(i).locator(".change").inner_text()
        assert int(change or "0") == gold - start, (gold, change, start)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.evaluate(UNNAMED) == []
    assert not errors, errors
