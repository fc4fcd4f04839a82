"""``play --join --plain``: a seat on a real server, played at the numbered prompts.

The plain prompts are the loop of a local ``play --plain`` drawing an
:class:`~dragonante.interfaces.online_source.OnlineSource` (the table-source
seam): a whole game is played from a script of answers, in a terminal and
from a pipe, the host fills and starts its table from the prompts, a hint
comes from the server where the table gives one and is refused where it
does not, and the full screen's ``h`` key asks the same server.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Iterator

import pytest

from dragonante.interfaces.cli import play as play_module
from dragonante.interfaces.online_source import OnlineSource
from dragonante.interfaces.table_source import TableSource
from dragonante.interfaces.tui.lobby import Target, join
from dragonante.interfaces.tui.online import OnlineTableApp
from dragonante.interfaces.tui.question import QuestionPanel
from dragonante.interfaces.tui.screens import CardScreen
from dragonante.interfaces.web.hub import Settings
from tests.web.helpers import LiveServer

from ..conftest import Cli
from .helpers import screen_text
from .test_join import open_table, until

#: Enough answers for a whole two-player game (each question takes choice 1).
ANSWERS = "1\n" * 600


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("join_plain") / "web.sqlite3"
    live = LiveServer(str(db), Settings(bot_delay=0, hint_iters=40)).start()
    yield live
    live.stop()


def start(server: LiveServer, code: str, host: str) -> None:
    with server.http() as http:
        r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
        assert r.status_code == 200, r.text


class TtyInput:
    """A script of answers that says it is a terminal (``isatty``)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines(keepends=True)

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return self.lines.pop(0) if self.lines else ""


def test_the_online_source_is_a_table_source(server: LiveServer) -> None:
    code, _host = open_table(server)
    source = OnlineSource(join(Target(server.base, code), "Ann"), "en")
    try:
        assert isinstance(source, TableSource)
        assert source.view() is None and source.prompt() is None  # not started yet
    finally:
        source.close()


def test_create_plain_in_a_terminal_the_host_fills_starts_and_asks_a_hint(
    cli: Cli, server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a terminal, ``--plain`` means the prompts (before: the full screen opened)."""

    def no_screen(*args: object) -> int:
        raise AssertionError("--plain opened the full-screen table")

    monkeypatch.setattr(play_module, "is_terminal", lambda stream: True)
    monkeypatch.setattr(play_module, "run_online", no_screen)
    create = ["play", "--create", "--players", "2", "--server", server.base, "--name", "Hal"]
    r = cli(
        [*create, "--bot-level", "random", "--plain"],
        TtyInput("\nx\nb\ng\nhint\n" + ANSWERS),
    )
    assert r.code == 0, r.err
    out = r.out
    assert "Traceback" not in out + r.err
    assert "You made this table" in out
    assert "'x' is not a lobby command" in out
    assert "Hal (you)" in out and "(bot, random)" in out
    assert "Your choice (1-" in out and "You ante " in out
    assert "The hard bot is thinking about your question..." in out
    assert "Hint: the hard bot would choose " in out  # the server's hint, in words
    assert "You win the game!" in out or "Winner: " in out or "You share the victory" in out


def test_a_table_with_other_people_gives_no_hint_and_quitting_keeps_the_seat(
    cli: Cli, server: LiveServer
) -> None:
    code, host = open_table(server, players=2, bots=0)
    with server.http() as http:
        made = http.post(f"/api/tables/{code}/seats", json={"name": "Bob", "seat": 1})
        assert made.status_code == 201, made.text
    seating = join(Target(server.base, code), "Ann")
    start(server, code, host)
    r = cli(
        ["play", "--join", seating.resume_url, "--plain", "--lang", "it"],
        "consiglio\nq\n",
    )
    assert r.code == 0, r.err
    assert "Niente consigli a questo tavolo" in r.out
    assert "Il bot difficile" not in r.out
    assert f"Il tuo posto al tavolo {code}" in r.out or code in r.out.splitlines()[-1]


def test_join_without_plain_still_needs_a_terminal(cli: Cli) -> None:
    r = cli(["play", "--join", "ABCDEF", "--name", "Ann"], "")
    assert r.code == 2 and "--plain" in r.err


def test_the_full_screen_h_key_shows_the_servers_hint(server: LiveServer) -> None:
    code, host = open_table(server, players=2, bots=1)
    seating = dataclasses.replace(join(Target(server.base, code), "Ann"), host=host)

    async def run() -> None:
        app = OnlineTableApp(seating, "en")
        async with app.run_test(size=(110, 36)) as pilot:
            await until(pilot, lambda: app.connections == 1)
            assert "h hint" not in screen_text(app)  # the lobby: no question to ask about
            await pilot.press("g")
            panel = app.query_one(QuestionPanel)
            await until(pilot, lambda: panel.prompt is not None)
            assert "h hint" in screen_text(app)  # alone among bots: hints are on
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, CardScreen), timeout=60)
            text = screen_text(app)
            assert "Hint: the hard bot would choose " in text
            await pilot.press("escape")
            await pilot.press("q")

    asyncio.run(run())


def test_a_guest_is_not_offered_the_hosts_keys(server: LiveServer) -> None:
    code, _host = open_table(server, players=3, bots=1)
    guest = join(Target(server.base, code), "Gus")
    hosting = dataclasses.replace(join(Target(server.base, code), "Hana"), host=_host)

    async def run(seating: object) -> str:
        app = OnlineTableApp(seating, "en")  # type: ignore[arg-type]
        async with app.run_test(size=(110, 36)) as pilot:
            await until(pilot, lambda: app.connections == 1)
            text = screen_text(app)
            await pilot.press("q")
        return text

    text = asyncio.run(run(guest))
    assert "g start" not in text and "b fill with bots" not in text
    assert "Waiting for the host to start the game." in text
    text = asyncio.run(run(hosting))
    assert "g start" in text and "b fill with bots" in text


def test_a_guest_at_the_plain_prompts_waits_for_the_host_without_its_keys(
    cli: Cli, server: LiveServer
) -> None:
    """A guest is shown the lobby and waits: ``b`` and ``g`` are the host's."""
    code, host = open_table(server, players=2, bots=1)
    guest = join(Target(server.base, code), "Gus")
    starter = threading.Timer(1.5, start, (server, code, host))
    starter.start()
    try:
        r = cli(["play", "--join", guest.resume_url, "--plain"], TtyInput("q\n"))
    finally:
        starter.join()
    assert r.code == 0, r.err
    assert "Traceback" not in r.out + r.err
    assert "Gus (you)" in r.out  # the lobby, told to the guest too
    assert "b bots, g start" not in r.out and "You made this table" not in r.out
    assert "Your choice (1-" in r.out  # the game came to the guest once the host started
