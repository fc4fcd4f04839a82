"""How a server behaves: every knob ``serve`` and the tests turn, in one place.

Kept apart from the hub so that every part of it (and the command line, the
load benchmark, the tests) can read the settings without importing the hub.
``docs/security.md`` lists each limit with its default and its test.
"""

from __future__ import annotations

from dataclasses import dataclass

from dragonante.bots.hint import HINT_ITERS

#: The bot level a table gets when none is named (a bot seated without a
#: level, the lobby's choice before any is made, Quick play, an away seat's
#: bot): the same as the terminal's ``play --opponents`` and ``play --join``.
DEFAULT_BOT_LEVEL = "medium"


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
    #: Looking a table up by its code (its page, its seats, its socket, its
    #: replays): every lookup per ``lookup_window`` seconds, and lookups of a
    #: code no table has per ``limit_window`` (``serve --limit-codes``).  An
    #: unlisted table's code is its invitation, so a miss costs far more than
    #: a hit: at 60 misses per 10 minutes one address needs about 280 years to
    #: guess a given code of 31**6, and about 100 days to hit any one of a
    #: thousand unlisted tables (``docs/security.md``, "Invite codes").
    #: New player keys (``players/``) per ``limit_window``: a browser makes
    #: one on its first visit; using a key counts as a lookup, an unknown key
    #: as a miss, like invite codes.
    limit_players: int = 20
    limit_lookups: int = 300
    lookup_window: float = 60.0
    limit_misses: int = 60
    #: Hints from the best bot (``hints.py``): a burst of ``limit_hints`` per
    #: address refilled over ``hint_window`` seconds (0 turns the limit off),
    #: hints searched at once on the whole server, and each one's search budget.
    limit_hints: int = 20
    hint_window: float = 120.0
    hint_workers: int = 1
    hint_iters: int = HINT_ITERS
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
    away_bot: str = DEFAULT_BOT_LEVEL
    #: Bots the server's command line offers by name (``serve --bot NAME=SPEC``):
    #: (name, spec) pairs; clients pick the names, never a spec.
    bots: tuple[tuple[str, str], ...] = ()
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
    #: With ``refreeze``, freeze what survives a young collection too
    #: (``GcWatch.freeze_young``): the tables' current states stop being
    #: examined again by every young and full collection.
    freeze_young: bool = True
    thaw_after: float = 600.0
    young_threshold: tuple[int, int] | None = (2_000, 5)
    #: Seconds between full collections the server starts itself (``GcWatch.full_every``).
    full_every: float | None = 5.0
