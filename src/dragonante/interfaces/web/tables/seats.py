"""Seating a table before its start: people, bots, leaving, removal, bans, the start.

Who may do what (issue 22, holes 1, 6 and 7): anyone takes a free seat and
leaves their own; **only the host** adds bots, removes people and starts;
a removed person's name and address are refused a seat at that table
(stored, so a restart or another process keeps the bans); a creator who
sits down ends the game-master role.  Every way a person stops holding a
seat demotes every connection of that seat at once (:meth:`Seats.demote`),
so no old connection sees the next holder's hand or speaks for them.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from typing import Any

from dragonante.bots import bot_names
from dragonante.interfaces.web.shared.errors import HubError, expired
from dragonante.interfaces.web.shared.names import BadName, normalize, same_name
from dragonante.interfaces.web.shared.narration import t
from dragonante.interfaces.web.shared.settings import DEFAULT_BOT_LEVEL
from dragonante.interfaces.web.storage.interface import Transaction
from dragonante.interfaces.web.storage.store import (
    BOT,
    EXPIRED,
    HUMAN,
    OPEN,
    PLAYING,
    SeatInfo,
    hash_token,
)
from dragonante.interfaces.web.tables.answers import Answers
from dragonante.interfaces.web.tables.frames import broadcast, broadcast_table, send_state
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.live import Client, LiveTable

#: Names given to bots, in order of seating.
BOT_NAMES = ("Thorinn", "Ursula", "Breen", "Letizia", "Riccardo", "Kestrel")

#: The web catalog's notices to a connection that no longer holds its seat
#: (or its game-master view), by why: names, not literal calls (the command
#: line's catalog check reads literal ``t(..., "key")`` calls).
NOTICES = {
    "removed": "table.removed",
    "left": "table.left",
    "gm_ended": "table.gm_ended",
    "rekeyed": "table.rekeyed",
}


def clean_name(name: Any) -> str:
    """A person's name, normalized; refused if invisible or confusable (``names.py``)."""
    try:
        return normalize(name)
    except BadName as e:
        raise HubError("bad_name", str(e)) from None


def check_open(table: LiveTable) -> None:
    """Refuse seating changes once the table started (or expired meanwhile)."""
    if table.status == EXPIRED:
        raise expired(table.code)
    if table.status != OPEN:
        raise HubError("started", "the game has already started", 409)


def check_manager(table: LiveTable, token: Any) -> None:
    """Refuse anyone but the host (bots, start)."""
    if not table.may_manage(token if isinstance(token, str) else None):
        raise HubError("forbidden", "only the table's host may do this", 403)


def free_seat(table: LiveTable, seat: Any) -> int:
    """``seat`` if it is free (or the first free one for None); refused otherwise."""
    check_open(table)
    if seat is None:
        for p in range(table.players):
            if p not in table.seats:
                return p
        raise HubError("full", "every seat is taken", 409)
    if type(seat) is not int or not 0 <= seat < table.players:
        raise HubError("bad_seat", f"seat must be 0-{table.players - 1}")
    if seat in table.seats:
        raise HubError("taken", f"seat {seat} is taken", 409)
    return seat


class Seats:
    """Taking and freeing seats, bots, bans, the listing and the start."""

    def __init__(self, house: House, answers: Answers) -> None:
        self.house = house
        self.answers = answers

    async def take_seat(
        self,
        code: str,
        seat: Any,
        name: Any,
        token: Any = None,
        address: str = "",
        player: tuple[str, str] | None = None,
    ) -> tuple[int, str]:
        """Sit a person down; returns the seat and its secret token.

        Someone the host removed (their name or their address) may not sit
        here again, unless the request carries the host's token.
        ``token``: the caller's bearer token; the host's or the
        game-master's means the table's creator takes a seat, which ends the
        game-master role (a game-master sees every hidden ability, so it is
        for someone who does not play): the game-master token is void from
        now on and its connections become spectators.
        ``player``: the public id and key hash of the person's player key
        (``players/``): the key opens this seat too; one seat per key.
        """
        table = await self.house.table(code)
        name = clean_name(name)
        async with table.lock:
            p = free_seat(table, seat)
            creator = isinstance(token, str) and (table.is_host(token) or table.is_gm(token))
            # The host is never banned (a removed guest may share their address).
            if not creator and (
                any(same_name(name, banned) for banned in table.banned_names)
                or (address and address in table.banned_addresses)
            ):
                raise HubError("banned", "the host removed you from this table", 403)
            if any(same_name(info.name, name) for info in table.seats.values()):
                raise HubError("bad_name", f"someone here is already called {name}", 409)
            if player is not None and any(i.player_id == player[0] for i in table.seats.values()):
                raise HubError("seated", "you already hold a seat at this table", 409)
            withdraw = creator and table.gm_hash is not None
            new_token = secrets.token_urlsafe(24)
            pid, key_hash = player if player is not None else (None, None)
            info = SeatInfo(p, name, HUMAN, None, hash_token(new_token), pid, key_hash)

            def put(tx: Transaction) -> None:
                tx.put_seat(table.code, info)
                if withdraw:
                    tx.set_gm(table.code, None)

            await self.house.write(put)
            table.seats[p] = info
            table.away_since[p] = time.monotonic()
            table.acted = time.monotonic()
            if address:
                table.seat_address[p] = address
            if withdraw:
                table.gm_hash = None
                for c in list(table.clients):
                    if c.gm:
                        c.gm = False
                        self.demote(table, c, "gm_ended")
        broadcast_table(table)
        return p, new_token

    async def add_bots(self, code: str, token: Any, seat: Any, level: Any, fill: bool) -> list[int]:
        """Seat a bot (or fill every free seat with bots) of ``level`` (none
        named: :data:`DEFAULT_BOT_LEVEL`)."""
        table = await self.house.table(code)
        if level is None:
            level = DEFAULT_BOT_LEVEL
        if not isinstance(level, str) or level not in bot_names():
            raise HubError("bad_bot", f"unknown bot level; choose from {', '.join(bot_names())}")
        async with table.lock:
            check_manager(table, token)
            if fill:
                check_open(table)
                seats = [p for p in range(table.players) if p not in table.seats]
            else:
                seats = [free_seat(table, seat)]
            used = {info.name for info in table.seats.values()}
            names = [n for n in BOT_NAMES if not any(same_name(n, u) for u in used)] + [
                f"Bot {p + 1}" for p in range(table.players)
            ]
            infos = [SeatInfo(p, names[i], BOT, level) for i, p in enumerate(seats)]

            def put(tx: Transaction) -> None:
                for info in infos:
                    tx.put_seat(table.code, info)

            await self.house.write(put)
            for info in infos:
                table.seats[info.seat] = info
        broadcast_table(table)
        return seats

    async def remove_seat(self, code: str, token: Any, seat: Any) -> None:
        """Take a bot off a seat, let a person leave theirs, or (the host only)
        remove a person, before the start.

        Every connection of a person's seat becomes a spectator's at once and
        is told why (``removed`` frame): their token no longer holds a seat,
        and whoever sits there next must not find the old connections
        speaking for them.  A removed person (their name and the address
        they sat down from) may not take a seat at this table again.
        """
        table = await self.house.table(code)
        async with table.lock:
            check_open(table)
            if type(seat) is not int or seat not in table.seats:
                raise HubError("bad_seat", "that seat is empty")
            info = table.seats[seat]
            own = isinstance(token, str) and info.opens(hash_token(token))
            if not own:
                check_manager(table, token)
                if info.kind == HUMAN and not table.is_host(token):
                    raise HubError(
                        "forbidden", "only its player or the host may free a person's seat", 403
                    )
            bans: list[tuple[str, str]] = []
            if info.kind == HUMAN and not own:
                bans.append(("name", info.name.casefold()))
                where = {table.seat_address.get(seat, "")}
                where |= {c.address for c in table.clients if c.seat == seat}
                bans += [("address", a) for a in sorted(where) if a]

            def write(tx: Transaction) -> None:
                tx.remove_seat(table.code, seat)
                if bans:
                    tx.add_bans(table.code, bans)

            await self.house.write(write)
            del table.seats[seat]
            table.away_since.pop(seat, None)
            table.seat_address.pop(seat, None)
            for kind, value in bans:
                (table.banned_names if kind == "name" else table.banned_addresses).add(value)
            if info.kind == HUMAN:
                self.removed(table, seat, "left" if own else "removed")
        broadcast_table(table)

    async def clear_bans(self, code: str, token: Any) -> None:
        """The host lets everyone they removed sit again (an address ban also
        refuses others behind the same address: a home, an office)."""
        table = await self.house.table(code)
        async with table.lock:
            if not table.is_host(token):
                raise HubError("forbidden", "only the table's host may do this", 403)
            await self.house.write(lambda tx: tx.clear_bans(code=table.code))
            table.banned_names.clear()
            table.banned_addresses.clear()

    async def set_listing(self, code: str, token: Any, unlisted: Any) -> None:
        """The host makes the table invite only (left out of the lobby), or listed again."""
        table = await self.house.table(code)
        if not isinstance(unlisted, bool):
            raise HubError("bad_field", "unlisted must be true or false")
        async with table.lock:
            if not table.is_host(token):
                raise HubError("forbidden", "only the table's host may do this", 403)
            if table.status not in (OPEN, PLAYING):
                raise HubError("game_over", "the table is not in play any more", 409)
            await self.house.write(lambda tx: tx.set_unlisted(code=table.code, unlisted=unlisted))
            table.unlisted = unlisted
        broadcast_table(table)

    async def start(self, code: str, token: Any) -> None:
        """Deal: the table's game begins (every seat must be filled)."""
        table = await self.house.table(code)
        async with table.lock:
            check_manager(table, token)
            check_open(table)
            if len(table.seats) < table.players:
                raise HubError("seats_free", "every seat needs a player or a bot", 409)
            at = datetime.now(UTC)
            await self.house.write(lambda tx: tx.start_table(code=table.code, at=at))
            table.status = PLAYING
            table.started_at = at
            table.acted = time.monotonic()
            table.rebuild([])
        broadcast_table(table)
        broadcast(table)
        self.answers.begin(table)

    # --------------------------------------------------------------- demotion

    def removed(self, table: LiveTable, seat: int, why: str = "removed") -> None:
        """Every connection of ``seat`` becomes a spectator's at once, and is told
        ``why`` (``removed`` by the host, ``left`` by its person): from now on
        it gets a spectator's views and speaks for nobody, whoever sits next."""
        for c in list(table.clients):
            if c.seat == seat:
                self.demote(table, c, why, seat)

    def demote(self, table: LiveTable, c: Client, why: str, seat: int | None = None) -> None:
        """One connection watches from now on (a new spectator number, a
        ``removed`` frame saying why, a spectator's full state)."""
        c.seat = None
        c.token_hash = None
        c.spectator = table.chat.next_spectator
        table.chat.next_spectator += 1
        c.push_json(
            {
                "type": "removed",
                "seat": seat,
                "reason": why,
                "message": t(c.lang, NOTICES[why]),
                "spectator": c.spectator,
            }
        )
        send_state(self.house.snapshots, table, c)
