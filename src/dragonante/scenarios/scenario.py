"""What a scenario is, whichever file format it was read from.

A rules scenario is a table, scripted answers and the results the books
expect (``format.py`` reads the card game's TOML files); a Gamblers
Unleashed skill check is one d20 check instead (``skill_check.py`` reads
those).  Both readers build the :class:`Scenario` defined here and raise
:class:`ScenarioError`: ``format.py`` hands a file with a ``[skill_check]``
on to ``skill_check.py``, which needs nothing of ``format.py`` (the two
were an import circle while these lived there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dragonante.engine.config import GameConfig
from dragonante.engine.position import Position


class ScenarioError(ValueError):
    """A scenario file that cannot be read; the message names the file and the key."""


@dataclass(slots=True)
class Step:
    """One scripted answer: who is asked, what, and what they answer."""

    seat: int
    ask: str
    answer: int
    answer_text: str
    options: tuple[int, ...] | None = None
    expect: dict[str, Any] = field(default_factory=dict)
    #: The table's time limit runs out just before this answer (Emperor's
    #: Gambit optional rule: "play one final gambit after reaching that time
    #: limit"): the engine is told, as the clock would tell it.
    time_up: bool = False


@dataclass(slots=True)
class Scenario:
    path: str
    title: str
    rule: str
    config: GameConfig
    position: Position | None
    seed: int
    steps: list[Step]
    expect: dict[str, Any]
    stop: str = "boundary"  # boundary | any
    #: A Gamblers Unleashed d20 check instead of a game (scenarios/skill_check.py).
    check: dict[str, Any] | None = None
    #: A table that must be refused: the text its ConfigError's message contains
    #: (then nothing is played, ``config`` is the default and ``raw_config`` is the
    #: ``[config]`` as written, built by the runner each time it runs).
    refused: str = ""
    raw_config: dict[str, Any] = field(default_factory=dict)


def unplayed(path: str, title: str, rule: str, **fields: Any) -> Scenario:
    """A scenario that plays no game (a refused table, a d20 skill check): the
    default table, no position, steps or seed; ``fields`` say what it checks."""
    return Scenario(
        path=path,
        title=title,
        rule=rule,
        config=GameConfig(),
        position=None,
        seed=0,
        steps=[],
        expect=fields.pop("expect", {}),
        **fields,
    )


def title_and_rule(data: dict[str, Any], path: str) -> tuple[str, str]:
    """A scenario's ``title`` (required) and the book's ``rule`` it quotes."""
    title = data.get("title")
    if not isinstance(title, str) or not title:
        raise ScenarioError(f"{path}: a scenario needs a title")
    rule = data.get("rule", "")
    if not isinstance(rule, str):
        raise ScenarioError(f"{path}: rule must be a string")
    return title, rule
