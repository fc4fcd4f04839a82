"""Reproducible Dice Gambit games and their save files.

The same settings, seed and answers give the same game byte for byte (in
any process, whatever the hash seed); a save file replays to the same
state; malformed, foreign or tampered save files are refused with a
one-line reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from dragonante.bots.dice import DiceSeatView, make_bot
from dragonante.dice import PHYSICAL, DiceConfig, IllegalAnswer
from dragonante.dice.records import (
    DICE_RULES_VERSION,
    DiceRecord,
    Recorder,
    RecordError,
    loads,
    replay,
)


def bot_game(config: DiceConfig, seed: int) -> Recorder:
    rec = Recorder.start(config, seed)
    bots = [make_bot("random" if p % 2 else "basic", 99 + p) for p in range(config.players)]
    while not rec.state.over:
        d = rec.state.pending
        assert d is not None
        rec.answer(bots[d.seat].choose(DiceSeatView(rec.state, d.seat)), d.id)
    return rec


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_same_settings_seed_and_answers_give_the_same_game_byte_for_byte(players: int) -> None:
    config = DiceConfig(players=players, gambits=2, gaming_set_owners=(0,))
    a = bot_game(config, 42)
    b = bot_game(config, 42)
    assert json.dumps(a.state.to_dict()) == json.dumps(b.state.to_dict())
    assert a.state.log == b.state.log
    # Replaying the recorded answers gives the same game again.
    c = replay(loads(a.record.dumps()))
    assert json.dumps(c.to_dict()) == json.dumps(a.state.to_dict())
    assert c.log == a.state.log


def test_different_seeds_give_different_games() -> None:
    config = DiceConfig(players=4)
    assert bot_game(config, 1).state.log != bot_game(config, 2).state.log


_DIGEST = """
import hashlib, json
from dragonante.dice import DiceConfig
from dragonante.sim.dice_selfplay import play
s, _ = play(DiceConfig(players=5, gambits=3), 1234, ("basic", "random"))
print(hashlib.sha256(json.dumps(s.to_dict(), sort_keys=True).encode()).hexdigest())
"""


def test_identical_games_across_processes_and_hash_seeds() -> None:
    digests = set()
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", _DIGEST], env=env, capture_output=True, text=True, check=True
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_a_tracked_game_saves_and_resumes_from_its_answers() -> None:
    rec = Recorder.start(DiceConfig(players=3), dice=PHYSICAL, names=["Ann", "Bo", "Cy"])
    for face in (4, 9, 2, 0, 7, 3):  # turn order, then seat 1 plays a Green 3
        rec.answer(face)
    again = Recorder(loads(rec.record.dumps()))
    assert again.state.to_dict() == rec.state.to_dict()
    assert again.record.names == ["Ann", "Bo", "Cy"]


def test_undo_takes_back_the_last_answer() -> None:
    rec = Recorder.start(DiceConfig(players=2), dice=PHYSICAL)
    rec.answer(5)
    before = rec.state.to_dict()
    rec.answer(3)
    assert rec.undo()
    assert rec.state.to_dict() == before
    assert rec.undo() and not rec.undo()


def test_an_illegal_answer_is_not_recorded() -> None:
    rec = Recorder.start(DiceConfig(players=2), dice=PHYSICAL)
    with pytest.raises(IllegalAnswer):
        rec.answer(13)
    assert rec.record.answers == []


def good() -> dict[str, object]:
    return DiceRecord(DiceConfig(players=2), dice=PHYSICAL, answers=[5, 3]).to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "something-else"}, "not a Dice Gambit save file"),
        ({"rules_version": DICE_RULES_VERSION + 1}, "rules version"),
        # A save from before the last behaviour change (issue 21 §3).
        ({"rules_version": DICE_RULES_VERSION - 1}, "would give a different game"),
        ({"seed": "x"}, "seed must be an integer"),
        ({"dice": "loaded"}, "dice must be one of"),
        ({"answers": [5, "three"]}, "answers must be a list of integers"),
        ({"answers": [5, True]}, "answers must be a list of integers"),
        ({"names": [1, 2]}, "names must be a list of strings"),
        ({"names": ["Ann"]}, "1 names for 2 players"),
        ({"config": {"players": 9}}, "bad settings: players must be 2-6"),
        ({"config": {"players": 2, "house_edge": 3}}, "unknown setting"),
        ({"config": {"players": "two"}}, "players must be int"),
        ({"config": []}, "config must be an object"),
    ],
)
def test_malformed_save_files_are_refused_with_the_reason(
    change: dict[str, object], message: str
) -> None:
    data = {**good(), **change}
    with pytest.raises(RecordError, match=message):
        Recorder(loads(json.dumps(data)))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2]", "not a Dice Gambit"),
        ("[" * 100000, "not valid JSON"),
    ],
)
def test_unreadable_save_files_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(text)


def test_answers_that_do_not_replay_are_refused() -> None:
    with pytest.raises(RecordError, match="answer 2 does not replay: a d12 shows 1 to 12"):
        replay(loads(json.dumps({**good(), "answers": [5, 13]})))
    finished = bot_game(DiceConfig(players=2), 3).record
    finished.answers.append(0)
    with pytest.raises(RecordError, match="after the end of the game"):
        replay(finished)
