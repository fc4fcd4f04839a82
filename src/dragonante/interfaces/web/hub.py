"""The authoritative game server: tables in memory, answers on disk, views per seat.

The :class:`Hub` owns every live table; a table's game state lives only
here, clients send ``(decision id, answer)`` and receive views.  The hub is
the public face of parts split by concern (``docs/web.md``, "The web
package"), each holding the :class:`~dragonante.interfaces.web.tables.house.House`
(the tables, storage, limits and caches every part shares):

* :mod:`seats`: seats, bots, removal and bans, the start;
* :mod:`lobby`: new tables, the lists, records and replays;
* :mod:`answers`: the answer pipeline (checked, played on a copy,
  committed, then shown), bots, the game's time limit, and the turn
  timers of :mod:`turns`;
* :mod:`connections`: connecting, ``sync``, languages, away seats;
* :mod:`social`: chat, mutes, rematches;
* :mod:`hints`: hints from the best bot, and the host's ``hints`` option;
* :mod:`players`: player keys, My games, the host handing a seat to a new key;
* :mod:`take_back`: a person alone among bots takes an answer back;
* :mod:`lifecycle`: start-up, takeover, expiry and idleness, the figures.

The app and the cluster use only the names bound below; the parts use only the
house's.  A restart rebuilds every unfinished table by replaying config +
seed + stored answers, so the game continues exactly where it was; bots
simply pick up the question in front of them.
"""

from __future__ import annotations

from dragonante.bots import offer
from dragonante.interfaces.web.players.ratings import rate_table
from dragonante.interfaces.web.players.service import Players
from dragonante.interfaces.web.shared.errors import HubError, old_rules
from dragonante.interfaces.web.shared.settings import Settings
from dragonante.interfaces.web.storage.interface import Storage
from dragonante.interfaces.web.storage.sql import SqlStorage
from dragonante.interfaces.web.storage.writer import Writer
from dragonante.interfaces.web.tables.answers import Answers
from dragonante.interfaces.web.tables.connections import Connections
from dragonante.interfaces.web.tables.hints import Hints
from dragonante.interfaces.web.tables.house import House
from dragonante.interfaces.web.tables.lifecycle import Lifecycle
from dragonante.interfaces.web.tables.lobby import CODE_ALPHABET, Lobby, new_code, with_game_master
from dragonante.interfaces.web.tables.seats import BOT_NAMES, Seats, clean_name
from dragonante.interfaces.web.tables.social import Social
from dragonante.interfaces.web.tables.take_back import TakeBacks

__all__ = [
    "BOT_NAMES",
    "CODE_ALPHABET",
    "Hub",
    "HubError",
    "Settings",
    "clean_name",
    "new_code",
    "old_rules",
    "with_game_master",
]


class Hub:
    """Every table of the server, and the only code that changes them.

    Its methods are its parts' (bound here once, so a call costs nothing
    more than calling the part): the app calls ``hub.take_seat(...)`` without
    knowing which part seats people.
    """

    def __init__(self, storage: Writer | Storage, settings: Settings | None = None) -> None:
        #: The server's database thread is wrapped in the storage protocol
        #: (``storage/sql.py``); a test may hand any storage (``storage/memory.py``).
        self.storage = SqlStorage(storage) if isinstance(storage, Writer) else storage
        self.house = house = House(self.storage, settings or Settings())
        for name, spec in house.settings.bots:  # serve --bot NAME=SPEC, in every process
            offer(name, spec)
        self.settings = house.settings
        #: The parts (``docs/web.md``, "The web package").
        self.answers = answers = Answers(house, rate_table)
        self.social = social = Social(house)
        self.seating = seating = Seats(house, answers)
        self.lobby = lobby = Lobby(house)
        self.connections = connections = Connections(house, answers, social)
        self.life = life = Lifecycle(house, answers)
        self.hints = hints = Hints(house)
        #: Player keys and the seats that follow them (``players/``).
        self.players = Players(house, seating)
        self.take_backs = take_backs = TakeBacks(house, answers)
        # What the parts share, for the app, the cluster and the tests.
        self.tables = house.tables
        self.snapshots = house.snapshots
        self.sockets = house.sockets
        self.trusted = house.trusted
        self.refused = house.refused
        self.replays = lobby.replays
        self.turns = answers.turns
        self.gc = life.gc
        # start-up, takeover, figures, stopping
        self.resume = life.resume
        self.begin = life.begin
        self.adopt = life.adopt
        self.evict = life.evict
        self.stats = life.stats
        self.watch_loop = life.watch_loop
        self.sweep_loop = life.sweep_loop
        self.sweep = life.sweep
        self.close = life.close
        # limits and tables
        self.check_rate = house.check_rate
        self.count_refusal = house.count_refusal
        self.live_count = house.live_count
        self.table = house.table
        self.lookup = house.lookup
        self.check_lookup = house.check_lookup
        self.missed = house.missed
        self.misses_wait = house.misses_wait
        # the lobby
        self.create_table = lobby.create_table
        self.live = lobby.live
        self.finished = lobby.finished
        self.record = lobby.record
        self.replay = lobby.replay
        # seating
        self.take_seat = seating.take_seat
        self.add_bots = seating.add_bots
        self.remove_seat = seating.remove_seat
        self.clear_bans = seating.clear_bans
        self.set_listing = seating.set_listing
        self.set_hints = hints.set_option
        self.start = seating.start
        # connections and answers
        self.connect = connections.connect
        self.disconnect = connections.disconnect
        self.set_lang = connections.set_lang
        self.sync = connections.sync
        self.hand_to_bot = connections.hand_to_bot
        self.answer = answers.answer
        self.take_back = take_backs.take_back

    @property
    def writer(self) -> Writer:
        """The database thread, for what only SQL does (the cluster's leases and
        fences, ``PostgreSQL``'s address); a hub on other storage has none."""
        if not isinstance(self.storage, SqlStorage):
            raise TypeError("this hub's storage is not a database")
        return self.storage.writer
