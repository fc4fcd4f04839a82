"""The web frame words the running effects for the browser (issue 23).

Every effect of the table a seat may see reaches the browser as the table's
sentence (``effect.<name>``, the command line's wording), the Emperor's
Gambit ones included, for every seat and a spectator alike.
"""

from __future__ import annotations

from datetime import UTC, datetime

from dragonante.interfaces.web.storage.store import HUMAN, PLAYING, SeatInfo, StoredTable
from dragonante.interfaces.web.tables.live import LiveTable, seat_view

NAMES = ["Ann", "Bo", "Cy", "Di"]


def _table() -> LiveTable:
    stored = StoredTable(
        code="EFFECT",
        config={"players": 4},
        seed=2,
        status=PLAYING,
        created_at=datetime(2024, 1, 1, tzinfo=UTC),
        seats={p: SeatInfo(p, NAMES[p], HUMAN) for p in range(4)},
    )
    return LiveTable(stored)


def test_no_effect_no_line() -> None:
    table = _table()
    assert table.state is not None
    assert seat_view(table, table.state, 0, "en", 0)["effects"] == []


def test_effects_in_force_are_worded_for_every_seat_and_a_spectator() -> None:
    table = _table()
    s = table.state
    assert s is not None
    s.warlord = 1 << 1
    s.emperor[2] = 1
    s.score_round = 4
    s.druid = True
    for seat, lang in ((0, "en"), (3, "it"), (None, "en")):
        frame = seat_view(table, s, seat, lang, 0)
        lines = frame["effects"]
        assert len(lines) == 4, lines
        assert any("Bo" in line for line in lines)  # the Warlord's owner, by name
        assert any("Cy" in line for line in lines)  # the Emperor's owner
        assert frame["view"]["warlord"] == [1] and frame["view"]["score_round"] == 4
    # the seat concerned reads about itself
    mine = seat_view(table, s, 1, "en", 0)["effects"]
    assert not any("Bo" in line for line in mine)
