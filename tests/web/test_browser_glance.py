"""The browser table at a glance, in Debian's Chromium (issue 25, section 4).

At 1280x800 and 1366x768 the question, your hand and the table are on one
screen without scrolling; on a phone (375 px wide) the answers and the hand
are together. That holds at the start, in the middle of a gambit, after a
gambit's summary (which floats over the seats, never above the question)
and at game over (whose box is in the middle of the screen). A card that
answers the question is chosen by clicking it in the hand (a tap opens its
text first); the number keys keep working. Icons are SVG, not emoji; the
ante shows no "round 0" and no leader; the coins land beside the word
"Stakes", not on it.

The screenshots of every stage and size are saved in the test's temporary
directory (``pytest --basetemp DIR`` keeps them somewhere known).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from dragonante.engine.decisions import CODE_ANSWERS, SEAT_ANSWERS
from dragonante.interfaces.web.tables.live import PRIVATE_KIND
from tests.web.browser import CHROMIUM, ServerProcess
from tests.web.helpers import make_table

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"{CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)

#: name -> (width, height): two laptop screens and a phone 375 px wide (812
#: high, as most are now; on a 667 px one, seven answers and seven cards
#: are a little more than a screen, the hand still right under the answers).
SCREENS = {"1280x800": (1280, 800), "1366x768": (1366, 768), "phone": (375, 812)}
#: Emoji and pictographic symbols (shapes, dingbats, emoji): a missing-glyph
#: box without an emoji font. The table draws its icons as SVG instead.
PICTOGRAPHS = re.compile("[\u25a0-\u27bf\U0001f000-\U0001faff]")

#: Where a selector's element is, in viewport pixels (None if absent).
RECT = """
(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          vw: innerWidth, vh: innerHeight};
}
"""

#: Is the element at the middle of `sel` (the topmost there) inside `sel`?
ON_TOP = """
(sel) => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 20));
  return Boolean(hit && el.contains(hit));
}
"""


@pytest.fixture(scope="module")
def glance_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("glance") / "web.sqlite3").start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("glance-shots")


def open_seat(
    browser: Any, errors: list[str], url: str, size: tuple[int, int], touch: bool = False
) -> Any:
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, has_touch=touch, is_mobile=False
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page


def sent_answers(page: Any) -> list[dict[str, Any]]:
    """Every answer frame the page sends, parsed."""
    sent: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: str | bytes) -> None:
            msg = json.loads(payload if isinstance(payload, str) else payload.decode())
            if msg.get("type") == "answer":
                sent.append(msg)

        ws.on("framesent", on_frame)

    page.on("websocket", on_socket)
    return sent


def rect(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] | None = page.evaluate(RECT, selector)
    assert box is not None, f"{selector} is not in the page"
    return box


def assert_in_view(page: Any, selector: str, where: str) -> dict[str, float]:
    """The whole element is inside the viewport, with no scrolling."""
    box = rect(page, selector)
    assert box["top"] >= 0 and box["bottom"] <= box["vh"] + 0.5, (where, selector, box)
    assert box["left"] >= 0 and box["right"] <= box["vw"] + 0.5, (where, selector, box)
    return box


def assert_glance(page: Any, name: str, stage: str, shots: Path) -> None:
    """What one screen shows at one stage of the game."""
    width, _height = SCREENS[name]
    page.wait_for_timeout(250)  # names fitted, the coins landed
    page.screenshot(path=str(shots / f"{stage}-{name}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, stage)
    if width >= 700:  # nothing needed a scroll
        assert page.evaluate("scrollY") == 0, (name, stage)
    hand = assert_in_view(page, "#hand", f"{name} {stage}")
    assert page.locator("#hand .card").count() >= 1 or stage == "over"
    text = page.inner_text("#app")
    assert not PICTOGRAPHS.findall(text), (name, stage, PICTOGRAPHS.findall(text))
    if stage == "over":
        box = assert_in_view(page, "#game-summary", f"{name} {stage}")
        assert page.evaluate(ON_TOP, "#game-summary .ok")
        assert page.locator("#game-summary h2 svg.icon-trophy").count() == 1
        assert box["bottom"] - box["top"] > 100
        return
    question = assert_in_view(page, "#question", f"{name} {stage}")
    # Nothing covers the question's first answer: it can be clicked as seen.
    assert page.evaluate(ON_TOP, "#question .answer")
    if width < 700:
        # The answers and the hand together: the hand right under the question.
        assert 0 <= hand["top"] - question["bottom"] < 24, (question, hand)
        return
    if stage in ("start", "mid"):
        # The whole table too: every seat and the felt above the question.
        seats = rect(page, "#seats")
        assert seats["top"] >= 0 and seats["bottom"] <= question["top"] + 0.5, (seats, question)
    if stage == "gambit":
        # The summary floats over the seats: it does not push the question down.
        summary = assert_in_view(page, "#gambit-summary", f"{name} {stage}")
        assert summary["bottom"] <= question["top"] + 0.5, (summary, question)
        assert page.evaluate(ON_TOP, "#gambit-summary .ok")


def press_an_answer(page: Any, rng: random.Random) -> bool:
    answers = page.locator("#question .answer:not([disabled])")
    n = answers.count()
    if not n:
        return False
    decision = page.get_attribute("#question", "data-decision", timeout=1000)
    page.keyboard.press(str(rng.randint(1, min(n, 9))))
    gone = page.locator(f'#question[data-decision="{decision}"]')
    try:
        expect(gone).to_have_count(0, timeout=5000)
    except AssertionError:
        return False
    return True


def same_question(pages: dict[str, Any], driver: Any) -> None:
    """Every page shows the driver's question (they watch the same seat)."""
    decision = driver.get_attribute("#question", "data-decision")
    for page in pages.values():
        page.wait_for_selector(f'#question[data-decision="{decision}"] .answer:not([disabled])')


def test_the_question_the_hand_and_the_table_on_one_screen(
    browser: Any, glance_server: ServerProcess, shots: Path
):
    """A four-seat game of two gambits, watched on three screens at once."""
    with glance_server.http() as http:
        config = {"players": 4, "gold_per_player": 20, "ending": {"gambits": 2}}
        code, tokens, _host = make_table(http, config, ["Ann"], bots=3)
    url = f"{glance_server.base}/t/{code}#token={tokens[0]}"
    errors: list[str] = []
    pages = {name: open_seat(browser, errors, url, size) for name, size in SCREENS.items()}
    driver = pages["1280x800"]
    driver.wait_for_selector("#question .answer")
    same_question(pages, driver)

    # The ante: no "round 0", nobody leads yet.
    assert driver.locator('.board[data-phase="ante"]').count() == 1
    gambit = driver.inner_text('#seats [data-stat="gambit"]')
    assert "ante" in gambit and "round" not in gambit, gambit
    assert driver.locator(".seat.leader, .tag.lead").count() == 0
    assert driver.locator(".seat.acting .turn-mark svg.icon-turn").count() == 1
    for name, page in pages.items():
        assert_glance(page, name, "start", shots)

    seen: set[str] = set()
    rng = random.Random(5)
    deadline = time.monotonic() + 150
    while driver.locator(".board[data-phase=over]").count() == 0:
        assert time.monotonic() < deadline, f"the game did not end (saw {sorted(seen)})"
        asked = driver.locator("#question .answer:not([disabled])").count() > 0
        playing = asked and driver.locator("#question[data-kind=play]").count() > 0
        if playing and "mid" not in seen and driver.locator(".seat .flight .card").count() >= 3:
            same_question(pages, driver)
            # In play: the round is shown and one seat leads, with a crown.
            assert "round" in driver.inner_text('#seats [data-stat="gambit"]')
            expect(driver.locator(".seat.leader .tag.lead svg.icon-crown")).to_have_count(1)
            for name, page in pages.items():
                assert_glance(page, name, "mid", shots)
            seen.add("mid")
        if asked and "gambit" not in seen and driver.locator("#gambit-summary").count():
            same_question(pages, driver)
            for name, page in pages.items():
                page.wait_for_selector("#gambit-summary")
                assert_glance(page, name, "gambit", shots)
            seen.add("gambit")
        if not press_an_answer(driver, rng):
            driver.wait_for_timeout(30)
    assert seen == {"mid", "gambit"}, seen
    for name, page in pages.items():
        page.wait_for_selector("#game-summary")
        assert_glance(page, name, "over", shots)
    # The box closes, and the table stays as it ended.
    driver.click("#game-summary .ok")
    expect(driver.locator("#game-summary")).to_have_count(0)
    expect(driver.locator(".turn.over")).to_be_visible()
    # The lobby's finished games crown the winners with the same SVG crown.
    driver.goto(glance_server.base + "/")
    game = driver.locator("#finished-games li", has_text=code)
    expect(game.locator(".crown svg.icon-crown")).not_to_have_count(0)
    assert not PICTOGRAPHS.findall(driver.inner_text("#finished-games"))
    for page in pages.values():
        page.context.close()
    assert not errors, errors


def wait_for_card_question(page: Any) -> int:
    """Wait until this seat is asked to choose a card of its hand; its id.

    A question of another kind (a seat, yes or no) is answered with "1"."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        # One look at the page (two could straddle a redraw).
        asked = page.evaluate(
            """() => [document.querySelector('#question .answer:not([disabled])')
                        ?.closest('#question').dataset.decision ?? null,
                      document.querySelectorAll('#hand .card.option').length]"""
        )
        if asked[0] is not None and asked[1]:
            return int(asked[0])
        if asked[0] is not None:
            page.keyboard.press("1")
        page.wait_for_timeout(50)
    raise AssertionError("no question about the cards of the hand")


def test_a_click_on_a_card_in_the_hand_chooses_it(browser: Any, glance_server: ServerProcess):
    with glance_server.http() as http:
        config = {"players": 3, "gold_per_player": 20}
        code, tokens, _host = make_table(http, config, ["Ann"], bots=2)
    errors: list[str] = []
    page = open_seat(
        browser, errors, f"{glance_server.base}/t/{code}#token={tokens[0]}", SCREENS["1280x800"]
    )
    sent = sent_answers(page)
    page.reload()  # the recorder sees the socket from its start
    decision = wait_for_card_question(page)

    # Each card that answers shows the number key of its answer button.
    for i, button in enumerate(page.locator("#question .answer").all()[:9]):
        value = button.get_attribute("data-answer")
        card = page.locator(f'#hand .card[data-card="{value}"]')
        expect(card).to_have_class(re.compile(r"\boption\b"))
        expect(card.locator(".card-key")).to_have_text(str(i + 1))

    # A click on an answering card sends it as the answer to this question.
    card = page.locator("#hand .card.option").last
    value = int(card.get_attribute("data-card") or "-1")
    card.click()
    expect(page.locator(f'#question[data-decision="{decision}"]')).to_have_count(0)
    assert sent[-1] == {"type": "answer", "decision": decision, "answer": value}, sent
    expect(page.locator(f'#hand .card[data-card="{value}"]')).to_have_count(0)
    # The mouse may rest on the card that took its place (its text shows,
    # as on any hover), never with a choice left from the question answered.
    for choose in page.locator("#card-detail:not([hidden]) .choose").all():
        expect(choose).not_to_contain_text("ante card")
    page.mouse.move(5, 5)
    expect(page.locator("#card-detail")).to_be_hidden()

    # The number keys still answer: "1" sends the first answer button's value.
    decision = wait_for_card_question(page)
    first = int(page.get_attribute("#question .answer >> nth=0", "data-answer") or "-9")
    page.keyboard.press("1")
    expect(page.locator(f'#question[data-decision="{decision}"]')).to_have_count(0)
    assert sent[-1] == {"type": "answer", "decision": decision, "answer": first}, sent

    # A card that answers nothing opens its text and sends nothing.
    wait_for_card_question(page)
    count = len(sent)
    plain = page.locator("#seats .flight .card:not(.option)").first
    plain.click()
    expect(page.locator("#card-detail")).to_be_visible()
    expect(page.locator("#card-detail .choose")).to_have_count(0)
    page.keyboard.press("Escape")
    assert len(sent) == count
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("name", ["phone", "1280x800"])
def test_a_tap_reads_the_card_and_a_second_tap_chooses_it(
    browser: Any, glance_server: ServerProcess, name: str
):
    """On a touch screen there is no hover: the first tap shows the card's
    text with a button to choose it; that button, or a second tap on the
    card, chooses it."""
    with glance_server.http() as http:
        code, tokens, _host = make_table(http, {"players": 2}, ["Ann"], bots=1)
    errors: list[str] = []
    url = f"{glance_server.base}/t/{code}#token={tokens[0]}"
    page = open_seat(browser, errors, url, SCREENS[name], touch=True)
    sent = sent_answers(page)
    page.reload()
    decision = wait_for_card_question(page)
    card = page.locator("#hand .card.option").first
    value = int(card.get_attribute("data-card") or "-1")
    card.tap()
    expect(page.locator("#card-detail")).to_be_visible()
    expect(page.locator("#card-detail h4").first).not_to_be_empty()
    expect(page.locator("#card-detail .choose")).to_be_visible()
    assert sent == []
    if name == "phone":  # the text covers the lower half: its button chooses
        page.locator("#card-detail .choose").tap()
    else:
        page.locator(f'#hand .card[data-card="{value}"]').tap()
    expect(page.locator(f'#question[data-decision="{decision}"]')).to_have_count(0)
    assert sent == [{"type": "answer", "decision": decision, "answer": value}], sent
    expect(page.locator("#card-detail")).to_be_hidden()
    page.context.close()
    assert not errors, errors


#: Fly the ante's coins (every seat pays into the stakes), stop each coin
#: where it lands, and return the landed coins' boxes and the word's box.
LANDED_COINS = """
async () => {
  const { animateEvents } = await import('/static/js/motion.js');
  const board = document.querySelector('.board');
  const before = new Set(document.getAnimations());
  animateEvents(board, [{kind: 'ante_paid', data: {}}]);
  const coins = [];
  for (const anim of document.getAnimations()) {
    if (before.has(anim) || !anim.effect.target.classList.contains('flying')) continue;
    anim.pause();
    anim.currentTime = anim.effect.getComputedTiming().endTime - 1;
    const r = anim.effect.target.getBoundingClientRect();
    coins.push({left: r.left, right: r.right, top: r.top, bottom: r.bottom});
  }
  const word = document.querySelector('#stakes .label').getBoundingClientRect();
  return {coins, word: {left: word.left, right: word.right, top: word.top, bottom: word.bottom}};
}
"""


@pytest.mark.parametrize("name", ["1366x768", "phone"])
def test_the_coins_land_beside_the_word_stakes(
    browser: Any, glance_server: ServerProcess, name: str
):
    with glance_server.http() as http:
        code, tokens, _host = make_table(http, {"players": 4}, ["Ann"], bots=3)
    errors: list[str] = []
    url = f"{glance_server.base}/t/{code}#token={tokens[0]}"
    page = open_seat(browser, errors, url, SCREENS[name])
    page.wait_for_selector("#stakes .label")
    if name == "phone":  # the felt is below the dock on a phone
        page.locator("#stakes").scroll_into_view_if_needed()
    result = page.evaluate(LANDED_COINS)
    assert len(result["coins"]) == 4
    word = result["word"]
    for coin in result["coins"]:
        apart = (
            coin["right"] <= word["left"] + 0.5
            or coin["left"] >= word["right"] - 0.5
            or coin["bottom"] <= word["top"] + 0.5
            or coin["top"] >= word["bottom"] - 0.5
        )
        assert apart, (coin, word)
    page.context.close()
    assert not errors, errors


def test_only_card_questions_mark_cards(browser: Any, glance_server: ServerProcess):
    """The page's list of questions whose answers are not cards is the
    engine's: otherwise a card whose number equals a seat or a yes/no code
    would be marked, and a click on it would send that seat or code."""
    errors: list[str] = []
    page = open_seat(browser, errors, glance_server.base + "/", SCREENS["1280x800"])
    page.wait_for_selector("#create", state="attached")
    kinds = page.evaluate(
        "async () => [...(await import('/static/js/render.js')).NOT_CARD_KINDS].sort()"
    )
    assert kinds == sorted(SEAT_ANSWERS | CODE_ANSWERS | {PRIVATE_KIND})
    page.context.close()
    assert not errors, errors
