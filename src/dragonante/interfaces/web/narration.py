"""Events and answers as sentences, in English or Italian, for the browser table.

The server narrates: each event a seat may see is sent with its sentence in
that connection's language, so the terminal and the browser can share one
narrator and the client stays a thin renderer.  The sentences come from the
web catalogs (``static/i18n/en.json``, ``it.json``: the client reads the
same files for its buttons and labels), keyed ``event.<kind>``; a few kinds
pick a variant (``event.play.triggered``, ``event.pay.stakes``...).

Only event data is read, and events come from ``events_for``: narration can
name nothing the seat may not see.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from dragonante.cards import ALL_CARDS
from dragonante.engine.decisions import (
    ALL,
    BLUE_MODE,
    CODE_ANSWERS,
    DONE,
    GIVE_OR_PAY,
    PASS,
    SEAT_ANSWERS,
    TRIGGER_NEW,
)
from dragonante.engine.state import Event

LANGS = ("en", "it")
_SEAT_FIELDS = frozenset(
    ("seat", "leader", "winner", "partner", "payer", "taker", "victim", "other", "owner")
)
DEFAULT_LANG = "en"


@cache
def catalog(lang: str) -> dict[str, str]:
    """The flat message catalog of ``lang`` (English for an unknown language)."""
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
    """The message ``key`` in ``lang`` (falling back to English, then the key)."""
    msg = catalog(lang).get(key) or catalog(DEFAULT_LANG).get(key) or key
    try:
        return msg.format(**params)
    except (KeyError, IndexError, ValueError):
        return msg


def card_label(card: int, lang: str) -> str:
    """A physical card as players say it: name and strength ("Red Dragon (12)")."""
    if not 0 <= card < len(ALL_CARDS):
        return "?"
    c = ALL_CARDS[card]
    return f"{c.name(lang)} ({c.strength})"


def cards_label(cards: list[int], lang: str) -> str:
    if not cards:
        return t(lang, "word.none")
    return ", ".join(card_label(c, lang) for c in cards)


class Narrator:
    """Narrates for one table: knows the seat names and the language."""

    def __init__(self, names: list[str], lang: str) -> None:
        self.names = names
        self.lang = lang if lang in LANGS else DEFAULT_LANG

    def seat(self, seat: int) -> str:
        if seat == -1:
            return t(self.lang, "word.stakes")
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return "?"

    def seats(self, seats: list[int]) -> str:
        return ", ".join(self.seat(p) for p in seats) or t(self.lang, "word.none")

    def answer(self, kind: str, answer: int) -> str:
        """A legal answer as a button says it."""
        lang = self.lang
        if kind in SEAT_ANSWERS:
            return self.seat(answer)
        if kind == BLUE_MODE:
            return t(lang, f"answer.blue_mode.{answer}")
        if kind == TRIGGER_NEW:
            return t(lang, "answer.yes" if answer else "answer.no")
        if kind in CODE_ANSWERS:
            return str(answer)
        if answer == PASS:
            return t(lang, "answer.pay5" if kind == GIVE_OR_PAY else "answer.pass")
        if answer == DONE:
            return t(lang, "answer.done")
        if answer == ALL:
            return t(lang, "answer.all")
        return card_label(answer, lang)

    def event(self, event: Event) -> str:
        """One sentence for one event."""
        _vis, kind, data = event
        lang = self.lang
        key = f"event.{kind}"
        p: dict[str, Any] = {}
        for name, value in data.items():
            p[name] = value
            if name in _SEAT_FIELDS:
                p[name] = self.seat(value)
            elif name in ("card", "old", "new", "gave", "took", "this"):
                p[name] = card_label(value, lang)
            elif name in ("cards",) and kind != "ante_reveal":
                p[name] = cards_label(list(value), lang)
            elif name in ("seats", "winners"):
                p[name] = self.seats(list(value))
        if kind == "play" and data.get("triggered"):
            key = "event.play.triggered"
        elif kind == "pay":
            key = "event.pay.stakes" if data.get("to") == -1 else "event.pay.seat"
            p["to"] = self.seat(data.get("to", -1))
        elif kind == "buy":
            key = "event.buy.stakes" if data.get("to", -1) == -1 else "event.buy.seat"
            p["to"] = self.seat(data.get("to", -1))
        elif kind in ("chose_pay", "gives_card", "debt_paid"):
            p["to"] = self.seat(data.get("to", -1))
        elif kind == "gambit_start" and data.get("stakes"):
            key = "event.gambit_start.carried"
        elif kind == "blue_mode":
            key = f"event.blue_mode.{data.get('mode', 0)}"
        elif kind == "ante_reveal":
            shown = [
                f"{self.seat(seat)}: {card_label(c, lang) if c >= 0 else t(lang, 'word.none')}"
                for seat, c in enumerate(data.get("cards", []))
            ]
            p["cards"] = "; ".join(shown)
        elif kind == "scoring":
            p["totals"] = "; ".join(
                f"{self.seat(seat)} {total}" for seat, total in enumerate(data.get("totals", []))
            )
        elif kind == "color_flight":
            p["color"] = t(lang, f"color.{data.get('color')}")
        elif kind == "auto_answer":
            p["question"] = t(lang, f"question.{data.get('question')}")
            p["answer"] = self.answer(str(data.get("question")), int(data.get("answer", 0)))
        elif kind == "ante_effect":
            key = f"event.ante_effect.{data.get('effect')}"
        elif kind == "game_over":
            p["hoards"] = "; ".join(
                f"{self.seat(seat)} {gold}" for seat, gold in enumerate(data.get("hoards", []))
            )
        count = data.get("drawn", data.get("count"))
        if count == 1 and f"{key}.one" in catalog(lang):
            key = f"{key}.one"
        text = t(lang, key, **p)
        if kind == "pay" and data.get("short"):
            text += " " + t(lang, "event.pay.short", short=data["short"])
        return text
