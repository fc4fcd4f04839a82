"""The effects table: everything derived from it carries every effect, once."""

from __future__ import annotations

import ast
import re

import pytest

from dragonante.cards import card_number
from dragonante.compiled_engine import source_path
from dragonante.engine import effects as E
from dragonante.engine.config import GameConfig
from dragonante.engine.game import new_game
from dragonante.engine.position import Position, PositionError, build_position
from dragonante.engine.state import GameState
from dragonante.engine.views import observe
from dragonante.i18n import LANGS, has

#: The annotation each shape must have in EffectSlots.
TYPE_OF = {
    E.SEATS: "int",
    E.SEAT: "int",
    E.FLAG: "bool",
    E.CARDS: "int",
    E.COUNTS: "list[int]",
    E.AMOUNT: "int",
}


def _source_annotations() -> dict[str, str]:
    """EffectSlots' annotations as written in effects.py (what the type checker
    reads; a compiled build's extension type keeps no annotations at run time)."""
    tree = ast.parse(source_path("dragonante.engine.effects").read_text(encoding="utf-8"))
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "EffectSlots"]
    return {
        n.target.id: ast.unparse(n.annotation)
        for n in cls.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }


def test_the_slots_annotations_list_exactly_the_table_with_each_shape_s_type() -> None:
    hints = _source_annotations()
    assert list(hints) == [e.name for e in E.EFFECTS]
    assert E.EffectSlots.__slots__ == tuple(e.name for e in E.EFFECTS)
    for e in E.EFFECTS:
        assert hints[e.name] == TYPE_OF[e.shape], e.name


def test_the_compiled_engine_declares_every_slot_of_the_state_and_its_effects() -> None:
    """effects.pxd and state.pxd (the compiled build's extension types) declare
    exactly the slots of the source's classes, each a Python object."""
    for module, slots in (
        ("dragonante.engine.effects", E.EffectSlots.__slots__),
        ("dragonante.engine.state", GameState.__slots__),
    ):
        pxd = source_path(module).with_suffix(".pxd").read_text(encoding="utf-8")
        assert re.findall(r"^    cdef public object (\w+)$", pxd, re.M) == list(slots), module


def _set_every_effect(s: GameState) -> None:
    for e in E.EFFECTS:
        if e.shape == E.COUNTS:
            getattr(s, e.name)[1] = 2
        else:
            setattr(s, e.name, {E.SEAT: 1, E.FLAG: True}.get(e.shape, 0b110))


def test_a_clone_copies_every_effect_and_shares_no_list() -> None:
    s = new_game(GameConfig(players=4), seed=3)
    _set_every_effect(s)
    c = s.clone()
    for e in E.EFFECTS:
        assert getattr(c, e.name) == getattr(s, e.name), e.name
        if e.shape == E.COUNTS:
            assert getattr(c, e.name) is not getattr(s, e.name), e.name
    assert c.to_dict() == s.to_dict()


def test_the_gambit_reset_clears_every_gambit_effect() -> None:
    s = new_game(GameConfig(players=4), seed=3)
    _set_every_effect(s)
    E.reset_gambit(s, s.n)
    fresh = GameState(s.config, 0)
    for e in E.EFFECTS:
        if e.reset == E.GAMBIT:
            assert getattr(s, e.name) == getattr(fresh, e.name) == e.fresh(4), e.name


def test_the_state_s_json_and_every_view_carry_the_effects_the_table_says() -> None:
    s = new_game(GameConfig(players=4), seed=3)
    _set_every_effect(s)
    data = s.to_dict()
    for e in E.EFFECTS:
        assert e.name in data
    for seat in (None, 0, 1):
        view = observe(s, seat).to_dict()
        for e in E.EFFECTS:
            assert (e.name in view) == (e.seen_by != E.INTERNAL), e.name
        assert view["warlord"] == [1, 2]
        assert view["emperor"] == [0, 2, 0, 0]
        assert view["wild"] == [1, 2]


def test_an_owner_only_effect_shows_each_seat_its_own_entry_and_a_spectator_none() -> None:
    secret = E.Effect("secret", E.SEATS, "test", seen_by=E.OWNER)
    assert E.shown(secret, 0b101, 4, 0) == [0]
    assert E.shown(secret, 0b101, 4, 1) == []
    assert E.shown(secret, 0b101, 4, None) == []
    counts = E.Effect("tally", E.COUNTS, "test", seen_by=E.OWNER)
    assert E.shown(counts, [1, 2, 3], 3, 1) == [0, 2, 0]
    with pytest.raises(ValueError, match="only a seat-shaped effect"):
        E.Effect("bad", E.FLAG, "test", seen_by=E.OWNER)


def test_a_position_sets_effects_by_scenario_key_and_rejects_bad_ones() -> None:
    cfg = GameConfig(players=3)
    hands = [[card_number(f"L-std-red-{k}")] for k in (2, 3, 5)]
    s = build_position(cfg, Position(hands=hands, effects={"monarch": [1, 1], "score_round": 4}))
    assert s.monarch == 0b10
    assert s.monarch_gifts == [0, 2, 0]
    assert s.score_round == 4
    with pytest.raises(PositionError, match="unknown effect"):
        build_position(cfg, Position(hands=hands, effects={"warlords": [1]}))
    with pytest.raises(PositionError, match="not a seat"):
        build_position(cfg, Position(hands=hands, effects={"warlord": [3]}))
    with pytest.raises(PositionError, match="true or false"):
        build_position(cfg, Position(hands=hands, effects={"druid": 1}))


def test_every_visible_effect_has_its_table_line_in_every_language() -> None:
    for lang in LANGS:
        for e in E.VISIBLE:
            assert has(f"effect.{e.name}", lang), (lang, e.name)
