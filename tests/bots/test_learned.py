"""The shipped learned bot: its model loads, matches the feature layout, plays legally."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from dragonante.bots import BotSpecError, parse_spec
from dragonante.bots.evaluate import strength_tail
from dragonante.bots.features import FEATURE_NAMES, LAYOUT_VERSION, StaleModelError, features
from dragonante.bots.heuristic import unseen_cards
from dragonante.bots.learned import SHIPPED_MODEL, load_model, parse_model
from dragonante.engine.config import GameConfig
from dragonante.engine.game import apply, new_game
from tests.bots.conftest import play_checked


def _shipped() -> dict[str, object]:
    text = resources.files("dragonante.bots").joinpath(SHIPPED_MODEL).read_text("utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def test_the_shipped_model_matches_this_feature_layout() -> None:
    data = _shipped()
    assert data["layout_version"] == LAYOUT_VERSION
    assert data["features"] == list(FEATURE_NAMES)
    model = load_model()
    assert set(model.weights) == {2, 3, 4, 5, 6}
    assert all(len(w) == len(FEATURE_NAMES) for w in model.weights.values())
    assert "command" in model.training


def test_a_model_of_another_layout_is_refused() -> None:
    data = _shipped()
    with pytest.raises(StaleModelError, match="feature layout"):
        parse_model({**data, "layout_version": LAYOUT_VERSION + 1}, "old.json")
    with pytest.raises(StaleModelError, match="feature layout"):
        parse_model({**data, "features": list(FEATURE_NAMES)[:-1]}, "old.json")
    with pytest.raises(StaleModelError, match="not a learned model"):
        parse_model({"w": [1, 2]}, "x.json")
    models = dict(data["models"])  # type: ignore[call-overload]
    models["4"] = models["4"][:-1]
    with pytest.raises(StaleModelError, match="4 players"):
        parse_model({**data, "models": models}, "short.json")


def test_a_stale_model_file_is_a_clear_spec_error(tmp_path: Path) -> None:
    stale = tmp_path / "stale.json"
    stale.write_text(json.dumps({**_shipped(), "layout_version": 0}))
    with pytest.raises(BotSpecError, match="retrain"):
        parse_spec(f"learned:model={stale}")
    with pytest.raises(BotSpecError, match="cannot read"):
        parse_spec(f"learned:model={tmp_path / 'missing.json'}")


def test_features_have_the_layout_length() -> None:
    s = new_game(GameConfig(players=4), 3)
    while s.pending is not None and s.pending.kind != "play":
        d = s.pending
        apply(s, d.options[0], d.id)
    assert s.pending is not None
    seat = s.pending.seat
    x = features(s, seat, strength_tail(unseen_cards(s, seat)))
    assert len(x) == len(FEATURE_NAMES)


@pytest.mark.parametrize("ruleset", ["legendary", "emperors_gambit"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_learned_bot_plays_legal_answers(ruleset: str, players: int) -> None:
    play_checked("learned", ruleset, players, players * 11, 120)
