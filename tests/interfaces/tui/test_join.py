"""``play --join``: a seat at a real server's table, played at the full-screen table.

A real ``dragonante serve`` (uvicorn in a thread, a temporary SQLite file,
as the web tests run it) hosts the table; the test takes a seat through
the lobby API exactly as the command does, then drives the Textual table
with keys until the game's summary, while the server's bots play the other
seats.  The refusals are checked as the one line the command prints.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot

from dragonante.interfaces.cli import play as play_module
from dragonante.interfaces.tui.lobby import (
    JoinError,
    Lobby,
    Seating,
    Target,
    join,
    parse_target,
)
from dragonante.interfaces.tui.online import OnlineTableApp
from dragonante.interfaces.tui.question import NUMBER_KEYS, QuestionPanel
from dragonante.interfaces.tui.screens import SummaryScreen, TextScreen
from dragonante.interfaces.web.hub import Settings
from tests.web.helpers import LiveServer, Seat, free_port

from ..conftest import Cli, assert_one_line_error
from .helpers import screen_text
from .test_cli import FakeTty


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("join") / "web.sqlite3"
    live = LiveServer(str(db)).start()
    yield live
    live.stop()


def open_table(server: LiveServer, players: int = 2, bots: int = 1) -> tuple[str, str]:
    """A table with ``bots`` random bots in its last seats (the first ones free): code, host."""
    with server.http() as http:
        r = http.post("/api/tables", json={"config": {"players": players}})
        assert r.status_code == 201, r.text
        code, host = r.json()["code"], r.json()["host_token"]
        for seat in range(players - bots, players):
            r = http.post(
                f"/api/tables/{code}/bots",
                json={"level": "random", "seat": seat},
                headers={"Authorization": f"Bearer {host}"},
            )
            assert r.status_code == 201, r.text
    return code, host


async def until(pilot: Pilot[int], check: Any, timeout: float = 30.0) -> None:
    """Let the screen and the socket run until ``check()`` holds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the table never got there")
        await pilot.pause(0.01)


async def play_to_end(pilot: Pilot[int], rng: random.Random, timeout: float = 120.0) -> int:
    """Answer each question put to the seat with a random legal answer (number keys, or
    arrows and Enter), closing gambit summaries, until the game's summary; the presses."""
    app = pilot.app
    assert isinstance(app, OnlineTableApp)
    presses = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await pilot.pause(0.01)
        if app.over_shown:
            return presses
        if isinstance(app.screen, TextScreen):
            await pilot.press("escape")
            continue
        prompt = app.query_one(QuestionPanel).prompt
        if prompt is None:
            continue  # someone else deciding, or our answer on its way
        index = rng.randrange(len(prompt.options))
        if index < len(NUMBER_KEYS):
            await pilot.press(NUMBER_KEYS[index])
        else:
            await pilot.press("home", *["down"] * index, "enter")
        presses += 1
    raise AssertionError("the game did not end in time")


def test_parse_target_takes_an_address_or_a_code() -> None:
    assert parse_target("http://example.org:8000/t/qx7m2p") == Target(
        "http://example.org:8000", "QX7M2P"
    )
    assert parse_target("https://h/games/t/QX7M2P/#token=abc") == Target(
        "https://h/games", "QX7M2P", "abc"
    )
    assert parse_target(" crnzwk ", "http://h:1/") == Target("http://h:1", "CRNZWK")
    seating = Seating("https://h/games", "QX7M2P", "abc", 0, {})
    assert seating.ws_url == "wss://h/games/ws/QX7M2P"
    assert parse_target(seating.resume_url).token == "abc"
    for bad in ("no way", "ftp://h/t/CODE", "http://h/lobby", ""):
        with pytest.raises(JoinError) as e:
            parse_target(bad)
        assert e.value.key == "join.error.target"
    with pytest.raises(JoinError) as e:
        parse_target("CODE12", "h:8000")
    assert e.value.key == "join.error.server"


def test_a_whole_game_from_the_lobby_to_the_summary(server: LiveServer) -> None:
    code, host = open_table(server, players=3, bots=2)
    seating = join(Target(server.base, code), "Ann")
    assert seating.seat == 0
    # Only the host starts: the terminal that made the table holds its token.
    seating = dataclasses.replace(seating, host=host)

    async def run() -> None:
        app = OnlineTableApp(seating, "en")
        async with app.run_test(size=(100, 32)) as pilot:
            # the lobby: who sits where, and the keys to start
            await until(pilot, lambda: app.connections == 1)
            text = screen_text(app)
            assert f"Table {code}" in text and "Ann (you)" in text and "(bot, random)" in text
            await pilot.press("g")  # the host starts
            await until(pilot, lambda: app.source.started)
            presses = await play_to_end(pilot, random.Random(4))
            assert presses > 0
            assert isinstance(app.screen, SummaryScreen)
            text = screen_text(app)
            assert "The game is over" in text and "Hoards:" in text
            # only this seat's view ever reached the screen
            assert app.snapshot is not None and app.snapshot.view.seat == 0
            await pilot.press("escape")
            await pilot.press("q")
        assert app.return_code == 0 and app.failure is None

    asyncio.run(run())
    with server.http() as http:
        assert http.get(f"/api/tables/{code}").json()["status"] == "finished"


def test_two_people_ante_at_once_over_join(server: LiveServer) -> None:
    """Everyone antes at once (issue 32): the terminal seat and a browser seat
    are asked together, the terminal's card is its own until the reveal, and
    the other person sees only that it has been chosen."""
    code, host = open_table(server, players=2, bots=0)
    seating = join(Target(server.base, code), "Ann")
    with server.http() as http:
        made = http.post(f"/api/tables/{code}/seats", json={"name": "Bob", "seat": 1})
        bob_token = made.json()["token"]
    Lobby(server.base).start(code, host)
    bob = Seat(server, code, bob_token)
    bob_q = bob.question
    assert bob_q is not None and bob_q["seat"] == 1 and bob_q["options"]
    picked: list[int] = []

    async def run() -> None:
        app = OnlineTableApp(seating, "en")
        async with app.run_test(size=(110, 40)) as pilot:
            panel = app.query_one(QuestionPanel)
            await until(pilot, lambda: panel.prompt is not None)
            prompt = panel.prompt
            assert prompt is not None and prompt.kind == "ante"
            assert "Everyone chooses an ante card at the same time" in screen_text(app)
            await pilot.press("1")
            chosen = prompt.options[0]
            picked.append(chosen.answer)
            await until(pilot, lambda: "Your ante card, face down" in screen_text(app))
            assert chosen.label in screen_text(app)
            assert app.source.frame is not None and app.source.frame["step"] == 0
            # Bob learns that Ann chose, never what.
            told = await asyncio.to_thread(bob.wait, lambda m: m["type"] == "update")
            assert told["face_down"] == {"kind": "ante", "seats": [0, 1], "waiting": [1]}
            assert told["view"] == bob.state["view"] and told["events"] == []
            bob.send({"type": "answer", "decision": bob_q["id"], "answer": bob_q["options"][0]})
            await until(pilot, lambda: (app.source.frame or {}).get("step") == 2)
            # Revealed: no choice is left face down (unless the two cards tied and
            # everyone antes again: a new round in which nobody has chosen yet).
            face_down = app.source.face_down
            assert face_down is None or face_down["waiting"] == [0, 1], face_down
            assert "Your ante card, face down" not in screen_text(app)
            await pilot.press("q")
        assert app.failure is None

    asyncio.run(run())
    table = server.hub.tables[code]
    assert table.answers[:2] == [*picked, bob_q["options"][0]]
    bob.close()


def test_the_turn_clock_shows_and_a_timeout_is_told(tmp_path: Path) -> None:
    """A timed decision shows its clock under the question (the terminal had
    none, and a bot played for you without warning), and a timeout is told."""
    live = LiveServer(
        str(tmp_path / "clock.sqlite3"), Settings(bot_delay=0, turn_min=0.5, away_bot="random")
    ).start()
    try:
        with live.http() as http:
            r = http.post("/api/tables", json={"config": {"players": 2}, "turn_seconds": 2})
            code, host = r.json()["code"], r.json()["host_token"]
            r = http.post(
                f"/api/tables/{code}/bots",
                json={"level": "random", "seat": 1},
                headers={"Authorization": f"Bearer {host}"},
            )
            assert r.status_code == 201, r.text
        seating = join(Target(live.base, code), "Ann")
        Lobby(live.base).start(code, host)

        async def run() -> None:
            app = OnlineTableApp(seating, "en")
            async with app.run_test(size=(110, 40)) as pilot:
                panel = app.query_one(QuestionPanel)
                # The ante, face down with the bot: one clock for both.
                await until(pilot, lambda: "left for everyone to choose" in screen_text(app))
                assert "s left for everyone" in str(panel.border_subtitle)
                # Nobody answers: the server's bot chooses for Ann, and she is told.
                await until(pilot, lambda: "Your time ran out" in screen_text(app), 15)
                # Her next timed decision (she plays or decides again before long).
                await until(pilot, lambda: "then a bot answers for you" in screen_text(app), 30)
                await pilot.press("q")
            assert app.failure is None

        asyncio.run(run())
    finally:
        live.stop()


def test_a_dropped_connection_resumes_the_seat(server: LiveServer) -> None:
    code, host = open_table(server, players=2, bots=1)
    seating = join(Target(server.base, code), "Bea")
    Lobby(server.base).start(code, host)

    async def run() -> None:
        app = OnlineTableApp(seating, "it", reconnect_delays=(0.05,))
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.query_one(QuestionPanel).prompt is not None)
            step = app.source.frame["step"] if app.source.frame else -1
            assert app.ws is not None
            app.ws.transport.abort()  # the network goes away mid-game
            await until(pilot, lambda: app.connections == 2)
            # the same seat, the same question, the log told again from the start
            assert app.source.seat == 0
            assert app.source.frame is not None and app.source.frame["step"] == step
            await play_to_end(pilot, random.Random(9))
            assert "La partita è finita" in screen_text(app)
            await pilot.press("escape", "q")
        assert app.failure is None

    asyncio.run(run())


def test_a_seat_the_server_no_longer_knows_ends_with_one_line(server: LiveServer) -> None:
    code, _host = open_table(server)
    seating = Seating(server.base, code, "not-a-token", None, {})

    async def run() -> OnlineTableApp:
        app = OnlineTableApp(seating, "en")
        async with app.run_test() as pilot:
            await until(pilot, lambda: app.return_code is not None)
        return app

    app = asyncio.run(run())
    assert app.failure == f"The server no longer knows this seat at table {code}."
    assert app.return_code == 1


# --- the command's one-line refusals -------------------------------------------------


@pytest.fixture
def tty(monkeypatch: pytest.MonkeyPatch) -> FakeTty:
    monkeypatch.setattr(play_module, "is_terminal", lambda stream: True)
    return FakeTty()


def test_join_opens_the_online_table_with_the_seat_taken(
    cli: Cli, server: LiveServer, tty: FakeTty, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _host = open_table(server)
    seen: list[tuple[Seating, str, str]] = []

    def fake(seating: Seating, lang: str, level: str) -> int:
        seen.append((seating, lang, level))
        return 0

    monkeypatch.setattr(play_module, "run_online", fake)
    r = cli(["play", "--join", f"{server.base}/t/{code}", "--name", "Cid", "--lang", "it"], tty)
    assert r.code == 0, r.err
    seating, lang, level = seen[0]
    assert (seating.code, seating.seat, lang, level) == (code, 0, "it", "medium")
    # --create: a new table on the server, this person in its first seat
    r = cli(["play", "--create", "--players", "3", "--server", server.base, "--name", "Dee"], tty)
    assert r.code == 0, r.err
    created = seen[1][0]
    assert created.code != code and created.seat == 0 and created.table["players"] == 3


def test_refusals_are_one_line(cli: Cli, server: LiveServer, tty: FakeTty) -> None:
    code, _host = open_table(server, players=2, bots=1)
    base = ["play", "--server", server.base]
    r = cli([*base, "--join", "ZZZZZZ", "--name", "Ann"], tty)
    assert_one_line_error(r, "No table has the code ZZZZZZ")
    r = cli([*base, "--join", code], tty)
    assert_one_line_error(r, "--name")
    r = cli([*base, "--join", "no such", "--name", "Ann"], tty)
    assert_one_line_error(r, "neither a table code")
    r = cli([*base, "--join", code, "--create", "--name", "Ann"], tty)
    assert_one_line_error(r, "not both")


def test_a_full_table_and_a_taken_name_are_one_line(
    cli: Cli, server: LiveServer, tty: FakeTty
) -> None:
    code, _host = open_table(server, players=3, bots=1)
    assert join(Target(server.base, code), "Ann").seat == 0
    with pytest.raises(JoinError) as e:
        join(Target(server.base, code), "ann")
    assert (
        e.value.message("en")
        == f"Someone at table {code} is already called ann: choose another --name."
    )
    assert join(Target(server.base, code), "Bob").seat == 1
    r = cli(["play", "--join", f"{server.base}/t/{code}", "--name", "Cy"], tty)
    assert_one_line_error(r, f"Table {code} is full")


def test_no_server_and_a_stranger_are_one_line(cli: Cli, tty: FakeTty) -> None:
    nobody = f"http://127.0.0.1:{free_port()}"
    r = cli(["play", "--join", "ABCDEF", "--server", nobody, "--name", "Ann"], tty)
    assert_one_line_error(r, f"Cannot reach the server at {nobody}")

    def stranger(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/meta":
            return httpx.Response(200, json={"langs": ["en"], "protocol": 99})
        return httpx.Response(200, text="<html>hello</html>")

    lobby = Lobby("http://h", transport=httpx.MockTransport(stranger))
    with pytest.raises(JoinError) as e:
        join(Target("http://h", "ABCDEF"), "Ann", lobby)
    assert "version 99" in e.value.message("en") and "version 1" in e.value.message("en")

    def html(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text="<html>hello</html>")

    lobby = Lobby("http://h", transport=httpx.MockTransport(html))
    with pytest.raises(JoinError) as e:
        join(Target("http://h", "ABCDEF"), "Ann", lobby)
    assert e.value.key == "join.error.not_server"


def test_join_needs_a_terminal(cli: Cli) -> None:
    r = cli(["play", "--join", "ABCDEF", "--name", "Ann"], "")
    assert_one_line_error(r, "terminal")
