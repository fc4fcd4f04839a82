"""The turn timer's clock in ``play --join`` (issue 32, part 3): the server's
``turn`` frames counted down on this machine's clock, shown only for the
question they were sent for, and a ``timeout`` told as whose time ran out."""

from __future__ import annotations

from dragonante.interfaces.tui.clock import TurnClock, timeout_line

NAMES = ["Ann", "Bob", "Cid"]


def test_a_clock_counts_down_for_its_question_only() -> None:
    clock = TurnClock()
    assert clock.line(17, 0, NAMES, "en", 0.0) is None  # no frame yet
    clock.start({"type": "turn", "seat": 1, "decision": 17, "seconds": 29.2, "of": 30}, 100.0)
    assert clock.line(17, 0, NAMES, "en", 100.0) == "Bob: 30 s to decide"
    assert clock.line(17, 0, NAMES, "en", 110.5) == "Bob: 19 s to decide"
    assert clock.line(17, 0, NAMES, "en", 200.0) == "Bob: 0 s to decide"
    assert clock.line(17, 1, NAMES, "en", 120.0) == "10 s to decide, then a bot answers for you"
    assert clock.line(17, 1, NAMES, "it", 120.0) == (
        "10 s per decidere, poi un bot risponde al tuo posto"
    )
    assert clock.line(18, 1, NAMES, "en", 120.0) is None  # the next question: not its clock
    assert clock.line(None, 1, NAMES, "en", 120.0) is None


def test_a_face_down_round_has_one_clock_for_every_seat() -> None:
    clock = TurnClock()
    frame = {"type": "turn", "seat": 0, "decision": 4, "seconds": 12, "of": 30,
             "seats": [0, 1, 2], "decisions": [4, 5, 6]}  # fmt: skip
    clock.start(frame, 0.0)
    for question in (4, 5, 6):  # each seat's own question of the round
        assert clock.line(question, question - 4, NAMES, "en", 2.0) == (
            "10 s left for everyone to choose"
        )
    assert clock.line(7, 0, NAMES, "en", 2.0) is None


def test_malformed_frames_change_nothing() -> None:
    clock = TurnClock()
    clock.start({"type": "turn", "seat": 1, "decision": 3, "seconds": 5}, 0.0)
    for bad in (
        {"type": "turn", "seat": "1", "decision": 9, "seconds": 5},
        {"type": "turn", "seat": 1, "decision": 9, "seconds": "5"},
        {"type": "turn", "seat": 1, "seconds": 5},
        {"type": "turn", "seat": 1, "decision": 9, "seconds": 5, "decisions": ["x"]},
    ):
        clock.start(bad, 1.0)
        assert clock.line(3, 0, NAMES, "en", 1.0) == "Bob: 4 s to decide"


def test_a_timeout_says_whose_time_ran_out() -> None:
    frame = {"type": "timeout", "seat": 2, "decision": 9, "bot": "medium"}
    assert timeout_line(frame, 0, NAMES, "en") == "Cid's time ran out: a bot answered for them."
    assert timeout_line(frame, 2, NAMES, "en").startswith("Your time ran out")
    assert timeout_line({**frame, "seat": 7}, 0, NAMES, "en") == (
        "?'s time ran out: a bot answered for them."
    )
