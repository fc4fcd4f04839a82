"""The authoritative game server: tables in memory, answers on disk, views per seat.

The :class:`Hub` owns every live table.  A table's game state lives only
here; clients send ``(decision id, answer)`` and receive views.  The order
of an answer's life is what makes the server safe to kill at any moment:

1. check it against the pending question (stale, someone else's, illegal
   answers are refused and change nothing);
2. play it on a copy of the state;
3. commit it to the database (with the game's end, if it ended);
4. only then make the copy the table's state, acknowledge, and send every
   connection its own seat's view (``observe``) and new events
   (``events_for``).

A restart rebuilds every unfinished table by replaying config + seed +
stored answers, so the game continues exactly where it was; bots simply
pick up the question in front of them.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import secrets
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy.orm import Session

from dragonante import RULES_VERSION
from dragonante.bots import SeatView, bot_names, make_bot
from dragonante.engine.abilities.catalog import DISKS
from dragonante.engine.config import ConfigError, GameConfig, config_from_dict, config_to_dict
from dragonante.engine.decisions import IllegalAnswer
from dragonante.engine.game import apply, call_last_gambit
from dragonante.engine.records import digest
from dragonante.interfaces.web import store
from dragonante.interfaces.web.limits import (
    RateLimiter,
    SocketCounter,
    parse_networks,
    retry_after,
)
from dragonante.interfaces.web.names import BadName, normalize, same_name
from dragonante.interfaces.web.narration import DEFAULT_LANG, LANGS, t
from dragonante.interfaces.web.protocol import ProtocolError, encode, error
from dragonante.interfaces.web.replays import Replays
from dragonante.interfaces.web.snapshots import Snapshots, cost
from dragonante.interfaces.web.social import Social
from dragonante.interfaces.web.stats import GcWatch, copied, percentile
from dragonante.interfaces.web.store import (
    BOT,
    EXPIRED,
    FINISHED,
    HUMAN,
    OPEN,
    PLAYING,
    SeatInfo,
    StoredTable,
    hash_token,
)
from dragonante.interfaces.web.tables import (
    Client,
    LiveTable,
    SharedParts,
    abilities_brief,
    seat_view,
)
from dragonante.interfaces.web.turns import TurnClock
from dragonante.interfaces.web.writer import StorageError, Writer

log = logging.getLogger("dragonante.web")

#: Invite codes: no 0/O, 1/I/L, so a code read aloud or copied by hand works.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
#: Names given to bots, in order of seating.
BOT_NAMES = ("Thorinn", "Ursula", "Breen", "Letizia", "Riccardo", "Kestrel")


class HubError(Exception):
    """A request the lobby refuses; ``status`` is the HTTP status to answer with."""

    def __init__(
        self, code: str, detail: str, status: int = 400, retry_after: int | None = None
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status
        #: Seconds after which the same request may succeed (``Retry-After``).
        self.retry_after = retry_after


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


def old_rules(stored: StoredTable) -> HubError | None:
    """The refusal for a table stored under another ``RULES_VERSION`` (else None).

    Its answers replayed under these rules would play a different game
    without a word (issue 21 §3), so such a table is never rebuilt: a
    visitor gets this message instead.
    """
    if stored.rules_version == RULES_VERSION:
        return None
    return HubError(
        "old_game",
        f"table {stored.code} was played under rules version {stored.rules_version}, "
        f"this server plays version {RULES_VERSION}: its game cannot be shown or "
        "continued here, because replaying it under other rules would give a different game",
        410,
    )


@dataclass(slots=True)
class Settings:
    """Server behaviour that tests and the load benchmark change."""

    #: Seconds a bot waits before answering, so people can follow its moves.
    bot_delay: float = 0.8
    #: Frames queued for one slow client before it is disconnected.
    max_queue: int = 1000
    #: Messages a client may send per second (sustained; bursts of twice that).
    rate: float = 20.0
    #: Finished tables kept in memory for people still looking at them.
    keep_finished: int = 200
    #: What the lobby form offers first (``serve --ruleset/--deck``).
    default_ruleset: str = "legendary"
    default_preset: str = "legendary"
    #: The D&D abilities a new table offers first (``serve --abilities``):
    #: ``""`` (none), ``disks`` or ``skills``; and their visibility
    #: (``serve --ability-visibility``): ``""`` (the book's), ``hidden`` or ``public``.
    default_abilities: str = ""
    default_ability_visibility: str = ""
    #: Per-address limits (``docs/web.md``, "Limits and defences"): each is a
    #: burst of that many requests, refilled at that many per ``limit_window``
    #: seconds; 0 turns the limit off.
    limit_window: float = 600.0
    limit_tables: int = 20
    limit_seats: int = 60
    limit_sockets: int = 120
    #: Table management (adding bots, starting, muting, freeing a seat) per
    #: ``limit_window``, and replay steps per ``replay_window`` seconds.
    limit_manage: int = 120
    limit_replays: int = 120
    replay_window: float = 60.0
    #: Open or playing tables in memory at once (finished ones are not counted:
    #: they leave memory by themselves); 0: no cap.
    max_tables: int = 2000
    #: Open WebSockets at once, in total and per address; 0: no cap.
    max_sockets: int = 10000
    max_sockets_per_address: int = 40
    #: Seconds an open table may wait for its start before it expires (0: never).
    open_table_ttl: float = 3600.0
    #: Seconds a finished table nobody watches stays in memory (it stays in
    #: the database for replays).
    finished_grace: float = 300.0
    #: Seconds a started table may go without any person acting (an answer, a
    #: seat taken, a seated person connecting) before it ends as ``idle``
    #: (``serve --idle-timeout``; 0: never): its record stays, its memory and
    #: its place under ``max_tables`` are freed.
    idle_after: float = 3600.0
    #: Seconds a seated person must be disconnected before the others may hand
    #: their seat to a bot (0: never), and the level of that bot.
    away_after: float = 60.0
    away_bot: str = "medium"
    #: Reverse proxies (addresses or networks) whose ``X-Forwarded-For`` is believed.
    trusted_proxies: tuple[str, ...] = ()
    #: Seconds between two sweeps for expired tables and away seats.
    sweep_interval: float = 5.0
    #: Chat (``chat.py``): messages a table keeps for late joiners; a burst of
    #: ``chat_burst`` messages per connection refilled over ``chat_window``
    #: seconds, and of ``chat_address_burst`` per address over ``chat_address_window``.
    chat_history: int = 50
    chat_burst: int = 5
    chat_window: float = 10.0
    chat_address_burst: int = 30
    chat_address_window: float = 60.0
    #: The shortest turn timer a table may ask for (``serve --min-turn-timer``);
    #: the longest is ``turns.TURN_MAX``.
    turn_min: float = 10.0
    #: Freeze what survives each full garbage collection, so the next examines
    #: only newer objects; examine everything again once the interpreter's
    #: memory has grown a few times or ``thaw_after`` seconds have passed
    #: (``stats.GcWatch``): full-collection pauses of tens of milliseconds
    #: instead of hundreds with a thousand tables (``docs/benchmarks.md``,
    #: "Web server load").  Also sets the collector's thresholds while the
    #: hub runs (``young_threshold``; None leaves CPython's).
    refreeze: bool = True
    thaw_after: float = 600.0
    young_threshold: tuple[int, int] | None = (10_000, 5)
    #: Seconds between full collections the server starts itself (``GcWatch.full_every``).
    full_every: float | None = 5.0


def new_code(taken: Callable[[str], bool]) -> str:
    for _ in range(100):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not taken(code):
            return code
    raise HubError("busy", "could not find a free table code", 503)


def clean_name(name: Any) -> str:
    """A person's name, normalized; refused if invisible or confusable (``names.py``)."""
    try:
        return normalize(name)
    except BadName as e:
        raise HubError("bad_name", str(e)) from None


class Hub:
    """Every table of the server, and the only code that changes them."""

    def __init__(self, writer: Writer, settings: Settings | None = None) -> None:
        self.writer = writer
        self.settings = settings or Settings()
        self.tables: dict[str, LiveTable] = {}
        self.answers_accepted = 0
        self._inflight: set[asyncio.Future[None]] = set()
        self.loop_lag_ms: deque[float] = deque(maxlen=5000)
        self.gc = GcWatch(
            self.settings.refreeze,
            self.settings.thaw_after,
            young=self.settings.young_threshold if self.settings.refreeze else None,
            full_every=self.settings.full_every if self.settings.refreeze else None,
        )
        st = self.settings
        self.limiters = {
            "tables": RateLimiter(st.limit_tables, st.limit_window),
            "seats": RateLimiter(st.limit_seats, st.limit_window),
            "sockets": RateLimiter(st.limit_sockets, st.limit_window),
            "manage": RateLimiter(st.limit_manage, st.limit_window),
            "replays": RateLimiter(st.limit_replays, st.replay_window),
        }
        self.sockets = SocketCounter(st.max_sockets, st.max_sockets_per_address)
        self.trusted = parse_networks(st.trusted_proxies)
        self.expired = 0
        #: Started tables ended because nobody played (``idle_after``).
        self.ended_idle = 0
        self.refused: dict[str, int] = {}
        self.turns = TurnClock(self)
        self.social = Social(self)
        #: Full views, built once per table state and kind of view (``snapshots.py``).
        self.snapshots = Snapshots()
        #: Replay steps, built off the loop and kept (``replays.py``).
        self.replays = Replays()

    # ---------------------------------------------------------------- start-up

    def resume(self) -> int:
        """Load every open or unfinished table from the database (at start-up)."""
        stored = self.writer.run_sync(store.load_live)
        for st in stored:
            old = old_rules(st)
            if old is not None:
                # Replaying its answers under other rules would silently play
                # another game: left in the database, refused when visited.
                log.error("table %s cannot be resumed: %s", st.code, old.detail)
                continue
            try:
                table = self._adopt(LiveTable(st))
            except (ConfigError, IllegalAnswer, KeyError) as e:
                log.error("table %s cannot be resumed: %s", st.code, e)
                continue
            self.tables[table.code] = table
        return len(stored)

    def begin(self) -> None:
        """Start what the resumed tables need: bots to move, time limits to run."""
        for table in self.tables.values():
            if table.status == PLAYING:
                self._start_timer(table)
                self._schedule_bot(table)

    def adopt(self, stored: StoredTable) -> LiveTable | None:
        """Take over one table another server process owned (``web/cluster.py``):
        rebuilt from the database like :meth:`resume`, then started like :meth:`begin`.

        None (and nothing replaced) if the table is live here already: a
        heartbeat's claim can see a table this process has just committed
        before :meth:`create_table` puts it in memory, and a copy loaded
        meanwhile must not replace the table that holds the connections (they
        would get no frame again) and the seats taken since.
        """
        if stored.code in self.tables:
            return None
        old = old_rules(stored)
        if old is not None:
            log.error("table %s cannot be taken over: %s", stored.code, old.detail)
            return None
        try:
            table = self._adopt(LiveTable(stored))
        except (ConfigError, IllegalAnswer, KeyError) as e:
            log.error("table %s cannot be taken over: %s", stored.code, e)
            return None
        self.tables[table.code] = table
        if table.status == PLAYING:
            self._start_timer(table)
            self._schedule_bot(table)
        return table

    def stats(self) -> dict[str, Any]:
        """Load figures (no game content): tables, connections, commits, latencies."""
        commits = sorted(copied(self.writer.commit_ms))
        lags = sorted(copied(self.loop_lag_ms))
        pauses = copied(self.gc.pauses_ms)
        full = sorted(ms for ms, gen in pauses if gen == 2)
        young = sorted(ms for ms, gen in pauses if gen != 2)

        pct = percentile

        return {
            "tables": {
                status: sum(1 for t in self.tables.values() if t.status == status)
                for status in (OPEN, PLAYING, FINISHED)
            },
            "connections": sum(len(t.clients) for t in self.tables.values()),
            "sockets": self.sockets.total,
            "expired": self.expired,
            "ended_idle": self.ended_idle,
            "refused": dict(self.refused),
            "answers_accepted": self.answers_accepted,
            "commits": self.writer.commits,
            "jobs_committed": self.writer.jobs,
            "commit_ms": {
                "p50": pct(commits, 50),
                "p99": pct(commits, 99),
                "max": pct(commits, 100),
            },
            "loop_lag_ms": {"p50": pct(lags, 50), "p99": pct(lags, 99), "max": pct(lags, 100)},
            "gc_pause_ms": {
                "young": {
                    "count": len(young),
                    "p50": pct(young, 50),
                    "p99": pct(young, 99),
                    "max": pct(young, 100),
                    "total": round(self.gc.total_ms[0] + self.gc.total_ms[1], 1),
                },
                "full": {
                    "count": len(full),
                    "p50": pct(full, 50),
                    "max": pct(full, 100),
                    "total": round(self.gc.total_ms[2], 1),
                },
                "frozen": gc.get_freeze_count(),
                "thaws": self.gc.thaws,
                "thaw_log": [list(t) for t in self.gc.thaw_log],
                "growth_factor": self.gc.factor,
                "blocks": sys.getallocatedblocks(),
            },
        }

    async def watch_loop(self, interval: float = 0.05) -> None:
        """Measure how late the event loop wakes up (its lag is every client's latency)."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(interval)
            self.loop_lag_ms.append(max(0.0, (loop.time() - before - interval) * 1000))
            self.gc.collect_if_due()

    async def close(self) -> None:
        """Stop bots and timers, let answers being committed finish, drop clients."""
        self.gc.close()
        for table in self.tables.values():
            for task in (table.bot_task, table.timer_task, table.turn_task):
                if task is not None:
                    task.cancel()
        if self._inflight:
            await asyncio.gather(*list(self._inflight), return_exceptions=True)
        for table in self.tables.values():
            for client in list(table.clients):
                client.stop()

    # ----------------------------------------------------------------- limits

    def check_rate(self, kind: str, address: str) -> None:
        """Count one ``kind`` request (tables, seats, sockets, manage, replays) of ``address``;
        raises a 429 :class:`HubError` with the seconds to wait when over its limit."""
        wait = self.limiters[kind].hit(address)
        if wait > 0:
            self.refused[kind] = self.refused.get(kind, 0) + 1
            raise HubError(
                "rate_limited",
                f"too many requests of this kind ({kind}) from your address; "
                f"try again in {retry_after(wait)} s",
                429,
                retry_after(wait),
            )

    def _adopt(self, table: LiveTable) -> LiveTable:
        """Give a table loaded or made now the server's per-table settings."""
        table.away_after = self.settings.away_after
        table.chat.resize(self.settings.chat_history)
        return table

    def live_count(self) -> int:
        """Tables in memory that count against ``max_tables`` (open or playing)."""
        return sum(1 for t in self.tables.values() if t.status in (OPEN, PLAYING))

    # ------------------------------------------------------------------ lobby

    async def create_table(
        self, config: Any, turn_seconds: Any = None, unlisted: Any = False
    ) -> tuple[LiveTable, str, str | None]:
        """A new open table; returns it, the host token and, when the table plays
        with hidden D&D abilities, the game-master token (else None: the
        role ends if the host takes a seat, ``take_seat``).
        ``turn_seconds``: the turn timer (``turns.py``), None or 0 for none;
        ``unlisted``: invite only (the lobby does not list it)."""
        if not isinstance(unlisted, bool):
            raise HubError("bad_field", "unlisted must be true or false")
        try:
            cfg = with_game_master(config_from_dict(config if config is not None else {}))
            turn = self.turns.check(turn_seconds)
        except (ConfigError, ValueError, TypeError) as e:
            raise HubError("bad_config", str(e)) from None
        if cfg.ending.series_games:
            raise HubError("bad_config", "series of games are not played on the web server")
        cap = self.settings.max_tables
        if cap and self.live_count() >= cap:
            self.refused["server_full"] = self.refused.get("server_full", 0) + 1
            raise HubError("server_full", f"the server holds {cap} tables already", 503, 60)
        config_dict = config_to_dict(cfg)
        seed = secrets.randbits(62)
        host = secrets.token_urlsafe(24)
        hidden = cfg.abilities.enabled and not cfg.abilities.public
        gm = secrets.token_urlsafe(24) if hidden else None
        gm_hash = hash_token(gm) if gm is not None else None

        def create(s: Session) -> str:
            code = new_code(partial(store.code_taken, s))
            store.create_table(
                s, code, config_dict, seed, hash_token(host), gm_hash, turn, unlisted
            )
            return code

        code = await self._write(create)
        table = self._adopt(
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
                )
            )
        )
        self.tables[code] = table
        return table, host, gm

    async def table(self, code: str) -> LiveTable:
        """A table by code, loading a finished one from the database if needed."""
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is not None:
            table.touched = time.monotonic()
            return table
        if not code or len(code) > 16:
            raise HubError("unknown_table", f"no table {code!r}", 404)
        stored = await self._write(partial(store.load_table, code=code))
        if stored is None:
            raise HubError("unknown_table", f"no table {code!r}", 404)
        if stored.status == EXPIRED:
            raise HubError("expired", f"table {code} expired before its game started", 410)
        old = old_rules(stored)
        if old is not None:
            raise old
        table = self._adopt(LiveTable(stored))
        self.tables[code] = table
        self._forget_old_finished()
        return table

    def _forget_old_finished(self) -> None:
        done = [t for t in self.tables.values() if t.status == FINISHED and not t.clients]
        for old in sorted(done, key=lambda t: t.finished_at or t.created_at)[
            : max(0, len(done) - self.settings.keep_finished)
        ]:
            del self.tables[old.code]

    @staticmethod
    def _check_open(table: LiveTable) -> None:
        """Refuse seating changes once the table started (or expired meanwhile)."""
        if table.status == EXPIRED:
            raise HubError("expired", f"table {table.code} expired before its game started", 410)
        if table.status != OPEN:
            raise HubError("started", "the game has already started", 409)

    def _free_seat(self, table: LiveTable, seat: Any) -> int:
        self._check_open(table)
        if table.status != OPEN:
            raise HubError("started", "the game has already started", 409)
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

    async def take_seat(
        self, code: str, seat: Any, name: Any, token: Any = None, address: str = ""
    ) -> tuple[int, str]:
        """Sit a person down; returns the seat and its secret token.

        Someone the host removed (their name or their address) may not sit
        here again, unless the request carries the host's token.
        ``token``: the caller's bearer token; the host's or the
        game-master's means the table's creator takes a seat, which ends the
        game-master role (a game-master sees every hidden ability, so it is
        for someone who does not play): the game-master token is void from
        now on and its connections become spectators.
        """
        table = await self.table(code)
        name = clean_name(name)
        async with table.lock:
            p = self._free_seat(table, seat)
            creator = isinstance(token, str) and (table.is_host(token) or table.is_gm(token))
            # The host is never banned (a removed guest may share their address).
            if not creator and (
                any(same_name(name, banned) for banned in table.banned_names)
                or (address and address in table.banned_addresses)
            ):
                raise HubError("banned", "the host removed you from this table", 403)
            if any(same_name(info.name, name) for info in table.seats.values()):
                raise HubError("bad_name", f"someone here is already called {name}", 409)
            withdraw = creator and table.gm_hash is not None
            new_token = secrets.token_urlsafe(24)
            info = SeatInfo(p, name, HUMAN, None, hash_token(new_token))

            def put(s: Session) -> None:
                store.put_seat(s, table.code, info)
                if withdraw:
                    store.set_gm(s, table.code, None)

            await self._write(put)
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
                        self.social.demoted(table, c, "gm_ended")
        self._broadcast_table(table)
        return p, new_token

    async def add_bots(self, code: str, token: Any, seat: Any, level: Any, fill: bool) -> list[int]:
        """Seat a bot (or fill every free seat with bots) of ``level``."""
        table = await self.table(code)
        if not isinstance(level, str) or level not in bot_names():
            raise HubError("bad_bot", f"unknown bot level; choose from {', '.join(bot_names())}")
        async with table.lock:
            self._check_manager(table, token)
            if fill:
                self._check_open(table)
                seats = [p for p in range(table.players) if p not in table.seats]
            else:
                seats = [self._free_seat(table, seat)]
            used = {info.name for info in table.seats.values()}
            names = [n for n in BOT_NAMES if not any(same_name(n, u) for u in used)] + [
                f"Bot {p + 1}" for p in range(table.players)
            ]
            infos = [SeatInfo(p, names[i], BOT, level) for i, p in enumerate(seats)]

            def put(s: Session) -> None:
                for info in infos:
                    store.put_seat(s, table.code, info)

            await self._write(put)
            for info in infos:
                table.seats[info.seat] = info
        self._broadcast_table(table)
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
        table = await self.table(code)
        async with table.lock:
            self._check_open(table)
            if type(seat) is not int or seat not in table.seats:
                raise HubError("bad_seat", "that seat is empty")
            info = table.seats[seat]
            own = isinstance(token, str) and info.token_hash == hash_token(token)
            if not own:
                self._check_manager(table, token)
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

            def write(s: Session) -> None:
                store.remove_seat(s, table.code, seat)
                if bans:
                    store.add_bans(s, table.code, bans)

            await self._write(write)
            del table.seats[seat]
            table.away_since.pop(seat, None)
            table.seat_address.pop(seat, None)
            for kind, value in bans:
                (table.banned_names if kind == "name" else table.banned_addresses).add(value)
            if info.kind == HUMAN:
                self.social.removed(table, seat, "left" if own else "removed")
        self._broadcast_table(table)

    async def clear_bans(self, code: str, token: Any) -> None:
        """The host lets everyone they removed sit again (an address ban also
        refuses others behind the same address: a home, an office)."""
        table = await self.table(code)
        async with table.lock:
            if not table.is_host(token):
                raise HubError("forbidden", "only the table's host may do this", 403)
            await self._write(partial(store.clear_bans, code=table.code))
            table.banned_names.clear()
            table.banned_addresses.clear()

    async def set_listing(self, code: str, token: Any, unlisted: Any) -> None:
        """The host makes the table invite only (left out of the lobby), or listed again."""
        table = await self.table(code)
        if not isinstance(unlisted, bool):
            raise HubError("bad_field", "unlisted must be true or false")
        async with table.lock:
            if not table.is_host(token):
                raise HubError("forbidden", "only the table's host may do this", 403)
            if table.status not in (OPEN, PLAYING):
                raise HubError("game_over", "the table is not in play any more", 409)
            await self._write(partial(store.set_unlisted, code=table.code, unlisted=unlisted))
            table.unlisted = unlisted
        self._broadcast_table(table)

    def _check_manager(self, table: LiveTable, token: Any) -> None:
        if not table.may_manage(token if isinstance(token, str) else None):
            raise HubError("forbidden", "only the table's host may do this", 403)

    async def start(self, code: str, token: Any) -> None:
        """Deal: the table's game begins (every seat must be filled)."""
        table = await self.table(code)
        async with table.lock:
            self._check_manager(table, token)
            self._check_open(table)
            if len(table.seats) < table.players:
                raise HubError("seats_free", "every seat needs a player or a bot", 409)
            at = datetime.now(UTC)
            await self._write(partial(store.start_table, code=table.code, at=at))
            table.status = PLAYING
            table.started_at = at
            table.acted = time.monotonic()
            table.rebuild([])
        self._broadcast_table(table)
        self._broadcast(table)
        self._start_timer(table)
        self._schedule_bot(table)

    async def finished(self, limit: int, offset: int) -> list[dict[str, Any]]:
        rows = await self._write(partial(store.list_finished, limit=limit, offset=offset))
        out = []
        for st in rows:
            cfg = st.config
            try:
                brief = abilities_brief(config_from_dict(cfg))
            except ConfigError:
                brief = None
            out.append(
                {
                    "code": st.code,
                    "players": cfg.get("players"),
                    "ruleset": cfg.get("rules", {}).get("ruleset"),
                    "preset": cfg.get("deck", {}).get("preset"),
                    "abilities": brief,
                    "seats": [
                        st.seats[p].public() if p in st.seats else None
                        for p in range(int(cfg.get("players", 0)))
                    ],
                    "winners": st.winners,
                    "finished_at": st.finished_at.isoformat() if st.finished_at else None,
                }
            )
        return out

    def live(self) -> dict[str, list[dict[str, Any]]]:
        """Open and playing tables, newest first, for the lobby."""
        tables = sorted(self.tables.values(), key=lambda t: t.created_at, reverse=True)
        tables = [t for t in tables if not t.unlisted]  # invite only: never listed
        return {
            "open": [self._brief(t) for t in tables if t.status == OPEN][:100],
            "playing": [self._brief(t) for t in tables if t.status == PLAYING][:100],
        }

    @staticmethod
    def _brief(t: LiveTable) -> dict[str, Any]:
        return {
            "code": t.code,
            "players": t.players,
            "ruleset": t.config.rules.ruleset,
            "preset": t.config.deck.preset,
            "abilities": abilities_brief(t.config),
            "taken": len(t.seats),
            "names": [t.seats[p].name for p in sorted(t.seats)],
        }

    # ----------------------------------------------------------------- replay

    async def record(self, code: str) -> dict[str, Any]:
        """The finished game's record (config, seed, answers): never while it runs."""
        table = await self._finished_table(code)
        st = table.state
        assert st is not None
        return {
            "format": "dragonante-record",
            "rules_version": RULES_VERSION,
            "config": table.config_dict,
            "seed": table.seed,
            "answers": list(table.answers),
            "final_digest": digest(st),
            "last_gambit_at": table.last_gambit_at,
            "names": table.names(),
        }

    async def _finished_table(self, code: str) -> LiveTable:
        table = await self.table(code)
        if table.status != FINISHED or table.state is None:
            raise HubError("not_finished", "replays open when the game is over", 409)
        return table

    async def replay(self, code: str, step: Any, seat: Any, lang: str, gm: bool = False) -> str:
        """The finished game after ``step`` answers, as ``seat`` (or a spectator) saw
        it; ``gm``: as a game-master saw it (every character's D&D abilities).
        Encoded JSON: built off the event loop and kept (``replays.Replays``).

        A finished game's record is public, so its game-master view is too.
        """
        table = await self._finished_table(code)
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

    # ------------------------------------------------------------ connections

    async def connect(
        self, code: str, token: str | None, lang: str, send: Callable[[str], Awaitable[None]]
    ) -> Client:
        """Register a connection: a seat by its token, a game-master by the table's
        game-master token (a spectator who sees every ability), or a spectator."""
        table = await self.table(code)
        seat: int | None = None
        gm = False
        if token is not None:
            seat = table.token_seat(token)
            if seat is None:
                gm = table.is_gm(token)
                if not gm:
                    raise ProtocolError("bad_token", "this token holds no seat at this table")
        client = Client(table, seat, lang, send, self.settings.max_queue, self.settings.rate)
        client.gm = gm
        if seat is not None and token is not None:
            client.token_hash = hash_token(token)
        async with table.lock:
            if table.status == EXPIRED:
                raise HubError(
                    "expired", f"table {table.code} expired before its game started", 410
                )
            if seat is not None and table.token_seat(token or "") != seat:
                # The seat changed hands while this connection was being made.
                raise ProtocolError("bad_token", "this token holds no seat at this table")
            if gm and not table.is_gm(token or ""):
                raise ProtocolError("bad_token", "this table has no game-master now")
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
            self._send_state(table, client)
            self.social.welcome(client)
            self.turns.welcome(client)
            if back:
                self._announce(table, {"type": "handover", "seat": seat, "to": "player"})
        self._broadcast_table(table)
        if back:
            self._schedule_bot(table)
        return client

    def disconnect(self, client: Client) -> None:
        table = client.table
        if client in table.clients:
            table.clients.discard(client)
            client.stop()
            seat = client.seat
            if seat is not None and not any(c.seat == seat for c in table.clients):
                table.away_since[seat] = time.monotonic()
            self._broadcast_table(table)

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
                    f"seat {seat} is not a person away for {self.settings.away_after:g} s "
                    "or more (or is already played by a bot)",
                )
            level = self.settings.away_bot
            table.handed[seat] = level
            table.bots[seat] = make_bot(level, (table.seed + 7919 * (seat + 1)) & 0x7FFFFFFF)
            table.away_shown = table.away_seats(time.monotonic())
            self._announce(
                table,
                {"type": "handover", "seat": seat, "to": "bot", "by": client.seat, "bot": level},
            )
        self._broadcast_table(table)
        self._schedule_bot(table)

    def _announce(self, table: LiveTable, msg: dict[str, Any]) -> None:
        text = json.dumps(msg, separators=(",", ":"))
        for c in list(table.clients):
            c.push(text)
            self._drop_if_overflowed(c)

    # ---------------------------------------------------------------- expiry

    async def sweep_loop(self) -> None:
        """Every ``sweep_interval`` seconds: expire, forget, and announce away seats."""
        while True:
            await asyncio.sleep(self.settings.sweep_interval)
            try:
                await self.sweep()
            except Exception:  # one bad sweep must not end the sweeping
                log.exception("sweep failed")

    async def sweep(self) -> None:
        """Expire open tables past ``open_table_ttl``, forget finished ones nobody
        has looked at for ``finished_grace``, and tell tables whose seats
        became away (so the others see the hand-to-bot button)."""
        st = self.settings
        now = datetime.now(UTC)
        mono = time.monotonic()
        for table in list(self.tables.values()):
            if table.status == OPEN:
                age = (now - table.created_at).total_seconds()
                if st.open_table_ttl > 0 and age >= st.open_table_ttl:
                    await self._expire(table)
            elif table.status == FINISHED:
                if not table.clients and mono - table.touched >= st.finished_grace:
                    self.tables.pop(table.code, None)
            elif table.status == PLAYING:
                if st.idle_after > 0 and mono - table.acted >= st.idle_after:
                    await self._end_idle(table)
                    continue
                away = table.away_seats(mono)
                if away != table.away_shown:
                    table.away_shown = away
                    self._broadcast_table(table)

    async def _end_idle(self, table: LiveTable) -> None:
        """End a started table nobody has played for ``idle_after`` seconds.

        Stored as finished (``ended`` = ``idle``, no winners) with its answers,
        so its record and replay stay and a rematch can be offered from it;
        its bots and clocks stop, and it leaves memory at once unless someone
        is still looking (then like any finished table).  Without this, one
        address could fill ``max_tables`` with started games nobody plays.
        """
        async with table.lock:
            state = table.state
            if table.status != PLAYING or state is None:
                return
            final = digest(state)
            await self._write(
                partial(store.finish_table, code=table.code, winners=[], digest=final, ended="idle")
            )
            table.status = FINISHED
            table.ended = "idle"
            table.finished_at = datetime.now(UTC)
            table.touched = time.monotonic()
            self.ended_idle += 1
            for task in (table.bot_task, table.timer_task):
                if task is not None:
                    task.cancel()
            self.turns.stop(table)
            if not table.clients:
                self.tables.pop(table.code, None)
        self._broadcast_table(table)

    async def _expire(self, table: LiveTable) -> None:
        """Mark an open table expired (in the database first), drop it from
        memory and close its connections with 4410; its links answer ``expired``."""
        async with table.lock:
            if table.status != OPEN:
                return
            await self._write(partial(store.expire_table, code=table.code))
            table.status = EXPIRED
            self.tables.pop(table.code, None)
            self.expired += 1
            refusal = ProtocolError("expired", f"table {table.code} expired before it started")
            for c in list(table.clients):
                c.push_json(error(refusal, t(c.lang, f"error.{refusal.code}")))
                c.close_with(4410, "expired")
            table.clients.clear()

    async def set_lang(self, client: Client, lang: str) -> None:
        async with client.table.lock:
            client.lang = lang
            client.charge(cost(self._send_state(client.table, client)))

    async def sync(self, client: Client, since: int = 0) -> None:
        """A fresh ``state`` (its events from ``since``), charged to the
        connection's allowance by its size (``snapshots.cost``)."""
        async with client.table.lock:
            client.charge(cost(self._send_state(client.table, client, since)))

    def _send_state(self, table: LiveTable, client: Client, since: int = 0) -> int:
        """A full snapshot for one connection (on connect, language switch, sync);
        returns its size.  The view is built once per table state and kind of
        view (``snapshots.Snapshots``); only the summary is made per connection."""
        head = encode({"type": "state", "table": table.summary(client.seat, client.gm)})
        if table.state is None:
            client.push(head)
            return len(head)
        view, client.log_pos = self.snapshots.view(
            table, client.seat, client.gm, client.lang, since
        )
        text = f"{head[:-1]},{view[1:]}"
        client.push(text)
        return len(text)

    def _broadcast_table(self, table: LiveTable) -> None:
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
            self._drop_if_overflowed(client)

    def _broadcast(self, table: LiveTable, acked: Client | None = None, decision: int = -1) -> None:
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
            self._drop_if_overflowed(client)

    def _drop_if_overflowed(self, client: Client) -> None:
        if client.overflowed:
            client.table.clients.discard(client)

    # ---------------------------------------------------------------- answers

    async def answer(self, client: Client, decision: int, answer: int) -> None:
        """A connection answers; raises :class:`ProtocolError` if refused (also
        when its seat is no longer held with the token it connected with:
        checked again under the table's lock, ``_submit_now``)."""
        if client.seat is None:
            raise ProtocolError("not_seated", "spectators cannot answer")
        await self._submit(client.table, client.seat, decision, answer, client)

    async def _submit(
        self, table: LiveTable, seat: int, decision: int, answer: int, client: Client | None
    ) -> None:
        """Check, commit and play one answer.

        Shielded from cancellation: once an answer is on its way to the
        database, the table's state must follow it, even if the connection
        that sent it closes or the server is stopping (``close`` waits).
        """
        task = asyncio.ensure_future(self._submit_now(table, seat, decision, answer, client))
        self._inflight.add(task)
        task.add_done_callback(self._settled)
        await asyncio.shield(task)

    def _settled(self, task: asyncio.Future[None]) -> None:
        self._inflight.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: a refusal nobody waits for is not an error

    async def _submit_now(
        self, table: LiveTable, seat: int, decision: int, answer: int, client: Client | None
    ) -> None:
        async with table.lock:
            if client is not None and (client.seat != seat or not table.holds(client)):
                raise ProtocolError("not_seated", "this connection holds no seat any more")
            state = table.state
            if table.status == OPEN or state is None:
                raise ProtocolError("not_started", "the game has not started yet")
            d = state.pending
            if table.status == FINISHED or d is None:
                raise ProtocolError("game_over", "the game is over")
            if decision != d.id:
                raise ProtocolError(
                    "stale",
                    f"question {decision} is not the current question ({d.id})",
                    current=d.id,
                )
            if d.seat != seat:
                raise ProtocolError(
                    "not_your_turn", f"question {d.id} is for seat {d.seat}", current=d.id
                )
            if answer not in d.options:
                raise ProtocolError(
                    "illegal",
                    f"{answer} is not a legal answer to {d.kind}; legal: {list(d.options)}",
                    current=d.id,
                )
            log_ = state.log
            assert log_ is not None
            mark = len(log_)
            trial = state.clone()
            trial.log = log_
            try:
                apply(trial, answer, decision)
            except IllegalAnswer as e:  # checked above; kept so a rules bug cannot corrupt
                del log_[mark:]
                raise ProtocolError("illegal", str(e), current=d.id) from None
            n = len(table.answers)
            over = trial.over
            final = digest(trial) if over else ""
            winners = list(trial.winners)

            def commit(s: Session) -> None:
                store.add_answer(s, table.code, n, decision, seat, answer)
                if over:
                    store.finish_table(s, table.code, winners, final)

            try:
                await self.writer.run(commit)
            except StorageError as e:
                del log_[mark:]
                log.error("table %s: answer %d not stored: %s", table.code, n, e)
                raise ProtocolError("storage", str(e), current=d.id) from None
            table.state = trial
            table.answers.append(answer)
            self.answers_accepted += 1
            if client is not None:
                table.acted = time.monotonic()
            if over:
                table.status = FINISHED
                table.finished_at = datetime.now(UTC)
                table.touched = time.monotonic()
                if table.timer_task is not None:
                    table.timer_task.cancel()
            self._broadcast(table, client, decision)
            if over:
                self._broadcast_table(table)
        self._schedule_bot(table)

    # ------------------------------------------------------------------- bots

    def _schedule_bot(self, table: LiveTable) -> None:
        self.turns.arm(table)  # every change of the question passes here
        state = table.state
        if table.status != PLAYING or state is None or state.pending is None:
            return
        if state.pending.seat not in table.bots:
            return
        running = table.bot_task
        if running is not None and not running.done():
            return
        table.bot_task = asyncio.create_task(self._bot_move(table, state.pending.id))

    async def _bot_move(self, table: LiveTable, decision: int) -> None:
        if self.settings.bot_delay > 0:
            await asyncio.sleep(self.settings.bot_delay)
        state = table.state
        if state is None or state.pending is None or state.pending.id != decision:
            return
        d = state.pending
        bot = table.bots.get(d.seat)
        if bot is None:  # the seat's person came back while the bot waited
            if table.bot_task is asyncio.current_task():
                table.bot_task = None
            return
        snapshot = state.clone()
        snapshot.log = list(state.log or [])
        try:
            choice = await asyncio.to_thread(bot.choose, SeatView(snapshot, d.seat))
        except Exception:
            log.exception("table %s: bot %s failed; it answers option 0", table.code, bot.name)
            choice = d.options[0]
        if choice not in d.options:
            log.error("table %s: bot %s answered illegally (%r)", table.code, bot.name, choice)
            choice = d.options[0]
        if table.bot_task is asyncio.current_task():
            table.bot_task = None  # this move is made: the next question may start another
        if table.bots.get(d.seat) is not bot:
            return  # the person took the seat back while the bot thought: theirs to answer
        try:
            await self._submit(table, d.seat, decision, choice, None)
        except ProtocolError as e:
            if e.code not in ("stale", "game_over"):
                log.error("table %s: bot answer refused: %s", table.code, e.detail)
                if e.code == "storage":
                    await asyncio.sleep(1.0)
                    self._schedule_bot(table)

    # ------------------------------------------------------------ time limits

    def _start_timer(self, table: LiveTable) -> None:
        minutes = table.config.ending.time_limit_minutes
        if not minutes or table.started_at is None or table.last_gambit_at is not None:
            return
        if table.status != PLAYING:
            return
        due = table.started_at + timedelta(minutes=minutes)
        delay = max(0.0, (due - datetime.now(UTC)).total_seconds())
        table.timer_task = asyncio.create_task(self._time_up(table, delay))

    async def _time_up(self, table: LiveTable, delay: float) -> None:
        await asyncio.sleep(delay)
        async with table.lock:
            state = table.state
            if state is None or state.over or table.last_gambit_at is not None:
                return
            n = len(table.answers)
            try:
                await self._write(partial(store.set_last_gambit, code=table.code, n=n))
            except HubError:
                return
            table.last_gambit_at = n
            call_last_gambit(state)
        self._broadcast_table(table)

    # ---------------------------------------------------------------- helpers

    async def _write(self, fn: Callable[[Session], Any]) -> Any:
        try:
            return await self.writer.run(fn)
        except StorageError as e:
            log.error("storage: %s", e)
            raise HubError("storage", "the server could not store this; try again", 503) from None
