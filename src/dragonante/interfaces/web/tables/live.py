"""A table in memory: its seats, its game, its connections, and what each seat sees.

:class:`LiveTable` holds one table's game state (rebuilt from config + seed +
answers whenever it is loaded), :class:`Client` one WebSocket connection,
and :func:`seat_view` is the one place a frame's content is made: everything
in it comes from ``observe`` and ``events_for`` for that seat, plus public
names and the seat's own extras.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from dragonante.bots import Bot, make_bot
from dragonante.engine.config import GameConfig, config_from_dict, config_to_dict
from dragonante.engine.game import apply, call_last_gambit, new_game
from dragonante.engine.state import GameState
from dragonante.engine.views import (
    Question,
    config_for,
    events_for,
    events_for_gm,
    observe,
    visible,
    visible_to_gm,
)
from dragonante.interfaces.events import Explainer, table_of
from dragonante.interfaces.gambit_history import KINDS as HISTORY_KINDS
from dragonante.interfaces.render import effect_notes
from dragonante.interfaces.web.shared.narration import SharedSentences, TableNarrator, t
from dragonante.interfaces.web.shared.protocol import encode
from dragonante.interfaces.web.storage.store import (
    BOT,
    FINISHED,
    HUMAN,
    OPEN,
    PLAYING,
    SeatInfo,
    StoredTable,
    hash_token,
)
from dragonante.interfaces.web.tables.chat import ChatRoom
from dragonante.interfaces.web.tables.face_down import FaceDown
from dragonante.interfaces.web.tables.history_cache import seat_history

#: The question kind another seat's hidden-ability question shows as.
PRIVATE_KIND = "private"


def abilities_brief(config: GameConfig) -> dict[str, Any] | None:
    """What everyone may know of a table's D&D abilities (None: it has none)."""
    ab = config.abilities
    if not ab.enabled:
        return None
    return {
        "system": ab.system,
        "assign": ab.assign,
        "per_character": ab.count,
        "public": ab.public,
    }


def claim_hash(code: str, token_hash: str) -> str:
    """What a rematch table ``code`` stores for a seat carried over from a
    table where the seat's token hashed to ``token_hash``: not a token's
    hash (no token holds the seat until its person claims it with the old
    token, ``Social.rematch``), and different at every table of the chain."""
    return hashlib.sha256(f"rematch:{code}:{token_hash}".encode()).hexdigest()


class Client:
    """One WebSocket connection: a seat (``seat`` >= 0) or a spectator (``None``).

    Frames go through a bounded queue drained by :meth:`pump`, so a slow
    client never delays the table: when its queue overflows it is dropped
    (it can reconnect and get a fresh state).
    """

    def __init__(
        self,
        table: LiveTable,
        seat: int | None,
        lang: str,
        send: Callable[[str], Awaitable[None]],
        max_queue: int,
        rate: float,
    ) -> None:
        self.table = table
        self.seat = seat
        self.lang = lang
        #: A game-master's connection (a spectator who sees every ability).
        self.gm = False
        #: The hash of the token this connection sat down with: what it must
        #: still match for the seat to be this connection's (``LiveTable.holds``).
        self.token_hash: str | None = None
        self._send = send
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._max_queue = max_queue
        self.log_pos = 0
        self.overflowed = False
        self.closed = asyncio.Event()
        #: Set when the server ends this connection itself (code, reason).
        self.close_code: tuple[int, str] | None = None
        #: The address its limits count (set by the socket endpoint).
        self.address = ""
        #: A spectator's number at this table (how chat names them; 0: a seat).
        self.spectator = 0
        self._rate = rate
        self._allowance = rate * 2
        self._last = asyncio.get_running_loop().time()

    def push(self, text: str) -> None:
        if self.overflowed:
            return
        if self._queue.qsize() >= self._max_queue:
            self.overflowed = True
            self._queue.put_nowait(None)
            return
        self._queue.put_nowait(text)

    def push_json(self, msg: dict[str, Any]) -> None:
        self.push(encode(msg))

    def allow(self) -> bool:
        """Token bucket: False when the client sends faster than ``rate``."""
        now = asyncio.get_running_loop().time()
        self._allowance = min(self._rate * 2, self._allowance + (now - self._last) * self._rate)
        self._last = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    def charge(self, tokens: int) -> None:
        """Take ``tokens`` more for a costly message (``snapshots.cost``).  The
        allowance may go below zero, down to minus one burst: the next messages
        wait until it refills, at most the two seconds a burst takes (so a
        person who switches language late in a long game is not kept waiting
        longer than that to answer)."""
        self._allowance = max(-self._rate * 2, self._allowance - tokens)

    async def pump(self) -> None:
        """Send queued frames until the connection closes or overflows."""
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    return
                await self._send(text)
        finally:
            self.closed.set()

    def stop(self) -> None:
        self._queue.put_nowait(None)

    def close_with(self, code: int, reason: str) -> None:
        """Send what is queued, then close the socket with ``code`` (``pump``'s caller does)."""
        self.close_code = (code, reason)
        self.stop()


class LiveTable:
    """A table in memory: its seats, its game and who is connected."""

    def __init__(self, stored: StoredTable) -> None:
        self.code = stored.code
        self.config_dict = stored.config
        self.config: GameConfig = config_from_dict(stored.config)
        self.seed = stored.seed
        self.status = stored.status
        self.seats: dict[int, SeatInfo] = dict(stored.seats)
        self.host_hash = stored.host_hash
        self.gm_hash = stored.gm_hash
        #: Invite only: left out of the lobby's lists (``Hub.live``).
        self.unlisted = stored.unlisted
        #: The host allows hints with other people at the table (``hints.py``).
        self.hints = stored.hints
        #: Names (case-folded) and addresses the host removed: they may not sit here again.
        self.banned_names: set[str] = {v for k, v in stored.bans if k == "name"}
        self.banned_addresses: set[str] = {v for k, v in stored.bans if k == "address"}
        #: The address each person's seat was taken from (memory only: a
        #: removal bans it with the name).
        self.seat_address: dict[int, str] = {}
        #: Why a finished table ended early (``"idle"``: nobody played), else None.
        self.ended = stored.ended
        self.created_at = stored.created_at
        self.started_at = stored.started_at
        self.finished_at = stored.finished_at
        self.last_gambit_at = stored.last_gambit_at
        self.answers: list[int] = []
        self.state: GameState | None = None
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.bots: dict[int, Bot] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self.timer_task: asyncio.Task[None] | None = None
        #: Seconds a person has per decision (None: no turn timer), and the
        #: running clock: its task, decision and ``time.monotonic`` deadline
        #: (``turns.TurnClock``).
        self.turn_seconds = stored.turn_seconds
        self.turn_task: asyncio.Task[None] | None = None
        self.turn_decision: int | None = None
        self.turn_deadline = 0.0
        #: Since when (UTC) the decision pending at load waited (``TurnClock.arm``).
        self.waiting_since = stored.last_answer_at or stored.started_at
        #: The face-down round of the state now (``face_down.py``; found anew
        #: for each new state, see :meth:`round`).
        self.face_down: FaceDown | None = None
        #: The table's chat (``chat.ChatRoom``); the rematch table's code, if any.
        self.chat = ChatRoom()
        self.chat.restore(stored.chat, stored.mutes)
        self.rematch = stored.rematch
        #: When this table was last asked for (``time.monotonic``): a finished
        #: table leaves memory once nobody has looked at it for a while.
        self.touched = time.monotonic()
        #: When a person last acted here (took a seat, started, answered,
        #: connected to their seat): a started table nobody plays ends after
        #: the server's ``idle_after`` (``Hub.sweep``).
        self.acted = self.touched
        #: The encoded spectator summary last sent in a ``table`` frame: a
        #: broadcast that would change nothing is not sent (``frames.broadcast_table``).
        self.last_table: str | None = None
        #: Seconds a person must be gone before their seat counts as away.
        self.away_after = 0.0
        #: Human seats without a connection, since when (``time.monotonic``).
        self.away_since: dict[int, float] = {
            p: self.touched for p, info in self.seats.items() if info.kind == HUMAN
        }
        #: Human seats a bot plays for while their person is away: seat -> bot level.
        self.handed: dict[int, str] = {}
        #: The away seats last announced (the sweep re-sends the summary on a change).
        self.away_shown: list[int] = []
        #: Take-back (``kept_bots.py``): the bots when its lone person was asked,
        #: by answers then; and take-backs so far (cached views must match it).
        self.bots_at: dict[int, dict[int, Bot]] = {}
        self.taken_back = 0
        if stored.status != OPEN:
            self.rebuild(stored.answers)

    @property
    def players(self) -> int:
        return self.config.players

    def round(self) -> FaceDown | None:
        """The face-down round open now (None: the question pending is asked
        alone).  Found once per state: its choices live until the state changes."""
        state = self.state
        if state is None or self.status != PLAYING:
            return None
        r = self.face_down
        if r is None or not r.holds(state):
            r = self.face_down = FaceDown.of(state)
        return r if r.questions else None

    def rebuild(self, answers: list[int]) -> None:
        """Replay the stored answers from config + seed (restart, finished games)."""
        self.state = replay_state(self.config, self.seed, answers, self.last_gambit_at)
        self.answers = list(answers)
        self.make_bots()

    def make_bots(self) -> None:
        """The bots of the bot seats.  A name this server no longer offers (a table
        seated under ``serve --bot NAME=SPEC``, restored by a server started
        without it) is played by the ``medium`` bot rather than lost."""
        self.bots = {}
        for seat, info in self.seats.items():
            if info.kind == BOT and info.bot:
                seed = (self.seed + 7919 * (seat + 1)) & 0x7FFFFFFF
                try:
                    self.bots[seat] = make_bot(info.bot, seed)
                except (KeyError, ValueError):
                    self.bots[seat] = make_bot("medium", seed)

    def names(self) -> list[str]:
        return [self.seats[p].name if p in self.seats else "?" for p in range(self.players)]

    def token_seat(self, token: str) -> int | None:
        """The seat ``token`` opens (a seat token, or its person's key), else None."""
        h = hash_token(token)
        for seat, info in self.seats.items():
            if info.kind == HUMAN and info.opens(h):
                return seat
        return None

    def holds(self, client: Client) -> bool:
        """Whether ``client`` still holds its seat: the seat's token is the one
        it connected with.  Every answer, chat line and hand-over checks this,
        so a connection whose person left, was removed or was replaced can
        never speak for the seat's new holder, whatever frame it sends."""
        seat = client.seat
        if seat is None or client.token_hash is None:
            return False
        info = self.seats.get(seat)
        return info is not None and info.kind == HUMAN and info.opens(client.token_hash)

    def is_gm(self, token: str) -> bool:
        """Whether ``token`` is this table's game-master token."""
        return self.gm_hash is not None and hash_token(token) == self.gm_hash

    def is_host(self, token: Any) -> bool:
        """Whether ``token`` is the host token (who may mute and remove people)."""
        return isinstance(token, str) and bool(token) and hash_token(token) == self.host_hash

    def may_manage(self, token: str | None) -> bool:
        """Only the host adds bots, removes seats and starts: a stranger who sits
        down must not be able to fill the table with bots and start the game
        before the host's friends arrive."""
        return self.is_host(token)

    def is_away(self, seat: int, now: float) -> bool:
        """A person's seat, disconnected for ``away_after`` seconds or more, not
        yet handed to a bot (``away_after`` 0: nobody is ever away)."""
        info = self.seats.get(seat)
        since = self.away_since.get(seat)
        return (
            self.away_after > 0
            and info is not None
            and info.kind == HUMAN
            and seat not in self.handed
            and since is not None
            and not any(c.seat == seat for c in self.clients)
            and now - since >= self.away_after
        )

    def away_seats(self, now: float) -> list[int]:
        return [p for p in range(self.players) if self.is_away(p, now)]

    def hints_on(self) -> bool:
        """Hints from the best bot: always with one person among bots, else
        only if the host allows them (``hints.py``)."""
        return self.hints or sum(1 for i in self.seats.values() if i.kind == HUMAN) <= 1

    def online(self) -> list[bool]:
        seen = {c.seat for c in self.clients}
        bots = {p for p, info in self.seats.items() if info.kind == BOT}
        return [p in seen or p in bots for p in range(self.players)]

    def summary(self, seat: int | None = None, gm: bool = False) -> dict[str, Any]:
        """Facts about the table as ``seat`` (None: a spectator) may know them, for
        the lobby and every connection.

        The config is ``config_for(config, seat)``: with hidden abilities the
        game-master's notes on other seats (fixed abilities, ancestry,
        qualifications) are left out.  A game-master, and everyone once the
        game is over (the record is public then), gets the whole config.
        """
        cfg = self.config
        whole = gm or self.status == FINISHED
        known = cfg if whole else config_for(cfg, seat)
        return {
            "code": self.code,
            "status": self.status,
            "players": cfg.players,
            "ruleset": cfg.rules.ruleset,
            "preset": cfg.deck.preset,
            "starting_gold": cfg.starting_gold,
            "config": self.config_dict if known is cfg else config_to_dict(known),
            "abilities": abilities_brief(cfg),
            "seats": [
                self.seats[p].public() if p in self.seats else None for p in range(cfg.players)
            ],
            "online": self.online(),
            "away": [p in self.away_shown for p in range(cfg.players)],
            "handed": [p in self.handed for p in range(cfg.players)],
            "created_at": self.created_at.isoformat(),
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "step": len(self.answers),
            "last_gambit": bool(self.state is not None and self.state.last_gambit),
            "winners": list(self.state.winners) if self.state is not None else [],
            "turn_seconds": self.turn_seconds,
            "rematch": self.rematch,
            "unlisted": self.unlisted,
            "hints": self.hints,
            "hints_on": self.hints_on(),
            "ended": self.ended,
        }


def replay_state(
    config: GameConfig,
    seed: int,
    answers: list[int],
    last_gambit_at: int | None,
    marks: list[int] | None = None,
) -> GameState:
    """The game after ``answers``, replayed from scratch (with the time-limit call
    made after the same number of answers as when it happened).

    ``marks``, if given, receives the log length after each answer (index 0:
    before the first), so a replay can tell which events the last answer caused.
    """
    state = new_game(config, seed, log=True)
    for i, answer in enumerate(answers):
        if last_gambit_at is not None and i == last_gambit_at:
            call_last_gambit(state)
        if marks is not None:
            marks.append(len(state.log or []))
        apply(state, answer)
    if last_gambit_at is not None and last_gambit_at == len(answers):
        call_last_gambit(state)
    if marks is not None:
        marks.append(len(state.log or []))
    return state


class SharedParts:
    """What the updates of one broadcast have in common, made once for all of them.

    ``frames.broadcast`` builds a view per kind of connection after every
    answer; the seats' names, the scored flight totals (public), the
    spectator's view (whose entries no seat sees differently the seats'
    views share: ``observe(..., public=)``) and the sentences of the new
    public events are the same for most of them.  Valid only while
    ``state`` does not change (one broadcast), and the views made with it
    must not be changed in place (they share lists) - they are encoded.
    """

    def __init__(self, table: LiveTable, state: GameState) -> None:
        self.names = table.names()
        self.public = observe(state, None)
        #: Its JSON-ready dict: each view's dict copies it and makes only the
        #: seat's own entries (``Observation.to_dict(public=)``).
        self.public_dict = self.public.to_dict()
        self.sentences = SharedSentences(self.names, state.config.rules.debt_model)


def seat_view(
    table: LiveTable,
    state: GameState,
    seat: int | None,
    lang: str,
    since: int,
    gm: bool = False,
    shared: SharedParts | None = None,
) -> dict[str, Any]:
    """What one seat (or a spectator) may know now, plus its events from ``since``.

    Everything comes from ``observe`` (the typed view, its totals and the
    seat's trigger hints included) and ``events_for``; the only additions are
    words: public ones (names, what someone is deciding) and the seat's own
    question as a sentence with labelled answers.  ``gm``: a game-master's
    spectator view (every character's abilities, no hidden card).
    ``shared``: the parts this broadcast's other views have already made (the
    result is the same, only cheaper).
    """
    names = table.names() if shared is None else shared.names
    public = None if shared is None else shared.public
    narrator = TableNarrator(names, lang, seat, state.config.rules.debt_model)
    obs = observe(state, None, True, public) if gm else observe(state, seat, False, public)
    face_down = table.round()  # only the live state's (a replay's state has none)
    own = None if face_down is None or gm or not face_down.holds(state) else face_down.asked(seat)
    if own is not None and obs.question is not None and obs.question.id != own.id:
        # The seat's own question of the face-down round, asked at once with
        # the engine's pending one (``face_down.py``): in its view only.
        mine = Question(own.id, own.seat, own.kind, own.source, list(own.options), list(own.ctx))
        obs = obs._replace(question=mine)
    view = obs.to_dict(None if shared is None else shared.public_dict)
    # The frame carries the totals and hints beside the view (the browser's names).
    totals, hints = view.pop("totals"), view.pop("hints")
    answers: list[dict[str, Any]] = []
    question = view["question"]
    if question is not None:
        if question["kind"] == PRIVATE_KIND:
            question["prompt"] = t(lang, "question.private")
        else:
            question["prompt"] = narrator.question(question["kind"])
        if seat is not None and question["seat"] == seat:
            asked = narrator.prompt(state, None if gm else obs)
            if asked is not None:
                question["text"], answers = asked
    log_ = state.log or []
    # the rule behind each event, with the power or rule running at ``since``
    explainer = Explainer(table_of(state.config))
    explainer.resume(log_, since, visible_to_gm if gm else partial(visible, seat=seat))
    seen = events_for_gm(log_, since) if gm else events_for(log_, seat, since)
    return {
        "step": len(table.answers),
        "view": view,
        "hints": hints,
        "answers": answers,
        # the running effects of triggered powers, as the table's sentences
        "effects": effect_notes(obs, narrator.narrator),
        # public: the flights are on the table (the terminal client shows them)
        "totals": totals,
        "events": narrator.events(seen, None if shared is None else shared.sentences, explainer),
        # the current gambit round by round, from this seat's own events (a
        # game-master's: the public ones, which hold every card played); null
        # when no new event changes it (the client keeps the one it has)
        "history": (
            seat_history(table, log_, None if gm else seat, narrator.narrator)
            if since == 0 or any(e[1] in HISTORY_KINDS for e in seen)
            else None
        ),
        "log_size": len(log_),
    }
