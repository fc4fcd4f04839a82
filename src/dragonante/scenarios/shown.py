"""The ``shown`` expectation: what one seat is shown, as a scenario states it.

Hidden information is a rule of the game ("look at", "face down", "show
everyone"), so a scenario must be able to say what a seat may see, not only
what the table holds: which cards of other hands the Silver Seer's player
or a thief now knows, which card a question comes from, what abilities of
its rivals a seat has been told.  ``[expect.shown.SEAT]`` compares the
fields it names with ``observe(s, SEAT).to_dict()`` (the very view every
interface draws) and ignores the rest.  Card fields are written as card ids
("" for no card), like everywhere else in a scenario.
"""

from __future__ import annotations

from typing import Any

from dragonante.cards import ALL_CARDS
from dragonante.engine.config import config_to_dict
from dragonante.engine.state import GameState
from dragonante.engine.views import config_for, observe
from dragonante.scenarios.format import card, cards
from dragonante.scenarios.scenario import ScenarioError

#: Fields holding a collection of cards whose order the rules do not fix
#: (compared as sorted card ids).
_CARD_SETS = frozenset(
    {"hand", "discard", "ante", "revealed", "private_look", "specials", "wild", "dragonrider"}
)
#: Fields holding one card, or "" for none (-1 in the view).
_ONE_CARD = frozenset({"my_ante"})


def _id(c: int) -> str:
    """A card's id; "" for the view's "no card", -1 exactly (docs/protocol.md), so that
    any other number a view might hold there shows up as a mismatch, not as "none"."""
    if 0 <= c < len(ALL_CARDS):
        return ALL_CARDS[c].id
    return "" if c == -1 else f"#{c}"


def _one(value: Any, where: str) -> int:
    return -1 if value == "" else card(value, where)


def _normal(key: str, got: Any, want: Any, at: str) -> tuple[Any, Any]:
    """``got`` and ``want`` of one field in comparable form (card ids)."""
    if want == "none":
        return got, None
    if key in _CARD_SETS:
        if got is None:
            return None, sorted(map(_id, cards(want, at)))
        return sorted(map(_id, got)), sorted(map(_id, cards(want, at)))
    if key in _ONE_CARD:
        return _id(got), _id(_one(want, at))
    if key == "round_card":
        if not isinstance(want, list):
            raise ScenarioError(f'{at}: expected a card id (or "") per seat')
        return [_id(c) for c in got], [_id(_one(w, f"{at}[{i}]")) for i, w in enumerate(want)]
    if key == "flights":
        if not isinstance(want, list):
            raise ScenarioError(f"{at}: expected a list of card ids per seat")
        return [[_id(c) for c in f] for f in got], [
            [_id(c) for c in cards(w, f"{at}[{i}]")] for i, w in enumerate(want)
        ]
    if key == "known_in_hands":
        if not isinstance(want, dict):
            raise ScenarioError(f"{at}: expected a table: seat = [card ids]")
        return (
            {str(p): sorted(map(_id, cs)) for p, cs in got.items() if cs},
            {str(p): sorted(map(_id, cards(w, f"{at}.{p}"))) for p, w in want.items() if w},
        )
    if key == "question":
        return _question(got, want, at)
    if key in ("abilities", "config") and isinstance(want, dict) and isinstance(got, dict):
        return _some_keys(got, want, at)
    return got, want


def _some_keys(got: dict[str, Any], want: dict[str, Any], at: str) -> tuple[Any, Any]:
    """A table field (the abilities, the config) compared on the sub-keys the
    scenario names, at every depth; ``"none"`` inside a list stands for a value
    not shown (TOML has no null), e.g. ``ancestry = ["black", "none", "none"]``."""
    unknown = set(want) - set(got)
    if unknown:
        raise ScenarioError(f"{at}: unknown keys {sorted(unknown)}; keys: {', '.join(got)}")

    def null(v: Any) -> Any:
        if isinstance(v, list):
            return [null(x) for x in v]
        return None if v == "none" else v

    mine, theirs = {}, {}
    for k, v in want.items():
        if isinstance(v, dict) and isinstance(got[k], dict):
            mine[k], theirs[k] = _some_keys(got[k], v, f"{at}.{k}")
        else:
            mine[k], theirs[k] = got[k], null(v)
    return mine, theirs


def _question(got: Any, want: Any, at: str) -> tuple[Any, Any]:
    """The seat's question, compared on the sub-keys the scenario names."""
    if want == "":
        return got, None
    if not isinstance(want, dict):
        raise ScenarioError(f'{at}: expected a table (kind, seat, source, options, id, ctx) or ""')
    if got is None:
        return None, want
    unknown = set(want) - {"kind", "seat", "source", "options", "id", "ctx"}
    if unknown:
        raise ScenarioError(f"{at}: unknown question keys {sorted(unknown)}")
    mine = {k: got.get(k) for k in want}
    theirs = dict(want)
    if "source" in want:
        mine["source"] = _id(got["source"])
        theirs["source"] = _id(_one(want["source"], f"{at}.source"))
    if "options" in want:
        mine["options"] = sorted(got.get("options") or ())
        theirs["options"] = sorted(want["options"])
    if "ctx" in want:  # the question's context as the seat is shown it (numbers)
        mine["ctx"] = list(got.get("ctx") or ())
    return mine, theirs


def check_shown(s: GameState, want: Any, at: str, out: list[str]) -> None:
    """Compare each ``[expect.shown.SEAT]`` table with what SEAT is shown."""
    if not isinstance(want, dict):
        raise ScenarioError(f"{at}: expected a table keyed by seat number")
    for seat_key, fields in want.items():
        where = f"{at}.{seat_key}"
        try:
            seat = int(seat_key)
        except ValueError:
            raise ScenarioError(f"{where}: expected a seat number") from None
        if not 0 <= seat < s.n:
            raise ScenarioError(f"{where}: no seat {seat} at a table of {s.n}")
        if not isinstance(fields, dict):
            raise ScenarioError(f"{where}: expected a table of view fields")
        view = observe(s, seat).to_dict()
        if "config" in fields:  # the table's settings as this seat is told them
            view["config"] = config_to_dict(config_for(s.config, seat))
        for key, value in fields.items():
            if key not in view:
                raise ScenarioError(
                    f"{where}.{key}: not a field of the view; fields: {', '.join(view)}"
                )
            got, expected = _normal(key, view[key], value, f"{where}.{key}")
            if got != expected:
                out.append(f"{where}.{key}: seat {seat} is shown {got!r}, expected {expected!r}")
