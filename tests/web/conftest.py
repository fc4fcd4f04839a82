"""Fixtures for the web tests: a live server on a temporary database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.helpers import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("web") / "web.sqlite3"
    live = LiveServer(str(db)).start()
    yield live
    live.stop()
