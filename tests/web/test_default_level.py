"""The bots' default level is the same everywhere (issue 32 §6): medium.

A newcomer met easy bots in one place and medium ones in another.  Every
front end that seats a bot without being told a level gives it the same
one: the web server (a bot seated with no level, ``/api/meta``'s default
that the lobby and the table's bot menus start from, an away seat's bot)
and the terminal (``play``'s opponents, ``play --join``'s bots).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from dragonante.interfaces.cli.play import DEFAULT_OPPONENTS, play_command
from dragonante.interfaces.tui.online import OnlineTableApp
from dragonante.interfaces.web.shared.settings import DEFAULT_BOT_LEVEL, Settings
from tests.web.helpers import LiveServer


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(str(tmp_path / "web.sqlite3")).start()
    yield live
    live.stop()


def test_every_front_end_starts_from_the_medium_bot() -> None:
    assert DEFAULT_BOT_LEVEL == "medium"
    assert DEFAULT_OPPONENTS == DEFAULT_BOT_LEVEL
    assert Settings().away_bot == DEFAULT_BOT_LEVEL
    assert inspect.signature(play_command).parameters["bot_level"].default == DEFAULT_BOT_LEVEL
    assert inspect.signature(OnlineTableApp).parameters["bot_level"].default == DEFAULT_BOT_LEVEL


def test_a_bot_seated_without_a_level_is_medium(serve: LiveServer) -> None:
    with serve.http() as http:
        assert http.get("/api/meta").json()["defaults"]["bot_level"] == "medium"
        made = http.post("/api/tables", json={"config": {"players": 3}}).json()
        auth = {"Authorization": f"Bearer {made['host_token']}"}
        code = made["code"]
        assert (
            http.post(f"/api/tables/{code}/bots", json={"seat": 1}, headers=auth).status_code == 201
        )
        r = http.post(f"/api/tables/{code}/bots", json={"fill": True}, headers=auth)
        assert r.status_code == 201, r.text
        seats = http.get(f"/api/tables/{code}").json()["seats"]
        assert [s["bot"] for s in seats] == ["medium"] * 3
        # a level that is not one is still refused
        r = http.post(f"/api/tables/{code}/bots", json={"level": 7, "seat": 0}, headers=auth)
        assert r.status_code == 400 and r.json()["error"] == "bad_bot"
