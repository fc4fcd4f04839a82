"""The Player Tracker (options.md §8.12): per player, the dragons (type, alignment,
strength), the total strength, the four special-flight boxes, the hoard and the debts."""

from __future__ import annotations

from dragonante.dice.state import STAKES
from dragonante.dice.table import BAHAMUT, GREEN
from dragonante.dice.views import observe, sheet

from .script import Script, end_gambit, events, position


def test_the_sheet_shows_dragons_total_hoard_and_debts() -> None:
    t = Script(players=2, starting_hoard=10)
    t.rolls(5, 3)  # hoards 7 and 5
    t.turn(0, GREEN, 6)  # antes 6, steals 4: hoard 5
    t.turn(1, BAHAMUT)  # antes 5 of 13: owes 8
    sh = sheet(t.s, 1)
    assert sh["dragons"] == [
        {
            "face": BAHAMUT,
            "type": "Bahamut",
            "alignment": "good",
            "god": True,
            "strength": 13,
            "pending": False,
        }
    ]
    assert sh["total_strength"] == 13
    assert sh["hoard"] == 0
    assert sh["debts_owed"] == 8 and sh["debts"] == [{"to": STAKES, "amount": 8}]
    assert sh["flights"] == {"god": False, "triplet": False, "allied": False, "leader": False}
    assert sheet(t.s, 0)["dragons"][0]["type"] == "Green"


def test_the_flight_boxes_are_ticked_when_earned() -> None:
    s = end_gambit(position(hoards=[50, 50], stakes=60, flights=[[(BAHAMUT, 13)] * 3, []]))
    assert sheet(s, 0)["flights"] == {"god": True, "triplet": True, "allied": True, "leader": True}


def test_round_and_gambit_ends_carry_the_tracker_as_it_was_then() -> None:
    t = Script(players=2)
    t.rolls(5, 3)
    t.turn(0, GREEN, 6)
    t.turn(1, GREEN, 2)
    snapshot = events(t.s, "round_end")[0]["tracker"]
    assert snapshot["round"] == 1
    assert [sh["total_strength"] for sh in snapshot["sheets"]] == [6, 2]
    assert snapshot["stakes"] == t.s.stakes
    view = observe(t.s)
    assert view["pending"]["kind"] == "turn" and view["order"] == [0, 1]
