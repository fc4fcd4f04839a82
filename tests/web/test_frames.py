"""The frames the hub sends are the views ``seat_view`` makes, as JSON values.

The hub builds each update once per kind of connection, encodes it with
orjson and splices the acknowledgement into the acknowledged seat's text
(``frames.broadcast``) instead of encoding ``{**view, "ack": n}`` with the
standard library for every connection.  These tests play whole seeded games
through a real :class:`Hub` (SQLite on disk, every seat and a spectator
connected in both languages, a game-master at a hidden-ability table) and
compare every frame with the reference: ``json.dumps`` of what
``seat_view`` returns for that connection, plus ``ack`` for the seat that
answered.  Any difference in content, a wrong ``ack``, a missing or
duplicated event shows up as an unequal value.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from dragonante.interfaces.web.hub import Hub, Settings
from dragonante.interfaces.web.shared.protocol import encode
from dragonante.interfaces.web.storage.db import open_database
from dragonante.interfaces.web.storage.writer import Writer
from dragonante.interfaces.web.tables import frames
from dragonante.interfaces.web.tables.live import Client, seat_view


async def _nothing(_text: str) -> None:
    """Frames stay in the client's queue; the test drains it itself."""


def _drain(client: Client) -> list[str]:
    out: list[str] = []
    queue = client._queue
    while not queue.empty():
        text = queue.get_nowait()
        assert text is not None, "no connection may be dropped in this test"
        out.append(text)
    return out


def _reference(client: Client, since: int, ack: int | None) -> Any:
    """The update the hub sent before frames were shared: stdlib JSON of the seat's view."""
    table = client.table
    assert table.state is not None
    body = seat_view(table, table.state, client.seat, client.lang, since, client.gm)
    body["type"] = "update"
    face_down = table.round()
    if face_down is not None:
        body["face_down"] = face_down.part(None if client.gm else client.seat)
    if ack is not None:
        body = {**body, "ack": ack}
    return json.loads(json.dumps(body, separators=(",", ":")))


async def _play(db: Path, config: dict[str, Any], seed: int) -> dict[str, int]:
    """Play one game at random; returns counts of what the frames exercised."""
    writer = Writer(open_database(str(db)))
    hub = Hub(writer, Settings(bot_delay=0))
    seen = {"frames": 0, "acks": 0, "non_ascii": 0, "known_in_hands": 0, "rounds": 0}
    try:
        table, host, gm = await hub.create_table(config)
        tokens = [(await hub.take_seat(table.code, None, f"Pè{p}"))[1] for p in range(4)]
        clients: list[Client] = []
        for lang in ("en", "it"):
            for token in [*tokens, None] + ([gm] if gm else []):
                clients.append(await hub.connect(table.code, token, lang, _nothing))
        await hub.start(table.code, host)
        for c in clients:
            _drain(c)
        rng = random.Random(seed)
        while table.state is not None and table.state.pending is not None:
            # A face-down round asks every seat at once: each choice is one
            # update to every connection (the others' say only who chose).
            face_down = table.round()
            asked = face_down.questions if face_down is not None else (table.state.pending,)
            seen["rounds"] += face_down is not None
            for d in asked:
                since = {c: c.log_pos for c in clients}
                asker = next(c for c in clients if c.seat == d.seat)
                await hub.answer(asker, d.id, d.options[rng.randrange(len(d.options))])
                for c in clients:
                    frames = [f for f in _drain(c) if json.loads(f)["type"] == "update"]
                    assert len(frames) == 1, (c.seat, c.lang, c.gm, frames)
                    sent = json.loads(frames[0])
                    assert sent == _reference(c, since[c], d.id if c is asker else None)
                    seen["frames"] += 1
                    seen["acks"] += "ack" in sent
                    seen["non_ascii"] += not frames[0].isascii()
                    seen["known_in_hands"] += bool(sent["view"]["known_in_hands"])
    finally:
        await hub.close()
        writer.close()
    return seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_updates_equal_the_reference_views(tmp_path: Path, seed: int):
    seen = asyncio.run(_play(tmp_path / "f.sqlite3", {"players": 4, "gold_per_player": 10}, seed))
    assert seen["frames"] > 300
    # one acknowledgement per answer (to the connection that sent it) among ten connections
    assert seen["acks"] * 10 == seen["frames"]
    assert seen["non_ascii"] > 0  # Italian text and the names go out as UTF-8
    assert seen["known_in_hands"] > 0  # seat-number keys
    assert seen["rounds"] > 0  # face-down antes, every seat at once


def test_game_master_and_hidden_abilities(tmp_path: Path):
    config = {
        "players": 4,
        "gold_per_player": 10,
        "abilities": {"system": "disks", "visibility": "hidden"},
    }
    seen = asyncio.run(_play(tmp_path / "f.sqlite3", config, 7))
    assert seen["frames"] > 300


def test_known_cards_keep_their_integer_seat_keys_as_strings():
    """``known_in_hands`` is keyed by seat numbers: encoded like the standard library."""
    msg = {"view": {"known_in_hands": {2: [5, 9]}, "text": "Sì, è così"}, "n": None}
    assert json.loads(encode(msg)) == json.loads(json.dumps(msg))
    assert encode(msg) == json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def test_a_face_down_rounds_views_are_made_once_for_all_its_choices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Until the reveal a choice changes nothing in a view but the round's part:
    the views made for the round's first choice serve its other choices
    (``frames.round_views``, kept with the round); the frames stay those of the reference, which
    ``test_updates_equal_the_reference_views`` checks choice by choice."""
    made: list[int | None] = []
    real = seat_view

    def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        made.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(frames, "seat_view", counted)

    async def main() -> None:
        writer = Writer(open_database(str(tmp_path / "f.sqlite3")))
        hub = Hub(writer, Settings(bot_delay=0))
        try:
            table, host, _gm = await hub.create_table({"players": 4, "gold_per_player": 10})
            tokens = [(await hub.take_seat(table.code, None, f"P{p}"))[1] for p in range(4)]
            clients = [await hub.connect(table.code, t, "en", _nothing) for t in [*tokens, None]]
            await hub.start(table.code, host)
            face_down = table.round()
            assert face_down is not None and len(face_down.questions) == 4  # the first ante
            made.clear()
            for i, d in enumerate(face_down.questions):
                asker = next(c for c in clients if c.seat == d.seat)
                await hub.answer(asker, d.id, d.options[0])
                if i == 0:
                    assert sorted(made, key=str) == [0, 1, 2, 3, None]  # every kind once
                    made.clear()
                elif i < 3:
                    assert made == []  # the same views, another part
            # the reveal plays the round: a new state, new views
            assert len(made) == 5
            assert table.round() is not face_down
        finally:
            await hub.close()
            writer.close()

    asyncio.run(main())
