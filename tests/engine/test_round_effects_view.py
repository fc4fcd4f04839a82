"""The Emperor's Gambit round effects are public information (issue 21, "Also").

A triggered Emperor ("This gambit isn't scored until after round 4 ... add 4 to
your flight's total"), a triggered Emperor's Gambit Wyrmpriest (three Mortals
form a color flight for its owner) and the eliminated seats are on the table for
everyone to see, so every seat's view, the spectator's, the table's text and the
agents' observation vector carry them.
"""

from __future__ import annotations

import numpy as np
import pytest

from dragonante.agents.encoding import SLICES, encode
from dragonante.engine import GameConfig, new_game
from dragonante.engine.config import DeckOptions, Ending, Rules
from dragonante.engine.state import GameState
from dragonante.engine.views import observe
from dragonante.interfaces.narrate import Narrator, default_names
from dragonante.interfaces.render import effect_notes, table_lines, table_view
from tests.agents.reference_encoding import reference_encode, reference_observe


def _table() -> GameState:
    config = GameConfig(
        players=4,
        rules=Rules.preset("emperors_gambit"),
        deck=DeckOptions(preset="eg_full"),
        ending=Ending(players_remaining=2),
    )
    s = new_game(config, seed=3)
    s.emperor[1] = 2  # seat 1's Emperor triggered twice: +8 at scoring
    s.score_round = 4
    s.mortal_flights = 1 << 2
    s.out = 1 << 3
    return s


@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_every_seat_and_a_spectator_see_the_round_effects(seat: int | None) -> None:
    s = _table()
    view = observe(s, seat)
    assert view.effects["emperor"] == [0, 2, 0, 0]
    assert view.effects["score_round"] == 4
    assert view.effects["mortal_flights"] == [2]
    assert view.out == [3]
    assert view.totals[1] >= 8  # the Emperors count in seat 1's scored flight
    assert observe(s, seat, hints=False) == reference_observe(s, seat)
    # The web server's shared-view path gives the same entries.
    assert observe(s, seat, public=observe(s, None)) == view


def test_the_observation_vector_encodes_them_as_the_reference_does() -> None:
    s = _table()
    view = observe(s, 0)
    v = encode(view)
    assert v.tobytes() == reference_encode(view).tobytes()
    assert list(v[SLICES["emperor"]]) == [0.0, 0.5, 0.0, 0.0, 0.0, 0.0]
    assert v[SLICES["score_round"]][0] == np.float32(4 / 50)
    assert list(v[SLICES["mortal_flights"]]) == [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    # A table without them encodes zeros there.
    plain = encode(observe(new_game(GameConfig(), seed=1), 0))
    for name in ("emperor", "score_round", "mortal_flights"):
        assert not plain[SLICES[name]].any()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_table_text_lists_them(lang: str) -> None:
    s = _table()
    narrator = Narrator(default_names(4, lang), lang)
    notes = effect_notes(observe(s, 0), narrator)
    assert len(notes) == 4
    names = default_names(4, lang)
    assert names[1] in notes[0] and "4" in notes[1] and names[2] in notes[2]
    assert names[3] in notes[3]
    text = "\n".join(table_lines(table_view(s, 0), narrator))
    assert notes[0] in text


# --- a scenario position honours [config] abilities.ancestry (issue 21, "Also") --------------


def test_a_position_takes_the_configs_ancestry_and_refuses_a_contradiction() -> None:
    from dragonante.engine.abilities import AbilityOptions
    from dragonante.engine.abilities.catalog import ANCESTRY_COLORS
    from dragonante.engine.abilities.table import AbilityTable
    from dragonante.engine.position import Position, PositionError, build_position

    opts = AbilityOptions(
        system="disks",
        assign="fixed",
        seats=(("draconic_ancestry",), (), ()),
        ancestry=("red", "", ""),
    )
    config = GameConfig(players=3, abilities=opts)
    hands = [[0, 1], [2, 3], [4, 5]]
    s = build_position(config, Position(hands=hands))
    tbl = s.abilities
    assert isinstance(tbl, AbilityTable)
    assert tbl.ancestry == [ANCESTRY_COLORS.index("red"), -1, -1]
    blue = ANCESTRY_COLORS.index("blue")
    with pytest.raises(PositionError, match=r"contradicts the config's abilities\.ancestry red"):
        build_position(config, Position(hands=hands, ancestry=[blue, -1, -1]))
