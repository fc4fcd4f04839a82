"""WebSocket messages fuzzed with hypothesis against a real server.

Whatever a client sends after its hello (garbage text, JSON that is not an
object, wrong field types, unknown kinds, frames over the size limit,
deeply nested JSON, stale, replayed and foreign question ids, a second
hello), the server answers with one clear ``error`` frame (a known code, a
sentence in the client's language, an English detail), raises nothing, and
changes nothing: no answer is played, no chat is kept, no seat is handed,
the language stays.  A ``ping`` after each example proves the connection
still works and marks where the example's frames end.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dragonante.interfaces.web.hub import Settings
from dragonante.interfaces.web.shared.protocol import (
    ERROR_CODES,
    MAX_MESSAGE,
    Answer,
    Chat,
    HandToBot,
    Hello,
    ProtocolError,
    parse,
)
from dragonante.interfaces.web.tables.chat import CHAT_MAX, clean_text
from tests.web.helpers import LiveServer, Seat, make_table, play

KINDS = ("hello", "answer", "lang", "sync", "ping", "hand_to_bot", "chat")


class Errors(logging.Handler):
    """Every log record at ERROR or above (an exception in the server)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    # A generous message rate: the fuzzer sends far faster than a person.
    # Nobody is ever away (a hand to bot is always refused).
    settings_ = Settings(bot_delay=0, rate=100_000.0, away_after=0)
    live = LiveServer(str(tmp_path_factory.mktemp("wsfuzz") / "web.sqlite3"), settings_).start()
    errors = Errors()
    for name in ("uvicorn.error", "uvicorn", "dragonante", "dragonante.web", "asyncio"):
        logging.getLogger(name).addHandler(errors)
    with live.http() as http:
        code, tokens, _ = make_table(http, {"players": 3}, ["Ann", "Bob"], bots=1)
    seat, bob = Seat(live, code, tokens[0]), Seat(live, code, tokens[1])
    # A few answers played, so old question ids exist to be replayed.
    play([seat, bob], random.Random(5), until_step=4)
    state = live.hub.tables[code].state
    assert state is not None and state.pending is not None and state.pending.id >= 4
    yield {"server": live, "code": code, "seat": seat, "errors": errors}
    seat.close()
    bob.close()
    for name in ("uvicorn.error", "uvicorn", "dragonante", "dragonante.web", "asyncio"):
        logging.getLogger(name).removeHandler(errors)
    live.stop()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
wrong_fields = st.dictionaries(
    st.sampled_from(["decision", "answer", "lang", "token", "seat", "text", "since", "x"]),
    json_values,
    max_size=4,
)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


messages = st.one_of(
    st.text(max_size=60),  # mostly not JSON
    json_values.map(json.dumps),  # JSON, mostly not an object
    st.builds(lambda k, f: json.dumps({"type": k, **f}), st.sampled_from(KINDS), wrong_fields),
    st.builds(lambda k, f: json.dumps({"type": k, **f}), st.text(max_size=30), wrong_fields),
    st.integers(MAX_MESSAGE + 1, 60_000).map(
        lambda n: json.dumps({"type": "chat", "text": "x" * n})
    ),
    st.integers(10, 1000).map(nested),
    st.integers(1, 400).map(lambda n: '{"type":"chat","text":' + nested(n) + "}"),
    st.builds(
        lambda d, a: json.dumps({"type": "answer", "decision": d, "answer": a}),
        st.integers(-(2**70), 2**70),
        st.integers(-5, 200),
    ),
    st.builds(  # stale and replayed ids: questions already answered, or not yet asked
        lambda d, a: json.dumps({"type": "answer", "decision": d, "answer": a}),
        st.integers(0, 12),
        st.integers(0, 120),
    ),
    st.builds(lambda s: json.dumps({"type": "hand_to_bot", "seat": s}), st.integers(-3, 8)),
    st.sampled_from(
        [
            '{"type":"chat","text":"   "}',
            '{"type":"chat","text":"\\u200b\\u3164"}',
            '{"type":"lang","lang":"xx"}',
            '{"type":"hello","token":null}',
            '{"type":"sync","since":-1}',
            '{"type":"sync","since":"0"}',
            "{}",
            "null",
            '{"type":"answer","decision":1.0,"answer":0}',
            '{"type":"answer","decision":true,"answer":0}',
        ]
    ),
)


def refused(raw: str, pending: Any) -> bool:
    """Whether the server must refuse ``raw``: it does not parse, or it is a
    message the game refuses (an answer that is stale, replayed, another
    seat's or illegal; a chat that cleans to nothing; a second hello; a hand
    to bot of a seat that is not away).  A good chat, answer, lang, sync or
    ping would rightly change something or answer without an error."""
    try:
        msg = parse(raw)
    except ProtocolError:
        return True
    if isinstance(msg, Answer):
        return not (
            pending is not None
            and pending.seat == 0
            and msg.decision == pending.id
            and msg.answer in pending.options
        )
    if isinstance(msg, Chat):
        return not (isinstance(msg.text, str) and 0 < len(clean_text(msg.text)) <= CHAT_MAX)
    return isinstance(msg, Hello | HandToBot)


@given(raw=messages)
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_every_bad_message_gets_one_clear_error_and_changes_nothing(
    table: dict[str, Any], raw: str
):
    server: LiveServer = table["server"]
    seat: Seat = table["seat"]
    live = server.hub.tables[table["code"]]
    assume(refused(raw, live.state.pending if live.state else None))
    before = (
        len(live.answers),
        live.state.pending.id if live.state and live.state.pending else None,
        len(live.chat.messages),
        dict(live.handed),
        sorted(c.lang for c in live.clients),
    )
    seat.send(raw)
    seat.send({"type": "ping"})
    frames = []
    while True:
        frame = seat.wait(lambda m: True, timeout=10)
        if frame["type"] == "pong":
            break
        frames.append(frame)
    errors = [f for f in frames if f["type"] == "error"]
    assert len(errors) == 1, frames
    e = errors[0]
    assert e["code"] in ERROR_CODES and e["message"] and isinstance(e["detail"], str), e
    assert e["message"] != e["code"]  # a sentence, not the bare code
    after = (
        len(live.answers),
        live.state.pending.id if live.state and live.state.pending else None,
        len(live.chat.messages),
        dict(live.handed),
        sorted(c.lang for c in live.clients),
    )
    assert after == before
    assert not seat.closed
    assert not table["errors"].records, [r.getMessage() for r in table["errors"].records]
