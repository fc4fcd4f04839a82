"""The remote terminal client draws the engine's typed view, rebuilt from the web frame.

The server sends ``Observation.to_dict()`` (with the totals and trigger hints
beside it, under the browser's names); :class:`RemoteSeat` rebuilds the
:class:`Observation` from it, so a seat at a server table sees exactly what
it would see at a local one, hints included, and no seat gets hints while
another seat is asked.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

from dragonante.engine.decisions import PLAY
from dragonante.engine.game import apply
from dragonante.engine.views import Question, observe
from dragonante.interfaces.narrate import Narrator
from dragonante.interfaces.render import from_observation, table_lines, table_view
from dragonante.interfaces.tui.remote import RemoteSeat
from dragonante.interfaces.web.storage.store import HUMAN, PLAYING, SeatInfo, StoredTable
from dragonante.interfaces.web.tables.live import LiveTable, seat_view

NAMES = ["Ann", "Bo", "Cy"]


def _table() -> LiveTable:
    stored = StoredTable(
        code="REMOTE",
        config={"players": 3},
        seed=11,
        status=PLAYING,
        created_at=datetime(2024, 1, 1, tzinfo=UTC),
        seats={p: SeatInfo(p, NAMES[p], HUMAN) for p in range(3)},
    )
    return LiveTable(stored)


def test_the_remote_view_is_the_engine_s_observation_hints_and_all() -> None:
    table = _table()
    state = table.state
    assert state is not None
    rng = random.Random(3)
    hinted = rounds = 0
    for _ in range(60):
        if state.pending is None:
            break
        for seat in range(3):
            frame = json.loads(json.dumps(seat_view(table, state, seat, "en", 0)))
            remote = RemoteSeat("en")
            remote.welcome({"seat": seat})
            remote.apply({"type": "state", **frame})
            snap = remote.snapshot(Narrator(NAMES, "en", me=seat))
            assert snap is not None
            local = observe(state, seat)
            # Everyone antes at once: a seat of the round sees its own question.
            face_down = table.round()
            own = face_down.asked(seat) if face_down is not None else None
            if own is not None and local.question is not None and local.question.id != own.id:
                mine = Question(own.id, seat, own.kind, own.source, list(own.options), [])
                local = local._replace(question=mine)
                rounds += 1
            assert snap.view.obs == local
            # The one hint rule: only the seat asked to play gets hints.
            d = state.pending
            if local.hints:
                assert d.seat == seat and d.kind == PLAY
                hinted += 1
            assert snap.view.triggers == set(local.hints)
            local_view = table_view(state, seat) if own is None else from_observation(local)
            here = table_lines(local_view, Narrator(NAMES, "en", me=seat))
            assert table_lines(snap.view, Narrator(NAMES, "en", me=seat)) == here
        answer = state.pending.options[rng.randrange(len(state.pending.options))]
        apply(state, answer)
        table.answers.append(answer)
    assert hinted, "no play question with a triggering card in 60 steps"
    assert rounds, "no face-down ante round in 60 steps"


def test_the_remote_log_gives_each_line_the_rule_a_local_table_would() -> None:
    """The web frames cite the rule behind each event (``why``); the terminal
    client words them as a local table's ``w`` page would, updates included
    (a power's steps in a later frame still cite its card)."""
    from dragonante.engine.views import events_for
    from dragonante.interfaces.events import Explainer, table_of

    table = _table()
    state = table.state
    assert state is not None
    rng = random.Random(5)
    remote = RemoteSeat("it")
    remote.welcome({"seat": 0})
    since = 0
    for _ in range(80):
        if state.pending is None:
            break
        frame = json.loads(json.dumps(seat_view(table, state, 0, "it", since)))
        remote.apply({"type": "update" if since else "state", **frame})
        since = frame["log_size"]
        d = state.pending
        apply(state, d.options[rng.randrange(len(d.options))])
    narrator = Narrator(NAMES, "it", me=0)
    lines, whys = remote.told(0, narrator)
    mine = events_for((state.log or [])[:since], 0)
    local = Explainer(table_of(state.config), "it").lines(narrator.told(mine), mine)
    assert lines == [line for line, _ in local]
    assert whys == [why for _, why in local]
    assert any(w is not None and w.text for w in whys)  # a power's text came through
