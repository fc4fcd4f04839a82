"""Engine events and pending questions as sentences, in English or Italian.

The engine logs terse events ``(visibility, kind, data)`` and asks
questions as a :class:`~dragonante.engine.decisions.Decision` whose answers
are bare integers.  People need sentences ("Bot 2 plays Red Dragon (12);
its power triggers.") and labelled, numbered choices; this module is the
one place that turns the former into the latter, for the terminal now and
any later interface, with every word coming from :mod:`dragonante.i18n`.

Information safety is by construction: the narrator only formats the
events it is handed (callers pass ``events_for(log, seat)``) and builds
prompts from ``observe(state, seat)`` plus the seat's own pending question,
so it cannot name a card the seat may not see.  The player narrated for is
"you" (``.you`` variants of each message, because verbs conjugate); the
others are called by the names given.

An event kind this module does not know (the engine grows) or data of an
unexpected shape is narrated by a generic sentence listing its fields,
never by an exception: the game must go on even if the narration lags.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dragonante.cards import ALL_CARDS
from dragonante.engine import decisions as D
from dragonante.engine.abilities import table as AT
from dragonante.engine.abilities.catalog import ANCESTRY_COLORS, KEY
from dragonante.engine.state import Event, GameState
from dragonante.engine.tables import COLORS
from dragonante.engine.views import Observation, Question, observe
from dragonante.i18n import DEFAULT_LANG, LANGS, has, t
from dragonante.interfaces.events import BY_KIND, SUBJECTS
from dragonante.interfaces.trigger_hint import trigger_reason

#: What a card that completes no special flight completes: (colors, strengths).
_NO_FLIGHT: tuple[list[int], list[int]] = ([], [])

#: For each event kind, the field naming the grammatical subject: when that
#: seat is the one narrated for, the ``.you`` variant of the message is used
#: (the table of events says it: :data:`dragonante.interfaces.events.SUBJECTS`).
SUBJECT: dict[str, str] = dict(SUBJECTS)
#: Every event kind narrated by a message of its own (the rest use the fallback):
#: every kind of the table of events.
KNOWN_EVENTS: frozenset[str] = frozenset(BY_KIND)

_SEAT_FIELDS = frozenset(
    (
        "seat",
        "leader",
        "winner",
        "partner",
        "payer",
        "taker",
        "victim",
        "other",
        "owner",
        "to",
        "by",
    )
)
_CARD_FIELDS = frozenset(("card", "old", "new", "gave", "took", "this"))
_GOLD_FIELDS = frozenset(
    (
        "amount",
        "paid",
        "short",
        "price",
        "owed",
        "taken",
        "gold",
        "stakes",
        "share",
        "target",
        "gift",
        "payment",
    )
)
_COUNT_FIELDS = frozenset(("drawn", "asked", "count", "size", "deck"))


#: Words already made, by (function, value, language): the catalogs and the
#: cards never change while the program runs, and the server says the same
#: few hundred card names and amounts over and over.  Only plain ``int``
#: values are kept (a bool or a float reads differently), and at most
#: ``_SAID_MAX`` of them.
_said: dict[tuple[str, int, str], str] = {}
_SAID_MAX = 4096


#: ``Narrator.question`` by (kind, language): it depends on nothing else.
_questions: dict[tuple[str, str], str] = {}


def _keep(key: tuple[str, int, str], text: str) -> str:
    if len(_said) >= _SAID_MAX:
        _said.clear()
    _said[key] = text
    return text


def gold(amount: int, lang: str) -> str:
    """An amount of gold as players say it ("3 gold", Italian "3 mo")."""
    if type(amount) is int:
        said = _said.get(("gold", amount, lang))
        if said is None:
            said = _keep(("gold", amount, lang), t("unit.gold", lang, n=amount))
        return said
    return t("unit.gold", lang, n=amount)


def card_count(count: int, lang: str) -> str:
    """A number of cards with the right plural ("1 card", "3 cards")."""
    return t("unit.card.one" if count == 1 else "unit.card.other", lang, n=count)


def card_label(card: int, lang: str) -> str:
    """A physical card as players say it: name and strength ("Red Dragon (12)")."""
    if type(card) is int:
        said = _said.get(("card", card, lang))
        if said is None:
            said = _keep(("card", card, lang), _card_label(card, lang))
        return said
    return _card_label(card, lang)


def _card_label(card: Any, lang: str) -> str:
    if not isinstance(card, int) or not 0 <= card < len(ALL_CARDS):
        return t("word.no_card", lang)
    c = ALL_CARDS[card]
    return t("card.label", lang, name=c.name(lang), strength=c.strength)


def cards_label(cards: Iterable[int], lang: str) -> str:
    """Several cards, comma separated ("none" for none)."""
    labels = [card_label(c, lang) for c in cards]
    return ", ".join(labels) if labels else t("word.none", lang)


def _ability_key(ability: Any) -> str | None:
    if isinstance(ability, int) and not isinstance(ability, bool) and 0 <= ability < len(KEY):
        return KEY[ability]
    if isinstance(ability, str) and ability in KEY:
        return ability
    return None


def ability_name(ability: int | str, lang: str) -> str:
    """A D&D ability's name ("Fast Hands", Italian "Mani Svelte"), by number or key."""
    key = _ability_key(ability)
    if key is None:
        return t("word.none", lang)
    return t(f"ability.{key}.name", lang)


def ability_text(ability: int | str, lang: str) -> str:
    """What an ability does: its category or kind, trigger and effect (the book's text)."""
    key = _ability_key(ability)
    if key is None:
        return ""
    return t(f"ability.{key}.text", lang)


def abilities_label(abilities: Iterable[int], lang: str) -> str:
    """Several abilities, comma separated ("none" for none)."""
    names = [ability_name(a, lang) for a in abilities]
    return ", ".join(names) if names else t("word.none", lang)


def ancestry_label(color: int | str, lang: str) -> str:
    """A dragonborn's ancestry color, by name or by index into ``ANCESTRY_COLORS``."""
    if isinstance(color, int) and 0 <= color < len(ANCESTRY_COLORS):
        color = ANCESTRY_COLORS[color]
    return t(f"color.{color}", lang)


#: The moment an ability offer (``use_ability``) was made, by its ``ctx[0]``.
_TRIGGER_NAMES: dict[int, str] = {
    AT.STEAL: "steal",
    AT.ANTE_DONE: "ante_done",
    AT.PLAYED: "played",
    AT.DENY: "deny",
    AT.BOUGHT: "bought",
    AT.WON: "won",
    AT.STEP4: "step4",
    AT.WINDOW: "window",
    AT.TAKEN: "taken",
    AT.REVEALED: "revealed",
    AT.BEFORE_STEP4: "before_step4",
}


@dataclass(slots=True)
class Option:
    """One numbered choice of a prompt: the engine answer and how it reads."""

    answer: int
    label: str
    #: The card this choice is about (for "?N" card help), -1 if none.
    card: int = -1
    #: Play prompts: the card's power would trigger if played now.
    triggers: bool = False
    #: More about this choice, shown beside it or on request (an ability's text).
    detail: str = ""
    #: Play prompts: why the card would trigger or not ("triggers: 5 is not
    #: stronger than the 7 Bot 2 played"), :mod:`.trigger_hint`.
    why: str = ""


@dataclass(slots=True)
class Prompt:
    """A question put to the narrated seat, ready to print and to answer by number."""

    decision_id: int
    kind: str
    text: str
    options: list[Option] = field(default_factory=list)


class Narrator:
    """Narrates one game for one seat (``me``; None for a spectator or omniscient view).

    ``names`` are the players' names by seat; ``debt_model`` (public: part
    of the table's rules) says whether unpaid gold is owed to the hole or is
    a debt, so a short payment is explained correctly.
    """

    def __init__(
        self,
        names: Sequence[str],
        lang: str = DEFAULT_LANG,
        me: int | None = None,
        debt_model: str = "hole",
        you: bool = True,
    ) -> None:
        self.names = list(names)
        self.lang = lang if lang in LANGS else DEFAULT_LANG
        self.me = me
        self.debt_model = debt_model
        #: Whether ``me`` is labelled "You" in tables and lists; with several
        #: people taking turns at one screen (hot-seat) everyone keeps a name.
        self.you = you

    # --- names -----------------------------------------------------------

    def is_me(self, seat: Any) -> bool:
        """Whether ``seat`` names the seat narrated for (says "you").

        Every sentence that depends on ``me`` asks here or in :meth:`is_subject`,
        never by comparing with ``me`` itself: the web server narrates an event
        once as a spectator and hands that sentence to every seat for which
        each of these answers would have been the same (``web/shared/narration.py``).
        """
        return bool(seat == self.me)

    def is_subject(self, seat: Any) -> bool:
        """Whether ``seat``, an event's subject, is the seat narrated for (``.you``)."""
        return self.me is not None and bool(seat == self.me)

    def label(self, seat: int) -> str:
        """A seat as a name: in a table, a list, or as the subject ("You", "Bot 2")."""
        if self.you and self.is_me(seat):
            return t("seat.you_label", self.lang)
        return self._name(seat)

    def obj(self, seat: int) -> str:
        """A seat as the object of a verb or preposition ("pays 3 gold to you")."""
        if seat == -1:
            return t("seat.stakes", self.lang)
        if self.is_me(seat):
            return t("seat.you_object", self.lang)
        return self._name(seat)

    def in_flight_of(self, seat: int) -> str:
        """ "in Bot 2's flight" / "in your flight" (prepositions differ by language)."""
        if self.is_me(seat):
            return t("phrase.in_your_flight", self.lang)
        return t("phrase.in_flight_of", self.lang, name=self._name(seat))

    def from_hand_of(self, seat: int) -> str:
        """ "from Bot 2's hand" / "from your hand"."""
        if self.is_me(seat):
            return t("phrase.from_your_hand", self.lang)
        return t("phrase.from_hand_of", self.lang, name=self._name(seat))

    def _name(self, seat: int) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return t("seat.unknown", self.lang, seat=seat)

    def hoards(self, amounts: Iterable[int]) -> str:
        """Each seat with its gold: "You 40 gold; Ursula 25 gold"."""
        return "; ".join(f"{self.label(p)} {gold(v, self.lang)}" for p, v in enumerate(amounts))

    def seats(self, seats: Iterable[int]) -> str:
        listed = [self.label(p) for p in seats]
        return ", ".join(listed) if listed else t("word.none", self.lang)

    # --- events ----------------------------------------------------------

    def events(self, events: Iterable[Event]) -> list[str]:
        """Sentences for a run of events (:meth:`told` without the events)."""
        return [text for text, _ in self.told(events)]

    def told(self, events: Iterable[Event]) -> list[tuple[str, Event]]:
        """Sentences for a run of events, merging what would only repeat.

        The cards a seat draws (``draw_card``, seen by that seat) are told
        together with the public ``draw`` that follows ("You draw 2 cards:
        Red Dragon (3), The Druid (6)."), your own face-down ante is told
        once (``ante_chosen`` names the card; ``ante_placed`` adds nothing),
        and an answer given automatically (``auto_answer``: the only legal
        one) is not told apart, because the event it causes tells it.
        """
        out: list[tuple[str, Event]] = []
        drawn: dict[int, list[int]] = {}
        previous: Event | None = None
        run = list(events)
        for i, e in enumerate(run):
            _vis, kind, data = e
            if not isinstance(data, dict):
                out.append((self.event(e), e))
                continue
            if kind == "auto_answer":
                continue
            if kind == "draw_card" and isinstance(data.get("card"), int):
                drawn.setdefault(data.get("seat", -1), []).append(data["card"])
                continue
            if kind == "draw" and data.get("seat") in drawn:
                cards = drawn.pop(data["seat"])
                if len(cards) == data.get("drawn"):
                    out.append((self._drawn_cards(data, cards), e))
                    previous = e
                    continue
                out.extend(self._draw_card(data["seat"], c) for c in cards)
            following = run[i + 1] if i + 1 < len(run) else None
            repeat = (
                kind == "ante_placed"
                and previous is not None
                and previous[1] == "ante_chosen"
                and previous[2].get("seat") == data.get("seat")
            ) or (
                # the private list of the Seer's face-down discards says it all
                kind == "seer_discard"
                and following is not None
                and following[1] == "seer_discard_cards"
                and following[2].get("seat") == data.get("seat")
            )
            if not repeat:
                out.append((self.event(e), e))
            previous = e
        for seat, cards in drawn.items():  # draw_card without its draw: tell them singly
            out.extend(self._draw_card(seat, c) for c in cards)
        return out

    def _draw_card(self, seat: int, card: int) -> tuple[str, Event]:
        e: Event = ((seat,), "draw_card", {"seat": seat, "card": card})
        return self.event(e), e

    def _drawn_cards(self, data: dict[str, Any], cards: list[int]) -> str:
        """One sentence for a draw whose cards the seat saw."""
        key = "event.draw.cards"
        if data.get("drawn", 0) < data.get("asked", 0):
            key = "event.draw.cards.short"
        if self.is_me(data["seat"]):
            key += ".you"
        return t(
            key,
            self.lang,
            seat=self.label(data["seat"]),
            drawn=card_count(len(cards), self.lang),
            asked=card_count(int(data.get("asked", len(cards))), self.lang),
            cards=cards_label(cards, self.lang),
        )

    def event(self, event: Event) -> str:
        """One sentence for one event; a generic one for anything unexpected."""
        _vis, kind, data = event
        if kind in KNOWN_EVENTS and isinstance(data, dict):
            try:
                text = self._event(kind, data)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                text = None
            if text is not None:
                return text
        return self._generic(kind, data)

    def _event(self, kind: str, data: dict[str, Any]) -> str | None:
        lang = self.lang
        key = f"event.{kind}"
        subject = SUBJECT.get(kind)
        p = self._params(kind, data, subject)
        variant = BY_KIND[kind].variant  # the table of events says which sentence
        if variant is not None:
            key += variant(data)
        if not has(key, lang):
            return None
        mine = subject is not None and self.is_subject(data.get(subject))
        if mine and has(key + ".you", lang):
            key += ".you"
        text = t(key, lang, **p)
        if kind == "pay" and data["short"]:
            note = "event.pay.short_hole" if self.debt_model == "hole" else "event.pay.short_debt"
            text += " " + t(note, lang, short=gold(data["short"], lang))
        return text

    def _params(self, kind: str, data: dict[str, Any], subject: str | None) -> dict[str, Any]:
        lang = self.lang
        p: dict[str, Any] = {}
        for name, value in data.items():
            if name in _SEAT_FIELDS:
                p[name] = self.label(value) if name == subject else self.obj(value)
            elif name in _CARD_FIELDS:
                p[name] = card_label(value, lang)
            elif name in _GOLD_FIELDS:
                p[name] = gold(value, lang)
            elif name in _COUNT_FIELDS:
                p[name] = card_count(value, lang)
            elif name == "cards":
                p[name] = cards_label(value, lang)
            elif name in ("seats", "winners"):
                p[name] = self.seats(value)
            else:
                p[name] = value
        if kind == "ante_reveal":
            p["cards"] = "; ".join(
                t(
                    "event.ante_reveal.card",
                    lang,
                    name=self.label(seat),
                    card=card_label(c, lang) if c >= 0 else t("word.none", lang),
                )
                for seat, c in enumerate(data["cards"])
            )
        elif kind in ("scoring", "game_over"):
            field_name = "totals" if kind == "scoring" else "hoards"
            values = data[field_name]
            shown = (
                f"{self.label(seat)} {v if kind == 'scoring' else gold(v, lang)}"
                for seat, v in enumerate(values)
            )
            p[field_name] = "; ".join(shown)
        elif kind == "color_flight":
            p["color"] = t(f"color.{data['color']}", lang)
        elif kind in ("abilities_dealt", "ancestry_chosen", "ability_used") and data.get("color"):
            p["color"] = ancestry_label(data["color"], lang)
        elif kind == "ability_dice":
            p["dice"] = " + ".join(str(v) for v in data["dice"])
        elif kind == "insight_reroll":
            p["rolls"] = ", ".join(
                f"{self.label(seat)} {roll}"
                for seat, roll in zip(data["seats"], data["rolls"], strict=True)
            )
        if "ability" in data:
            p["ability"] = ability_name(data["ability"], lang)
        if "abilities" in data:
            p["abilities"] = abilities_label(data["abilities"], lang)
        elif kind == "power":
            p["text"] = ALL_CARDS[data["card"]].type.text(lang)
        elif kind == "auto_answer":
            question = str(data["question"])
            p["question"] = self.question(question)
            p["answer"] = self.answer_label(question, int(data["answer"]))
        if "victim" in data:
            p["victim_hand"] = self.from_hand_of(data["victim"])
        if "other" in data:
            p["other_flight"] = self.in_flight_of(data["other"])
        if "owner" in data:
            p["owner_flight"] = self.in_flight_of(data["owner"])
        return p

    def _generic(self, kind: Any, data: Any) -> str:
        """Any event at all, as "kind: field value, ..." (the fallback)."""
        lang = self.lang
        parts: list[str] = []
        if isinstance(data, dict):
            for name, value in data.items():
                parts.append(f"{str(name).replace('_', ' ')} {self._value(str(name), value)}")
        return t(
            "event.unknown",
            lang,
            kind=str(kind).replace("_", " "),
            details=", ".join(parts) or "-",
        )

    def _value(self, name: str, value: Any) -> str:
        if isinstance(value, bool) or not isinstance(value, int | list | tuple):
            return str(value)
        if isinstance(value, list | tuple):
            if name in ("cards",):
                return cards_label(value, self.lang)
            if name in ("seats", "winners"):
                return self.seats(value)
            return ", ".join(str(v) for v in value)
        if name in _SEAT_FIELDS:
            return self.obj(value)
        if name in _CARD_FIELDS:
            return card_label(value, self.lang)
        return str(value)

    # --- questions -------------------------------------------------------

    def question(self, kind: str) -> str:
        """What a decision asks, in a few words ("play a card")."""
        said = _questions.get((kind, self.lang))
        if said is None:
            key = f"question.{kind}"
            if has(key, self.lang):
                said = t(key, self.lang)
            else:
                said = t("question.unknown", self.lang, kind=kind.replace("_", " "))
            if len(_questions) < _SAID_MAX:
                _questions[kind, self.lang] = said
        return said

    def answer_label(self, kind: str, answer: int, ctx: Sequence[int] = ()) -> str:
        """A legal answer as a choice reads, without table context (log, auto answers)."""
        lang = self.lang
        if answer == D.PASS and kind in (D.ABILITY_SEAT, D.ABILITY_CARD):
            return self._pass_label(kind, ctx)
        if kind in D.SEAT_ANSWERS:
            return self.label(answer)
        if kind in (D.USE_ABILITY, D.DRAFT_ABILITY) and answer != D.PASS:
            return ability_name(answer, lang)
        if kind == D.ANCESTRY_COLOR:
            return ancestry_label(answer, lang)
        if kind == D.BLUE_MODE:
            per = ctx[0] if ctx else 1
            return t(f"answer.blue_mode.{answer}", lang, n=gold(per, lang))
        if kind == D.TRIGGER_NEW:
            return t("answer.yes" if answer == D.YES else "answer.no", lang)
        if answer == D.PASS:
            if kind == D.GIVE_OR_PAY:
                return t("answer.pay_instead", lang)
            key = f"answer.pass.{kind}"
            return t(key if has(key, lang) else "answer.pass", lang)
        if answer == D.DONE:
            return t("answer.done_plain", lang)
        if answer == D.ALL:
            return t("answer.all", lang)
        return card_label(answer, lang)

    def prompt(self, state: GameState | None, obs: Observation | None = None) -> Prompt | None:
        """The narrated seat's pending question with numbered, labelled choices.

        None unless the pending question is this seat's.  Reads only the
        observation of this seat (``obs``; made from ``state`` if not given):
        its own question with its options and parameters, the scored totals
        and the engine's hints (which cards would trigger, which special
        flights each would complete).
        """
        me = self.me
        if obs is None:
            if me is None or state is None:
                return None
            obs = observe(state, me)
        d = obs.question
        if me is None or d is None or d.seat != me or d.options is None:
            return None
        lang = self.lang
        flights: list[list[int]] = obs.flights
        owner = {c: p for p, f in enumerate(flights) for c in f}
        totals = obs.totals
        hints = obs.hints
        kind = d.kind
        ctx = d.ctx or []
        cards: list[Option] = []
        others: list[Option] = []
        for a in d.options:
            if a == D.PASS and kind in (D.ABILITY_SEAT, D.ABILITY_CARD, D.USE_ABILITY):
                others.append(Option(a, self._pass_label(kind, ctx)))
            elif kind in (D.USE_ABILITY, D.DRAFT_ABILITY):
                others.append(Option(a, ability_name(a, lang), detail=ability_text(a, lang)))
            elif kind == D.ANCESTRY_COLOR:
                others.append(Option(a, ancestry_label(a, lang)))
            elif kind in D.SEAT_ANSWERS:
                label = t(
                    "answer.seat",
                    lang,
                    name=self.label(a),
                    total=totals[a],
                    hoard=gold(obs.hoards[a], lang),
                )
                others.append(Option(a, label))
            elif kind == D.BLUE_MODE:
                per = ctx[0] if ctx else 1
                label = t(f"answer.blue_mode.{a}", lang, n=gold(per, lang))
                if a == 1:
                    total = gold(per * len(flights[me]), lang)
                    label += " " + t("answer.blue_mode.total", lang, total=total)
                others.append(Option(a, label))
            elif kind == D.TRIGGER_NEW:
                others.append(Option(a, t("answer.yes" if a == D.YES else "answer.no", lang)))
            elif a == D.PASS:
                others.append(Option(a, self._pass_label(kind, ctx)))
            elif a == D.DONE:
                count = ctx[0] if ctx else 0
                others.append(Option(a, t("answer.done", lang, count=card_count(count, lang))))
            elif a == D.ALL:
                others.append(Option(a, t("answer.all", lang)))
            elif 0 <= a < len(ALL_CARDS):
                label = card_label(a, lang)
                if a in owner and kind in (D.SLAY, D.HATCHLING_COPY, D.ILLUSIONIST_SWAP):
                    label = t(
                        "answer.in_flight", lang, card=label, flight=self.in_flight_of(owner[a])
                    )
                if kind == D.PLAY:
                    detail = self._completes(*obs.completes.get(a, _NO_FLIGHT))
                    why = trigger_reason(obs, a, self.obj, lang)
                    cards.append(
                        Option(a, label, card=a, triggers=a in hints, detail=detail, why=why)
                    )
                else:
                    cards.append(Option(a, label, card=a))
            else:
                others.append(Option(a, str(a)))
        # The hand line's order (hand_order), so "the third card" is answer 3.
        cards.sort(key=lambda o: (ALL_CARDS[o.card].strength, o.card))
        return Prompt(d.id, kind, self._prompt_text(d, obs), cards + others)

    def _completes(self, colors: list[int], strengths: list[int]) -> str:
        """The special flights a card would complete, in words ("" if none)."""
        lang = self.lang
        parts = [
            t("answer.completes.color", lang, color=t(f"color.{COLORS[ci]}", lang)) for ci in colors
        ]
        parts += [t("answer.completes.strength", lang, strength=st) for st in strengths]
        return "; ".join(parts)

    def _pass_label(self, kind: str, ctx: Sequence[int]) -> str:
        lang = self.lang
        if kind == D.GIVE_OR_PAY and len(ctx) >= 2:
            return t(
                "answer.pass.give_or_pay", lang, amount=gold(ctx[1], lang), to=self.obj(ctx[0])
            )
        if kind in (D.ABILITY_CARD, D.ABILITY_SEAT) and ctx and _ability_key(ctx[0]):
            key = f"answer.pass.{kind}.{_ability_key(ctx[0])}"
            if has(key, lang):
                return t(key, lang)
        key = f"answer.pass.{kind}"
        return t(key if has(key, lang) else "answer.pass", lang)

    def _prompt_text(self, d: Question, obs: Observation) -> str:
        lang = self.lang
        kind = d.kind
        ctx = d.ctx or []
        p: dict[str, Any] = {
            "source": card_label(d.source, lang),
            "round": obs.round,
            "gambit": obs.gambit,
        }
        key = f"prompt.{kind}"
        if kind == D.GIVE_OR_PAY and len(ctx) >= 2:
            p["to"] = self.obj(ctx[0])
            p["amount"] = gold(ctx[1], lang)
        elif kind == D.TRIGGER_NEW and ctx:
            p["new"] = card_label(ctx[0], lang)
        elif kind == D.KOBOLD_DISCARD:
            p["count"] = card_count(ctx[0] if ctx else 0, lang)
        elif kind == D.ANTE_PUT and ctx:
            p["active"] = self.label(ctx[0])
        elif kind == D.ADVENTURER_STACK and len(ctx) >= 2:
            p["small"] = gold(ctx[0], lang)
            p["big"] = gold(ctx[0] + 1, lang)
            p["left"] = ctx[1]
        elif kind == D.TAKE_ANTE and d.source < 0:
            key += ".flight"
        elif kind in (D.USE_ABILITY, D.ABILITY_CARD, D.ABILITY_SEAT) and ctx:
            key, extra = self._ability_prompt(kind, ctx, obs)
            p.update(extra)
        if not has(key, lang):
            return t("prompt.unknown", lang, question=self.question(kind))
        return t(key, lang, **p)

    def _ability_prompt(
        self, kind: str, ctx: Sequence[int], obs: Observation
    ) -> tuple[str, dict[str, Any]]:
        """The message key and parameters of an ability question, from its context:
        ``use_ability`` says what just happened (``ctx[0]``, the trigger), the card and
        player questions name their ability (``ctx[0]``)."""
        lang = self.lang
        p: dict[str, Any] = {}
        if kind == D.USE_ABILITY:
            trigger = _TRIGGER_NAMES.get(ctx[0], "")
            args = ctx[1:]
            if trigger == "played" and args:
                p["card"] = card_label(args[0], lang)
            elif trigger == "deny" and args:
                p["buyer"] = self.label(args[0])
            elif trigger == "won" and args:
                p["winner"] = self.label(args[0])
            elif trigger == "taken" and len(args) >= 2:
                p["victim_hand"] = self.from_hand_of(args[0])
                p["card"] = card_label(args[1], lang)
            elif trigger == "revealed" and args:
                p["card"] = card_label(args[0], lang)
            key = f"prompt.use_ability.{trigger}"
            return (key if has(key, lang) else "prompt.use_ability"), p
        ability = _ability_key(ctx[0]) or ""
        if ability == "perception":
            p["card"] = card_label(obs.my_ante, lang)
        elif ability == "dungeoneering" and len(ctx) >= 3:
            p["victim_hand"] = self.from_hand_of(ctx[1])
            p["card"] = card_label(ctx[2], lang)
        elif ability == "heal" and len(ctx) >= 2:
            p["amount"] = gold(ctx[1], lang)
        return f"prompt.{kind}.{ability}", p


def hand_order(cards: Iterable[int]) -> list[int]:
    """The one order of cards in a hand, wherever it is shown: weakest first, and
    cards of equal strength by their id, so the hand line and the numbered
    answers agree ("the third card" is answer 3) in every language."""
    return sorted(cards, key=lambda c: (ALL_CARDS[c].strength, c))


def table_names(
    players: int, humans: Sequence[int], lang: str, people: Sequence[str] = ()
) -> list[str]:
    """The names a table gives its seats: the people by the names typed in (else
    "Player 1", "Player 2"... counted from 1 among the people), the bots "Bot 1",
    "Bot 2"... counted from 1 among the bots.  The terminal tables save them with
    the record, so a replay calls everyone what the table did."""
    names: list[str] = []
    person = bot = 0
    for p in range(players):
        if p in humans:
            typed = people[person].strip() if person < len(people) else ""
            person += 1
            names.append(typed or t("seat.player", lang, seat=person))
        else:
            bot += 1
            names.append(t("seat.bot", lang, seat=bot))
    return names


def involves(event: Event, seat: int) -> bool:
    """Whether ``seat`` is named in the event (as any of its seats, or in its lists)."""
    data = event[2]
    for name, value in data.items():
        if name in _SEAT_FIELDS and value == seat:
            return True
        if name in ("seats", "winners") and isinstance(value, list | tuple) and seat in value:
            return True
    return False


def default_names(players: int, lang: str, me: int | None = None, bots: bool = True) -> list[str]:
    """Seat names for a table: "Bot N" for the others at a table with a person,
    "Player N" when watching; N is the seat number used by ``--seat``."""
    key = "seat.bot" if bots and me is not None else "seat.player"
    return [t(key, lang, seat=p) for p in range(players)]


__all__ = [
    "KNOWN_EVENTS",
    "SUBJECT",
    "Narrator",
    "Option",
    "Prompt",
    "abilities_label",
    "ability_name",
    "ability_text",
    "ancestry_label",
    "card_count",
    "card_label",
    "cards_label",
    "default_names",
    "gold",
    "hand_order",
    "involves",
    "table_names",
]
