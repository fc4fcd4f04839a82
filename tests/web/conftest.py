"""Fixtures for the web tests: a live server on a temporary database, and
Debian's Chromium for the browser tests (``browser``: one per test module)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import CHROMIUM, CHROMIUM_ARGS
from tests.web.helpers import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("web") / "web.sqlite3"
    live = LiveServer(str(db)).start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright  # imported here: it reads the env var

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
