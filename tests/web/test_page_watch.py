"""The failure report of browser tests: one line per frame, the question it carries."""

from __future__ import annotations

import json

from tests.web.browser import frame_summary


def test_a_state_frame_names_its_question_and_seat() -> None:
    frame = {"type": "state", "view": {"question": {"id": 7, "seat": 1}}, "events": []}
    assert frame_summary(json.dumps(frame)) == "state question=7@1"


def test_an_error_frame_keeps_its_code_and_message() -> None:
    line = frame_summary(b'{"type": "error", "code": "stale", "message": "old"}')
    assert line.startswith("error ")
    assert '"code": "stale"' in line and '"message": "old"' in line


def test_a_frame_that_is_not_json_is_shown_as_text() -> None:
    assert frame_summary("not json") == "not json"
    assert frame_summary("[1, 2]") == "[1, 2]"
