"""The one registry of bots: built-in ones, outside packages' and outside agents.

Every bot module registers its bot (:func:`register`) with what a user and
a script need to know about it: its settings, its level for people, its
kind (``rules``, ``search`` or ``learned``) and its measured strength with
the command that measured it (``dragonante bots``).  Outside packages add
bots without touching dragonante, by an entry point in the group
``dragonante.bots`` (loaded the first time a name is looked up)::

    [project.entry-points."dragonante.bots"]
    mybot = "mypackage.bots:ENTRY"      # a BotEntry, or a factory(seed) -> Bot

A *spec* names a bot for ``make_bot`` (``play --opponents``, ``tournament
--seats``, ``simulate --bots``, the Gymnasium opponents, ``serve --bot``):

* ``name[:key=value...]``: a registered bot or level with settings
  (``ismcts:iters=200``);
* ``module:function``: an outside agent in Python (:mod:`dragonante.bots.outside`):
  a function given the seat's :class:`~dragonante.bots.base.SeatView` (the
  seat's view and its question) that returns its answer, or a bot class;
* ``policy:PATH``: a saved policy (:mod:`dragonante.bots.saved`).

A web server's clients never give specs: they pick among :func:`bot_names`,
the registered names and levels, and those the server's own command line
offered (``serve --bot NAME=SPEC``, :func:`offer`).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points
from typing import Any

from dragonante.bots.base import Bot
from dragonante.bots.errors import BotSpecError

#: The entry point group outside packages register bots in.
ENTRY_POINT_GROUP = "dragonante.bots"
#: What a bot is made of: hand-written rules, a search, or a learned model.
KINDS = ("rules", "search", "learned")
#: A registered name or level: what a web client may choose among.
_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
#: The spec prefix of a saved policy.
POLICY_PREFIX = "policy"


class SettingError(ValueError):
    """A setting's value refused, with the reason (shown to the user)."""


class _NotAChoice(SettingError):
    """A word setting given a word it does not take (the message lists them)."""


def choice(*names: str) -> Callable[[str], str]:
    """A setting that takes one of ``names``."""

    def convert(raw: str) -> str:
        if raw not in names:
            raise _NotAChoice(f"choose from {', '.join(names)}")
        return raw

    return convert


@dataclass(frozen=True, slots=True)
class Strength:
    """A measured strength: the win rate against a field, and how it was measured."""

    #: Win rate (0-1) and its 95% Wilson interval.
    win_rate: float
    low: float
    high: float
    games: int
    #: The field it played against ("3 x heuristic"), at ``players`` players.
    against: str
    players: int
    #: The command that measured it (``docs/bots.md``).
    command: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "win_rate": self.win_rate,
            "interval": [self.low, self.high],
            "games": self.games,
            "against": self.against,
            "players": self.players,
            "command": self.command,
        }


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A registered bot: how to make it, and what it is."""

    name: str
    #: ``factory(seed, **settings) -> Bot``.
    factory: Callable[..., Bot]
    kind: str = "rules"
    #: The level people pick it by (``easy``, ``medium``, ``hard``), if any.
    level: str | None = None
    #: The settings a spec may give it, each with its converter.
    settings: Mapping[str, Callable[[str], Any]] = field(default_factory=dict)
    #: One line: what it is.
    about: str = ""
    strength: Strength | None = None
    #: Where it comes from: ``dragonante``, an entry point's package, or a server's spec.
    origin: str = "dragonante"

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "level": self.level,
            "kind": self.kind,
            "about": self.about,
            "settings": sorted(self.settings),
            "strength": None if self.strength is None else self.strength.to_dict(),
            "origin": self.origin,
        }


#: Registered bots by name (built-in ones register on import, in this order).
BOTS: dict[str, BotEntry] = {}
#: Levels for people, mapped onto bot names.
LEVELS: dict[str, str] = {}
#: Names a server's command line offers for specs (``serve --bot NAME=SPEC``).
OFFERED: dict[str, str] = {}
_loaded_entry_points = False


def register(entry: BotEntry) -> BotEntry:
    """Add ``entry`` to the registry (a bot module calls this for its bot)."""
    if not _NAME.match(entry.name):
        raise ValueError(f"bot name {entry.name!r} must be lower case letters, digits, - or _")
    if entry.name in BOTS or entry.name in LEVELS or entry.name in OFFERED:
        raise ValueError(f"a bot or level named {entry.name!r} is registered already")
    if entry.kind not in KINDS:
        raise ValueError(f"bot kind {entry.kind!r}: choose from {', '.join(KINDS)}")
    if entry.level is not None:
        if entry.level in LEVELS or entry.level in BOTS or not _NAME.match(entry.level):
            raise ValueError(f"bot level {entry.level!r} is taken or not a name")
        LEVELS[entry.level] = entry.name
    BOTS[entry.name] = entry
    return entry


def _outside_entry(name: str, obj: Any, origin: str) -> BotEntry:
    """An entry point's object as an entry: a :class:`BotEntry`, or a factory."""
    if isinstance(obj, BotEntry):
        return replace(obj, name=name, origin=origin)
    if callable(obj):
        return BotEntry(
            name,
            obj,
            kind=getattr(obj, "kind", "rules"),
            settings=getattr(obj, "settings", {}),
            about=(getattr(obj, "__doc__", None) or "").strip().split("\n")[0],
            origin=origin,
        )
    raise TypeError(f"{obj!r} is neither a BotEntry nor a bot factory")


def load_entry_points() -> None:
    """Register the bots of installed packages (group ``dragonante.bots``), once.

    A broken one is skipped with a warning naming it: one package's bug must
    not stop the game.
    """
    global _loaded_entry_points
    if _loaded_entry_points:
        return
    _loaded_entry_points = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        origin = ep.dist.name if ep.dist is not None else ep.value
        try:
            register(_outside_entry(ep.name, ep.load(), origin))
        except Exception as exc:  # any outside failure is reported, not raised
            warnings.warn(
                f"bot entry point {ep.name!r} ({ep.value}) was not registered: {exc}",
                RuntimeWarning,
                stacklevel=2,
            )


def offer(name: str, spec: str) -> None:
    """Offer ``spec`` under ``name`` (``serve --bot NAME=SPEC``): clients may then
    pick ``name`` as they pick a level; the spec itself never comes from them.

    Raises ``ValueError`` (naming the problem) for a taken or malformed name, or
    a spec that does not load.
    """
    load_entry_points()
    if not _NAME.match(name):
        raise ValueError(f"bot name {name!r} must be lower case letters, digits, - or _")
    if name in BOTS or name in LEVELS or (name in OFFERED and OFFERED[name] != spec):
        raise ValueError(f"a bot or level named {name!r} is registered already")
    parse_spec(spec)
    OFFERED[name] = spec


def bot_names() -> list[str]:
    """Every name a user may pick: the bots, the levels, the offered names."""
    load_entry_points()
    return [*BOTS, *LEVELS, *OFFERED]


def entries() -> list[BotEntry]:
    """Every registered bot, built-in ones first."""
    load_entry_points()
    return list(BOTS.values())


def _is_callable_spec(head: str, parts: list[str]) -> bool:
    """``module:function``: a dotted module and a dotted attribute, no settings."""
    dotted = r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$"
    return len(parts) == 1 and bool(re.match(dotted, head)) and bool(re.match(dotted, parts[0]))


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a spec into the bot's name (levels and offered names resolved) and
    its settings; outside agents are loaded here, so a bad one fails at once.

    ``policy:PATH`` gives ``("policy", {"path": PATH})`` and ``module:function``
    gives ``("callable", {"target": "module:function"})``.  Raises ``KeyError``
    for an unknown name and :class:`BotSpecError` for anything else wrong.
    """
    load_entry_points()
    spec = spec.strip()
    if spec in OFFERED:
        spec = OFFERED[spec]
    head, _, rest = spec.partition(":")
    if head == POLICY_PREFIX and rest:
        from dragonante.bots.saved import check_policy

        check_policy(rest)
        return POLICY_PREFIX, {"path": rest}
    name, *parts = spec.split(":")
    key = LEVELS.get(name, name)
    if key not in BOTS:
        if parts and _is_callable_spec(name, parts):
            from dragonante.bots.outside import load_target

            load_target(spec)
            return "callable", {"target": spec}
        raise KeyError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    allowed = BOTS[key].settings
    settings: dict[str, Any] = {}
    for part in parts:
        setting, sep, raw = part.partition("=")
        if not sep or setting not in allowed:
            choices = ", ".join(allowed) or "none"
            raise BotSpecError(f"bot {key!r} has no setting {part!r}; settings: {choices}")
        try:
            value = allowed[setting](raw)
        except SettingError as exc:
            raise BotSpecError(f"bad value {raw!r} for {key}:{setting}; {exc}") from None
        except ValueError:
            raise BotSpecError(f"bad value {raw!r} for {key}:{setting}") from None
        if isinstance(value, int | float) and value <= 0:
            raise BotSpecError(f"{key}:{setting} must be positive, got {raw!r}")
        settings[setting] = value
    return key, settings


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot by name, level or spec; raises ``KeyError`` naming the choices if unknown."""
    key, settings = parse_spec(spec)
    if key == POLICY_PREFIX:
        from dragonante.bots.saved import PolicyBot

        return PolicyBot(seed, **settings)
    if key == "callable":
        from dragonante.bots.outside import outside_bot

        return outside_bot(settings["target"], seed)
    return BOTS[key].factory(seed, **settings)


__all__ = [
    "BOTS",
    "ENTRY_POINT_GROUP",
    "KINDS",
    "LEVELS",
    "OFFERED",
    "BotEntry",
    "BotSpecError",
    "Strength",
    "bot_names",
    "choice",
    "entries",
    "load_entry_points",
    "make_bot",
    "offer",
    "parse_spec",
    "register",
]
