"""The run options every command shares: ``--lang``, ``--json``, ``--seed``, ``--games``...

:mod:`~dragonante.interfaces.cli.table_options` declares once how a table is
set up; this module does the same for how a command runs: each option is one
:class:`RunOption` (its flag and short flag, the catalog key of its help, its
type and its default) and one ``Annotated`` alias a command's signature uses::

    def simulate_command(games: GamesOpt = GAMES.default, as_json: JsonOpt = False) -> None:

A command whose default differs says so in its signature (``analyze`` plays
1,000 games); one whose help says something more particular names its own
catalog key and keeps the flag, type and limits of the declaration::

    as_json: Annotated[bool, JSON.option("opt.cards_json")] = False

``option(short=False)`` leaves the short flag off, for the commands that never
had it (``tournament --games``, ``loadtest --players``): help text and
behaviour stay what they were.  ``tests/interfaces/test_run_options.py``
holds every command to these declarations.

Two seeds are two options, not one with two defaults: :data:`SEED` is one
game's, random (and printed) when not given; :data:`FIRST_SEED` is the first
of a run of games, 0 unless given, so two runs with the same options play the
same games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Final, Generic, TypeVar

import typer

from dragonante.i18n import DEFAULT_LANG, LANGS, locale_lang, t
from dragonante.interfaces.cli.app import UserError
from dragonante.interfaces.cli.table_options import help_lang, helptext

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class RunOption(Generic[T]):
    """One run option: the flags a user types, its help and its default.

    The type is ``T`` (``GAMES: Final[RunOption[int]]``), the type the alias
    beside the declaration gives the parameter.
    """

    #: The long flag, e.g. ``--games``.
    flag: str
    #: The catalog key of the help text, in :func:`help_lang`'s language.
    help: str
    default: T
    #: The short flag (``-n``), or ``""``.
    short: str = ""
    #: Click's settings of the value (``min``, ``max``, ``metavar``).
    settings: Mapping[str, Any] = field(default_factory=dict)

    def option(
        self,
        help: str = "",
        *,
        short: bool = True,
        params: Mapping[str, object] | None = None,
        **settings: Any,
    ) -> Any:
        """The ``typer.Option`` for an ``Annotated`` parameter.

        ``help`` names another catalog key for a command whose sentence is its
        own, ``params`` fills that sentence's placeholders, ``short=False``
        leaves the short flag off, and ``settings`` add Click's limits.
        """
        flags = (self.flag, self.short) if short and self.short else (self.flag,)
        key = help or self.help
        text = t(key, help_lang(), **params) if params else helptext(key)
        return typer.Option(*flags, help=text, **{**self.settings, **settings})


LANG: Final[RunOption[str | None]] = RunOption("--lang", "opt.lang", None)
JSON: Final[RunOption[bool]] = RunOption("--json", "opt.json", False)
#: One game's seed; none: a random one, printed so the game can be played again.
SEED: Final[RunOption[int | None]] = RunOption("--seed", "opt.seed", None)
#: The seed of the first of many games (the next ones count up from it).
FIRST_SEED: Final[RunOption[int]] = RunOption("--seed", "opt.first_seed", 0)
GAMES: Final[RunOption[int]] = RunOption("--games", "opt.games", 100, short="-n")
PLAYERS: Final[RunOption[int]] = RunOption("--players", "opt.players", 4, short="-p")
PLAIN: Final[RunOption[bool]] = RunOption("--plain", "opt.plain", False)
#: Bot specs for the seats; none: uniform random.
BOTS: Final[RunOption[str | None]] = RunOption("--bots", "opt.bots", None)
SECONDS: Final[RunOption[float]] = RunOption("--seconds", "opt.seconds", 10.0, short="-s")
OUT: Final[RunOption[Path]] = RunOption("--out", "opt.analyze_out", Path("analysis"))
#: Local worker processes (``None``: one); see ``parallel_options``.
WORKERS: Final[RunOption[int | None]] = RunOption("--workers", "opt.workers", None)
SCHEDULER: Final[RunOption[str | None]] = RunOption("--scheduler", "opt.scheduler", None)

LangOpt = Annotated[str | None, LANG.option()]
JsonOpt = Annotated[bool, JSON.option()]
SeedOpt = Annotated[int | None, SEED.option()]
FirstSeedOpt = Annotated[int, FIRST_SEED.option()]
GamesOpt = Annotated[int, GAMES.option()]
PlayersOpt = Annotated[int, PLAYERS.option()]
PlainOpt = Annotated[bool, PLAIN.option()]
BotsOpt = Annotated[str | None, BOTS.option()]
SecondsOpt = Annotated[float, SECONDS.option()]
OutOpt = Annotated[Path, OUT.option()]
WorkersOpt = Annotated[int | None, WORKERS.option()]
SchedulerOpt = Annotated[str | None, SCHEDULER.option()]

#: Every run option, for the test that holds the commands to them.
RUN_OPTIONS: Final[tuple[RunOption[Any], ...]] = (
    LANG,
    JSON,
    SEED,
    FIRST_SEED,
    GAMES,
    PLAYERS,
    PLAIN,
    BOTS,
    SECONDS,
    OUT,
    WORKERS,
    SCHEDULER,
)


def check_lang(lang: str | None) -> str:
    """``--lang`` if known, the locale's language (``LANG=it_IT.UTF-8``) if none was
    given, else a one-line user error (in English: no language yet).

    Every command with messages resolves its language here, so ``--lang`` and
    the locale mean the same thing everywhere.
    """
    if lang is None:
        return locale_lang()
    if lang not in LANGS:
        raise UserError(t("cli.error.lang", DEFAULT_LANG, lang=lang, choices=", ".join(LANGS)))
    return lang


__all__ = [
    "BOTS",
    "FIRST_SEED",
    "GAMES",
    "JSON",
    "LANG",
    "OUT",
    "PLAIN",
    "PLAYERS",
    "RUN_OPTIONS",
    "SCHEDULER",
    "SECONDS",
    "SEED",
    "WORKERS",
    "BotsOpt",
    "FirstSeedOpt",
    "GamesOpt",
    "JsonOpt",
    "LangOpt",
    "OutOpt",
    "PlainOpt",
    "PlayersOpt",
    "RunOption",
    "SchedulerOpt",
    "SecondsOpt",
    "SeedOpt",
    "WorkersOpt",
    "check_lang",
]
