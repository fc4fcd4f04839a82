"""Golden games: any behaviour change fails here until the rules version is bumped.

``tests/golden/card_game.json`` and ``dice.json`` pin a digest per seeded
game and the version they were made under (see :mod:`tests.golden.games`).
The checks themselves are tested on scratch files: a changed digest under the
same version fails and says to bump; a bumped version with regenerated
digests passes; the update refuses to hide a change under the old version.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dragonante import RULES_VERSION
from dragonante.dice import DICE_RULES_VERSION
from tests.golden.games import (
    CARD_FILE,
    DICE_FILE,
    UPDATE_COMMAND,
    Golden,
    card_cases,
    card_golden,
    dice_cases,
    dice_golden,
)


def test_card_game_digests_match_the_pinned_rules_version() -> None:
    problems = card_golden().problems()
    assert not problems, "\n".join(problems)


def test_dice_digests_match_the_pinned_dice_rules_version() -> None:
    problems = dice_golden().problems()
    assert not problems, "\n".join(problems)


def test_the_pinned_files_record_the_current_versions() -> None:
    card = json.loads(CARD_FILE.read_text(encoding="utf-8"))
    dice = json.loads(DICE_FILE.read_text(encoding="utf-8"))
    assert card["rules_version"] == RULES_VERSION
    assert dice["dice_rules_version"] == DICE_RULES_VERSION
    assert card["command"] == dice["command"] == UPDATE_COMMAND


def test_the_games_span_every_ruleset_ability_system_and_player_count() -> None:
    configs = [c for c, _ in card_cases().values()]
    combos = {(c.rules.ruleset, c.abilities.system, c.players) for c in configs}
    for ruleset in ("legendary", "emperors_gambit", "original"):
        for system in ("", "disks", "skills"):
            for players in range(2, 7):
                assert (ruleset, system, players) in combos
    assert {c.players for c, _ in dice_cases().values()} == {2, 3, 4, 5, 6}


def _scratch(tmp_path: Path, version: int, digests: dict[str, str]) -> Golden:
    return Golden(tmp_path / "g.json", "v", version, "TEST_VERSION", lambda: dict(digests))


def test_a_changed_digest_under_the_same_version_says_to_bump(tmp_path: Path) -> None:
    g = _scratch(tmp_path, 2, {"a": "1", "b": "2"})
    g.update()
    assert g.problems() == []
    changed = _scratch(tmp_path, 2, {"a": "1", "b": "3"})
    (problem,) = changed.problems()
    assert "behaviour changed" in problem and "b" in problem
    assert "bump TEST_VERSION" in problem and UPDATE_COMMAND in problem
    # Regenerating alone cannot hide it...
    with pytest.raises(SystemExit, match="bump it first"):
        changed.update()
    assert _scratch(tmp_path, 2, {"a": "1", "b": "2"}).problems() == []
    # ... bumping the version and regenerating passes.
    bumped = _scratch(tmp_path, 3, {"a": "1", "b": "3"})
    (stale,) = bumped.problems()
    assert "TEST_VERSION is 3 but g.json was made under 2" in stale
    assert "changed" in bumped.update()
    assert bumped.problems() == []


def test_same_version_update_is_an_explicit_choice(tmp_path: Path) -> None:
    _scratch(tmp_path, 2, {"a": "1"}).update()
    merged = _scratch(tmp_path, 2, {"a": "9"})
    merged.update(same_version=True)
    assert merged.problems() == []


def test_added_or_removed_games_ask_for_a_regeneration(tmp_path: Path) -> None:
    assert "is missing" in _scratch(tmp_path, 1, {"a": "1"}).problems()[0]
    _scratch(tmp_path, 1, {"a": "1"}).update()
    (problem,) = _scratch(tmp_path, 1, {"a": "1", "c": "5"}).problems()
    assert "new: ['c']" in problem
    # New games are pinned without a bump: nothing they replay changed.
    _scratch(tmp_path, 1, {"a": "1", "c": "5"}).update()
