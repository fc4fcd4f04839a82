"""The current gambit at a glance: each round, who played what, what triggered, who led next.

The scrolling log tells everything in sentences; this is the same gambit
folded into a short table beside it, the way players at a real table look
at the flights to remember how the round went: the ante, then for every
round its leader, each card played in turn order (marked when its power
triggered, with the card that replaced it after a Copper Dragon, a
Wyrmling, a Sorcerer...), the special flights and what they paid, the cards
taken at random, and who leads the next round; at the end, who won what.

It is built from the seat's own events only (:func:`~dragonante.engine.views.events_for`
is applied here, whatever log the caller has), so it can never show a
card the seat may not see: a card taken at random is named to the taker
and the victim, and only counted for everyone else.  Both front ends draw
:func:`history_lines` / :func:`history_dict` of the same
:class:`GambitHistory`: the terminal's panel (``tui/history.py``) and the
browser's (``static/js/history.js``, from the ``history`` of a seat's view).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dragonante.engine.state import Event
from dragonante.engine.views import events_for
from dragonante.i18n import t
from dragonante.interfaces.narrate import Narrator, card_label, gold

#: A card not known to the viewer (a random take seen from outside).
UNKNOWN = -1

#: The event kinds the history reads: events of any other kind leave it as it
#: was (the web server sends a new history only after one of these).
KINDS = frozenset(
    {
        "gambit_start",
        "ante_reveal",
        "ante_redo",
        "ante_paid",
        "round_start",
        "round_end",
        "play",
        "turn_skipped",
        "replace",
        "power",
        "color_flight",
        "strength_flight",
        "steal",
        "take_ante",
        "take_random",
        "take_random_card",
        "tie",
        "stakes_empty",
        "gambit_won",
        "no_winner",
    }
)


@dataclass(slots=True)
class Play:
    """One turn of a round: the card played and whether its power triggered."""

    seat: int
    #: The card played; -1 when the player had no card to play.
    card: int
    triggered: bool
    #: The cards that took its place this turn, in order, each with whether it triggered.
    replaced: list[list[Any]] = field(default_factory=list)


@dataclass(slots=True)
class Reward:
    """A special flight completed, and what it paid."""

    seat: int
    #: ``color`` or ``strength``.
    kind: str
    #: The color of a color flight ("" for a strength flight).
    color: str = ""
    #: The strength of a strength flight (0 for a color flight).
    strength: int = 0
    #: Color flight: what each opponent pays; strength flight: the gold stolen.
    gold: int = 0
    #: Strength flight: how many ante cards its player took.
    ante_cards: int = 0


@dataclass(slots=True)
class Take:
    """A card taken at random from a hand; ``card`` is -1 for a seat that did not see it."""

    taker: int
    victim: int
    card: int = UNKNOWN


@dataclass(slots=True)
class Round:
    number: int
    leader: int
    plays: list[Play] = field(default_factory=list)
    rewards: list[Reward] = field(default_factory=list)
    takes: list[Take] = field(default_factory=list)
    #: Who leads the next round, once this one has ended.
    next_leader: int | None = None
    #: Seats tied for the strongest flight after this round (another round follows).
    tied: list[int] = field(default_factory=list)


@dataclass(slots=True)
class GambitHistory:
    """The gambit in progress (or the last one, once it is over), as one seat saw it."""

    gambit: int
    #: The ante cards by seat (-1: none), once revealed.
    ante: list[int] = field(default_factory=list)
    #: What each player paid into the stakes for the ante.
    ante_gold: int = 0
    #: The ante was tied and done again (the cards shown are the last ones).
    ante_redone: int = 0
    rounds: list[Round] = field(default_factory=list)
    winner: int | None = None
    won: int = 0
    #: The gambit ended with nobody winning it (a tie that could not be broken).
    no_winner: bool = False
    stakes_emptied: bool = False

    @property
    def over(self) -> bool:
        return self.winner is not None or self.no_winner


def gambit_history(log: Sequence[Event], seat: int | None) -> GambitHistory | None:
    """The last gambit of ``log`` as ``seat`` may see it (None before the first gambit).

    ``log`` may be the whole engine log: only ``events_for(log, seat)`` is
    read.  A client that holds only its seat's events already (the online
    terminal table) passes them with their visibility dropped (None), which
    this reads the same.
    """
    start = _last_gambit_start(log)
    if start is None:
        return None
    events = events_for(log if isinstance(log, list) else list(log), seat, start)
    history = GambitHistory(gambit=int(events[0][2].get("gambit", 0)))
    _Reader(history).read(events[1:])
    return history


def _last_gambit_start(log: Sequence[Event], stop: int = 0) -> int | None:
    """The index of the last gambit's start in ``log`` (at ``stop`` or after)."""
    for i in range(len(log) - 1, stop - 1, -1):
        event = log[i]
        if event[1] == "gambit_start" and event[0] is None:
            return i
    return None


class _Reader:
    """Folds a gambit's events, in order, into its :class:`GambitHistory`."""

    def __init__(self, history: GambitHistory) -> None:
        self.h = history
        #: The strength flight whose steal and ante cards are still to come.
        self.strength: Reward | None = None

    @property
    def round(self) -> Round | None:
        return self.h.rounds[-1] if self.h.rounds else None

    def read(self, events: Sequence[Event]) -> None:
        for _vis, kind, data in events:
            if not isinstance(data, dict):
                continue
            handler = getattr(self, f"_{kind}", None)
            if handler is not None:
                handler(data)

    # One method per event kind the history shows; every other kind is ignored.

    def _ante_reveal(self, d: dict[str, Any]) -> None:
        self.h.ante = [int(c) for c in d.get("cards", [])]

    def _ante_redo(self, d: dict[str, Any]) -> None:
        self.h.ante_redone += 1

    def _ante_paid(self, d: dict[str, Any]) -> None:
        self.h.ante_gold = int(d.get("amount", 0))

    def _round_start(self, d: dict[str, Any]) -> None:
        self.strength = None
        self.h.rounds.append(Round(int(d["round"]), int(d["leader"])))

    def _round_end(self, d: dict[str, Any]) -> None:
        self.strength = None
        if self.round is not None:
            self.round.next_leader = int(d["leader"])

    def _play(self, d: dict[str, Any]) -> None:
        self.strength = None
        if self.round is not None:
            self.round.plays.append(Play(int(d["seat"]), int(d["card"]), bool(d["triggered"])))

    def _turn_skipped(self, d: dict[str, Any]) -> None:
        if self.round is not None:
            self.round.plays.append(Play(int(d["seat"]), -1, False))

    def _replace(self, d: dict[str, Any]) -> None:
        play = self._play_of(int(d["seat"]))
        if play is None:
            return
        old = int(d["old"])
        # The card played, or one already replacing it, gives way (a Trickster
        # replacing another card of the flight is not the card played).
        current = play.replaced[-1][0] if play.replaced else play.card
        if old == current:
            play.replaced.append([int(d["new"]), False])

    def _power(self, d: dict[str, Any]) -> None:
        play = self._play_of(int(d["seat"]))
        if play is not None and play.replaced and play.replaced[-1][0] == d.get("card"):
            play.replaced[-1][1] = True

    def _color_flight(self, d: dict[str, Any]) -> None:
        if self.round is not None:
            self.round.rewards.append(
                Reward(int(d["seat"]), "color", color=str(d["color"]), gold=int(d["amount"]))
            )

    def _strength_flight(self, d: dict[str, Any]) -> None:
        if self.round is not None:
            self.strength = Reward(int(d["seat"]), "strength", strength=int(d["strength"]))
            self.round.rewards.append(self.strength)

    def _steal(self, d: dict[str, Any]) -> None:
        reward = self.strength
        if reward is not None and reward.seat == d.get("seat") and reward.gold == 0:
            reward.gold = int(d.get("taken", 0))

    def _take_ante(self, d: dict[str, Any]) -> None:
        reward = self.strength
        if reward is not None and reward.seat == d.get("seat"):
            reward.ante_cards += 1

    def _take_random(self, d: dict[str, Any]) -> None:
        if self.round is not None:
            self.round.takes.append(Take(int(d["taker"]), int(d["victim"])))

    def _take_random_card(self, d: dict[str, Any]) -> None:
        # Only the taker and the victim are shown this event (events_for).
        if self.round is not None and self.round.takes:
            take = self.round.takes[-1]
            if take.taker == d.get("taker") and take.victim == d.get("victim"):
                take.card = int(d["card"])

    def _tie(self, d: dict[str, Any]) -> None:
        if self.round is not None:
            self.round.tied = [int(p) for p in d.get("seats", [])]

    def _stakes_empty(self, d: dict[str, Any]) -> None:
        self.h.stakes_emptied = True

    def _gambit_won(self, d: dict[str, Any]) -> None:
        if self.h.winner is None:  # the Priest's split logs the winner once more
            self.h.winner = int(d["winner"])
            self.h.won = int(d["amount"])

    def _no_winner(self, d: dict[str, Any]) -> None:
        self.h.no_winner = True

    def _play_of(self, seat: int) -> Play | None:
        """The play of ``seat`` in this round's turn now resolving (its last play)."""
        r = self.round
        if r is None or not r.plays or r.plays[-1].seat != seat:
            return None
        return r.plays[-1]


class HistoryKeeper:
    """One reader's :func:`gambit_history` of a growing log, kept between updates.

    The web server sends a seat its history after nearly every answer;
    re-reading the whole gambit and wording every round again for every
    seat each time was most of an update's cost.  This folds only the events
    added since the last call (the history is a fold of the reader's events,
    in order) and words again only the last round: a round other than the
    last never changes (every event changes the last round or the gambit).
    The result is what :func:`gambit_history` and :func:`history_dict` give.

    It starts over when the log is another one or no longer extends what it
    read (a take-back or a replay gives a new log), and at a new gambit.
    """

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self._log: list[Event] | None = None
        #: How many events of the log are folded, and the last of them.
        self._read = 0
        self._last: Event | None = None
        self._history: GambitHistory | None = None
        self._reader: _Reader | None = None
        #: The rounds over, worded, by the narrator's words (language, names...).
        self._over: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
        #: The ante's line by the narrator's words and what the ante was.
        self._ante: dict[tuple[Any, ...], str | None] = {}

    def history(self, log: list[Event]) -> GambitHistory | None:
        """``gambit_history(log, seat)``, from what was read before when it still holds."""
        read = self._read
        if log is not self._log or len(log) < read or (read and log[read - 1] is not self._last):
            self._log, read, self._history, self._reader = log, 0, None, None
            self._over.clear()
            self._ante.clear()
        if len(log) == read:
            return self._history
        start = _last_gambit_start(log, read)
        if start is not None:
            events = events_for(log, self.seat, start)
            self._history = GambitHistory(gambit=int(events[0][2].get("gambit", 0)))
            self._reader = _Reader(self._history)
            self._over.clear()
            self._ante.clear()
            self._reader.read(events[1:])
        elif self._reader is not None:
            self._reader.read(events_for(log, self.seat, read))
        self._read, self._last = len(log), log[-1]
        return self._history

    def worded(self, log: list[Event], narrator: Narrator) -> dict[str, Any]:
        """``history_dict(gambit_history(log, seat), narrator)``, the rounds over worded once."""
        history = self.history(log)
        if history is None:
            return history_dict(None, narrator)
        words = (
            narrator.lang,
            narrator.me,
            tuple(narrator.names),
            narrator.debt_model,
            narrator.you,
        )
        over = self._over.setdefault(words, [])
        while len(over) < len(history.rounds) - 1:
            over.append(_round_dict(history.rounds[len(over)], narrator))
        ante_of = (words, tuple(history.ante), history.ante_redone, history.ante_gold)
        ante = self._ante.get(ante_of)
        if ante is None:
            ante = self._ante[ante_of] = _ante_line(history, narrator)
        return history_dict(history, narrator, over, ante)


# --- words ----------------------------------------------------------------------


def history_dict(
    history: GambitHistory | None,
    narrator: Narrator,
    over: Sequence[dict[str, Any]] = (),
    ante: str | None = None,
) -> dict[str, Any]:
    """The history worded for ``narrator``'s seat: what both front ends draw.

    ``{"gambit", "title", "ante", "rounds": [{"round", "title", "lines"}], "result"}``;
    ``ante`` and ``result`` are None until there is something to say.
    ``over``: the first rounds already worded for this narrator (a round
    other than the last never changes; :class:`HistoryKeeper`); ``ante``: the
    ante's line already worded for it.
    """
    lang = narrator.lang
    if history is None:
        return {
            "gambit": 0,
            "title": t("history.none", lang),
            "ante": None,
            "rounds": [],
            "result": None,
        }
    return {
        "gambit": history.gambit,
        "title": t("history.title", lang, gambit=history.gambit),
        "ante": ante if ante is not None else _ante_line(history, narrator),
        "rounds": [
            over[i] if i < len(over) else _round_dict(r, narrator)
            for i, r in enumerate(history.rounds)
        ],
        "result": _result_line(history, narrator),
    }


def _round_dict(r: Round, narrator: Narrator) -> dict[str, Any]:
    title = t("history.round", narrator.lang, round=r.number, leader=narrator.obj(r.leader))
    return {"round": r.number, "title": title, "lines": _round_lines(r, narrator)}


def history_lines(history: GambitHistory | None, narrator: Narrator) -> list[str]:
    """The history as lines for a terminal panel (round lines indented under their round)."""
    worded = history_dict(history, narrator)
    out = [worded["title"]]
    if worded["ante"]:
        out.append(worded["ante"])
    for r in worded["rounds"]:
        out.append(r["title"])
        out.extend("  " + line for line in r["lines"])
    if worded["result"]:
        out.append(worded["result"])
    return out


def _ante_line(h: GambitHistory, n: Narrator) -> str | None:
    if not h.ante:
        return None
    lang = n.lang
    cards = "; ".join(
        t("event.ante_reveal.card", lang, name=n.label(p), card=card_label(c, lang))
        for p, c in enumerate(h.ante)
        if c >= 0
    )
    key = "history.ante.redone" if h.ante_redone else "history.ante"
    return t(key, lang, cards=cards, gold=gold(h.ante_gold, lang))


def _round_lines(r: Round, n: Narrator) -> list[str]:
    lang = n.lang
    lines: list[str] = []
    for play in r.plays:
        if play.card < 0:
            lines.append(t("history.play.none", lang, seat=n.label(play.seat)))
            continue
        text = _card(play.card, play.triggered, lang)
        for card, triggered in play.replaced:
            text = t("history.replaced", lang, card=text, new=_card(card, triggered, lang))
        lines.append(t("history.play", lang, seat=n.label(play.seat), card=text))
    for take in r.takes:
        if take.card >= 0:
            key, card = "history.take.card", card_label(take.card, lang)
        else:
            key, card = "history.take", ""
        taker, victim_hand = n.label(take.taker), n.from_hand_of(take.victim)
        lines.append(t(key, lang, taker=taker, victim_hand=victim_hand, card=card))
    for reward in r.rewards:
        if reward.kind == "color":
            lines.append(
                t(
                    "history.color_flight",
                    lang,
                    seat=n.label(reward.seat),
                    color=t(f"color.{reward.color}", lang),
                    gold=gold(reward.gold, lang),
                )
            )
        else:
            lines.append(
                t(
                    "history.strength_flight",
                    lang,
                    seat=n.label(reward.seat),
                    strength=reward.strength,
                    gold=gold(reward.gold, lang),
                    cards=reward.ante_cards,
                )
            )
    if r.tied:
        lines.append(t("history.tie", lang, seats=n.seats(r.tied)))
    if r.next_leader is not None:
        lines.append(t("history.next", lang, seat=n.label(r.next_leader)))
    return lines


def _card(card: int, triggered: bool, lang: str) -> str:
    label = card_label(card, lang)
    return t("history.triggered", lang, card=label) if triggered else label


def _result_line(h: GambitHistory, n: Narrator) -> str | None:
    lang = n.lang
    if h.winner is not None:
        return t("history.won", lang, seat=n.obj(h.winner), gold=gold(h.won, lang))
    if h.no_winner:
        return t("history.no_winner", lang)
    if h.stakes_emptied:
        return t("history.stakes_empty", lang)
    return None
