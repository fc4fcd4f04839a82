"""The tutorial's steps: what each one teaches, when it comes up, and what it says.

A step is one rule met in play.  It is one of two sorts:

* an **act** step (``ready`` is set) waits for a question of the player's it
  fits (the first ante, a round the player leads, a power's question...),
  says what is about to happen and asks the player to act ("play a card
  that will trigger"), suggesting an answer; once the player has answered
  and the bots have played up to the player's next question, it explains
  what the answer actually did, read from the events;
* a **watch** step (``seen`` is set) waits for an event (a strength flight,
  the end of a gambit, a purchase) and explains it when it happens.

Steps come in order (:data:`STEPS`).  One that belongs to a gambit
(``gambit``) and has not come up by the time the game is past it is
*missed*: it then explains its rule anyway and the tutorial goes on, so a
different answer is never a failure.  The hole is explained whenever it
first comes up (:data:`HOLE`), in whatever order.

Every word is a catalogue message, ``tutorial.<step>.<part>``: ``title``,
``intro`` (what is about to happen and why), ``ask`` (with the suggested
``{card}``; ``ask_any`` when no card does it), the outcomes, and
``missed``.  Each step names the rule it rests on (``why.<rule>``, the
events table's words) and the primer section that explains it more.
Adding a step: ``docs/tutorial.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dragonante.cards import ALL_CARDS
from dragonante.engine import decisions as q
from dragonante.engine.core import STAKES
from dragonante.engine.decisions import Decision
from dragonante.engine.state import Event
from dragonante.engine.views import Observation
from dragonante.i18n import has, t
from dragonante.interfaces.narrate import Narrator, card_label, gold
from dragonante.interfaces.trigger_hint import trigger_reason
from dragonante.tutorial.deal import PLAYER


@dataclass(frozen=True, slots=True)
class Moment:
    """What a step reads: the events the player was told (since the step began),
    the player's view now, the question now (None when the game is over) and
    the player's view when the step asked (None for a watch step)."""

    events: Sequence[Event]
    obs: Observation
    question: Decision | None
    asked: Observation | None = None


class Words:
    """The tutorial's sentences in one language, seats and cards named as the log names them."""

    def __init__(self, narrator: Narrator) -> None:
        self.narrator = narrator
        self.lang = narrator.lang

    def say(self, key: str, seat: int | None = None, **params: Any) -> str:
        """``key`` (``key.you`` when ``seat`` is the player's and the catalogue has it)."""
        if seat is not None:
            params.setdefault("name", self.narrator.label(seat))
            if seat == PLAYER and has(f"{key}.you", self.lang):
                key = f"{key}.you"
        return t(key, self.lang, **params)

    def card(self, card: int) -> str:
        return card_label(card, self.lang)

    def gold(self, amount: int) -> str:
        return gold(amount, self.lang)

    def rule(self, rule: str) -> str:
        return t("tutorial.rule", self.lang, rule=t(f"why.{rule}", self.lang))


Outcome = Callable[[Moment, Words], list[str]]


@dataclass(frozen=True, slots=True)
class Step:
    """One rule met in play (see the module's docstring)."""

    id: str
    #: The events table's rule it rests on (``why.<rule>``).
    rule: str
    #: The primer section that explains it more (``primer.<section>``).
    primer: str
    #: The gambit it belongs to: missed once the game is past it (None: never).
    gambit: int | None
    outcome: Outcome
    #: Act step: whether the player's question now is the one it asks on.
    ready: Callable[[Moment], bool] | None = None
    #: Act step: what it would have the player answer (None: nothing fits).
    suggest: Callable[[Moment, int | None], int | None] | None = None
    #: Watch step: the event kinds it waits for.
    seen: frozenset[str] = frozenset()

    @property
    def acts(self) -> bool:
        return self.ready is not None

    def key(self, part: str) -> str:
        return f"tutorial.{self.id}.{part}"


# --- reading the events -------------------------------------------------------------


def first(events: Sequence[Event], kind: str, **match: Any) -> dict[str, Any] | None:
    """The data of the first event of ``kind`` whose fields equal ``match``."""
    for e in events:
        if e[1] == kind and all(e[2].get(k) == v for k, v in match.items()):
            data: dict[str, Any] = e[2]
            return data
    return None


def _leading(obs: Observation) -> bool:
    """Whether the player plays the round's first card now."""
    return max(obs.round_card, default=-1) < 0


def _asked(kinds: frozenset[str]) -> Callable[[Decision | None], bool]:
    return lambda d: d is not None and d.seat == PLAYER and d.kind in kinds


_ANTE = _asked(frozenset({q.ANTE}))
_PLAY = _asked(frozenset({q.PLAY}))


def _gambit(m: Moment, g: int) -> bool:
    return m.obs.gambit == g


# --- the suggestions ----------------------------------------------------------------


def _scripted(m: Moment, scripted: int | None) -> int | None:
    d = m.question
    return scripted if d is not None and scripted in d.options else None


def _triggering(want: bool) -> Callable[[Moment, int | None], int | None]:
    """The scripted card if it triggers as wanted, else the first card that does."""

    def pick(m: Moment, scripted: int | None) -> int | None:
        d = m.question
        if d is None:
            return None
        hints = set(m.obs.hints)
        fits = [c for c in d.options if (c in hints) == want]
        if scripted in fits:
            return scripted
        return fits[0] if fits else None

    return pick


# --- the outcomes -------------------------------------------------------------------


def _ante_paid(m: Moment, w: Words) -> list[str]:
    out: list[str] = []
    if first(m.events, "ante_redo") is not None:
        out.append(w.say("tutorial.ante.redo"))
    reveal = [e for e in m.events if e[1] == "ante_reveal"]
    paid = first(m.events, "ante_paid")
    if not reveal or paid is None:
        return out
    cards = [c for c in reveal[-1][2]["cards"] if c >= 0]
    strengths = [ALL_CARDS[c].strength for c in cards]
    top = max(strengths)
    out.append(w.say("tutorial.ante.paid", amount=w.gold(paid["amount"])))
    if strengths.count(top) > 1:
        out.append(w.say("tutorial.ante.tied", paid["leader"], strength=top))
    else:
        out.append(w.say("tutorial.ante.untied", paid["leader"]))
    return out


def _played(m: Moment) -> dict[str, Any] | None:
    return first(m.events, "play", seat=PLAYER)


def _lead(m: Moment, w: Words) -> list[str]:
    play = _played(m)
    if play is None:
        return []
    return [w.say("tutorial.lead.done", card=w.card(play["card"]))]


def _power_gold(events: Sequence[Event]) -> tuple[int, int]:
    """What the power just resolved moved: (the player's gold, the stakes), up to
    the next card played."""
    me = stakes = 0
    for _, kind, d in events:
        if kind == "play":
            break
        if kind == "pay":
            stakes += d["paid"] if d["to"] == STAKES else 0
            me += d["paid"] if d["to"] == PLAYER else 0
            me -= d["paid"] if d["payer"] == PLAYER else 0
        elif kind == "steal":
            stakes -= d["taken"]
            me += d["taken"] if d["seat"] == PLAYER else 0
    return me, stakes


def _signed(amount: int, w: Words) -> str:
    return ("+" if amount >= 0 else "−") + w.gold(abs(amount))


def _question(m: Moment, w: Words) -> list[str]:
    me, stakes = _power_gold(m.events)
    return [w.say("tutorial.question.done", change=_signed(me, w), stakes=_signed(stakes, w))]


def _trigger(want: bool) -> Outcome:
    def outcome(m: Moment, w: Words) -> list[str]:
        play = _played(m)
        if play is None or m.asked is None:
            return []
        card = play["card"]
        reason = trigger_reason(m.asked, card, w.narrator.obj, w.lang)
        done = "triggered" if play["triggered"] else "not_triggered"
        part = done if play["triggered"] == want else f"{done}.other"
        return [w.say(f"tutorial.trigger.{part}", card=w.card(card), reason=reason)]

    return outcome


def _strength_flight(m: Moment, w: Words) -> list[str]:
    d = first(m.events, "strength_flight")
    if d is None:
        return []
    return [w.say("tutorial.strength_flight.done", d["seat"], strength=d["strength"])]


def _color_flight(m: Moment, w: Words) -> list[str]:
    d = first(m.events, "color_flight")
    if d is None:
        return []
    color = t(f"color.{d['color']}", w.lang)
    return [w.say("tutorial.color_flight.done", d["seat"], color=color, amount=w.gold(d["amount"]))]


def _gambit_end(m: Moment, w: Words) -> list[str]:
    out: list[str] = []
    scoring = [e[2] for e in m.events if e[1] == "scoring"]
    if scoring:
        totals = scoring[-1]["totals"]
        listed = "; ".join(f"{w.narrator.label(p)} {v}" for p, v in enumerate(totals))
        out.append(w.say("tutorial.gambit_end.totals", totals=listed))
    if first(m.events, "tie") is not None:
        out.append(w.say("tutorial.gambit_end.tie"))
    won = first(m.events, "gambit_won")
    if won is not None:
        out.append(w.say("tutorial.gambit_end.won", won["winner"], amount=w.gold(won["amount"])))
    elif first(m.events, "no_winner") is not None:
        out.append(w.say("tutorial.gambit_end.no_winner"))
    out.append(w.say("tutorial.gambit_end.draw"))
    return out


def _buy(m: Moment, w: Words) -> list[str]:
    d = first(m.events, "buy")
    if d is None:
        return []
    return [w.say("tutorial.buy.done", d["seat"], card=w.card(d["card"]), price=w.gold(d["price"]))]


def _hole(m: Moment, w: Words) -> list[str]:
    d = next((e[2] for e in m.events if e[1] == "pay" and e[2]["short"] > 0), None)
    if d is None:
        return []
    return [
        w.say(
            "tutorial.hole.done",
            d["payer"],
            amount=w.gold(d["amount"]),
            paid=w.gold(d["paid"]),
            short=w.gold(d["short"]),
        )
    ]


def _game_end(m: Moment, w: Words) -> list[str]:
    over = first(m.events, "game_over")
    if over is None:
        return []
    out = [w.say("tutorial.game_end.empty")]
    won = first(m.events, "hole_won")
    if won is not None and won["amount"] > 0:
        names = w.narrator.seats(won["seats"])
        out.append(w.say("tutorial.game_end.hole", names=names, amount=w.gold(won["amount"])))
    winners = list(over["winners"])
    key = "tutorial.game_end.won" if PLAYER in winners else "tutorial.game_end.lost"
    out.append(w.say(key, names=w.narrator.seats(winners)))
    return out


# --- the steps, in order ------------------------------------------------------------

STEPS: tuple[Step, ...] = (
    Step(
        "ante",
        "ante_paid",
        "ante",
        1,
        _ante_paid,
        ready=lambda m: _ANTE(m.question) and _gambit(m, 1),
        suggest=_scripted,
    ),
    Step(
        "lead",
        "round_start",
        "rounds",
        1,
        _lead,
        ready=lambda m: _PLAY(m.question) and _leading(m.obs),
        suggest=_scripted,
    ),
    Step(
        "question",
        "power",
        "powers",
        1,
        _question,
        ready=lambda m: (
            m.question is not None
            and m.question.seat == PLAYER
            and m.question.kind not in (q.ANTE, q.PLAY)
            and m.question.source >= 0
        ),
        suggest=_scripted,
    ),
    Step(
        "trigger",
        "play",
        "trigger",
        1,
        _trigger(True),
        ready=lambda m: _PLAY(m.question) and not _leading(m.obs),
        suggest=_triggering(True),
    ),
    Step(
        "strength_flight",
        "strength_flight",
        "flights",
        1,
        _strength_flight,
        seen=frozenset({"strength_flight"}),
    ),
    Step(
        "no_trigger",
        "play",
        "trigger",
        1,
        _trigger(False),
        ready=lambda m: _PLAY(m.question) and not _leading(m.obs),
        suggest=_triggering(False),
    ),
    Step(
        "color_flight",
        "color_flight",
        "flights",
        1,
        _color_flight,
        seen=frozenset({"color_flight"}),
    ),
    Step(
        "gambit_end",
        "gambit_won",
        "winning",
        1,
        _gambit_end,
        seen=frozenset({"gambit_won", "no_winner"}),
    ),
    Step(
        "next_gambit",
        "gambit",
        "gambit",
        None,
        _ante_paid,
        ready=lambda m: _ANTE(m.question) and m.obs.gambit >= 2,
        suggest=_scripted,
    ),
    Step("buy", "buy", "buying", None, _buy, seen=frozenset({"buy"})),
    Step("game_end", "game_over", "end", None, _game_end, seen=frozenset({"game_over"})),
)

#: Explained when it first comes up, wherever that is in the game.
HOLE = Step("hole", "pay", "end", None, _hole, seen=frozenset({"pay"}))

BY_ID = {s.id: s for s in (*STEPS, HOLE)}


def hole_seen(events: Sequence[Event]) -> bool:
    """Whether someone could not pay in full (gold owed to the hole)."""
    return any(e[1] == "pay" and e[2]["short"] > 0 for e in events)


__all__ = ["BY_ID", "HOLE", "STEPS", "Moment", "Step", "Words", "first", "hole_seen"]
