"""A seat on a server as a table source: the WebSocket's frames turned into snapshots.

The server is the authority and the information barrier: a seat's frames
carry only ``observe(state, seat)``, ``events_for(log, seat)`` and that
seat's own extras (``docs/protocol.md``).  :class:`RemoteSeat` keeps the
latest of them and builds the same :class:`~dragonante.interfaces.tui.snapshot.Snapshot`
a local game does, so the panels cannot tell the two apart:

* the view is the engine's typed observation rebuilt from the frame
  (``Observation.from_dict``: the frame's ``view`` with the scored
  ``totals`` and the trigger ``hints`` the frame carries beside it);
* the question's answers are the frame's ``answers`` (labels in the
  connection's language), never anything but the legal ones;
* events are told by the same :class:`~dragonante.interfaces.narrate.Narrator`
  as at a local table, from the engine-level ``kind`` and ``data`` each event
  carries, so the log reads alike (the server's own sentence is the fallback
  for an event this client's narrator does not know).

Nothing here touches the network: the application feeds frames in, which
keeps this testable with frames written by hand.
"""

from __future__ import annotations

from typing import Any

from dragonante.cards import ALL_CARDS
from dragonante.engine import decisions as D
from dragonante.engine.state import Event
from dragonante.engine.tables import STRENGTH
from dragonante.engine.views import Observation
from dragonante.i18n import t
from dragonante.interfaces.events import Cite, Why
from dragonante.interfaces.gambit_history import gambit_history
from dragonante.interfaces.narrate import Narrator, Option, Prompt
from dragonante.interfaces.render import TableView, from_observation
from dragonante.interfaces.tui.snapshot import Snapshot

#: Error frames that mean the seat's picture is behind the game: ask for a fresh state.
RESYNC = frozenset({"stale", "not_your_turn", "illegal", "game_over", "storage", "not_started"})
#: Events that end a gambit (a summary is shown after them).
GAMBIT_END = frozenset({"gambit_won", "no_winner"})
#: Questions whose answers are never cards (seats, abilities, colors, modes, yes/no).
NOT_CARDS = (
    frozenset({D.USE_ABILITY, D.DRAFT_ABILITY, D.ANCESTRY_COLOR, D.BLUE_MODE, D.TRIGGER_NEW})
    | D.SEAT_ANSWERS
)


def is_card_answer(kind: str, value: int) -> bool:
    """Whether an answer of a ``kind`` question is a card (drawn as a colored badge)."""
    return kind not in NOT_CARDS and 0 <= value < len(ALL_CARDS)


class RemoteSeat:
    """One seat's picture of a server table, rebuilt from the frames it receives."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        #: This connection's seat (from ``welcome``; None for a spectator).
        self.seat: int | None = None
        #: The latest table summary (names, seats, status).
        self.table: dict[str, Any] = {}
        #: The latest frame with a view (``state`` or ``update``), None before the start.
        self.frame: dict[str, Any] | None = None
        #: Every event this seat has seen, as engine events (visibility left to the server).
        self.events: list[Event] = []
        #: Sentences the server wrote for them (the narrator's fallback).
        self.texts: list[str | None] = []
        #: The server's citation of the rule behind each event (``why``).
        self.cites: list[Cite | None] = []
        #: The server's log length the events above cover (the latest frame's
        #: ``log_size``): a ``sync`` asks only for what came after it.
        self.log_size = 0
        #: How many of :attr:`events` each log size held, so that a ``state``
        #: from a ``since`` (an ``update`` may have come meanwhile) goes on
        #: from the right event.
        self.marks: dict[int, int] = {}

    # --- frames in ---------------------------------------------------------------

    def welcome(self, frame: dict[str, Any]) -> None:
        seat = frame.get("seat")
        self.seat = seat if isinstance(seat, int) else None

    def apply(self, frame: dict[str, Any]) -> tuple[bool, int]:
        """Take a ``state``, ``update`` or ``table`` frame in.

        Returns whether the log starts afresh (a ``state`` holds every event
        since the beginning, unless it answers a ``sync`` with ``since``: then
        it says ``since`` and holds only the events after it) and where the
        frame's new events begin in :attr:`events`.
        """
        kind = frame.get("type")
        if isinstance(frame.get("table"), dict):
            self.table = frame["table"]
        since = frame.get("since") if kind == "state" else None
        fresh = kind == "state" and not (isinstance(since, int) and since in self.marks)
        held = len(self.events)
        if fresh:
            self.events, self.texts, self.marks, self.cites = [], [], {}, []
        elif isinstance(since, int):  # the events from ``since`` replace those held after it
            cut = self.marks[since]
            del self.events[cut:], self.texts[cut:], self.cites[cut:]
            self.marks = {size: n for size, n in self.marks.items() if size <= since}
        start = len(self.events)
        if kind in ("state", "update") and isinstance(frame.get("view"), dict):
            self.frame = frame
            for e in frame.get("events") or []:
                if isinstance(e, dict) and isinstance(e.get("kind"), str):
                    data = e.get("data")
                    self.events.append((None, e["kind"], data if isinstance(data, dict) else {}))
                    text = e.get("text")
                    self.texts.append(text if isinstance(text, str) else None)
                    self.cites.append(Cite.from_dict(e.get("why")))
            size = frame.get("log_size")
            self.log_size = size if isinstance(size, int) else 0
            self.marks[self.log_size] = len(self.events)
        if not fresh:
            start = max(start, min(held, len(self.events)))  # already told: not news
        return fresh, start

    def sync_request(self) -> dict[str, Any]:
        """A ``sync`` asking only for the history this seat does not hold yet
        (``since``: the log size of the last view; the server sends the whole
        history again only to a client far behind)."""
        return {"type": "sync", "since": self.log_size} if self.log_size else {"type": "sync"}

    # --- what the screen reads ---------------------------------------------------

    @property
    def status(self) -> str:
        """``open`` (seating), ``playing`` or ``finished``."""
        status = self.table.get("status")
        return status if isinstance(status, str) else "open"

    @property
    def started(self) -> bool:
        return self.frame is not None

    @property
    def over(self) -> bool:
        return self.frame is not None and self.frame["view"].get("phase") == "over"

    @property
    def question(self) -> dict[str, Any] | None:
        if self.frame is None:
            return None
        q = self.frame["view"].get("question")
        return q if isinstance(q, dict) else None

    def names(self) -> list[str]:
        """Every seat's name by seat number (an empty seat: "seat N")."""
        players = int(self.table.get("players") or 0)
        names = [t("online.seat.free", self.lang, seat=p) for p in range(players)]
        for s in self.table.get("seats") or []:
            if isinstance(s, dict) and isinstance(s.get("seat"), int) and s["seat"] < players:
                names[s["seat"]] = str(s.get("name", ""))
        return names

    def narrator(self) -> Narrator:
        rules = (self.table.get("config") or {}).get("rules") or {}
        debt_model = rules.get("debt_model", "hole") if isinstance(rules, dict) else "hole"
        return Narrator(self.names(), self.lang, me=self.seat, debt_model=str(debt_model))

    def told(
        self, start: int, narrator: Narrator, stop: int | None = None
    ) -> tuple[list[str], list[Why | None]]:
        """:meth:`tell`'s sentences with the rule behind each (the frames' citations)."""
        stop = len(self.events) if stop is None else stop
        events = self.events[start:stop]
        try:
            pairs = narrator.told(events)
        except (KeyError, IndexError, TypeError, ValueError):
            return self.tell(start, narrator, stop), []
        at = {id(e): i for i, e in enumerate(events, start)}
        whys: list[Why | None] = []
        for _text, e in pairs:
            cite = self.cites[at[id(e)]] if id(e) in at else None
            whys.append(None if cite is None else cite.why(self.lang))
        return [text for text, _ in pairs], whys

    def tell(self, start: int, narrator: Narrator, stop: int | None = None) -> list[str]:
        """Sentences for the events ``start:stop``, by the narrator where it can."""
        stop = len(self.events) if stop is None else stop
        try:
            return narrator.events(self.events[start:stop])
        except (KeyError, IndexError, TypeError, ValueError):
            # data this client's narrator cannot read (a newer server): the server's words
            return [text for text in self.texts[start:stop] if text]

    def prompt(self) -> Prompt | None:
        """This seat's own question with the frame's legal answers, or None."""
        q = self.question
        frame = self.frame
        if frame is None or q is None or self.seat is None or q.get("seat") != self.seat:
            return None
        answers = frame.get("answers") or []
        if not answers:
            return None
        kind = str(q.get("kind", ""))
        hints = set(frame.get("hints") or [])  # the engine's hints: only on its own play
        options = []
        for a in answers:
            value = int(a["value"])
            card = value if is_card_answer(kind, value) else -1
            options.append(
                Option(
                    value,
                    str(a.get("label", value)),
                    card=card,
                    triggers=value in hints,
                    detail=str(a.get("detail") or ""),
                    why=str(a.get("why") or ""),
                )
            )
        text = str(q.get("text") or q.get("prompt") or "")
        face_down = self.face_down
        if face_down is not None:  # everyone antes at once: say so, and the card chosen
            chosen = face_down.get("chosen")
            label = next((o.label for o in options if o.answer == chosen), None)
            if label is None:
                text += "\n" + t("online.face_down.choose", self.lang)
            else:
                text += "\n" + t("online.face_down.chosen", self.lang, card=label)
        return Prompt(int(q["id"]), kind, text, options)

    @property
    def face_down(self) -> dict[str, Any] | None:
        """The face-down round open now (every seat chooses its ante at once,
        ``docs/protocol.md``), or None."""
        part = self.frame.get("face_down") if self.frame is not None else None
        return part if isinstance(part, dict) else None

    def face_down_line(self) -> str | None:
        """Who still chooses an ante card, face down (None: no round open)."""
        face_down = self.face_down
        if face_down is None:
            return None
        names = self.names()
        waiting = [
            t("online.face_down.you", self.lang) if p == self.seat else names[p]
            for p in face_down.get("waiting") or []
            if isinstance(p, int) and 0 <= p < len(names)
        ]
        return t("online.face_down.waiting", self.lang, names=", ".join(waiting))

    def snapshot(self, narrator: Narrator) -> Snapshot | None:
        """What the screen shows now (None before the game starts)."""
        view = self.view()
        if view is None:
            return None
        # the server sent this seat's events only: the history reads them as they are
        history = gambit_history(self.events, narrator.me)
        return Snapshot(view, narrator, self.prompt(), None, history=history)

    def view(self) -> TableView | None:
        """The seat's view from the latest frame (None before the game starts)."""
        frame = self.frame
        if frame is None:
            return None
        data: dict[str, Any] = dict(frame["view"])
        totals = frame.get("totals")
        if not isinstance(totals, list):  # a server that does not send them: face values
            totals = [sum(STRENGTH[c] for c in flight) for flight in data["flights"]]
        data["totals"] = totals
        data["hints"] = list(frame.get("hints") or [])
        data.setdefault("completes", {})
        return from_observation(Observation.from_dict(data))

    def gambit_summary(self, start: int, narrator: Narrator) -> tuple[int, list[str]] | None:
        """The last gambit that ended among the events from ``start``: its number and
        what happened at its end (as the local table's summary tells it)."""
        events = self.events
        ends = [i for i in range(start, len(events)) if events[i][1] in GAMBIT_END]
        if not ends or self.over:
            return None
        end = ends[-1]
        gambit = next(
            (e[2].get("gambit", 0) for e in reversed(events[:end]) if e[1] == "gambit_start"), 0
        )
        following = events[end:]
        stop = next((i for i, e in enumerate(following) if e[1] == "gambit_start"), len(following))
        lines = self.tell(end, narrator, end + stop)
        assert self.frame is not None
        lines.append(
            t("tui.hoards", self.lang, hoards=narrator.hoards(self.frame["view"]["hoards"]))
        )
        return int(gambit), lines

    def game_over_lines(self, narrator: Narrator) -> list[str]:
        """Who won (you, shared, or someone else) and every hoard."""
        assert self.frame is not None
        view = self.frame["view"]
        winners = [int(w) for w in view.get("winners") or []]
        if self.seat is None:
            first = t("tui.winners", self.lang, names=narrator.seats(winners))
        elif self.seat in winners:
            key = "play.won_shared" if len(winners) > 1 else "play.won"
            first = t(key, self.lang, names=narrator.seats(winners))
        else:
            first = t("play.lost", self.lang, names=narrator.seats(winners))
        return [first, t("tui.hoards", self.lang, hoards=narrator.hoards(view["hoards"]))]

    def lobby_lines(self) -> list[str]:
        """Before the start: the table and who sits where (you, bots, free seats, offline)."""
        lang = self.lang
        table = self.table
        code = str(table.get("code", ""))
        lines = [
            t(
                "online.lobby.table",
                lang,
                code=code,
                players=table.get("players", "?"),
                ruleset=table.get("ruleset", "?"),
            )
        ]
        seated = {s["seat"]: s for s in table.get("seats") or [] if isinstance(s, dict)}
        online = table.get("online") or []
        for p in range(int(table.get("players") or 0)):
            s = seated.get(p)
            if s is None:
                lines.append(t("online.lobby.free", lang, seat=p))
                continue
            key = "online.lobby.bot" if s.get("kind") == "bot" else "online.lobby.human"
            line = t(key, lang, seat=p, name=s.get("name", ""), level=s.get("bot") or "")
            if p == self.seat:
                line += " " + t("online.lobby.you", lang)
            elif s.get("kind") != "bot" and p < len(online) and not online[p]:
                line += " " + t("online.lobby.offline", lang)
            lines.append(line)
        return lines
