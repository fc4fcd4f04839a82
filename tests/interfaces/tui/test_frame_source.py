"""``play --join``'s full-screen table draws a FrameSource (issue 31 §5): a seat's
frames as a table source, fed by the screen's connection, answering through it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dragonante.interfaces.table_source import SourceRefused, TableSource
from dragonante.interfaces.tui.frame_source import FrameSource
from dragonante.interfaces.web.tables.live import seat_view

from .test_remote_view import _table


def _frame(seat: int) -> dict[str, Any]:
    table = _table()
    assert table.state is not None
    frame = json.loads(json.dumps(seat_view(table, table.state, seat, "en", 0)))
    return {"type": "state", **frame}


def test_a_fed_seat_tells_each_event_once_and_sends_its_answer_out() -> None:
    sent: list[dict[str, Any]] = []
    source = FrameSource("en")
    assert isinstance(source, TableSource)
    source.welcome({"seat": 0})
    source.wait()  # nothing to wait for: frames are fed in
    assert source.view() is None and source.new_events() == []
    source.apply(_frame(0))
    events = source.new_events()
    assert events and events == source.all_events()
    assert source.new_events() == []  # told once
    view = source.view()
    assert view is not None and view.seat == 0
    prompt = source.prompt()
    assert prompt is not None
    with pytest.raises(SourceRefused, match="Not connected"):
        source.answer(prompt.options[0].answer, prompt.decision_id)  # no connection yet
    source.outbox = sent.append
    source.answer(prompt.options[0].answer, prompt.decision_id)
    assert sent == [
        {"type": "answer", "decision": prompt.decision_id, "answer": prompt.options[0].answer}
    ]
    source.apply(_frame(0))  # a fresh state again: its events are news once more
    assert source.new_events() == events
    assert not source.hints_allowed
    with pytest.raises(SourceRefused):
        source.hint()
