"""Skill-check scenarios: Gamblers Unleashed's one d20 check instead of a game.

Legendary Appendix 5 replaces the whole card game with one Sleight of Hand
or Persuasion check (:mod:`dragonante.engine.skill_check`).  There is no
table to set and nothing to answer, so such a scenario has a
``[skill_check]`` table instead of ``[table]`` and ``[[step]]``, and its
``[expect]`` states the check's outcome (or that the rules refuse it)::

    [skill_check]
    skill = "persuasion"     # sleight_of_hand | persuasion
    difficulty = "hard"      # easy | medium | hard | harder, or dc = 20
    modifier = 3             # default 0
    rolls = [17]             # the d20s typed in; or seeds = 400: rolled from
                             # every seed below 400 (the faces, no outcome)
    mode = "normal"          # normal | advantage | disadvantage

    [expect]
    dc = 20
    rolls = [17]             # the d20s rolled
    roll = 17                # the d20 that counts
    total = 20
    success = true
    # error = "shows 1-20"   # refused: the message contains this text
    # faces = [1, 2, ...]    # with seeds: every face rolled, sorted
    # dice = 1               # with seeds: the d20s each check rolls

Values are checked by the rules, not here (an unknown skill or mode, a roll
off the die, a DC under 1 are the rules' refusals, which a scenario states
with ``error``); only the file's shape is validated when it is read.
"""

from __future__ import annotations

from typing import Any

from dragonante.engine.skill_check import (
    DIFFICULTIES,
    NORMAL,
    SkillCheckError,
    resolve,
    roll_d20s,
)
from dragonante.scenarios.scenario import Scenario, ScenarioError, title_and_rule, unplayed

#: ``[skill_check]`` keys, with the type each holds.
_CHECK_KEYS: dict[str, type | tuple[type, ...]] = {
    "skill": str,
    "difficulty": str,
    "dc": int,
    "modifier": int,
    "rolls": list,
    "seeds": int,
    "mode": str,
}
#: ``[expect]`` keys of a skill check, with the type each holds.
_EXPECT_KEYS: dict[str, type | tuple[type, ...]] = {
    "dc": int,
    "rolls": list,
    "roll": int,
    "total": int,
    "success": bool,
    "error": str,
    "faces": list,
    "dice": int,
}


def _typed(table: Any, keys: dict[str, Any], where: str) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise ScenarioError(f"{where}: expected a table")
    for key, value in table.items():
        if key not in keys:
            raise ScenarioError(f"{where}.{key}: unknown key; known: {', '.join(keys)}")
        want = keys[key]
        # bool is an int to Python; a count or a number is never written true/false.
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise ScenarioError(f"{where}.{key}: expected {want.__name__}, got {value!r}")
        if want is list and not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise ScenarioError(f"{where}.{key}: expected a list of integers")
    return dict(table)


def parse_check(data: dict[str, Any], path: str) -> Scenario:
    """A skill-check scenario from its TOML ``data`` (raises :class:`ScenarioError`)."""
    for key in data:
        if key not in ("title", "rule", "skill_check", "expect"):
            raise ScenarioError(
                f"{path}: {key!r} has no place in a skill-check scenario "
                "(title, rule, [skill_check], [expect])"
            )
    title, rule = title_and_rule(data, path)
    check = _typed(data["skill_check"], _CHECK_KEYS, f"{path}: skill_check")
    where = f"{path}: skill_check"
    if "skill" not in check:
        raise ScenarioError(f"{where}: needs a skill (sleight_of_hand or persuasion)")
    if ("dc" in check) == ("difficulty" in check):
        raise ScenarioError(f"{where}: needs a difficulty or a dc (one of them)")
    if "difficulty" in check and check["difficulty"] not in DIFFICULTIES:
        raise ScenarioError(
            f"{where}.difficulty: unknown {check['difficulty']!r}; "
            f"choose from {', '.join(DIFFICULTIES)}"
        )
    if ("rolls" in check) == ("seeds" in check):
        raise ScenarioError(f"{where}: needs rolls or seeds (one of them)")
    if "seeds" in check and check["seeds"] < 1:
        raise ScenarioError(f"{where}.seeds: at least 1")
    expect = _typed(data.get("expect", {}), _EXPECT_KEYS, f"{path}: expect")
    rolled = {"faces", "dice"} & set(expect)
    if rolled and "seeds" not in check:
        raise ScenarioError(f"{path}: expect.{min(rolled)} needs skill_check.seeds")
    outcome = {"dc", "rolls", "roll", "total", "success"} & set(expect)
    if outcome and "seeds" in check:
        raise ScenarioError(f"{path}: expect.{min(outcome)} needs skill_check.rolls")
    return unplayed(path, title, rule, expect=expect, check=check)


def check_failures(scenario: Scenario) -> list[str]:
    """Make the scenario's check by the rules; every mismatch with its expectations."""
    check, expect = scenario.check or {}, scenario.expect
    mode = check.get("mode", NORMAL)
    out: list[str] = []
    try:
        if "seeds" in check:
            return _faces(check["seeds"], mode, expect)
        rolls = tuple(check["rolls"])
        dc = check["dc"] if "dc" in check else DIFFICULTIES[check["difficulty"]]
        got = resolve(check["skill"], dc, check.get("modifier", 0), rolls, mode)
    except SkillCheckError as e:
        if "error" not in expect:
            return [f"the rules refuse the check: {e}"]
        if expect["error"] not in str(e):
            out.append(f"refused with {str(e)!r}, expected one mentioning {expect['error']!r}")
        return out
    if "error" in expect:
        return [f"the check was made (total {got.total}); expected a refusal: {expect['error']!r}"]
    found = {
        "dc": got.dc,
        "rolls": list(got.rolls),
        "roll": got.roll,
        "total": got.total,
        "success": got.success,
    }
    for key, value in found.items():
        if key in expect and expect[key] != value:
            out.append(f"expect.{key}: got {value!r}, expected {expect[key]!r}")
    return out


def _faces(seeds: int, mode: str, expect: dict[str, Any]) -> list[str]:
    """The d20s rolled from every seed below ``seeds``, against ``faces`` and ``dice``."""
    faces: set[int] = set()
    dice: set[int] = set()
    for seed in range(seeds):
        rolls = roll_d20s(seed, mode)
        faces.update(rolls)
        dice.add(len(rolls))
    out = []
    if "faces" in expect and sorted(faces) != sorted(expect["faces"]):
        out.append(f"expect.faces: rolled {sorted(faces)}, expected {sorted(expect['faces'])}")
    if "dice" in expect and dice != {expect["dice"]}:
        out.append(f"expect.dice: checks rolled {sorted(dice)} d20, expected {expect['dice']}")
    if "error" in expect:
        out.append(f"rolled without a refusal; expected {expect['error']!r}")
    return out
