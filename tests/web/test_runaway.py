"""A table that could freeze its server process (issue 32, hole 3).

Any client may create a table with a custom deck.  When a deck and discard
pile held only Copper Dragons, one answer looped for ever inside the engine,
on the server's event loop: every table of that process froze.  The engine
now ends such chains (``docs/rules.md``, "Every game ends") and bounds the
work of any answer (:class:`~dragonante.kernel.RunawayGame`); the server
stops a table whose answer hits that bound, with a clear message, and
never the process.
"""

from __future__ import annotations

import random
import time

import pytest

from dragonante.interfaces.web.tables import answers
from dragonante.kernel import RunawayGame
from tests.web.helpers import LiveServer, Seat, make_table, play

COPPERS = {
    "players": 2,
    "deck": {
        "preset": "custom",
        "custom": ["L-std-copper", "L-std-gold", "L-std-silver"],
    },
}


def test_the_copper_deck_of_the_audit_plays_to_its_end(server: LiveServer) -> None:
    with server.http() as http:
        code, tokens, _ = make_table(http, COPPERS, ["Ann", "Bea"])
    seats = [Seat(server, code, token) for token in tokens]
    try:
        play(seats, random.Random(7), timeout=60)
    finally:
        for seat in seats:
            seat.close()


def test_an_answer_past_the_engines_bound_stops_that_table_only(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with server.http() as http:
        code, tokens, _ = make_table(http, {"players": 2}, ["Ann", "Bea"])
        other, other_tokens, _ = make_table(http, {"players": 2}, ["Cid", "Dot"])
    seats = [Seat(server, code, token) for token in tokens]
    bystanders = [Seat(server, other, token) for token in other_tokens]
    real_apply = answers.apply  # type: ignore[attr-defined]

    def runaway(state: object, answer: int, decision: int | None = None) -> bool:
        """What the engine does when one answer's work passes its bound."""
        raise RunawayGame("the card game ran 50000 steps", "steps", 50000)

    monkeypatch.setattr(answers, "apply", runaway)
    try:
        # everyone antes at once: the engine plays the round when the last has chosen
        for seat in seats:
            q = seat.question
            assert q is not None, "each seat is asked its ante at once"
            seat.send({"type": "answer", "decision": q["id"], "answer": q["options"][0]})
        # the refusal goes to whichever choice came last (the one that played the round)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(
            m["type"] == "error" for seat in seats for m in seat.frames
        ):
            for seat in seats:
                seat.drain(0.05)
        asked = next(seat for seat in seats if any(m["type"] == "error" for m in seat.frames))
        refusal = next(m for m in asked.frames if m["type"] == "error")
        assert refusal["code"] == "runaway"
        assert "could not finish" in refusal["message"]
        ended = [m for m in asked.frames if m["type"] == "table" and m["table"].get("ended")]
        assert ended, "the table's people were not told the game stopped"
        assert ended[-1]["table"]["ended"] == "runaway"
        assert ended[-1]["table"]["status"] == "finished"
        monkeypatch.setattr(answers, "apply", real_apply)
        start = time.monotonic()
        play(bystanders, random.Random(3), until_step=6, timeout=30)  # the process plays on
        assert time.monotonic() - start < 30
        with server.http() as http:
            stored = http.get(f"/api/tables/{code}").json()
        assert stored["status"] == "finished"
        assert stored["ended"] == "runaway"
    finally:
        for seat in seats + bystanders:
            seat.close()
