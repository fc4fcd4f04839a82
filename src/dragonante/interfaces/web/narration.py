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
from dragonante.i18n import DEFAULT_LANG, LANGS, has
from dragonante.i18n import t as main_t
from dragonante.interfaces.narrate import Narrator

__all__ = [
    "DEFAULT_LANG",
    "LANGS",
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


class TableNarrator:
    """Narrates one table for one seat (None: a spectator) in one language."""

    def __init__(self, names: list[str], lang: str, seat: int | None, debt_model: str) -> None:
        self.lang = lang if lang in LANGS else DEFAULT_LANG
        self.seat = seat
        self.narrator = Narrator(names, self.lang, me=seat, debt_model=debt_model)

    def events(self, events: list[Event]) -> list[dict[str, Any]]:
        """Each event with its sentence; ``text`` is None where a sentence would
        only repeat (an automatic answer is told by what it causes, and your own
        face-down ante by the card you chose)."""
        out: list[dict[str, Any]] = []
        previous: Event | None = None
        for e in events:
            _vis, kind, data = e
            redundant = kind == "auto_answer" or (
                kind == "ante_placed"
                and previous is not None
                and previous[1] == "ante_chosen"
                and previous[2].get("seat") == data.get("seat")
            )
            out.append(
                {"kind": kind, "data": data, "text": None if redundant else self.narrator.event(e)}
            )
            previous = e
        return out

    def question(self, kind: str) -> str:
        """What a seat is deciding, in a few words ("play a card")."""
        return self.narrator.question(kind)

    def prompt(self, state: GameState) -> tuple[str, list[dict[str, Any]]] | None:
        """This seat's own question as a sentence and labelled answers, or None.

        An answer carries ``detail`` when the narrator gives one (an ability's
        rule text); for an ability answer without one, the rule text is looked
        up here, so the player always reads what the ability does.
        """
        p = self.narrator.prompt(state)
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
            out.append(answer)
        return p.text, out
