"""What the connections of a table are sent: views, summaries, announcements.

Every frame a connection receives about the game is made here or in
:mod:`tables` (``seat_view``, the one place a view's content is made):

* :func:`send_state`: one connection's full ``state`` (on connecting, a
  language switch, a ``sync``), its view taken from the
  :class:`~dragonante.interfaces.web.snapshots.Snapshots` cache;
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

from dragonante.interfaces.web.protocol import encode
from dragonante.interfaces.web.snapshots import Snapshots
from dragonante.interfaces.web.tables import Client, LiveTable, SharedParts, seat_view


def send_state(snapshots: Snapshots, table: LiveTable, client: Client, since: int = 0) -> int:
    """A full snapshot for one connection (on connect, language switch, sync);
    returns its size.  The view is built once per table state and kind of
    view (``snapshots.Snapshots``); only the summary is made per connection."""
    head = encode({"type": "state", "table": table.summary(client.seat, client.gm)})
    if table.state is None:
        client.push(head)
        return len(head)
    view, client.log_pos = snapshots.view(table, client.seat, client.gm, client.lang, since)
    text = f"{head[:-1]},{view[1:]}"
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


def broadcast(table: LiveTable, acked: Client | None = None, decision: int = -1) -> None:
    """Send every connection its seat's view and the events it has not seen."""
    state = table.state
    if state is None:
        return
    # Connections that would get the same frame share one view and one encoding.
    cache: dict[tuple[int | None, bool, str, int], tuple[str, int]] = {}
    clients = list(table.clients)
    # What the views have in common, made once (for one view it costs more than it saves).
    shared: SharedParts | None = None
    for client in clients:
        key = (client.seat, client.gm, client.lang, client.log_pos)
        frame = cache.get(key)
        if frame is None:
            if shared is None and len(clients) > 1:
                shared = SharedParts(table, state)
            body = seat_view(
                table, state, client.seat, client.lang, client.log_pos, client.gm, shared
            )
            body["type"] = "update"
            frame = cache[key] = (encode(body), body["log_size"])
        text, client.log_pos = frame
        if client is acked:
            # {**body, "ack": decision} without encoding the whole view again
            text = f'{text[:-1]},"ack":{decision}}}'
        client.push(text)
        drop_if_overflowed(client)


def announce(table: LiveTable, msg: dict[str, Any]) -> None:
    """One frame, the same for every connection of the table."""
    text = json.dumps(msg, separators=(",", ":"))
    for c in list(table.clients):
        c.push(text)
        drop_if_overflowed(c)


def drop_if_overflowed(client: Client) -> None:
    """A connection whose queue overflowed gets nothing more (it is closing)."""
    if client.overflowed:
        client.table.clients.discard(client)
