"""The table options every game command shares: players, gold, ruleset, deck, endings.

``play``, ``simulate``, ``bench`` and ``tournament`` all set a table up the
same way, so the options are declared once here and turned into a validated
:class:`~dragonante.engine.config.GameConfig` by :func:`build_config`.  Every
mistake (an unknown preset, a Legendary-only option with an Emperor's Gambit
deck, a deck too small for the table) is a one-line :class:`UserError`.

Names on the command line use dashes (``emperors-gambit``, ``age-of-mortals``);
the engine's underscores are accepted too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

import typer

from dragonante.cards import CARD_TYPES
from dragonante.engine.config import (
    GOLD_CHOICES,
    RULESETS,
    SELECTIONS,
    ConfigError,
    DeckOptions,
    Ending,
    GameConfig,
    Rules,
)
from dragonante.engine.decks import PRESET_HELP, PRESETS
from dragonante.i18n import DEFAULT_LANG, t
from dragonante.interfaces.cli.app import UserError

#: Starting gold of every hoard under the original rules (rules-notes §3).
ORIGINAL_STARTING_GOLD = 50


def helptext(key: str) -> str:
    """An option's help, from the catalog (English: the language is not known yet
    when ``--help`` is printed)."""
    return t(key, DEFAULT_LANG)


def cli_name(name: str) -> str:
    """How an engine name is typed on the command line."""
    return name.replace("_", "-")


def engine_name(text: str) -> str:
    """The engine's name for what was typed (dashes or underscores, any case)."""
    return text.strip().lower().replace("-", "_")


def _deck_help() -> str:
    presets = "; ".join(f"{cli_name(p)}: {PRESET_HELP[p]}" for p in PRESETS)
    return f"{helptext('opt.deck')} Presets: {presets}."


def _ruleset_help() -> str:
    return helptext("opt.ruleset").format(choices=", ".join(cli_name(r) for r in RULESETS))


PlayersOpt = Annotated[int, typer.Option("--players", "-p", help=helptext("opt.players"))]
GoldOpt = Annotated[int, typer.Option("--gold-per-player", help=helptext("opt.gold"))]
StartingGoldOpt = Annotated[
    int | None, typer.Option("--starting-gold", help=helptext("opt.starting_gold"))
]
RulesetOpt = Annotated[str, typer.Option("--ruleset", help=_ruleset_help())]
DeckOpt = Annotated[str, typer.Option("--deck", help=_deck_help())]
CardOpt = Annotated[list[str] | None, typer.Option("--card", help=helptext("opt.card"))]
SelectionOpt = Annotated[str, typer.Option("--deck-selection", help=helptext("opt.selection"))]
ShowOpt = Annotated[bool, typer.Option("--show-specials", help=helptext("opt.show"))]
IncludeOpt = Annotated[list[str] | None, typer.Option("--include", help=helptext("opt.include"))]
GambitsOpt = Annotated[int, typer.Option("--gambits", help=helptext("opt.gambits"))]
TargetGoldOpt = Annotated[int, typer.Option("--target-gold", help=helptext("opt.target_gold"))]
RemainingOpt = Annotated[
    int, typer.Option("--players-remaining", help=helptext("opt.players_remaining"))
]


@dataclass(frozen=True, slots=True)
class TableChoices:
    """What the shared options say, before checking (one value per option)."""

    players: int = 4
    gold_per_player: int = 10
    starting_gold: int | None = None
    ruleset: str = "legendary"
    deck: str = "legendary"
    cards: tuple[str, ...] = ()
    deck_selection: str = "random"
    show_specials: bool = False
    include: tuple[str, ...] = field(default_factory=tuple)
    gambits: int = 0
    target_gold: int = 0
    players_remaining: int = 0
    time_limit_minutes: int = 0
    series_games: int = 0


def _check_legendary_only(c: TableChoices, lang: str) -> None:
    """Special-card options only make sense with the Legendary deck."""
    used = []
    if c.deck_selection != "random":
        used.append("--deck-selection")
    if c.include:
        used.append("--include")
    if c.show_specials:
        used.append("--show-specials")
    if used:
        raise UserError(
            t("cli.error.legendary_only", lang, options=", ".join(used), deck=cli_name(c.deck))
        )


def build_config(c: TableChoices, lang: str = DEFAULT_LANG) -> GameConfig:
    """A validated table configuration from the shared command-line options."""
    if not 2 <= c.players <= 6:
        raise UserError(t("cli.error.players", lang, players=c.players))
    if c.gold_per_player not in GOLD_CHOICES:
        choices = ", ".join(str(g) for g in GOLD_CHOICES)
        raise UserError(t("cli.error.gold", lang, gold=c.gold_per_player, choices=choices))
    ruleset = engine_name(c.ruleset)
    if ruleset not in RULESETS:
        choices = ", ".join(cli_name(r) for r in RULESETS)
        raise UserError(t("cli.error.ruleset", lang, ruleset=c.ruleset, choices=choices))
    preset = engine_name(c.deck)
    if preset not in PRESETS:
        choices = ", ".join(cli_name(p) for p in PRESETS)
        raise UserError(t("cli.error.deck", lang, deck=c.deck, choices=choices))
    if preset == "custom" and not c.cards:
        raise UserError(t("cli.error.custom_empty", lang))
    if preset != "custom" and c.cards:
        raise UserError(t("cli.error.cards_not_custom", lang))
    if preset != "legendary":
        _check_legendary_only(c, lang)
    if c.deck_selection not in SELECTIONS:
        raise UserError(
            t(
                "cli.error.selection",
                lang,
                selection=c.deck_selection,
                choices=", ".join(SELECTIONS),
            )
        )
    for key in c.include:
        ct = CARD_TYPES.get(key)
        if ct is None or ct.set not in ("legendary-dragon", "legendary-mortal"):
            raise UserError(t("cli.error.include", lang, key=key))
    if c.starting_gold is not None and c.starting_gold < 1:
        raise UserError(t("cli.error.starting_gold", lang, gold=c.starting_gold))
    starting = c.starting_gold
    if starting is None:
        starting = ORIGINAL_STARTING_GOLD if ruleset == "original" else 0
    for name, value in (
        ("--gambits", c.gambits),
        ("--target-gold", c.target_gold),
        ("--players-remaining", c.players_remaining),
        ("--time-limit", c.time_limit_minutes),
        ("--series", c.series_games),
    ):
        if value < 0:
            raise UserError(t("cli.error.negative", lang, option=name, value=value))
    deck = DeckOptions(
        preset=preset,
        selection=c.deck_selection,
        reveal_specials=c.show_specials,
        forced_includes=c.include,
        custom=c.cards,
    )
    ending = Ending(
        gambits=c.gambits,
        target_gold=c.target_gold,
        players_remaining=c.players_remaining,
        time_limit_minutes=c.time_limit_minutes,
        series_games=c.series_games,
    )
    try:
        return GameConfig(
            players=c.players,
            gold_per_player=c.gold_per_player,
            starting_gold_fixed=starting,
            deck=deck,
            rules=Rules.preset(ruleset),
            ending=ending,
        ).validate()
    except ConfigError as e:
        raise UserError(t("cli.error.config", lang, reason=str(e))) from None
