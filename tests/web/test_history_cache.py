"""A table's kept gambit histories say what a fresh reading of the log says.

``seat_view`` words each point of view's history from a
:class:`~dragonante.interfaces.gambit_history.HistoryKeeper` kept with the
table (``history_cache.py``), extended with the new events after every
answer.  These tests play seeded games through a :class:`LiveTable` and,
after every answer, compare the kept history (and the whole view) with one
built from scratch: across new gambits, after a take-back (the table's
state replayed from fewer answers) and a seat's new name, in both languages,
with hidden abilities (a game-master's and a spectator's view) too.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest

from dragonante.engine.game import apply
from dragonante.interfaces.gambit_history import gambit_history, history_dict
from dragonante.interfaces.narrate import Narrator
from dragonante.interfaces.web.shared.protocol import encode
from dragonante.interfaces.web.storage.store import HUMAN, PLAYING, SeatInfo, StoredTable
from dragonante.interfaces.web.tables.history_cache import seat_history
from dragonante.interfaces.web.tables.live import LiveTable, replay_state, seat_view

#: A hidden-abilities table: a game-master's view, and private events of abilities.
HIDDEN = {"system": "disks", "visibility": "hidden"}
ABILITIES: dict[str, Any] = {"players": 4, "gold_per_player": 10, "abilities": HIDDEN}


def new_table(config: dict[str, Any], seed: int) -> LiveTable:
    seats = {p: SeatInfo(p, f"Pè{p}", HUMAN) for p in range(4)}
    when = datetime(2024, 1, 1, tzinfo=UTC)
    return LiveTable(StoredTable(f"KEEP{seed}", config, seed, PLAYING, when, seats=seats))


def cold_copy(table: LiveTable) -> LiveTable:
    """The same table and game, with no history kept yet."""
    fresh = new_table(table.config_dict, table.seed)
    fresh.seats, fresh.state, fresh.answers = table.seats, table.state, list(table.answers)
    return fresh


def fresh_history(table: LiveTable, seat: int | None, lang: str) -> dict[str, Any]:
    assert table.state is not None
    narrator = Narrator(table.names(), lang, me=seat, debt_model=table.config.rules.debt_model)
    return history_dict(gambit_history(table.state.log or [], seat), narrator)


def check(table: LiveTable, lang: str, since: dict[int | None, int]) -> None:
    """Every point of view's kept history and view equal a cold table's."""
    state = table.state
    assert state is not None
    log = state.log or []
    cold = cold_copy(table)
    for seat in (0, 1, 2, 3, None):
        narrator = Narrator(table.names(), lang, me=seat, debt_model=table.config.rules.debt_model)
        assert seat_history(table, log, seat, narrator) == fresh_history(table, seat, lang)
        for gm in (False, True) if seat is None else (False,):
            start = min(since.get(seat, 0), len(log))
            warm_view = seat_view(table, state, seat, lang, start, gm)
            cold_view = seat_view(cold, state, seat, lang, start, gm)
            assert encode(warm_view) == encode(cold_view)
        since[seat] = len(log)


def play(table: LiveTable, rng: random.Random, answers: int) -> None:
    state = table.state
    assert state is not None
    for _ in range(answers):
        if state.pending is None:
            return
        answer = state.pending.options[rng.randrange(len(state.pending.options))]
        apply(state, answer)
        table.answers.append(answer)


def take_back(table: LiveTable, n: int) -> None:
    """What ``take_back.py`` does to the game: the state replayed from ``n`` answers."""
    table.state = replay_state(table.config, table.seed, table.answers[:n], None)
    table.answers = table.answers[:n]


@pytest.mark.parametrize(("seed", "lang"), [(1, "en"), (2, "it"), (3, "en")])
def test_the_kept_history_equals_a_fresh_one_across_gambits_and_a_take_back(
    seed: int, lang: str
) -> None:
    table = new_table(ABILITIES, seed)
    rng = random.Random(seed)
    since: dict[int | None, int] = {}
    gambits: set[int] = set()
    took_back = False
    state = table.state
    while state is not None and state.pending is not None:
        play(table, rng, 1)
        state = table.state
        assert state is not None
        check(table, lang, since)
        history = gambit_history(state.log or [], None)
        if history is not None:
            gambits.add(history.gambit)
        if not took_back and len(gambits) >= 2 and len(table.answers) > 10:
            # Back into the previous gambit, then on with other answers.
            take_back(table, len(table.answers) - 8)
            took_back = True
            since.clear()
            check(table, lang, since)
            state = table.state
        if len(table.answers) == 40:
            table.seats[1] = SeatInfo(1, "Bot Uno", HUMAN)  # the names change the lines
    assert took_back
    assert len(gambits) >= 2


def test_a_replayed_log_at_the_same_length_is_read_again() -> None:
    """A take-back and the same number of other answers: a new log as long as the kept one."""
    table = new_table(ABILITIES, 4)
    play(table, random.Random(4), 30)
    check(table, "en", {})
    take_back(table, 20)
    play(table, random.Random(99), 10)
    check(table, "en", {})
