""" "Why?" in the browser (issue 31 §2): a click on a log line shows the rule behind it.

One two-seat table against a bot, in Debian's Chromium: a line of the log
opens the rule in the project's words with the book and section; a
triggered power's line (and its steps) shows the card's own text; the
answers of a play question say why each card would trigger or not.  The
rule words come from ``/api/rules``, in the page's language.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from dragonante.cards import ALL_CARDS
from dragonante.i18n import t
from dragonante.interfaces.events import section_name
from tests.web.browser import CHROMIUM, ServerProcess
from tests.web.helpers import make_table

#: How many lines of text the keys' line takes (its height over its line height).
KEYS_LINE_HEIGHT = """
() => {
  const el = document.querySelector("#keys-help");
  return el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight);
}
"""

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"{CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("why") / "web.sqlite3").start()
    yield s
    s.stop()


def _answer(page: Any) -> None:
    decision = page.get_attribute("#question", "data-decision")
    page.keyboard.press("1")
    page.wait_for_selector(f'#question:not([data-decision="{decision}"]), .board[data-phase=over]')


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_click_on_a_log_line_shows_its_rule(browser: Any, server: ServerProcess, lang: str):
    with server.http() as http:
        code, tokens, _host = make_table(http, {"players": 2, "gold_per_player": 30}, ["Ann"], 1)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(f"localStorage.setItem('dragonante.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/t/{code}#token={tokens[0]}")
    page.wait_for_selector("#question .answer")

    # the game's first line: the setup, cited from the book
    page.click("#log li[data-kind=setup]")
    panel = page.locator("#card-detail")
    panel.wait_for(state="visible")
    assert t("why.setup", lang) in panel.inner_text()
    assert f"“{section_name('Legendary', 'SETUP', lang)}”" in panel.inner_text()
    page.keyboard.press("Escape")

    # play until a power has triggered; its line shows the card's own text
    for _ in range(30):
        if page.locator("#log li[data-kind=power]").count():
            break
        if page.locator("#question[data-kind=play]").count():
            whys = page.locator("#question .answer .answer-why").all_inner_texts()
            word = (
                "triggers" if lang == "en" else "si innesca",
                "trigger" if lang == "en" else "innesca",
            )
            assert whys and all(word[1] in w for w in whys), whys
            # The one under the pointer is said in the keys' line, on one line.
            page.hover("#question .answer >> nth=-1")
            expect(page.locator("#keys-help.why")).to_have_text(whys[-1])
            assert page.evaluate(KEYS_LINE_HEIGHT) < 2, "the keys' line wrapped"
        _answer(page)
    line = page.locator("#log li[data-kind=power]").first
    line.click()
    panel.wait_for(state="visible")
    shown = panel.inner_text()
    assert t("why.power", lang) in shown
    assert any(c.type.text(lang) and c.type.text(lang) in shown for c in ALL_CARDS), shown
    assert not errors, errors
    context.close()


def test_the_rules_endpoint_words_every_rule_in_the_asked_language(server: ServerProcess):
    it = httpx.get(f"{server.base}/api/rules?lang=it").json()
    assert it["rules"]["why.play"] == t("why.play", "it")
    assert it["books"]["Legendary"] == "Tre Draghi al Buio: Edizione Leggendaria"
    assert ["Legendary", "Innescare i Poteri"] in it["refs"]  # the Italian edition's heading
    # an unknown language is English, not an error
    xx = httpx.get(f"{server.base}/api/rules?lang=xx")
    assert xx.status_code == 200 and xx.json()["rules"]["why.play"] == t("why.play", "en")
