"""Table chat at the terminal's online table, against a real server and a browser's socket.

The server runs as in ``test_join`` (uvicorn in a thread, a temporary SQLite
file); the other person is a plain WebSocket seat speaking the browser's
protocol (``tests.web.helpers.Seat``, driven in a thread so the Textual
loop keeps running).  What is checked is what the person at the terminal
sees: the messages in the log as "Name: text", literally, and the refusals
as one note in their language.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot

from dragonante.interfaces.tui.chat import (
    AUTHOR_STYLE,
    TEXT_STYLE,
    ChatInput,
    ChatMessages,
    author,
    chat_line,
    mute_note,
    plain,
    refusal,
)
from dragonante.interfaces.tui.lobby import Lobby, Target, join
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.online import OnlineTableApp
from dragonante.interfaces.tui.question import QuestionPanel
from dragonante.interfaces.web.hub import Settings
from tests.web.helpers import LiveServer, Seat

from .helpers import make_app, screen_text, settle
from .test_join import until

MARKUP = "[bold]x[/] and [red]y[/red] [link=http://h]z[/link]"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("chat") / "web.sqlite3"
    live = LiveServer(str(db), Settings(bot_delay=0, chat_burst=3, chat_window=60)).start()
    yield live
    live.stop()


def lobby_table(server: LiveServer) -> tuple[str, str]:
    """An open 3-player table with a bot in its last seat: its code and host token."""
    with server.http() as http:
        r = http.post("/api/tables", json={"config": {"players": 3}})
        assert r.status_code == 201, r.text
        code, host = r.json()["code"], r.json()["host_token"]
        r = http.post(
            f"/api/tables/{code}/bots",
            json={"level": "random", "seat": 2},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert r.status_code == 201, r.text
    return code, host


async def browser(server: LiveServer, code: str, name: str) -> Seat:
    """A person at the web page: a seat taken through the API, its socket open."""
    with server.http() as http:
        r = http.post(f"/api/tables/{code}/seats", json={"name": name})
        assert r.status_code == 201, r.text
        token = r.json()["token"]
    return await asyncio.to_thread(Seat, server, code, token)


async def heard(seat: Seat, text: str) -> dict[str, Any]:
    """The next chat frame this socket gets must be ``text`` (nothing else came first)."""
    msg = await asyncio.to_thread(seat.wait, lambda m: m["type"] == "chat")
    assert msg["text"] == text
    return msg


def log_text(app: OnlineTableApp) -> str:
    """The log's lines as one text (a line wrapped at the panel's edge joined again)."""
    return " ".join(" ".join(strip.text for strip in app.query_one(LogPanel).lines).split())


async def say(pilot: Pilot[int], text: str) -> None:
    """``m``, the message typed key by key, Enter."""
    await pilot.press("m")
    await pilot.press(*text)
    await pilot.press("enter")


def test_chat_both_ways_with_history_literally(server: LiveServer) -> None:
    code, host = lobby_table(server)

    async def run() -> None:
        bob = await browser(server, code, "Bob")
        bob.send({"type": "chat", "text": MARKUP + " \u202eevil\x07"})
        await heard(bob, MARKUP + " evil")
        seating = replace(join(Target(server.base, code), "Ann"), host=host)  # the host starts
        assert seating.chat_max == 300  # the server's chat_max, from /api/meta
        app = OnlineTableApp(seating, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            # the history on joining, markup shown as typed
            await until(pilot, lambda: "Bob: [bold]x[/]" in log_text(app))
            assert f"Bob: {MARKUP} evil" in log_text(app)

            # the line to write: the keys of the table type letters, they do not act
            await pilot.press("m")
            chat = app.query_one(ChatInput)
            assert chat.display and chat.has_focus and chat.max_length == 300
            assert "Message to the table" in screen_text(app)  # visible at 80x24
            await pilot.press(*"g1 q[b]", "enter")
            assert not chat.display and not app.source.started and app.return_code is None
            await heard(bob, "g1 q[b]")
            assert "Ann: g1 q[b]" in log_text(app)  # the server's echo, told once
            assert log_text(app).count("Ann: g1 q[b]") == 1

            # not over a page (the help here): the line opens at the table only
            await pilot.press("question_mark", "m")
            assert not chat.display
            await pilot.press("escape")

            # Escape closes the line unsent; an empty line sends nothing
            await pilot.press("m", *"not this", "escape")
            assert not chat.display and chat.value == ""
            await pilot.press("m", "space", "enter")
            await say(pilot, "second")
            await heard(bob, "second")

            # the browser's messages arrive while the table is open
            bob.send({"type": "chat", "text": "[on red]hi[/] Ann"})
            await until(pilot, lambda: "Bob: [on red]hi[/] Ann" in log_text(app))

            # the game starts: the chat stays in the log among the game's lines
            await pilot.press("g")
            await until(pilot, lambda: app.source.started and app.source.events)
            told = log_text(app)
            assert "Bob: [on red]hi[/] Ann" in told and "Ann: second" in told
            assert told.count("Ann: second") == 1
            await pilot.press("q")
        bob.close()

    asyncio.run(run())


def test_the_log_keeps_the_chat_through_a_reconnection(server: LiveServer) -> None:
    code, host = lobby_table(server)

    async def run() -> None:
        bob = await browser(server, code, "Bob")
        seating = replace(join(Target(server.base, code), "Ann"), host=host)  # the host starts
        app = OnlineTableApp(seating, "it", reconnect_delays=(0.05,))
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.connections == 1)
            await pilot.press("g")
            await until(pilot, lambda: app.source.started)
            await say(pilot, "ciao")
            await heard(bob, "ciao")
            await until(pilot, lambda: "Ann: ciao" in log_text(app))
            assert app.ws is not None
            app.ws.transport.abort()
            bob.send({"type": "chat", "text": "while you were away"})
            await heard(bob, "while you were away")
            await until(pilot, lambda: app.connections == 2)
            await until(pilot, lambda: "Bob: while you were away" in log_text(app))
            told = log_text(app)
            # the state retold the log; the history added only what was missed
            assert told.count("Ann: ciao") == 1 and told.count("while you were away") == 1
            assert told.index("Ann: ciao") < told.index("Bob: while you were away")
            await pilot.press("q")
        bob.close()

    asyncio.run(run())


def test_refusals_are_one_note_in_the_players_language(server: LiveServer) -> None:
    code, host = lobby_table(server)

    async def run() -> None:
        bob = await browser(server, code, "Bob")
        seating = join(Target(server.base, code), "Ann")
        # a client that believes in a longer limit than the server's
        app = OnlineTableApp(replace(seating, chat_max=400), "it")
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.connections == 1)
            await pilot.press("m")
            app.query_one(ChatInput).value = "x" * 301  # (typing 301 keys is slow)
            await pilot.press("enter")
            await until(pilot, lambda: "al massimo 300 caratteri" in log_text(app))
            # three messages a minute on this server: the fourth waits
            for text in ("uno", "due", "tre"):
                await say(pilot, text)
                await heard(bob, text)
            await say(pilot, "quattro")
            await until(pilot, lambda: "Troppi messaggi in chat: aspetta" in log_text(app))
            assert "Ann: quattro" not in log_text(app)

            # the host mutes Ann over the web API: she is told, then refused
            with server.http() as http:
                r = http.post(
                    f"/api/tables/{code}/mute",
                    json={"seat": seating.seat},
                    headers={"Authorization": f"Bearer {host}"},
                )
                assert r.status_code == 200, r.text
                r = http.post(
                    f"/api/tables/{code}/mute",
                    json={"seat": bob.seat},
                    headers={"Authorization": f"Bearer {host}"},
                )
                assert r.status_code == 200, r.text
            await until(pilot, lambda: "Bob nella chat" in log_text(app))
            assert "ti ha silenziato nella chat" in log_text(app)
        bob.close()

    asyncio.run(run())


def test_a_muted_seat_is_refused(server: LiveServer) -> None:
    code, host = lobby_table(server)
    seating = join(Target(server.base, code), "Ann")
    with server.http() as http:
        r = http.post(
            f"/api/tables/{code}/mute",
            json={"seat": seating.seat},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert r.status_code == 200, r.text

    async def run() -> None:
        app = OnlineTableApp(seating, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.connections == 1)
            await say(pilot, "hello?")
            await until(pilot, lambda: "The host has muted you" in log_text(app))
            assert "Ann: hello?" not in log_text(app)

    asyncio.run(run())


def test_a_question_does_not_take_the_keys_from_a_message_being_written(
    server: LiveServer,
) -> None:
    code, host = lobby_table(server)
    seating = join(Target(server.base, code), "Ann")
    with server.http() as http:
        r = http.post(
            f"/api/tables/{code}/bots",
            json={"level": "random", "fill": True},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert r.status_code == 201, r.text

    async def run() -> None:
        app = OnlineTableApp(seating, "en")
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.connections == 1)
            await pilot.press("m", *"hel")
            await asyncio.to_thread(Lobby(server.base).start, code, host)
            await until(pilot, lambda: app.query_one(QuestionPanel).prompt is not None)
            await pilot.pause(0.05)
            chat = app.query_one(ChatInput)
            assert chat.has_focus
            await pilot.press("1")  # a letter of the message, not an answer
            assert chat.value == "hel1" and app.query_one(QuestionPanel).prompt is not None
            await pilot.press("escape")
            assert app.query_one("#answers").has_focus
            panel = app.query_one(QuestionPanel)
            asked = panel.prompt
            assert asked is not None
            await pilot.press("1")  # now the answer: the question goes (the next may come)
            await until(pilot, lambda: panel.prompt is None or panel.prompt is not asked)
            await pilot.press("q")

    asyncio.run(run())


# --- the pieces, without a server ----------------------------------------------------


def test_plain_drops_what_could_break_the_screen() -> None:
    assert plain("a\u202eb\u2066c\u200fd\x1b[2Je\x00f\u200bg") == "abcd[2Jefg"
    assert plain("  one\n\ttwo\u2028three  ") == "one two three"
    assert plain("x" * 10, 4) == "xxxx"
    assert plain(None) == "None"


def test_a_chat_line_is_literal_text_named_as_the_web_names_people() -> None:
    line = chat_line({"seat": 0, "name": "[b]Ann[/b]", "text": MARKUP}, "en")
    assert isinstance(line, Text) and line.plain == f"[b]Ann[/b]: {MARKUP}"
    # the author and the words stand out from the narration (which has no style)
    assert [(s.start, s.end, s.style) for s in line.spans] == [
        (0, 10, AUTHOR_STYLE),
        (10, 12, TEXT_STYLE),
        (12, len(line.plain), TEXT_STYLE),
    ]
    assert line.style == ""
    spectator = {"seat": None, "spectator": 2, "name": None, "text": "hi"}
    assert chat_line(spectator, "en").plain == "Spectator 2: hi"
    assert chat_line(spectator, "it").plain == "Spettatore 2: hi"
    assert author({"seat": 1, "name": None}, "en") == "#2"
    assert author({"seat": 1, "name": ""}, "en", ["Ann", "Bob"]) == "Bob"
    assert author({"seat": 0, "name": "\u202eevil\u202c"}, "en") == "evil"


def test_refusal_and_mute_sentences() -> None:
    assert refusal({"code": "chat_rate", "retry_after": 7}, "en") == (
        "Too many chat messages: wait 7 s and send it again."
    )
    assert refusal({"code": "chat_too_long", "limit": 300}, "it") == (
        "Un messaggio di chat ha al massimo 300 caratteri: non è stato inviato."
    )
    assert refusal({"code": "muted"}, "en") is not None
    assert refusal({"code": "chat_empty"}, "it") is not None
    assert refusal({"code": "illegal"}, "en") is None
    names = ["Ann", "Bob"]
    assert mute_note({"seat": 1, "muted": True}, "en", 0, names) == (
        "The host muted Bob in the chat."
    )
    assert mute_note({"seat": None, "spectator": 3, "muted": False}, "en", 0, names) == (
        "Spectator 3 may write in the chat again."
    )
    assert "you" in mute_note({"seat": 0, "muted": True}, "en", 0, names)
    assert "again" in mute_note({"seat": 0, "muted": False}, "en", 0, names)


def test_messages_are_kept_once_where_they_came() -> None:
    chat = ChatMessages()
    assert chat.add({"id": 1, "text": "a"}, 0)
    assert not chat.add({"id": 1, "text": "a"}, 5)
    new = chat.history({"messages": [{"id": 1}, {"id": 2}, "junk"]}, 9)
    assert [m["id"] for m in new] == [2]
    assert [p for p, _ in chat.placed] == [0, 9]
    assert chat.history({"messages": None}, 9) == []


def test_the_local_table_has_no_chat() -> None:
    async def run() -> None:
        app = make_app(2, 3)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            before = screen_text(app)
            await pilot.press("m")
            await settle(pilot)
            assert not app.query(ChatInput)
            assert screen_text(app) == before

    asyncio.run(run())


def test_a_server_notice_is_one_note_in_the_log(server: LiveServer) -> None:
    """Issue 32, hole 4: the table's people are told when the database refused
    a bot's move (the server's ``notice`` frame, in the connection's language);
    at the terminal it is one note in the log, like a refusal."""
    code, _host = lobby_table(server)

    async def run() -> None:
        app = OnlineTableApp(join(Target(server.base, code), "Ann"), "it")
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.connections == 1)
            message = "Il server non è riuscito a salvare la mossa di Breen (un bot)."
            app.on_frame({"type": "notice", "code": "bot_unstored", "seat": 2, "message": message})
            await until(pilot, lambda: message in log_text(app))
            assert log_text(app).count(message) == 1
            await pilot.press("q")

    asyncio.run(run())
