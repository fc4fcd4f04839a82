"""The lobby: making tables, listing them, and the finished games' records and replays.

A table is made with a checked config and stored before anyone hears of it;
its code comes from an alphabet without look-alike characters.  The lists
never show an invite-only table.  A finished game is public: its record
(config, seed, answers) and its replays, which are built off the event loop
and kept (``replays.py``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from dragonante.engine.abilities.catalog import DISKS
from dragonante.engine.config import ConfigError, GameConfig, config_from_dict, config_to_dict
from dragonante.engine.records import GameRecord, digest
from dragonante.interfaces.table_record import TableSeats
from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.shared.narration import DEFAULT_LANG, LANGS
from dragonante.interfaces.web.shared.protocol import encode
from dragonante.interfaces.web.storage.interface import Transaction
from dragonante.interfaces.web.storage.store import (
    BOT,
    HUMAN,
    OPEN,
    PLAYING,
    StoredTable,
    hash_token,
)
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.live import LiveTable, abilities_brief
from dragonante.interfaces.web.tables.replays import Replays
from dragonante.interfaces.web.tables.turns import check_turn_seconds

#: Invite codes: no 0/O, 1/I/L, so a code read aloud or copied by hand works.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def new_code(taken: Callable[[str], bool]) -> str:
    """A free table code (``taken`` asks the database, in the creating transaction)."""
    for _ in range(100):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not taken(code):
            return code
    raise HubError("busy", "could not find a free table code", 503)


def with_game_master(cfg: GameConfig) -> GameConfig:
    """The web table's visibility of D&D abilities, with its game-master role.

    Legendary Appendix 5: "If the game has a GM, abilities chosen don't have to
    be public, only the GM needs to know, until they're used."  The engine's
    default is public (a table without a game-master); a web table with disks
    and no visibility chosen gets a game-master link instead, so its disks stay
    hidden.  Emperor's Gambit special abilities stay public (the draft is open).
    """
    ab = cfg.abilities
    if ab.system == DISKS and not ab.visibility:
        return cfg.with_(abilities=replace(ab, visibility="hidden"))
    return cfg


def brief(t: LiveTable) -> dict[str, Any]:
    """A table as the lobby lists it (no token, no hidden ability)."""
    return {
        "code": t.code,
        "players": t.players,
        "ruleset": t.config.rules.ruleset,
        "preset": t.config.deck.preset,
        "abilities": abilities_brief(t.config),
        "taken": len(t.seats),
        "names": [t.seats[p].name for p in sorted(t.seats)],
    }


class Lobby:
    """New tables, the lists of tables and games, records and replays."""

    def __init__(self, house: House) -> None:
        self.house = house
        #: Replay steps, built off the loop and kept (``replays.py``).
        self.replays = Replays()

    async def create_table(
        self, config: Any, turn_seconds: Any = None, unlisted: Any = False, hints: Any = False
    ) -> tuple[LiveTable, str, str | None]:
        """A new open table; returns it, the host token and, when the table plays
        with hidden D&D abilities, the game-master token (else None: the
        role ends if the host takes a seat, ``Seats.take_seat``).
        ``turn_seconds``: the turn timer (``turns.py``), None or 0 for none;
        ``unlisted``: invite only (the lobby does not list it); ``hints``: the
        host allows hints with other people at the table (``hints.py``)."""
        if not isinstance(unlisted, bool):
            raise HubError("bad_field", "unlisted must be true or false")
        if not isinstance(hints, bool):
            raise HubError("bad_field", "hints must be true or false")
        try:
            cfg = with_game_master(config_from_dict(config if config is not None else {}))
            turn = check_turn_seconds(turn_seconds, self.house.settings.turn_min)
        except (ConfigError, ValueError, TypeError) as e:
            raise HubError("bad_config", str(e)) from None
        if cfg.ending.series_games:
            raise HubError("bad_config", "series of games are not played on the web server")
        self.house.check_room()
        config_dict = config_to_dict(cfg)
        seed = secrets.randbits(62)
        host = secrets.token_urlsafe(24)
        hidden = cfg.abilities.enabled and not cfg.abilities.public
        gm = secrets.token_urlsafe(24) if hidden else None
        gm_hash = hash_token(gm) if gm is not None else None

        def create(tx: Transaction) -> str:
            code = new_code(tx.code_taken)
            tx.create_table(
                code, config_dict, seed, hash_token(host), gm_hash, turn, unlisted, hints
            )
            return code

        code = await self.house.write(create)
        table = self.house.fit(
            LiveTable(
                StoredTable(
                    code=code,
                    config=config_dict,
                    seed=seed,
                    status=OPEN,
                    created_at=datetime.now(UTC),
                    host_hash=hash_token(host),
                    gm_hash=gm_hash,
                    turn_seconds=turn,
                    unlisted=unlisted,
                    hints=hints,
                )
            )
        )
        self.house.tables[code] = table
        return table, host, gm

    def live(self) -> dict[str, list[dict[str, Any]]]:
        """Open and playing tables, newest first, for the lobby."""
        tables = sorted(self.house.tables.values(), key=lambda t: t.created_at, reverse=True)
        tables = [t for t in tables if not t.unlisted]  # invite only: never listed
        return {
            "open": [brief(t) for t in tables if t.status == OPEN][:100],
            "playing": [brief(t) for t in tables if t.status == PLAYING][:100],
        }

    async def finished(self, limit: int, offset: int) -> list[dict[str, Any]]:
        """Finished games, newest first (from the database)."""
        rows = await self.house.write(lambda tx: tx.list_finished(limit=limit, offset=offset))
        out = []
        for st in rows:
            cfg = st.config
            try:
                abilities = abilities_brief(config_from_dict(cfg))
            except ConfigError:
                abilities = None
            out.append(
                {
                    "code": st.code,
                    "players": cfg.get("players"),
                    "ruleset": cfg.get("rules", {}).get("ruleset"),
                    "preset": cfg.get("deck", {}).get("preset"),
                    "abilities": abilities,
                    "seats": [
                        st.seats[p].public() if p in st.seats else None
                        for p in range(int(cfg.get("players", 0)))
                    ],
                    "winners": st.winners,
                    "finished_at": st.finished_at.isoformat() if st.finished_at else None,
                }
            )
        return out

    # ----------------------------------------------------------------- replay

    async def record(self, code: str) -> dict[str, Any]:
        """The finished game's record: never while it runs.

        The engine's own record (config, seed, answers, final digest and when a
        time limit called the last gambit), so ``dragonante replay`` replays it
        to the same end, with who sat where beside it as the terminal tables
        save it (``"table"``: the people, each bot's level, everyone's name),
        so the replay calls the players by the names they played under.  The
        keys ``names`` and ``last_gambit_at`` repeat two of those for the
        browser and for clients written before.
        """
        table = await self.house.finished_table(code)
        st = table.state
        assert st is not None
        record = GameRecord(
            table.config,
            table.seed,
            list(table.answers),
            digest(st),
            last_gambit_called_after=table.last_gambit_at,
        )
        out = record.to_dict()
        out["config"] = table.config_dict
        names = table.names()
        humans = tuple(p for p, info in sorted(table.seats.items()) if info.kind == HUMAN)
        bots = {p: info.bot or "" for p, info in table.seats.items() if info.kind == BOT}
        if humans and len(humans) + len(bots) == table.players:
            out["table"] = TableSeats(humans, bots, tuple(names)).to_dict()
        out["names"] = names
        out["last_gambit_at"] = table.last_gambit_at
        return out

    async def replay(self, code: str, step: Any, seat: Any, lang: str, gm: bool = False) -> str:
        """The finished game after ``step`` answers, as ``seat`` (or a spectator) saw
        it; ``gm``: as a game-master saw it (every character's D&D abilities).
        Encoded JSON: built off the event loop and kept (``replays.Replays``).

        A finished game's record is public, so its game-master view is too.
        """
        table = await self.house.finished_table(code)
        total = len(table.answers)
        if type(step) is not int or not 0 <= step <= total:
            raise HubError("bad_step", f"step must be 0-{total}")
        if seat is not None and (type(seat) is not int or not 0 <= seat < table.players):
            raise HubError("bad_seat", f"seat must be 0-{table.players - 1} or absent")
        lang = lang if lang in LANGS else DEFAULT_LANG
        gm = gm and seat is None
        shown = await self.replays.step(table, step, seat, lang, gm)
        head = encode({"type": "replay", "total": total, "gm": gm, "table": table.summary()})
        return f"{head[:-1]},{shown[1:]}"
