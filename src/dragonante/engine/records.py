"""Game records: save a game as (rules version, config, seed, answers) and replay it.

A record is small JSON.  Replaying feeds the answers back into a fresh game
and compares the final state's digest with the one stored, so a record made
by another version of the rules (or tampered with) is caught instead of
silently diverging.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from dragonante import RULES_VERSION
from dragonante.engine.config import ConfigError, GameConfig, config_from_dict, config_to_dict
from dragonante.engine.decisions import IllegalAnswer
from dragonante.engine.game import apply, call_last_gambit, new_game
from dragonante.engine.state import GameState
from dragonante.kernel.errors import RecordError as RecordError  # callers import it here

FORMAT = "dragonante-record"


def digest(s: GameState) -> str:
    """SHA-256 of the full state, for byte-for-byte reproducibility checks."""
    blob = json.dumps(s.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


@dataclass(slots=True)
class GameRecord:
    config: GameConfig
    seed: int
    answers: list[int] = field(default_factory=list)
    final_digest: str | None = None
    rules_version: int = RULES_VERSION
    #: The time limit ran out (EG optional rule 5) after this many answers:
    #: replay calls the last gambit at the same point.  None: never called.
    last_gambit_called_after: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "rules_version": self.rules_version,
            "config": config_to_dict(self.config),
            "seed": self.seed,
            "answers": list(self.answers),
            "final_digest": self.final_digest,
        }
        if self.last_gambit_called_after is not None:
            out["last_gambit_called_after"] = self.last_gambit_called_after
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), indent=1)


def record_from_dict(data: Any) -> GameRecord:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f'not a dragonante game record (missing "format": "{FORMAT}")')
    version = data.get("rules_version")
    if version != RULES_VERSION:
        raise RecordError(
            f"record made with rules version {version!r}; this is version {RULES_VERSION}, "
            "and replaying it under other rules would give a different game: open it with "
            "the dragonante release that made it"
        )
    seed = data.get("seed")
    answers = data.get("answers")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError("record seed must be an integer")
    if not isinstance(answers, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in answers
    ):
        raise RecordError("record answers must be a list of integers")
    final = data.get("final_digest")
    if final is not None and not isinstance(final, str):
        raise RecordError("record final_digest must be a string")
    called = data.get("last_gambit_called_after")
    if called is not None and (
        isinstance(called, bool) or not isinstance(called, int) or not 0 <= called <= len(answers)
    ):
        raise RecordError(
            f"record last_gambit_called_after must be an answer count between 0 and {len(answers)}"
        )
    try:
        config = config_from_dict(data.get("config", {}))
    except ConfigError as e:
        raise RecordError(f"bad config in record: {e}") from e
    return GameRecord(config, seed, answers, final, last_gambit_called_after=called)


def loads(text: str) -> GameRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"record is not valid JSON: {e.msg} (line {e.lineno})") from e
    return record_from_dict(data)


def replay(record: GameRecord, log: bool = True, verify: bool = True) -> GameState:
    """Replay a record; raises :class:`RecordError` if an answer is illegal or the
    final state differs from the recorded digest."""
    s = new_game(record.config, record.seed, log=log)
    called = record.last_gambit_called_after
    for i, answer in enumerate(record.answers):
        if i == called:
            call_last_gambit(s)
        try:
            apply(s, answer)
        except IllegalAnswer as e:
            raise RecordError(f"answer #{i + 1} does not replay: {e}") from e
    if called is not None and called == len(record.answers):
        call_last_gambit(s)
    if verify and record.final_digest is not None and digest(s) != record.final_digest:
        raise RecordError("replayed game differs from the record (final digest mismatch)")
    return s


class Recorder:
    """Wraps a game and records every answer given through it."""

    def __init__(self, config: GameConfig, seed: int, log: bool = True) -> None:
        self.record = GameRecord(config, seed)
        self.state = new_game(config, seed, log=log)

    def answer(self, answer: int, decision_id: int | None = None) -> None:
        apply(self.state, answer, decision_id)
        self.record.answers.append(answer)
        if self.state.over:
            self.record.final_digest = digest(self.state)

    def call_last_gambit(self) -> None:
        """The time limit ran out: one more gambit after this one (recorded)."""
        if self.state.over or self.state.last_gambit:
            return
        call_last_gambit(self.state)
        self.record.last_gambit_called_after = len(self.record.answers)

    def finish(self) -> GameRecord:
        self.record.final_digest = digest(self.state)
        return self.record
