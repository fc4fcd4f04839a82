"""The observation's index table in docs/agents.md is the layout's own."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dragonante.agents import layout_doc
from dragonante.agents.encoding import OBS_SIZE, PHASES, SLICES, encode
from dragonante.engine import GameConfig, new_game
from dragonante.engine.views import observe


def test_the_docs_table_is_the_generated_one() -> None:
    text = layout_doc.DOC.read_text(encoding="utf-8")
    assert layout_doc.doc_table(text) == layout_doc.layout_table(), (
        "docs/agents.md's observation table is stale: "
        "python -m dragonante.agents.layout_doc --write"
    )


def test_the_rows_cover_every_index_once_in_order() -> None:
    rows = layout_doc.layout_rows()
    assert [r[0] for r in rows] == list(SLICES)
    nxt = 0
    for _name, first, last, _shape, meaning in rows:
        assert first == nxt and last >= first and meaning
        nxt = last + 1
    assert nxt == OBS_SIZE


def test_the_table_points_at_what_encode_writes() -> None:
    """A real view: the hand's rows hold the hand, ``is_me`` the seat, ``phase`` the phase."""
    s = new_game(GameConfig(players=3), 5)
    assert s.pending is not None
    seat = s.pending.seat
    obs = observe(s, seat)
    vector = encode(obs)
    rows = {r[0]: (r[1], r[2]) for r in layout_doc.layout_rows()}
    first, last = rows["hand"]
    assert sorted(np.flatnonzero(vector[first : last + 1])) == sorted(obs.hand or [])
    first, last = rows["is_me"]
    assert list(np.flatnonzero(vector[first : last + 1])) == [seat]
    first, _ = rows["phase"]
    assert vector[first + PHASES.index(obs.phase)] == 1


def test_write_replaces_only_the_table(tmp_path: Path) -> None:
    doc = tmp_path / "agents.md"
    doc.write_text(f"before\n{layout_doc.BEGIN}\nold\n{layout_doc.END}\nafter\n", encoding="utf-8")
    assert layout_doc.write(doc)
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("before\n") and text.endswith("\nafter\n")
    assert layout_doc.doc_table(text) == layout_doc.layout_table()
    assert not layout_doc.write(doc)
