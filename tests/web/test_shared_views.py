"""One broadcast's views share what they have in common, and say exactly the same.

``frames.broadcast`` passes a :class:`SharedParts` to every ``seat_view`` of
one update: the names, the scored totals, and the sentences of the new
public events, each told once and handed to every reader whose own
narrator would have said the same (``SharedSentences``).  These tests
compare the shared sentences with each reader's own narration for every
event of whole seeded games (the rulesets, the D&D abilities, both
languages), and a few hand-made events whose data could trip the sharing
(a seat field that is None, a boolean, a list of seats, an unknown kind).
``test_frames.py`` compares whole frames the same way through a real hub.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from dragonante.engine.config import config_from_dict
from dragonante.engine.game import apply, new_game
from dragonante.engine.state import Event
from dragonante.engine.views import GM_EVENTS, events_for
from dragonante.interfaces.narrate import Narrator
from dragonante.interfaces.web.shared.narration import SharedSentences, TableNarrator
from dragonante.interfaces.web.shared.protocol import encode
from dragonante.interfaces.web.storage.store import HUMAN, PLAYING, SeatInfo, StoredTable
from dragonante.interfaces.web.tables.live import LiveTable, SharedParts, seat_view

NAMES = ["Anna", "Bò", "Carla", "Dario"]

CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 4, "rules": {"ruleset": "emperors_gambit"}, "deck": {"preset": "eg_full"}},
    {"players": 4, "rules": {"ruleset": "original"}},
    {"players": 4, "abilities": {"system": "disks", "visibility": "hidden"}},
    {"players": 4, "abilities": {"system": "skills", "assign": "draft"}},
]


def _games(config: dict[str, Any], seeds: range) -> list[list[tuple[list[Event], int]]]:
    """Each game's log, cut after every answer: (log, where the answer's events start)."""
    cfg = config_from_dict(config)
    games = []
    for seed in seeds:
        s = new_game(cfg, seed, log=True)
        rng = random.Random(seed)
        steps = []
        while s.pending is not None:
            start = len(s.log or [])
            apply(s, s.pending.options[rng.randrange(len(s.pending.options))])
            steps.append((s.log or [], start))
        games.append(steps)
    return games


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: json.dumps(c, sort_keys=True))
def test_shared_sentences_equal_each_readers_own(config: dict[str, Any]):
    debt = config_from_dict(config).rules.debt_model
    told = shared_told = 0
    for steps in _games(config, range(3)):
        for log, start in steps:
            for lang in ("en", "it"):
                shared = SharedSentences(NAMES, debt)
                for me in (None, 0, 1, 2, 3):
                    own = Narrator(NAMES, lang, me=me, debt_model=debt)
                    for e in events_for(log, me, start):
                        assert shared.event(own, e) == own.event(e), (lang, me, e)
                        told += 1
                    # a game-master: spectator sentences, and who got which ability
                    if me is None:
                        for e in log[start:]:
                            if e[0] is not None and e[1] in GM_EVENTS:
                                assert shared.event(own, e) == own.event(e), (lang, e)
                shared_told += sum(len(v[1]) for v in shared._told.values())
    # the point of sharing: far fewer sentences told than read
    assert told > 1000 and shared_told < told * 0.6


@pytest.mark.parametrize(
    "data",
    [
        {"seat": None, "card": 3},  # a seat field that is None ("you" for a spectator!)
        {"seat": True, "card": 3},  # a boolean where a seat number belongs (True == 1)
        {"seat": 1.0, "card": 3},
        {"seat": "1", "card": 3},
        {"seat": 2, "seats": [0, 1], "winners": [3]},
        {"winner": 0, "seats": [1, 2], "share": 4},
        {"seats": [[1], 2]},  # unhashable seat values
    ],
)
@pytest.mark.parametrize("kind", ["play", "gambit_won", "hole_won", "mystery_event"])
def test_shared_sentences_with_odd_data(kind: str, data: dict[str, Any]):
    if kind == "play":
        data = {**data, "triggered": False}
    e: Event = (None, kind, data)
    for lang in ("en", "it"):
        shared = SharedSentences(NAMES, "hole")
        for me in (2, None, 0, 1, 3, None, 2):
            own = Narrator(NAMES, lang, me=me)
            assert shared.event(own, e) == own.event(e), (lang, me)


def test_table_narrator_with_and_without_shared_sentences():
    """``TableNarrator.events`` gives the same list either way (``text`` None where
    a sentence would only repeat)."""
    for steps in _games({"players": 4}, range(2)):
        for log, start in steps:
            shared = SharedSentences(NAMES, "hole")
            for me in (0, 1, 2, 3, None):
                plain = TableNarrator(NAMES, "it", me, "hole")
                events = events_for(log, me, start)
                assert plain.events(events, shared) == plain.events(events)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: json.dumps(c, sort_keys=True))
def test_seat_views_with_shared_parts_equal_the_plain_ones(config: dict[str, Any]):
    """Every kind of connection of one broadcast, the snapshot (``since`` 0) too,
    key order included (the frames are the encoded views)."""
    stored = StoredTable(
        code="SHARE",
        config=config,
        seed=5,
        status=PLAYING,
        created_at=datetime(2024, 1, 1, tzinfo=UTC),
        seats={p: SeatInfo(p, NAMES[p], HUMAN) for p in range(4)},
    )
    table = LiveTable(stored)
    state = table.state
    assert state is not None
    rng = random.Random(5)
    readers = [(p, False) for p in range(4)] + [(None, False), (None, True)]
    while state.pending is not None:
        since = len(state.log or [])
        answer = state.pending.options[rng.randrange(len(state.pending.options))]
        apply(state, answer)
        table.answers.append(answer)
        shared = SharedParts(table, state)
        for lang in ("en", "it"):
            for seat, gm in readers:
                for start in (since, 0) if rng.random() < 0.05 else (since,):
                    plain = seat_view(table, state, seat, lang, start, gm)
                    cheap = seat_view(table, state, seat, lang, start, gm, shared)
                    assert encode(cheap) == encode(plain)
