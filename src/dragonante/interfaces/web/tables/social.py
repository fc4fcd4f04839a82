"""What people at a table do besides playing: chat, mutes, rematches.

Kept out of the answer pipeline (``answers.py``) so the game's critical path
stays short; everything here goes through the house's table locks and
storage (``house.House``) and the frames of ``frames.py``.  Removal and
demotion are the seats' (``seats.py``).  ``docs/web.md`` ("Chat, rematch, turn timer")
explains the choices; the frames are in ``docs/protocol.md``.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.shared.protocol import ProtocolError
from dragonante.interfaces.web.storage.interface import Transaction
from dragonante.interfaces.web.storage.store import (
    FINISHED,
    OPEN,
    SeatInfo,
    StoredTable,
    hash_token,
)
from dragonante.interfaces.web.tables.chat import ChatLimits, message
from dragonante.interfaces.web.tables.frames import announce, broadcast_table
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.live import Client, LiveTable, claim_hash
from dragonante.interfaces.web.tables.lobby import new_code


class Social:
    """Chat, mutes and rematches of a house's tables."""

    def __init__(self, house: House) -> None:
        self.house = house
        st = house.settings
        self.limits = ChatLimits(
            st.chat_burst, st.chat_window, st.chat_address_burst, st.chat_address_window
        )

    # ------------------------------------------------------------------ chat

    def welcome(self, client: Client) -> None:
        """A new connection: its spectator number (if it watches) and the chat so far."""
        room = client.table.chat
        if client.seat is None:
            client.spectator = room.next_spectator
            room.next_spectator += 1
        client.push_json({**room.history(), "spectator": client.spectator or None})

    async def post(self, client: Client, text: Any) -> None:
        """A seat or spectator says something; everyone at the table gets it.

        Refusals (each a :class:`ProtocolError` the author alone sees): a
        muted author (``muted``), an empty or too long text, or too many
        messages (``chat_rate``).
        """
        table = client.table
        async with table.lock:
            room = table.chat
            seat = client.seat
            if seat is not None and not table.holds(client):
                raise ProtocolError("not_seated", "this connection holds no seat any more")
            name = table.seats[seat].name if seat is not None else None
            msg = message(room, text, seat, name, client.spectator)
            if room.is_muted(seat, client.spectator, client.address):
                raise ProtocolError("muted", "the host has muted you at this table")
            who = str(seat) if seat is not None else f"s{client.spectator}"
            key = f"{table.code}/{who}"
            self.limits.check(key, client.address)
            # Stored before anyone sees it, like an answer: the process that
            # takes the table over shows late joiners the same history.
            keep = room.messages.maxlen or 1
            try:
                await self.house.write(lambda tx: tx.add_chat(code=table.code, msg=msg, keep=keep))
            except HubError as e:
                raise ProtocolError(e.code, e.detail) from None
            room.messages.append(msg)
            announce(table, msg)

    async def mute(self, code: str, token: Any, body: dict[str, Any]) -> dict[str, Any]:
        """The host mutes or unmutes a seat (``seat``) or a spectator (``spectator``)."""
        table = await self.house.table(code)
        if not table.is_host(token):
            raise HubError("forbidden", "only the table's host may mute people", 403)
        muted = body.get("muted", True)
        seat = body.get("seat")
        spectator = body.get("spectator")
        if not isinstance(muted, bool):
            raise HubError("bad_field", "muted must be true or false")
        if (seat is None) == (spectator is None):
            raise HubError("bad_field", "give either a seat or a spectator")
        async with table.lock:
            room = table.chat
            if seat is not None:
                if type(seat) is not int or seat not in table.seats:
                    raise HubError("bad_seat", "that seat is empty")
                await self._store_mutes(table.code, [("seat", str(seat))], muted)
                (room.muted_seats.add if muted else room.muted_seats.discard)(seat)
            else:
                if type(spectator) is not int or spectator < 1:
                    raise HubError("bad_field", "spectator must be a spectator's number")
                watching = [c for c in table.clients if c.spectator == spectator]
                changed = [("spectator", str(spectator))]
                changed += [("address", c.address) for c in watching if c.address]
                await self._store_mutes(table.code, changed, muted)
                if muted:
                    room.muted_spectators.add(spectator)
                    room.muted_addresses.update(c.address for c in watching if c.address)
                else:
                    room.muted_spectators.discard(spectator)
                    room.muted_addresses.difference_update(c.address for c in watching)
            frame = {"type": "mute", "seat": seat, "spectator": spectator, "muted": muted}
            announce(table, frame)
        return frame

    async def _store_mutes(self, code: str, changed: list[tuple[str, str]], muted: bool) -> None:
        """Store a mute change before it takes effect (a takeover keeps it)."""

        def write(tx: Transaction) -> None:
            for kind in dict.fromkeys(k for k, _ in changed):
                tx.set_mutes(code, kind, [v for k, v in changed if k == kind], muted)

        await self.house.write(write)

    # --------------------------------------------------------------- rematch

    async def rematch(self, code: str, token: Any) -> tuple[LiveTable, bool, dict[str, str]]:
        """A new open table with the same seats and options and a new seed.

        Anyone seated at the finished table, or its host, may offer it; the
        first offer makes the table and later ones get the same one (False:
        not new).  Bots stay bots of the same level; the host stays host.

        Seat tokens are fresh at every table of a rematch chain: a new seat
        keeps only a claim derived from its old token (``claim_hash``), and
        a seated person calling this (to offer or to join) claims their seat
        with a new token, returned under ``token`` (once: later calls return
        none, the page that claimed keeps it).  So a token copied from one
        table's address holds nothing at the next table once its person has
        moved on.  A game-master token is never carried over: if the old
        table had a game-master (its creator sat nowhere), the host's call
        gets a new one for the new table under ``gm_token`` (also once).
        The new table starts like any other: when its host presses Start.
        """
        house = self.house
        old = await house.table(code)
        seat = old.token_seat(token) if isinstance(token, str) else None
        host = old.is_host(token)
        if seat is None and not host:
            raise HubError("forbidden", "only the table's host or a seated player may do this", 403)
        async with old.lock:
            if old.status != FINISHED:
                raise HubError("not_finished", "a rematch is offered when the game is over", 409)
            if old.rematch is not None:
                table = await house.table(old.rematch)
                return table, False, await self._claim(old, table, token, seat, host)
            cap = house.settings.max_tables
            if cap and house.live_count() >= cap:
                raise HubError("server_full", f"the server holds {cap} tables already", 503, 60)
            seed = secrets.randbits(62)
            seats: dict[int, SeatInfo] = {}

            def create(tx: Transaction) -> str:
                new = new_code(tx.code_taken)
                for p, i in old.seats.items():
                    carried = claim_hash(new, i.token_hash) if i.token_hash else None
                    # the player key follows its person to the rematch (``players/``)
                    key = (i.player_id, i.player_hash)
                    seats[p] = SeatInfo(p, i.name, i.kind, i.bot, carried, *key)
                # No game-master token carried over (``_claim`` may give a new one).
                tx.create_table(
                    new,
                    old.config_dict,
                    seed,
                    old.host_hash,
                    gm_hash=None,
                    turn_seconds=old.turn_seconds,
                    unlisted=old.unlisted,
                    hints=old.hints,
                )
                tx.flush()  # the table row first: the seats refer to it
                for info in seats.values():
                    tx.put_seat(new, info)
                tx.set_rematch(old.code, new)
                return new

            new_code_ = await house.write(create)
            table = house.fit(
                LiveTable(
                    StoredTable(
                        code=new_code_,
                        config=old.config_dict,
                        seed=seed,
                        status=OPEN,
                        created_at=datetime.now(UTC),
                        host_hash=old.host_hash,
                        turn_seconds=old.turn_seconds,
                        seats=seats,
                        unlisted=old.unlisted,
                        hints=old.hints,
                    )
                )
            )
            house.tables[new_code_] = table
            old.rematch = new_code_
            announce(old, {"type": "rematch", "code": new_code_, "by": seat})
            given = await self._claim(old, table, token, seat, host)
        broadcast_table(old)
        return table, True, given

    async def _claim(
        self, old: LiveTable, new: LiveTable, token: Any, seat: int | None, host: bool
    ) -> dict[str, str]:
        """What the caller gets at the rematch table: a fresh token for their
        seat if it is still unclaimed, a new game-master token for the host
        if the old table had a game-master and the new one has none yet."""
        given: dict[str, str] = {}
        async with new.lock:
            if new.status != OPEN:
                return given
            if seat is not None and isinstance(token, str):
                info = new.seats.get(seat)
                carried = claim_hash(new.code, hash_token(token))
                if info is not None and info.token_hash == carried:
                    fresh = secrets.token_urlsafe(24)
                    await self.house.write(
                        lambda tx: tx.set_seat_token(
                            code=new.code, seat=seat, token_hash=hash_token(fresh)
                        )
                    )
                    info.token_hash = hash_token(fresh)
                    given["token"] = fresh
            if host and seat is None and old.gm_hash is not None and new.gm_hash is None:
                gm = secrets.token_urlsafe(24)
                await self.house.write(lambda tx: tx.set_gm(code=new.code, gm_hash=hash_token(gm)))
                new.gm_hash = hash_token(gm)
                given["gm_token"] = gm
        return given
