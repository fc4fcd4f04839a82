"""What the connections of a table are sent: views, summaries, announcements.

Every frame a connection receives about the game is made here or in
:mod:`tables` (``seat_view``, the one place a view's content is made):

* :func:`send_state_soon`: one connection's full ``state`` (on connecting, a
  language switch, a ``sync``), its view taken from the
  :class:`~dragonante.interfaces.web.tables.snapshots.Snapshots` cache or, for a
  long history not kept yet, built in a worker thread;
* :func:`broadcast`: after an answer, every connection's ``update`` (its seat's
  view and the events it has not seen), one view per kind of connection;
* :func:`broadcast_table`: the table's summary, only when it changed;
* :func:`announce`: one frame, the same for everyone (chat, hand-overs, ...).

Plain functions of a table: no state of their own, so every part of the
hub (seats, answers, social, turns) sends through them without importing
each other.
"""

from __future__ import annotations

import json
from typing import Any

from dragonante.engine.state import GameState
from dragonante.interfaces.web.shared.narration import t
from dragonante.interfaces.web.shared.protocol import encode
from dragonante.interfaces.web.tables.face_down import FaceDown
from dragonante.interfaces.web.tables.live import Client, LiveTable, SharedParts, seat_view
from dragonante.interfaces.web.tables.snapshots import Snapshots


def send_state(snapshots: Snapshots, table: LiveTable, client: Client, since: int = 0) -> int:
    """A full snapshot for one connection, its view built here and now (a
    demoted connection, before the start); returns its size."""
    state = table.state
    view = (
        None if state is None else snapshots.view(table, client.seat, client.gm, client.lang, since)
    )
    return push_state(table, client, view)


async def send_state_soon(
    snapshots: Snapshots, table: LiveTable, client: Client, since: int = 0
) -> int:
    """A full snapshot for one connection (language switch, ``sync``), a long
    history built off the event loop (``Snapshots.view_soon``); the caller
    holds the table's lock.  Returns its size."""
    view = await state_view(snapshots, table, client.seat, client.gm, client.lang, since)
    return push_state(table, client, view)


async def state_view(
    snapshots: Snapshots, table: LiveTable, seat: int | None, gm: bool, lang: str, since: int = 0
) -> tuple[str, int] | None:
    """The view part of a ``state`` frame and its log size (None before the
    start); the view is built once per table state and kind of view."""
    if table.state is None:
        return None
    return await snapshots.view_soon(table, seat, gm, lang, since)


def push_state(table: LiveTable, client: Client, view: tuple[str, int] | None) -> int:
    """Send a ``state``: the summary as this connection may know it (made per
    connection) and the view (shared by its kind); returns its size."""
    msg: dict[str, Any] = {"type": "state", "table": table.summary(client.seat, client.gm)}
    face_down = table.round()
    if face_down is not None:
        msg["face_down"] = face_down.part(None if client.gm else client.seat)
    head = encode(msg)
    if view is None:
        client.push(head)
        return len(head)
    text, client.log_pos = view
    text = f"{head[:-1]},{text[1:]}"
    client.push(text)
    return len(text)


def broadcast_table(table: LiveTable) -> None:
    """Every connection gets the table's summary as its seat may know it,
    when something in it changed since the last one.

    What differs between seats' summaries (the config each may know) is
    fixed for the table's life, so the spectator's summary changes
    whenever any seat's does: comparing it with the last one sent spares
    a frame to every connection each time a spectator comes or goes (with
    N spectators that was N^2 frames).  A new connection gets the summary
    in its ``state``.
    """
    public = encode({"table": table.summary(None)})
    if public == table.last_table:
        return
    table.last_table = public
    cache: dict[tuple[int | None, bool], str] = {}
    for client in list(table.clients):
        key = (client.seat, client.gm)
        msg = cache.get(key)
        if msg is None:
            msg = json.dumps(
                {"type": "table", "table": table.summary(client.seat, client.gm)},
                separators=(",", ":"),
            )
            cache[key] = msg
        client.push(msg)
        drop_if_overflowed(client)


def broadcast(
    table: LiveTable, acked: Client | None = None, decision: int = -1, seat: int | None = None
) -> None:
    """Send every connection its seat's view and the events it has not seen
    (``seat``: only that seat's connections, for a face-down choice changed,
    which nobody else may notice).  A face-down round open now is in every
    frame (``face_down.FaceDown.part``: the seat's own choice in its own only)."""
    state = table.state
    if state is None:
        return
    face_down = table.round()
    views = round_views(table, state, face_down)
    # Connections that would get the same frame share one view and one encoding.
    cache: dict[tuple[int | None, bool, str, int], tuple[str, int]] = {}
    clients = [c for c in table.clients if seat is None or (c.seat == seat and not c.gm)]
    # What the views have in common, made once (for one view it costs more than it saves).
    shared: SharedParts | None = None
    for client in clients:
        key = (client.seat, client.gm, client.lang, client.log_pos)
        frame = cache.get(key)
        if frame is None:
            made = None if views is None else views.get(key)
            if made is None:
                if shared is None and len(clients) > 1:
                    shared = SharedParts(table, state)
                body = seat_view(
                    table, state, client.seat, client.lang, client.log_pos, client.gm, shared
                )
                body["type"] = "update"
                made = (encode(body), body["log_size"])
                if views is not None:
                    views[key] = made
            if face_down is None:
                frame = cache[key] = made
            else:
                # {**body, "face_down": part}, the part encoded on its own
                part = encode(face_down.part(None if client.gm else client.seat))
                frame = cache[key] = (f'{made[0][:-1]},"face_down":{part}}}', made[1])
        text, client.log_pos = frame
        if client is acked:
            # {**body, "ack": decision} without encoding the whole view again
            text = f'{text[:-1]},"ack":{decision}}}'
        client.push(text)
        drop_if_overflowed(client)


def round_views(
    table: LiveTable, state: GameState, face_down: FaceDown | None
) -> dict[tuple[Any, ...], tuple[str, int]] | None:
    """The encoded views (without the ``face_down`` part) kept for the open
    face-down round, by kind of connection; None when no round is open.

    Every choice of a face-down ante sends each connection its view again,
    and until the reveal nothing in a view changes but the round's part
    (``face_down.py``: the choices are outside the game's state), so the
    views made for the first choice serve the others: at a 4-seat table, 8
    of the 12 seat views the choices before the reveal send.  They live with
    the round (found anew for each new state, ``LiveTable.round``), and only
    while the table's log and names are the ones they were made from.
    """
    if face_down is None:
        return None
    under = (len(state.log or ()), tuple(table.names()))
    if face_down.views_made_under != under:
        face_down.views.clear()
        face_down.views_made_under = under
    return face_down.views


def announce(table: LiveTable, msg: dict[str, Any]) -> None:
    """One frame, the same for every connection of the table."""
    text = json.dumps(msg, separators=(",", ":"))
    for c in list(table.clients):
        c.push(text)
        drop_if_overflowed(c)


def notice(table: LiveTable, code: str, seat: int) -> None:
    """A notice about ``seat`` to every connection, in its own language
    (``{"type": "notice", "code", "seat", "message"}``, ``docs/protocol.md``):
    ``bot_unstored`` (the database refused a bot's answer: the table waits
    while it retries) and ``bot_stored`` (it is stored: the game goes on)."""
    info = table.seats.get(seat)
    name = info.name if info is not None else str(seat + 1)
    texts: dict[str, str] = {}
    for c in list(table.clients):
        if c.lang not in texts:
            texts[c.lang] = encode(
                {
                    "type": "notice",
                    "code": code,
                    "seat": seat,
                    "message": t(c.lang, f"notice.{code}", name=name),
                }
            )
        c.push(texts[c.lang])
        drop_if_overflowed(c)


def drop_if_overflowed(client: Client) -> None:
    """A connection whose queue overflowed gets nothing more (it is closing)."""
    if client.overflowed:
        client.table.clients.discard(client)
