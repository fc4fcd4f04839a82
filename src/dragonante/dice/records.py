"""Save files: a Dice Gambit game as (rules version, config, seed, dice, answers).

A game is fully determined by its settings, its seed and the answers given
- with physical dice the answers include every face typed in - so a save is
small JSON and resuming is replaying the answers into a fresh game.  The
tracker writes one after every answer.  Anything malformed, from another
rules version, or whose answers no longer replay is refused with a
:class:`RecordError` whose message says what is wrong, in one line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from dragonante.dice.config import ConfigError, DiceConfig, config_from_dict, config_to_dict
from dragonante.dice.decisions import IllegalAnswer
from dragonante.dice.game import apply, new_game
from dragonante.dice.state import DICE_SOURCES, SEEDED, DiceState
from dragonante.kernel.errors import RecordError as RecordError  # callers import it here

FORMAT = "dragonante-dice-game"
#: Bumped whenever the dice engine's behaviour changes (old saves would not replay);
#: pinned by the golden games (``tests/golden/dice.json``, see ``tests/golden/games.py``).
DICE_RULES_VERSION = 2


@dataclass(slots=True)
class DiceRecord:
    config: DiceConfig
    seed: int = 0
    dice: str = SEEDED
    answers: list[int] = field(default_factory=list)
    #: Players' names as the table calls them (informational; may be empty).
    names: list[str] = field(default_factory=list)
    rules_version: int = DICE_RULES_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules_version": self.rules_version,
            "config": config_to_dict(self.config),
            "seed": self.seed,
            "dice": self.dice,
            "names": list(self.names),
            "answers": list(self.answers),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), indent=1)


def _int(value: Any) -> bool:
    return type(value) is int


def record_from_dict(data: Any) -> DiceRecord:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f'not a Dice Gambit save file (missing "format": "{FORMAT}")')
    version = data.get("rules_version")
    if version != DICE_RULES_VERSION:
        raise RecordError(
            f"saved with dice rules version {version!r}; this is version {DICE_RULES_VERSION}, "
            "and replaying it under other rules would give a different game: resume it with "
            "the dragonante release that saved it"
        )
    seed = data.get("seed", 0)
    if not _int(seed):
        raise RecordError("seed must be an integer")
    dice = data.get("dice", SEEDED)
    if dice not in DICE_SOURCES:
        raise RecordError(f"dice must be one of {', '.join(DICE_SOURCES)}, got {dice!r}")
    answers = data.get("answers")
    if not isinstance(answers, list) or not all(_int(a) for a in answers):
        raise RecordError("answers must be a list of integers")
    names = data.get("names", [])
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise RecordError("names must be a list of strings")
    try:
        config = config_from_dict(data.get("config"))
    except ConfigError as e:
        raise RecordError(f"bad settings: {e}") from e
    if names and len(names) != config.players:
        raise RecordError(f"{len(names)} names for {config.players} players")
    return DiceRecord(config, seed, dice, list(answers), list(names))


def loads(text: str) -> DiceRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from e
    except RecursionError:
        raise RecordError("not valid JSON (nested too deeply)") from None
    return record_from_dict(data)


def replay(record: DiceRecord, log: bool = True) -> DiceState:
    """The game the record describes, after its last answer."""
    s = new_game(record.config, record.seed, record.dice, log=log)
    for i, answer in enumerate(record.answers):
        if s.over:
            raise RecordError(f"answer {i + 1} comes after the end of the game")
        try:
            apply(s, answer)
        except IllegalAnswer as e:
            raise RecordError(f"answer {i + 1} does not replay: {e}") from e
    return s


class Recorder:
    """A game and the record of its answers, kept in step."""

    __slots__ = ("record", "state")

    def __init__(self, record: DiceRecord, log: bool = True) -> None:
        self.record = record
        self.state = replay(record, log=log)

    @classmethod
    def start(
        cls, config: DiceConfig, seed: int = 0, dice: str = SEEDED, names: list[str] | None = None
    ) -> Recorder:
        return cls(DiceRecord(config.validate(), seed, dice, [], list(names or [])))

    def answer(self, answer: int, decision_id: int | None = None) -> None:
        """Apply and record one answer (nothing is recorded if it is illegal)."""
        apply(self.state, answer, decision_id)
        self.record.answers.append(answer)

    def undo(self) -> bool:
        """Take back the last answer by replaying all the others; False if there is none."""
        if not self.record.answers:
            return False
        self.record.answers.pop()
        self.state = replay(self.record, log=self.state.log is not None)
        return True
