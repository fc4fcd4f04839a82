"""Sentences for the browser table: the shared narrator, plus the web's own strings.

Events and questions are told by :mod:`dragonante.interfaces.narrate` (the
same sentences as the terminal, catalogs in :mod:`dragonante.i18n`), for the
seat a connection belongs to ("You draw...").  The server narrates, so each
event a seat may see travels with its sentence in that connection's
language, and the client stays a thin renderer.

What only the web needs (its buttons, labels and error messages) lives in
the web catalogs, ``static/i18n/en.json`` and ``it.json``, which the client
loads too; :func:`t` reads them on the server for error frames.

Only events handed over by ``events_for`` and the seat's own question are
narrated: a sentence can name nothing the seat may not see.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from dragonante.engine.abilities.catalog import ABILITIES
from dragonante.engine.decisions import DRAFT_ABILITY, USE_ABILITY
from dragonante.engine.state import Event, GameState
from dragonante.engine.views import Observation
from dragonante.i18n import DEFAULT_LANG, LANGS, has
from dragonante.i18n import t as main_t
from dragonante.interfaces.events import Explainer
from dragonante.interfaces.narrate import Narrator

__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "SharedSentences",
    "TableNarrator",
    "ability_name",
    "ability_text",
    "catalog",
    "t",
]

#: Questions whose answers are ability numbers (their options get the rule text).
ABILITY_ANSWERS = frozenset({USE_ABILITY, DRAFT_ABILITY})


def ability_name(number: int, lang: str) -> str:
    """An ability's name in ``lang`` (from the main catalogs; its key as words if missing)."""
    key = ABILITIES[number].key
    if has(f"ability.{key}.name", lang) or has(f"ability.{key}.name"):
        return main_t(f"ability.{key}.name", lang)
    return key.replace("_", " ").capitalize()


def ability_text(number: int, lang: str) -> str:
    """An ability's rule text in ``lang`` ("" while the catalogs have none)."""
    key = f"ability.{ABILITIES[number].key}.text"
    if has(key, lang) or has(key):
        return main_t(key, lang)
    return ""


@cache
def catalog(lang: str) -> dict[str, str]:
    """The web catalog of ``lang`` (English for an unknown language)."""
    if lang not in LANGS:
        lang = DEFAULT_LANG
    text = (
        resources.files("dragonante.interfaces.web")
        .joinpath("static", "i18n", f"{lang}.json")
        .read_text(encoding="utf-8")
    )
    data: dict[str, str] = json.loads(text)
    return data


def t(lang: str, key: str, **params: Any) -> str:
    """The web message ``key`` in ``lang`` (falling back to English, then the key)."""
    msg = catalog(lang).get(key) or catalog(DEFAULT_LANG).get(key) or key
    try:
        return msg.format(**params)
    except (KeyError, IndexError, ValueError):
        return msg


class _Witness(Narrator):
    """A narrator that notes each "is this you?" it answered, and how.

    The narrator's sentences depend on the seat narrated for only through
    :meth:`Narrator.is_me` and :meth:`Narrator.is_subject` (seat numbers
    compared with ``me``).  Any other seat whose answers to the questions
    noted would all have been the same takes the same path through the
    narration, so it gets the same sentence (:meth:`tell`).  The two methods
    repeat :class:`Narrator`'s (a super() call costs as much as they do);
    ``tests/web/test_shared_views.py`` checks the sentences against it.
    """

    def __init__(self, names: list[str], lang: str, me: int | None, debt_model: str) -> None:
        super().__init__(names, lang, me=me, debt_model=debt_model)
        self.seats_asked: list[Any] = []
        self.answers: list[bool] = []
        self._all = frozenset(range(len(names)))

    def is_me(self, seat: Any) -> bool:
        answer = bool(seat == self.me)  # Narrator.is_me, without a super() call
        self.seats_asked.append(seat)
        self.answers.append(answer)
        return answer

    def is_subject(self, seat: Any) -> bool:
        answer = self.me is not None and bool(seat == self.me)  # Narrator.is_subject
        self.seats_asked.append(seat)
        self.answers.append(answer)
        return answer

    def tell(self, e: Event) -> tuple[str, frozenset[int]]:
        """The sentence of ``e`` and the seats it fits (their narrators would say it)."""
        asked = self.seats_asked = []
        answers = self.answers = []
        text = self.event(e)
        # For a seat reader both questions are ``seat == me``.
        if set(map(type, asked)) <= _INT:
            # Plain seat numbers: a seat that was asked about fits only if it
            # is the teller (the only number answered yes); any other seat
            # fits if it was never asked about.
            me = self.me
            fits = (
                frozenset((me,)) if me is not None and me in asked else self._all.difference(asked)
            )
        else:
            fits = frozenset(
                s
                for s in self._all
                if all(bool(x == s) is r for x, r in zip(asked, answers, strict=True))
            )
        return text, fits


_INT = frozenset((int,))


class SharedSentences:
    """The sentences of one broadcast's public events, each told as few times as
    it can be and handed to every connection whose narrator would say the same.

    After an answer every seat, spectator and game-master is told the same
    new public events; most sentences do not depend on who reads them ("Pè1
    plays Red Dragon (12)" reads the same for seats 0, 2 and 3 and for
    spectators).  A sentence is told by a narrator that notes which seat
    numbers it compared with its reader (``_Witness``); another seat gets it
    when none of those comparisons would have come out differently for it,
    else its own narration is told and kept the same way ("You play...").
    Spectators and game-masters (``me`` None, whose questions read
    differently) take only sentences told to ``me`` None.  So every text
    equals the reader's own narrator's, by construction, and a reader only
    ever gets sentences of events it is handed (``events_for``): nothing can
    leak.  A private event (one seat, and perhaps a game-master, see it) is
    narrated directly.

    Lives for one broadcast (the log keeps its events, which are keyed by
    identity, alive for that long); ``names`` and ``debt_model`` must be the
    ones the readers' narrators are made with.
    """

    def __init__(self, names: list[str], debt_model: str) -> None:
        self.names = names
        self.debt_model = debt_model
        self._narrators: dict[tuple[str, int | None], _Witness] = {}
        #: (lang, id(event)) -> the event and its sentences: (teller, seats it fits, text).
        self._told: dict[
            tuple[str, int], tuple[Event, list[tuple[int | None, frozenset[int], str]]]
        ] = {}

    def event(self, narrator: Narrator, e: Event) -> str:
        """``narrator.event(e)``, told once for every reader it fits."""
        if e[0] is not None:
            return narrator.event(e)
        lang = narrator.lang
        me = narrator.me
        key = (lang, id(e))
        entry = self._told.get(key)
        if entry is None or entry[0] is not e:
            entry = self._told[key] = (e, [])
        told = entry[1]
        for teller, fits, text in told:
            if teller == me or me in fits:
                return text
        witness = self._narrators.get((lang, me))
        if witness is None:
            witness = _Witness(self.names, lang, me, self.debt_model)
            self._narrators[lang, me] = witness
        text, fits = witness.tell(e)
        told.append((me, fits, text))
        return text


class TableNarrator:
    """Narrates one table for one seat (None: a spectator) in one language."""

    def __init__(self, names: list[str], lang: str, seat: int | None, debt_model: str) -> None:
        self.lang = lang if lang in LANGS else DEFAULT_LANG
        self.seat = seat
        self.narrator = Narrator(names, self.lang, me=seat, debt_model=debt_model)

    def events(
        self,
        events: list[Event],
        shared: SharedSentences | None = None,
        explainer: Explainer | None = None,
    ) -> list[dict[str, Any]]:
        """Each event with its sentence; ``text`` is None where a sentence would
        only repeat (an automatic answer is told by what it causes, and your own
        face-down ante by the card you chose).  ``shared``: sentences this
        broadcast has already told (made with this narrator's names).
        ``explainer``: each event also gets ``why``, the citation of the rule
        behind it (:class:`~dragonante.interfaces.events.Cite`, worded by the
        browser from ``/api/rules``; it names only a card this event or the
        power before it showed the seat)."""
        out: list[dict[str, Any]] = []
        previous: Event | None = None
        narrator = self.narrator
        for e in events:
            _vis, kind, data = e
            redundant = kind == "auto_answer" or (
                kind == "ante_placed"
                and previous is not None
                and previous[1] == "ante_chosen"
                and previous[2].get("seat") == data.get("seat")
            )
            if redundant:
                text = None
            elif shared is not None:
                text = shared.event(narrator, e)
            else:
                text = narrator.event(e)
            item = {"kind": kind, "data": data, "text": text}
            if explainer is not None:
                cite = explainer.cite(e)
                item["why"] = None if cite is None else cite.to_dict()
            out.append(item)
            previous = e
        return out

    def question(self, kind: str) -> str:
        """What a seat is deciding, in a few words ("play a card")."""
        return self.narrator.question(kind)

    def prompt(
        self, state: GameState, obs: Observation | None = None
    ) -> tuple[str, list[dict[str, Any]]] | None:
        """This seat's own question as a sentence and labelled answers, or None.

        An answer carries ``detail`` when the narrator gives one (an ability's
        rule text); for an ability answer without one, the rule text is looked
        up here, so the player always reads what the ability does.  ``obs``:
        ``observe(state, seat)`` if the caller has it.
        """
        p = self.narrator.prompt(state, obs)
        if p is None:
            return None
        out: list[dict[str, Any]] = []
        for o in p.options:
            answer: dict[str, Any] = {"value": o.answer, "label": o.label}
            detail = getattr(o, "detail", "") or ""
            if not detail and p.kind in ABILITY_ANSWERS and 0 <= o.answer < len(ABILITIES):
                detail = ability_text(o.answer, self.lang)
            if detail:
                answer["detail"] = detail
            if o.why:  # why this card would trigger or not
                answer["why"] = o.why
            out.append(answer)
        return p.text, out
