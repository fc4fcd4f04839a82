"""Reproducible games: same config, seed and answers give the same game, byte for byte;
records save, load and replay, verifying the final state, and refuse anything malformed."""

from __future__ import annotations

import json
import random

import pytest

from dragonante import RULES_VERSION
from dragonante.engine import GameConfig, IllegalAnswer, apply, new_game
from dragonante.engine.config import DeckOptions
from dragonante.engine.records import GameRecord, Recorder, RecordError, digest, loads, replay


def play(config: GameConfig, seed: int, answer_seed: int) -> Recorder:
    rec = Recorder(config, seed)
    pick = random.Random(answer_seed)
    while not rec.state.over:
        d = rec.state.pending
        assert d is not None
        rec.answer(pick.choice(d.options), d.id)
    return rec


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_same_inputs_same_game_byte_for_byte(players: int) -> None:
    config = GameConfig(players=players)
    a = play(config, 42, 7)
    b = play(config, 42, 7)
    assert digest(a.state) == digest(b.state)
    assert a.state.log == b.state.log
    assert json.dumps(a.state.to_dict()) == json.dumps(b.state.to_dict())


def test_different_seed_different_game() -> None:
    config = GameConfig(players=4)
    assert digest(play(config, 1, 7).state) != digest(play(config, 2, 7).state)


@pytest.mark.parametrize(
    "deck",
    [
        DeckOptions(),
        DeckOptions(selection="traditional", reveal_specials=True),
        DeckOptions(selection="pick_em"),
        DeckOptions(selection="druids_party"),
        DeckOptions(forced_includes=("L-mor-princess", "L-leg-tiamat")),
    ],
)
def test_record_round_trip_replays_and_verifies(deck: DeckOptions) -> None:
    config = GameConfig(players=3, gold_per_player=8, deck=deck)
    rec = play(config, 9, 3)
    text = rec.finish().dumps()
    loaded = loads(text)
    assert loaded.config == config
    s = replay(loaded)
    assert s.over
    assert digest(s) == digest(rec.state)


def test_tampered_record_is_caught() -> None:
    rec = play(GameConfig(players=3), 4, 4).finish()
    data = json.loads(rec.dumps())
    data["seed"] = 5
    with pytest.raises(RecordError, match=r"does not replay|digest mismatch"):
        replay(loads(json.dumps(data)))


#: A current record's opening: the tests below differ only in what follows.
HEAD = f'{{"format": "dragonante-record", "rules_version": {RULES_VERSION}, '


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[]", "not a dragonante game record"),
        ('{"format": "dragonante-record", "rules_version": 999}', "rules version 999"),
        (HEAD + '"seed": "x", "answers": []}', "seed must be an integer"),
        (HEAD + '"seed": 1, "answers": [true]}', "answers must be a list of integers"),
        (HEAD + '"seed": 1, "answers": [], "config": {"players": 9}}', "players must be 2-6"),
        (HEAD + '"seed": 1, "answers": [], "config": {"colour": 1}}', "unknown config option"),
    ],
)
def test_malformed_records_are_clear_errors(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(text)


def test_record_with_an_illegal_answer_does_not_replay() -> None:
    record = GameRecord(GameConfig(players=2), 1, [999])
    with pytest.raises(RecordError, match="answer #1 does not replay"):
        replay(record)


def test_illegal_and_stale_answers_leave_the_state_unchanged() -> None:
    s = new_game(GameConfig(players=4), seed=3)
    d = s.pending
    assert d is not None
    before = digest(s)
    log_len = len(s.log or [])
    not_in_hand = next(c for c in range(100) if c not in d.options)
    for bad, decision_id in [
        (not_in_hand, d.id),
        (d.options[0], d.id + 1),  # stale
        (True, d.id),  # not an int
        ("3", d.id),
    ]:
        with pytest.raises(IllegalAnswer):
            apply(s, bad, decision_id)  # type: ignore[arg-type]
        assert digest(s) == before
        assert len(s.log or []) == log_len
    apply(s, d.options[0], d.id)
    assert digest(s) != before


def test_answering_a_finished_game_is_refused() -> None:
    rec = play(GameConfig(players=2), 8, 8)
    with pytest.raises(IllegalAnswer, match="over"):
        apply(rec.state, 0)


def test_clone_is_independent_and_does_not_copy_history() -> None:
    rec = play(GameConfig(players=4), 5, 5)
    s = new_game(GameConfig(players=4), seed=5)
    for a in rec.record.answers[: len(rec.record.answers) // 2]:
        apply(s, a)
    c = s.clone()
    assert c.log is None  # history stays behind: clones do not grow with it
    assert c.to_dict() == s.to_dict()
    d = c.pending
    assert d is not None
    apply(c, d.options[0])
    assert c.to_dict() != s.to_dict()
    assert s.pending is d


def test_same_game_in_separate_processes() -> None:
    """Byte-for-byte across interpreters, whatever their hash seed."""
    import os
    import subprocess
    import sys

    code = (
        "import random\n"
        "from dragonante.engine import GameConfig, apply, new_game\n"
        "from dragonante.engine.records import digest\n"
        "s = new_game(GameConfig(players=5), seed=77)\n"
        "pick = random.Random(5)\n"
        "while not s.over:\n"
        "    apply(s, pick.choice(s.pending.options))\n"
        "print(digest(s))\n"
    )
    outs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outs.add(out.stdout.strip())
    assert len(outs) == 1


def test_a_record_from_an_older_rules_version_is_refused_with_the_reason() -> None:
    """Issue 21 §3: a record made before a behaviour change is never replayed
    into a different game; the message says which versions and why."""
    record = play(GameConfig(players=3), 4, 4).finish()
    assert record.rules_version == RULES_VERSION
    data = json.loads(record.dumps())
    data["rules_version"] = RULES_VERSION - 1
    with pytest.raises(RecordError) as info:
        loads(json.dumps(data))
    message = str(info.value)
    assert f"rules version {RULES_VERSION - 1}" in message
    assert f"this is version {RULES_VERSION}" in message
    assert "different game" in message and "\n" not in message
