"""Fixtures for the web tests: a live server on a temporary database, and
Debian's Chromium for the browser tests (``browser``: one per test module)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dragonante.interfaces.web.shared.settings import Settings
from tests.web.browser import CHROMIUM, CHROMIUM_ARGS, PageWatch, ServerProcess, WatchedBrowser
from tests.web.helpers import LiveServer

# The pages the running test opened (cleared before each test), for the report.
WATCHES: list[PageWatch] = []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("web") / "web.sqlite3"
    live = LiveServer(str(db)).start()
    yield live
    live.stop()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Start servers of given ``Settings`` (bots without delay) on fresh
    databases; all stopped after the test."""
    started: list[LiveServer] = []

    def start(**settings: Any) -> LiveServer:
        settings.setdefault("bot_delay", 0)
        live = LiveServer(str(tmp_path / f"web{len(started)}.sqlite3"), Settings(**settings))
        started.append(live.start())
        return live

    yield start
    for live in started:
        live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright  # imported here: it reads the env var

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield WatchedBrowser(b, WATCHES)
        b.close()


@pytest.fixture(autouse=True)
def _forget_pages() -> None:
    WATCHES.clear()


#: Runs of a real-browser test before it fails (see the hook below).
BROWSER_RUNS = 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test in the real browser gets one more run before it fails.

    Chromium, the server and the rest of the suite share two cores, and a
    browser test that waited 15 s for a frame once failed a CI run that 150
    runs alone and several full suites never reproduced.  A second run hides
    no bug that happens every time (it fails twice), the first failure's
    report (pages, frames, server log) still shows under "rerun" in the
    summary (``-ra``), and the rerun is counted there.
    """
    if not items or not items[0].config.pluginmanager.hasplugin("rerunfailures"):
        return  # the plugin turned off (-p no:rerunfailures): one run each
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RUNS - 1))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed browser test reports what its pages saw and its server's log.

    Timeouts in a real browser are the failures hardest to rerun: the report
    must carry the evidence (page errors, frames, what was on screen).
    """
    report = yield
    if report.when == "call" and report.failed:
        for i, watch in enumerate(WATCHES):
            report.sections.append((f"page {i}", watch.report()))
        for name, value in getattr(item, "funcargs", {}).items():
            if isinstance(value, ServerProcess) and value.log.exists():
                tail = value.log.read_text(errors="replace")[-4000:]
                report.sections.append((f"server log ({name})", tail))
    return report
