"""Connections to a table: who they are, what they are sent on arrival, away seats.

A connection is a seat (by its token), the game-master (by the table's
game-master token: a spectator who sees every ability) or a spectator.  On
arrival it gets ``welcome``, its ``state``, the chat so far and the running
turn clock.  A person disconnected for ``away_after`` seconds is away: any
other seated, connected person may hand the seat to a bot, and the person
takes it back by connecting again.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from dragonante.bots import make_bot
from dragonante.interfaces.web.shared.errors import expired
from dragonante.interfaces.web.shared.protocol import ProtocolError
from dragonante.interfaces.web.storage.store import EXPIRED, OPEN, PLAYING, hash_token
from dragonante.interfaces.web.tables.answers import Answers
from dragonante.interfaces.web.tables.frames import (
    announce,
    broadcast_table,
    push_state,
    send_state_soon,
    state_view,
)
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.live import Client, LiveTable
from dragonante.interfaces.web.tables.snapshots import cost
from dragonante.interfaces.web.tables.social import Social


class Connections:
    """Connecting, disconnecting, ``sync`` and language switches, hand-overs to bots."""

    def __init__(self, house: House, answers: Answers, social: Social) -> None:
        self.house = house
        self.answers = answers
        self.social = social

    async def connect(
        self,
        code: str,
        token: str | None,
        lang: str,
        send: Callable[[str], Awaitable[None]],
        key: str | None = None,
    ) -> Client:
        """Register a connection: a seat by its token, a game-master by the table's
        game-master token (a spectator who sees every ability), or a spectator.
        ``key``: the person's player key (``players/``), for a page that has
        no seat token here: it opens the seat its person holds, else the
        connection watches (no error: most tables a key visits are others')."""
        table = await self.house.table(code)
        seat: int | None = None
        gm = False
        if token is None and key is not None and table.token_seat(key) is not None:
            token = key
        if token is not None:
            seat = table.token_seat(token)
            if seat is None:
                gm = table.is_gm(token)
                if not gm:
                    raise ProtocolError("bad_token", "this token holds no seat at this table")
        st = self.house.settings
        client = Client(table, seat, lang, send, st.max_queue, st.rate)
        client.gm = gm
        if seat is not None and token is not None:
            client.token_hash = hash_token(token)
        async with table.lock:
            if table.status == EXPIRED:
                raise expired(table.code)
            if seat is not None and table.token_seat(token or "") != seat:
                # The seat changed hands while this connection was being made.
                raise ProtocolError("bad_token", "this token holds no seat at this table")
            if gm and not table.is_gm(token or ""):
                raise ProtocolError("bad_token", "this table has no game-master now")
            # Built before the connection joins the table (a long history off the
            # loop), so that nothing reaches it before its welcome and state.
            view = await state_view(self.house.snapshots, table, seat, gm, lang)
            table.clients.add(client)
            if seat is not None:
                table.acted = time.monotonic()
            back = seat is not None and self._take_back(table, seat)
            welcome: dict[str, Any] = {
                "type": "welcome",
                "table": table.code,
                "seat": seat,
                "lang": lang,
            }
            if gm:
                welcome["gm"] = True
            client.push_json(welcome)
            push_state(table, client, view)
            self.social.welcome(client)
            self.answers.turns.welcome(client)
            if back:
                announce(table, {"type": "handover", "seat": seat, "to": "player"})
        broadcast_table(table)
        if back:
            self.answers.schedule_bot(table)
        return client

    def disconnect(self, client: Client) -> None:
        """A connection closed: the others see its seat away once it has no other."""
        table = client.table
        if client in table.clients:
            table.clients.discard(client)
            client.stop()
            seat = client.seat
            if seat is not None and not any(c.seat == seat for c in table.clients):
                table.away_since[seat] = time.monotonic()
            broadcast_table(table)

    async def set_lang(self, client: Client, lang: str) -> None:
        """The connection's language changes: its full state again, in it."""
        async with client.table.lock:
            client.lang = lang
            client.charge(cost(await send_state_soon(self.house.snapshots, client.table, client)))

    async def sync(self, client: Client, since: int = 0) -> None:
        """A fresh ``state`` (its events from ``since``), charged to the
        connection's allowance by its size (``snapshots.cost``)."""
        async with client.table.lock:
            sent = await send_state_soon(self.house.snapshots, client.table, client, since)
            client.charge(cost(sent))

    # ------------------------------------------------------------- away seats

    def _take_back(self, table: LiveTable, seat: int) -> bool:
        """A seat's person is connected: no longer away; if a bot was playing
        for them, it stops (True), and they answer from the next decision on."""
        table.away_since.pop(seat, None)
        if seat not in table.handed:
            return False
        del table.handed[seat]
        table.bots.pop(seat, None)
        table.away_shown = table.away_seats(time.monotonic())
        return True

    async def hand_to_bot(self, client: Client, seat: int) -> None:
        """Another seated person hands an away seat to a bot, announced to everyone.

        Any one seated, connected person may do it (a game stalled on an absent
        player stalls for all of them; a vote would only add waiting).  The bot
        plays on the server from the seat's own view (``SeatView``), so nothing
        of the seat's hand is sent anywhere; the person takes the seat back by
        reconnecting with their token.
        """
        table = client.table
        if client.seat is None:
            raise ProtocolError("not_seated", "only seated players may hand a seat to a bot")
        st = self.house.settings
        async with table.lock:
            if not table.holds(client):
                raise ProtocolError("not_seated", "this connection holds no seat any more")
            if table.status == OPEN:
                raise ProtocolError("not_started", "the game has not started yet")
            if table.status != PLAYING:
                raise ProtocolError("game_over", "the game is over")
            if not 0 <= seat < table.players:
                raise ProtocolError("bad_field", f"'seat' must be 0-{table.players - 1}")
            if seat == client.seat or not table.is_away(seat, time.monotonic()):
                raise ProtocolError(
                    "not_away",
                    f"seat {seat} is not a person away for {st.away_after:g} s "
                    "or more (or is already played by a bot)",
                )
            level = st.away_bot
            table.handed[seat] = level
            table.bots[seat] = make_bot(level, (table.seed + 7919 * (seat + 1)) & 0x7FFFFFFF)
            table.away_shown = table.away_seats(time.monotonic())
            announce(
                table,
                {"type": "handover", "seat": seat, "to": "bot", "by": client.seat, "bot": level},
            )
        broadcast_table(table)
        self.answers.schedule_bot(table)
