"""The hub's players part: new keys, "who am I", My games, seats that follow a key.

Every use of a key by a caller counts against the caller's address like an
invite code's lookup (``House.check_lookup``), and a key no person has costs
a miss, so guessing keys is slower still than guessing codes (and hopeless
at 256 bits anyway).  The key arrives in a header, never in a URL; nothing
here puts it in any frame, list or log.

A seat taken with a key records the person (``Seats.take_seat``), and the
key then opens it like the seat's token (``SeatInfo.opens``): from any device,
over the WebSocket (``hello.key``) and for the seat's own requests.  When a
key is lost, the host hands the seat to the person's new key (by its public
id, which opens nothing): the old key and the old seat token open nothing
from then on and their connections become spectators'.
"""

from __future__ import annotations

from typing import Any

from dragonante.interfaces.web.players.keys import check_id, check_key, new_key
from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.storage.players import HeldSeat, Player
from dragonante.interfaces.web.storage.store import FINISHED, HUMAN, OPEN, PLAYING
from dragonante.interfaces.web.tables.frames import broadcast_table
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.live import LiveTable
from dragonante.interfaces.web.tables.seats import Seats


def waiting_on(table: LiveTable) -> list[int]:
    """The seats the table waits on now (public: every view names who is
    deciding, and a face-down round shows who has not chosen yet)."""
    state = table.state
    if table.status != PLAYING or state is None or state.pending is None:
        return []
    face_down = table.round()
    if face_down is not None:
        return face_down.waiting()
    return [state.pending.seat]


def public(player: Player) -> dict[str, Any]:
    """What anyone may know of a person: the id and the last name."""
    return {"id": player.id, "name": player.name}


class Players:
    """Player keys, the seats they hold, and the host's hand-over of a seat."""

    def __init__(self, house: House, seats: Seats) -> None:
        self.house = house
        self.seats = seats

    async def create(self, address: str) -> dict[str, str]:
        """A new person: their key (shown once, kept by their browser) and public id."""
        self.house.check_rate("players", address)
        key = new_key()
        player = await self.house.write(lambda tx: tx.add_player(key))
        return {"key": key, "id": player.id}

    async def identify(self, key: Any, address: str) -> Player:
        """The person ``key`` belongs to; counted as a lookup of ``address``,
        a key no person has as a miss (404 ``unknown_key``)."""
        self.house.check_lookup(address)
        key = check_key(key)
        player = await self.house.write(lambda tx: tx.player_by_key(key))
        if player is None:
            self.house.missed(address)
            raise HubError("unknown_key", "no player has this key", 404)
        return player

    async def sat_down(self, player: Player, code: str, seat: int) -> None:
        """Remember the name ``player`` last sat down under (at ``seat`` of ``code``)."""
        table = await self.house.table(code)
        info = table.seats.get(seat)
        if info is not None and info.player_id == player.id and player.name != info.name:
            name = info.name
            await self.house.write(lambda tx: tx.set_name(player.id, name))

    async def me(self, key: Any, address: str) -> dict[str, Any]:
        """The key's person and their games (My games): the live ones first,
        each with whose turn it is, then recently finished ones."""
        player = await self.identify(key, address)
        live = await self.house.write(lambda tx: tx.seats_of(player.id, finished=False))
        done = await self.house.write(lambda tx: tx.seats_of(player.id, finished=True))
        games = [self.game(held) for held in live + done[:20]]
        return {
            **public(player),
            "games": games,
            "your_turn": sum(1 for g in games if g["your_turn"]),
        }

    def game(self, held: HeldSeat) -> dict[str, Any]:
        """One line of My games, from the table in memory when it is here."""
        table = self.house.tables.get(held.code)
        status = table.status if table is not None else held.status
        waiting = waiting_on(table) if table is not None else []
        return {
            "code": held.code,
            "seat": held.seat,
            "status": status,
            "names": table.names() if table is not None else None,
            "waiting": waiting,
            "your_turn": held.seat in waiting,
            "winners": list(held.winners) if status == FINISHED else [],
            "ended": held.ended,
        }

    async def hand_seat(self, code: str, token: Any, seat: Any, player: Any) -> None:
        """The host gives a person's seat to the key of public id ``player``
        (its person lost their key): before or during the game."""
        pid = check_id(player)
        table = await self.house.table(code)
        async with table.lock:
            if not table.is_host(token):
                raise HubError("forbidden", "only the table's host may do this", 403)
            if table.status not in (OPEN, PLAYING):
                raise HubError("game_over", "the table is not in play any more", 409)
            info = table.seats.get(seat) if type(seat) is int else None
            if info is None or info.kind != HUMAN:
                raise HubError("bad_seat", "that seat holds no person")
            if any(i.player_id == pid for p, i in table.seats.items() if p != seat):
                raise HubError("seated", "that player already holds a seat here", 409)
            target = await self.house.write(lambda tx: tx.player_by_id(pid))
            if target is None:
                raise HubError("unknown_player", f"no player {pid}", 404)
            await self.house.write(lambda tx: tx.hand_seat(table.code, seat, pid))
            info.player_id = target.id
            info.player_hash = target.key_hash
            info.token_hash = None
            self.seats.removed(table, seat, "rekeyed")
        broadcast_table(table)

    # ------------------------------------------------------------- ratings

    async def page(self, pid: Any) -> dict[str, Any]:
        """A player's page: name, rating and its steps, finished games, wins."""
        pid = check_id(pid)
        write = self.house.write
        player = await write(lambda tx: tx.player_by_id(pid))
        if player is None:
            raise HubError("unknown_player", f"no player {pid}", 404)
        games = await write(lambda tx: tx.seats_of(pid, finished=True))
        rating = await write(lambda tx: tx.rating_of(pid))
        steps = await write(lambda tx: tx.history(pid))
        return {
            **public(player),
            "rating": rating,
            "history": steps,
            "games": [
                {
                    "code": g.code,
                    "seat": g.seat,
                    "won": g.seat in g.winners,
                    "ended": g.ended,
                    "finished_at": g.finished_at.isoformat() if g.finished_at else None,
                }
                for g in games
            ],
            "wins": sum(1 for g in games if g.seat in g.winners),
        }

    async def leaderboard(self) -> list[dict[str, Any]]:
        """The rated people, best first."""
        return await self.house.write(lambda tx: tx.leaderboard())
