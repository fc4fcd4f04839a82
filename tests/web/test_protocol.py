"""Parsing client frames: everything malformed is refused with a named reason."""

from __future__ import annotations

import pytest

from dragonante.interfaces.web.shared.protocol import (
    MAX_MESSAGE,
    Answer,
    Hello,
    Lang,
    Ping,
    ProtocolError,
    Sync,
    parse,
)


def test_good_messages():
    assert parse('{"type":"answer","decision":3,"answer":-1}') == Answer(3, -1)
    assert parse('{"type":"hello","token":"abc","lang":"it"}') == Hello("abc", "it")
    assert parse('{"type":"hello","token":null}') == Hello(None, "en")
    assert parse('{"type":"lang","lang":"en"}') == Lang("en")
    assert parse('{"type":"sync"}') == Sync()
    assert parse('{"type":"ping"}') == Ping()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "malformed"),
        ("{", "malformed"),
        ("[1, 2]", "malformed"),
        ('"answer"', "malformed"),
        ("NaN", "malformed"),
        ('{"type":"answer","decision":NaN,"answer":1}', "malformed"),
        ("[" * 1020 + "]" * 1020, "malformed"),
        ('{"type":"answer","decision":"3","answer":1}', "bad_field"),
        ('{"type":"answer","decision":3,"answer":1.0}', "bad_field"),
        ('{"type":"answer","decision":true,"answer":1}', "bad_field"),
        ('{"type":"answer","decision":3}', "bad_field"),
        ('{"type":"answer","decision":3,"answer":[1]}', "bad_field"),
        ('{"type":"hello","token":5}', "bad_field"),
        ('{"type":"hello","token":""}', "bad_field"),
        ('{"type":"hello","lang":"fr"}', "bad_field"),
        ('{"type":"shout"}', "bad_type"),
        ('{"type":7}', "bad_type"),
        ("{}", "bad_type"),
        (b'{"type":"ping"}', "malformed"),
        ("x" * (MAX_MESSAGE + 1), "too_large"),
    ],
)
def test_bad_messages(raw: str | bytes, code: str):
    with pytest.raises(ProtocolError) as e:
        parse(raw)
    assert e.value.code == code
    assert e.value.detail
