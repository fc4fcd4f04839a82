"""The browser table's "Rules" dialog and gambit history, in Debian's Chromium (issue 31 §4).

One short game: the header's Rules button opens the primer (every section,
the contents jump to one), the history beside the log follows the gambit
(rounds, who played what, the next leader), and both switch to Italian with
the page.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from dragonante.interfaces import primer
from tests.web.browser import CHROMIUM
from tests.web.helpers import LiveServer, make_table

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"{CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)


def test_the_rules_dialog_and_the_gambit_history(browser: Any, server: LiveServer) -> None:
    with server.http() as http:
        config = {"players": 3, "gold_per_player": 20, "ending": {"gambits": 2}}
        code, tokens, _host = make_table(http, config, ["Ann"], bots=2)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/t/{code}#token={tokens[0]}")
    page.wait_for_selector("#question .answer")

    # The primer, from the header: every section, and the contents jump to one.
    expect(page.locator("#nav-rules")).to_have_text("Rules")
    page.click("#nav-rules")
    dialog = page.locator("dialog#primer")
    expect(dialog.locator("h2")).to_have_text("Three-Dragon Ante: the rules in brief")
    expect(dialog.locator("section h3")).to_have_count(len(primer.SECTIONS))
    dialog.locator(".primer-contents a", has_text="When a power triggers").click()
    expect(dialog.locator("#primer-trigger")).to_be_in_viewport()
    expect(dialog.locator("#primer-flights li").first).to_contain_text("Color flight")
    dialog.locator(".primer-close").click()
    expect(dialog).not_to_be_visible()

    # Play until the history shows a finished round (the bots answer at once).
    deadline = time.monotonic() + 60
    while page.locator("#history .history-round").count() < 2:
        assert time.monotonic() < deadline, page.inner_text("#history")
        if page.locator("#question .answer:not([disabled])").count():
            page.keyboard.press("1")
        page.wait_for_timeout(60)
    history = page.inner_text("#history")
    assert "Gambit 1" in history and "Ante: " in history
    assert "Round 1, led by" in history and "next leader: " in history
    assert "You: " in history

    # Italian: the button, the dialog and the history, worded again by the server.
    page.select_option("#lang-select", "it")
    expect(page.locator("#nav-rules")).to_have_text("Regole")
    expect(page.locator("#history-title")).to_have_text("Questa sfida")
    expect(page.locator("#history")).to_contain_text("comandato da")
    page.click("#nav-rules")
    expect(dialog.locator("h2")).to_have_text("Tre Draghi al Buio: le regole in breve")
    expect(dialog.locator("#primer-trigger h3")).to_have_text("Quando un potere si innesca")
    page.keyboard.press("Escape")
    expect(dialog).not_to_be_visible()
    context.close()
    assert not errors, errors
