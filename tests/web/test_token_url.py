"""Issue 22, hole 8: the seat token left the address bar only when the game did.

A link with ``#token=...`` (the lobby's, a rematch's) stayed in the address
bar all game, so copying the address to show someone the table handed them
the seat.  The page now reads the token once, keeps it in the browser's
storage and takes it out of the address at once; the game-master view's
token is kept for that tab only.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import CHROMIUM, ServerProcess

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path / "web.sqlite3").start()
    yield s
    s.stop()


def test_the_token_leaves_the_address_bar_and_the_seat_stays(browser: Any, server: ServerProcess):
    config = {"players": 4, "abilities": {"system": "disks", "assign": "random"}}
    with server.http() as http:
        made = http.post("/api/tables", json={"config": config}).json()
        code, gm = made["code"], made["gm_token"]
        r = http.post(f"/api/tables/{code}/seats", json={"name": "Ann", "seat": 0})
        token = r.json()["token"]
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{server.base}/t/{code}#token={token}")
    page.wait_for_selector("#playing-as")
    assert "Ann" in page.inner_text("#playing-as")
    assert page.url == f"{server.base}/t/{code}"  # nothing to copy but the table
    assert page.evaluate("history.length") == 2  # the token's entry was replaced
    page.reload()  # the page kept the seat without the address
    page.wait_for_selector("#playing-as")
    assert "Ann" in page.inner_text("#playing-as")

    # A stranger given the copied address is only a spectator.
    stranger = browser.new_context().new_page()
    stranger.goto(page.url)
    stranger.wait_for_selector("#seating")
    assert stranger.locator("#playing-as").count() == 0

    # The game-master link: read, then kept for this tab only.
    viewer = browser.new_context().new_page()
    viewer.set_default_timeout(15000)
    viewer.goto(f"{server.base}/t/{code}#gm={gm}")
    viewer.wait_for_selector("#gm-view")
    assert viewer.url == f"{server.base}/t/{code}"
    viewer.reload()
    viewer.wait_for_selector("#gm-view")
    context.close()
