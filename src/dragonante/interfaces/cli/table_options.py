"""The table options every game command shares: players, gold, ruleset, deck, endings, abilities.

``play``, ``simulate``, ``bench`` and ``tournament`` all set a table up the
same way, so the options are declared once here and turned into a validated
:class:`~dragonante.engine.config.GameConfig` by :func:`build_config`.  Every
mistake (an unknown preset, a Legendary-only option with an Emperor's Gambit
deck, a deck too small for the table) is a one-line :class:`UserError`.

Names on the command line use dashes (``emperors-gambit``, ``age-of-mortals``);
the engine's underscores are accepted too.

The D&D abilities (``docs/abilities.md``) are options here too:
``--abilities disks|skills`` turns them on, and the others become the
:class:`~dragonante.engine.abilities.options.AbilityOptions` of the table;
per-seat options are ``SEAT=VALUE`` (seats from 0, as ``--seat``).
``--play-for-fun`` is the Legendary "pure roleplay" preset: 8 gold per player.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Annotated, Any, Final, TypeVar

import typer

from dragonante.cards import CARD_TYPES
from dragonante.engine.abilities.catalog import (
    ANCESTRY_COLORS,
    MAX_PER_CHARACTER,
    SKILLS,
    SYSTEMS,
    of_system,
)
from dragonante.engine.abilities.options import (
    ASSIGNMENTS,
    RANDOM,
    VISIBILITIES,
    AbilityOptions,
)
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
from dragonante.engine.decks import PRESETS
from dragonante.i18n import DEFAULT_LANG, LANGS, error_reason, locale_lang, t
from dragonante.interfaces.cli.app import UserError

#: Gold per player unless told otherwise.
DEFAULT_GOLD_PER_PLAYER = 10
#: "Play for fun" (L Appendix 5, pure roleplay): "consider playing with 8 gold per player".
PLAY_FOR_FUN_GOLD: Final = 8
#: The rulings of AbilityOptions with their engine values.
RULING_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "ancestry_trigger": ("second", "each_after"),
    "dungeoneering": ("random", "choose"),
    "streetwise": ("any_card", "flight_strength"),
}


def help_lang(argv: Sequence[str] | None = None) -> str:
    """The language of ``--help`` and of errors raised before a command knows its own.

    Help texts are fixed when the commands are declared, before Click has
    parsed anything, so ``--lang`` is looked for in the raw command line
    (``argv``, by default this process's) and, failing that, the locale
    decides (``LANG=it_IT.UTF-8``), as it does for the commands themselves.
    An unknown ``--lang`` gives English here; the command reports it.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.removeprefix("--lang=")
        else:
            continue
        return value if value in LANGS else DEFAULT_LANG
    return locale_lang()


@functools.cache
def _help_lang() -> str:
    return help_lang()


def helptext(key: str) -> str:
    """An option's or a command's help, from the catalog in :func:`help_lang`'s language."""
    return t(key, _help_lang())


def cli_name(name: str) -> str:
    """How an engine name is typed on the command line."""
    return name.replace("_", "-")


def engine_name(text: str) -> str:
    """The engine's name for what was typed (dashes or underscores, any case)."""
    return text.strip().lower().replace("-", "_")


def _deck_help() -> str:
    presets = "; ".join(f"{cli_name(p)}: {helptext(f'deck.preset.{p}')}" for p in PRESETS)
    return f"{helptext('opt.deck')} {t('opt.deck_presets', _help_lang(), presets=presets)}"


def _ruleset_help() -> str:
    return helptext("opt.ruleset").format(choices=", ".join(cli_name(r) for r in RULESETS))


GoldOpt = Annotated[int | None, typer.Option("--gold-per-player", help=helptext("opt.gold"))]
StartingGoldOpt = Annotated[
    int | None, typer.Option("--starting-gold", help=helptext("opt.starting_gold"))
]
RulesetOpt = Annotated[str, typer.Option("--ruleset", help=_ruleset_help())]
DeckOpt = Annotated[str, typer.Option("--deck", help=_deck_help())]
CardOpt = Annotated[list[str] | None, typer.Option("--card", help=helptext("opt.card"))]
SelectionOpt = Annotated[str, typer.Option("--deck-selection", help=helptext("opt.selection"))]
ShowOpt = Annotated[bool, typer.Option("--show-specials", help=helptext("opt.show"))]
IncludeOpt = Annotated[list[str] | None, typer.Option("--include", help=helptext("opt.include"))]
SpecialCountOpt = Annotated[
    int, typer.Option("--special-count", help=helptext("opt.special_count"))
]
SixCardsOpt = Annotated[
    bool, typer.Option("--original-six-cards", help=helptext("opt.original_six_cards"))
]
HoleHouseOpt = Annotated[
    bool, typer.Option("--hole-in-the-house", help=helptext("opt.hole_in_the_house"))
]
RuleOpt = Annotated[
    list[str] | None, typer.Option("--rule", metavar="KEY=VALUE", help=helptext("opt.rule"))
]
GambitsOpt = Annotated[int, typer.Option("--gambits", help=helptext("opt.gambits"))]
TargetGoldOpt = Annotated[int, typer.Option("--target-gold", help=helptext("opt.target_gold"))]
RemainingOpt = Annotated[
    int, typer.Option("--players-remaining", help=helptext("opt.players_remaining"))
]
#: The D&D ability options have their own section in ``--help``.
ABILITY_PANEL = helptext("opt.ability_panel")
PlayForFunOpt = Annotated[
    bool, typer.Option("--play-for-fun", help=helptext("opt.ability_play_for_fun"))
]
AbilitiesOpt = Annotated[
    str | None,
    typer.Option("--abilities", rich_help_panel=ABILITY_PANEL, help=helptext("opt.ability_system")),
]
AbilityOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--ability",
        metavar="SEAT=KEY,KEY",
        rich_help_panel=ABILITY_PANEL,
        help=helptext("opt.ability"),
    ),
]
AbilityAssignOpt = Annotated[
    str | None,
    typer.Option(
        "--ability-assign", rich_help_panel=ABILITY_PANEL, help=helptext("opt.ability_assign")
    ),
]
AbilitiesPerCharacterOpt = Annotated[
    int,
    typer.Option(
        "--abilities-per-character",
        rich_help_panel=ABILITY_PANEL,
        help=helptext("opt.ability_per_character"),
    ),
]
AbilityVisibilityOpt = Annotated[
    str | None,
    typer.Option(
        "--ability-visibility",
        rich_help_panel=ABILITY_PANEL,
        help=helptext("opt.ability_visibility"),
    ),
]
AncestryOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--ancestry",
        metavar="SEAT=COLOR",
        rich_help_panel=ABILITY_PANEL,
        help=helptext("opt.ability_ancestry"),
    ),
]
InsightOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--insight",
        metavar="SEAT=MOD",
        rich_help_panel=ABILITY_PANEL,
        help=helptext("opt.ability_insight"),
    ),
]
QualifiedOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--qualified",
        metavar="SEAT=KEY,KEY",
        rich_help_panel=ABILITY_PANEL,
        help=helptext("opt.ability_qualified"),
    ),
]
AncestryTriggerOpt = Annotated[
    str | None,
    typer.Option(
        "--ancestry-trigger",
        rich_help_panel=ABILITY_PANEL,
        help=helptext("opt.ability_ancestry_trigger"),
    ),
]
DungeoneeringOpt = Annotated[
    str | None,
    typer.Option(
        "--dungeoneering", rich_help_panel=ABILITY_PANEL, help=helptext("opt.ability_dungeoneering")
    ),
]
StreetwiseOpt = Annotated[
    str | None,
    typer.Option(
        "--streetwise", rich_help_panel=ABILITY_PANEL, help=helptext("opt.ability_streetwise")
    ),
]


@dataclass(frozen=True, slots=True)
class TableChoices:
    """What the shared options say, before checking (one value per option)."""

    players: int = 4
    #: None: 10 (8 with ``play_for_fun``).
    gold_per_player: int | None = None
    starting_gold: int | None = None
    ruleset: str = "legendary"
    deck: str = "legendary"
    cards: tuple[str, ...] = ()
    deck_selection: str = "random"
    show_specials: bool = False
    include: tuple[str, ...] = field(default_factory=tuple)
    special_count: int = 10
    #: Theme decks: the original edition's 6 dragons per original color.
    original_six_cards: bool = False
    #: Slang "hole in the house": gold paid into the hole goes to the house.
    hole_in_the_house: bool = False
    #: Any other rule switch, as ``KEY=VALUE`` (a :class:`Rules` field).
    rules: tuple[str, ...] = ()
    gambits: int = 0
    target_gold: int = 0
    players_remaining: int = 0
    time_limit_minutes: int = 0
    series_games: int = 0
    play_for_fun: bool = False
    #: The ability options as typed (None or empty: not given).
    abilities: str | None = None
    ability: tuple[str, ...] = ()
    ability_assign: str | None = None
    abilities_per_character: int = 0
    ability_visibility: str | None = None
    ancestry: tuple[str, ...] = ()
    insight: tuple[str, ...] = ()
    qualified: tuple[str, ...] = ()
    ancestry_trigger: str | None = None
    dungeoneering: str | None = None
    streetwise: str | None = None


#: The default of a command's ``table`` parameter (``table_options`` always fills it).
DEFAULT_TABLE: Final = TableChoices()

#: The options every game command shares, in ``--help`` order: (parameter name,
#: its type and option, default, the ``TableChoices`` field it fills).
SHARED_OPTIONS: Final[tuple[tuple[str, Any, Any, str], ...]] = (
    ("ruleset", RulesetOpt, "legendary", "ruleset"),
    ("deck", DeckOpt, "legendary", "deck"),
    ("card", CardOpt, None, "cards"),
    ("gold_per_player", GoldOpt, None, "gold_per_player"),
    ("starting_gold", StartingGoldOpt, None, "starting_gold"),
    ("deck_selection", SelectionOpt, "random", "deck_selection"),
    ("show_specials", ShowOpt, False, "show_specials"),
    ("include", IncludeOpt, None, "include"),
    ("special_count", SpecialCountOpt, 10, "special_count"),
    ("original_six_cards", SixCardsOpt, False, "original_six_cards"),
    ("hole_in_the_house", HoleHouseOpt, False, "hole_in_the_house"),
    ("rule", RuleOpt, None, "rules"),
    ("gambits", GambitsOpt, 0, "gambits"),
    ("target_gold", TargetGoldOpt, 0, "target_gold"),
    ("players_remaining", RemainingOpt, 0, "players_remaining"),
    ("play_for_fun", PlayForFunOpt, False, "play_for_fun"),
    ("abilities", AbilitiesOpt, None, "abilities"),
    ("ability", AbilityOpt, None, "ability"),
    ("ability_assign", AbilityAssignOpt, None, "ability_assign"),
    ("abilities_per_character", AbilitiesPerCharacterOpt, 0, "abilities_per_character"),
    ("ability_visibility", AbilityVisibilityOpt, None, "ability_visibility"),
    ("ancestry", AncestryOpt, None, "ancestry"),
    ("insight", InsightOpt, None, "insight"),
    ("qualified", QualifiedOpt, None, "qualified"),
    ("ancestry_trigger", AncestryTriggerOpt, None, "ancestry_trigger"),
    ("dungeoneering", DungeoneeringOpt, None, "dungeoneering"),
    ("streetwise", StreetwiseOpt, None, "streetwise"),
)

F = TypeVar("F", bound=Callable[..., Any])


def table_options(command: F) -> F:
    """Give a command every shared table option, collected into its ``table``
    parameter (a :class:`TableChoices`; ``players`` from the command's own
    ``players`` option when it has one).

    typer reads a command's options from its signature, so without this each
    game command would list the same two dozen parameters and copy them into
    a ``TableChoices`` field by field.
    """
    sig = inspect.signature(command, eval_str=True)  # typer does not evaluate __signature__
    own = [p for p in sig.parameters.values() if p.name != "table"]
    shared = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind)
        for name, kind, default, _field in SHARED_OPTIONS
    ]

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        values: dict[str, Any] = {}
        for name, _kind, _default, field_name in SHARED_OPTIONS:
            value = kwargs.pop(name)
            values[field_name] = tuple(value) if isinstance(value, list) else value
        for field_name in (
            "cards",
            "include",
            "rules",
            "ability",
            "ancestry",
            "insight",
            "qualified",
        ):
            values[field_name] = values[field_name] or ()
        if "players" in kwargs:
            values["players"] = kwargs["players"]
        return command(**kwargs, table=TableChoices(**values))

    wrapper.__signature__ = sig.replace(  # type: ignore[attr-defined]
        parameters=[
            *[p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own],
            *shared,
        ]
    )
    wrapper.__annotations__ = {
        **{p.name: p.annotation for p in own},
        **{name: kind for name, kind, _default, _field in SHARED_OPTIONS},
        "return": sig.return_annotation,
    }
    return wrapper  # type: ignore[return-value]


def _check_legendary_only(c: TableChoices, lang: str) -> None:
    """Special-card options only make sense with the Legendary deck."""
    used = []
    if c.deck_selection != "random":
        used.append("--deck-selection")
    if c.include:
        used.append("--include")
    if c.show_specials:
        used.append("--show-specials")
    if c.special_count != DeckOptions().special_count:
        used.append("--special-count")
    if used:
        raise UserError(
            t("cli.error.legendary_only", lang, options=", ".join(used), deck=cli_name(c.deck))
        )


def build_config(c: TableChoices, lang: str = DEFAULT_LANG) -> GameConfig:
    """A validated table configuration from the shared command-line options."""
    if not 2 <= c.players <= 6:
        raise UserError(t("cli.error.players", lang, players=c.players))
    gold_per_player = _gold_per_player(c, lang)
    if gold_per_player not in GOLD_CHOICES:
        choices = ", ".join(str(g) for g in GOLD_CHOICES)
        raise UserError(t("cli.error.gold", lang, gold=gold_per_player, choices=choices))
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
    selection = engine_name(c.deck_selection)
    if selection not in SELECTIONS:
        raise UserError(
            t(
                "cli.error.selection",
                lang,
                selection=c.deck_selection,
                choices=", ".join(cli_name(x) for x in SELECTIONS),
            )
        )
    for key in c.include:
        ct = CARD_TYPES.get(key)
        if ct is None or ct.set not in ("legendary-dragon", "legendary-mortal"):
            raise UserError(t("cli.error.include", lang, key=key))
    if c.starting_gold is not None and c.starting_gold < 1:
        raise UserError(t("cli.error.starting_gold", lang, gold=c.starting_gold))
    starting = c.starting_gold or 0
    rules = Rules.preset(ruleset)
    if c.play_for_fun:
        # Play for fun is "8 gold per player" whatever the ruleset (not the original 50).
        rules = replace(rules, starting_hoard=0)
    if c.hole_in_the_house:
        rules = replace(rules, hole_recipient="house")
    rules = _rule_switches(c.rules, rules, lang)
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
        selection=selection,
        reveal_specials=c.show_specials,
        forced_includes=c.include,
        special_count=c.special_count,
        custom=c.cards,
        original_colors_six_cards=c.original_six_cards,
    )
    ending = Ending(
        gambits=c.gambits,
        target_gold=c.target_gold,
        players_remaining=c.players_remaining,
        time_limit_minutes=c.time_limit_minutes,
        series_games=c.series_games,
    )
    abilities = ability_options(c, lang)
    try:
        return GameConfig(
            players=c.players,
            gold_per_player=gold_per_player,
            starting_gold_fixed=starting,
            deck=deck,
            rules=rules,
            ending=ending,
            abilities=abilities,
        ).validate()
    except ConfigError as e:
        raise UserError(t("cli.error.config", lang, reason=error_reason(e, lang))) from None


#: Rule switches ``--rule`` does not set: they have their own options.
_OWN_OPTION: Final = {"ruleset": "--ruleset", "hole_recipient": "--hole-in-the-house"}


def rule_keys() -> list[str]:
    """The :class:`Rules` fields ``--rule KEY=VALUE`` sets (every switch of the
    engine's configuration, ``docs/variants.md``, that has no option of its own)."""
    return [f.name for f in fields(Rules) if f.name not in _OWN_OPTION]


def _rule_switches(given: tuple[str, ...], rules: Rules, lang: str) -> Rules:
    """``rules`` with each ``--rule KEY=VALUE`` applied (values checked by type here,
    by meaning when the whole config is validated)."""
    keys = rule_keys()
    changes: dict[str, Any] = {}
    for text in given:
        key_text, sep, value_text = text.partition("=")
        key = engine_name(key_text)
        value_text = value_text.strip()
        if not sep or not value_text:
            raise UserError(t("cli.error.rule_form", lang, value=text))
        if key not in keys:
            raise UserError(
                t(
                    "cli.error.rule_key",
                    lang,
                    key=key_text.strip(),
                    choices=", ".join(cli_name(k) for k in keys),
                )
            )
        if key in changes:
            raise UserError(t("cli.error.rule_twice", lang, key=cli_name(key)))
        default = getattr(rules, key)
        value: Any
        if isinstance(default, bool):
            word = value_text.lower()
            if word not in ("true", "false", "yes", "no", "on", "off"):
                raise UserError(t("cli.error.rule_bool", lang, key=cli_name(key), value=value_text))
            value = word in ("true", "yes", "on")
        elif isinstance(default, int):
            try:
                value = int(value_text)
            except ValueError:
                raise UserError(
                    t("cli.error.rule_int", lang, key=cli_name(key), value=value_text)
                ) from None
        else:
            value = engine_name(value_text)
        changes[key] = value
    return replace(rules, **changes) if changes else rules


def _gold_per_player(c: TableChoices, lang: str) -> int:
    """``--gold-per-player``, or the play-for-fun preset (which nothing may contradict)."""
    if not c.play_for_fun:
        return DEFAULT_GOLD_PER_PLAYER if c.gold_per_player is None else c.gold_per_player
    for option, value in (
        ("--gold-per-player", c.gold_per_player),
        ("--starting-gold", c.starting_gold),
    ):
        if value is not None and (option != "--gold-per-player" or value != PLAY_FOR_FUN_GOLD):
            raise UserError(t("cli.error.ability_play_for_fun", lang, option=option, value=value))
    return PLAY_FOR_FUN_GOLD


def _choice(option: str, value: str, choices: tuple[str, ...], lang: str) -> str:
    """The engine's name for one of ``choices`` (typed with dashes or underscores)."""
    name = engine_name(value)
    if name not in choices:
        raise UserError(
            t(
                "cli.error.ability_choice",
                lang,
                option=option,
                value=value,
                choices=", ".join(cli_name(x) for x in choices),
            )
        )
    return name


def _per_seat(
    option: str, values: tuple[str, ...], form: str, players: int, lang: str
) -> dict[int, str]:
    """``SEAT=VALUE`` options, by seat (0 to players-1, each at most once)."""
    out: dict[int, str] = {}
    for text in values:
        seat_text, sep, rest = text.partition("=")
        seat_text = seat_text.strip()
        if not sep or not seat_text.isdigit():
            raise UserError(
                t("cli.error.ability_seat_form", lang, option=option, value=text, form=form)
            )
        seat = int(seat_text)
        if seat >= players:
            raise UserError(
                t("cli.error.ability_seat", lang, option=option, seat=seat, last=players - 1)
            )
        if seat in out:
            raise UserError(t("cli.error.ability_seat_twice", lang, option=option, seat=seat))
        out[seat] = rest.strip()
    return out


def _ability_keys(
    option: str, seat: int, text: str, system: str, lang: str, allow_random: bool
) -> tuple[str, ...]:
    """The ability keys of one seat's comma list, checked against the table's system."""
    own = tuple(a.key for a in of_system(system))
    keys = tuple(engine_name(k) for k in text.split(",") if k.strip())
    for key in keys:
        if key in own or (allow_random and key == RANDOM):
            continue
        other = next(s for s in SYSTEMS if s != system)
        if any(a.key == key for a in of_system(other)):
            raise UserError(
                t(
                    "cli.error.ability_other_system",
                    lang,
                    option=option,
                    key=cli_name(key),
                    system=system,
                    other=other,
                )
            )
        raise UserError(
            t(
                "cli.error.ability_key",
                lang,
                option=option,
                key=cli_name(key),
                system=system,
                choices=", ".join(cli_name(k) for k in own),
            )
        )
    named = [k for k in keys if k != RANDOM]
    if len(set(named)) != len(named):
        raise UserError(t("cli.error.ability_twice", lang, option=option, seat=seat))
    return keys


def _ability_lists(
    option: str, values: tuple[str, ...], c: TableChoices, system: str, lang: str
) -> tuple[tuple[str, ...], ...]:
    """Per seat (every seat, in order), the keys an ``--ability``/``--qualified`` gives."""
    allow_random = option == "--ability"
    by_seat = _per_seat(option, values, "SEAT=KEY,KEY", c.players, lang)
    lists = [
        _ability_keys(option, p, by_seat[p], system, lang, allow_random) if p in by_seat else ()
        for p in range(c.players)
    ]
    return tuple(lists)


def _ruling(name: str, text: str | None, lang: str) -> str:
    """A ruling's engine value: as typed, or the default of :class:`AbilityOptions`."""
    if not text:
        default: str = getattr(AbilityOptions(), name)
        return default
    return _choice(f"--{cli_name(name)}", text, RULING_CHOICES[name], lang)


def _given_without_system(c: TableChoices) -> list[str]:
    """The ability options used (they need ``--abilities``)."""
    used = [
        name
        for name, value in (
            ("--ability", c.ability),
            ("--ability-assign", c.ability_assign),
            ("--abilities-per-character", c.abilities_per_character),
            ("--ability-visibility", c.ability_visibility),
            ("--ancestry", c.ancestry),
            ("--insight", c.insight),
            ("--qualified", c.qualified),
            ("--ancestry-trigger", c.ancestry_trigger),
            ("--dungeoneering", c.dungeoneering),
            ("--streetwise", c.streetwise),
        )
        if value
    ]
    return used


def ability_options(c: TableChoices, lang: str = DEFAULT_LANG) -> AbilityOptions:
    """The table's :class:`AbilityOptions` from the ability options (checked)."""
    system_text = (c.abilities or "").strip()
    if not system_text or engine_name(system_text) == "none":
        used = _given_without_system(c)
        if used:
            raise UserError(t("cli.error.ability_no_system", lang, options=", ".join(used)))
        return AbilityOptions()
    system = _choice("--abilities", system_text, (*SYSTEMS, "none"), lang)
    other = next(s for s in SYSTEMS if s != system)
    only = {
        "--ancestry": bool(c.ancestry) and system == SKILLS,
        "--ancestry-trigger": bool(c.ancestry_trigger) and system == SKILLS,
        "--insight": bool(c.insight) and system != SKILLS,
        "--dungeoneering": bool(c.dungeoneering) and system != SKILLS,
        "--streetwise": bool(c.streetwise) and system != SKILLS,
    }
    for option, wrong in only.items():
        if wrong:
            raise UserError(t("cli.error.ability_system_only", lang, option=option, system=other))
    assign = "fixed" if c.ability else "random"
    if c.ability_assign:
        assign = _choice("--ability-assign", c.ability_assign, ASSIGNMENTS, lang)
        if c.ability and assign != "fixed":
            raise UserError(t("cli.error.ability_fixed", lang, assign=cli_name(assign)))
        if assign == "fixed" and not c.ability:
            raise UserError(t("cli.error.ability_fixed_needs", lang))
    if c.insight and assign != "draft":
        raise UserError(t("cli.error.ability_insight_draft", lang))
    most = MAX_PER_CHARACTER[system]
    if not 0 <= c.abilities_per_character <= most:
        raise UserError(
            t(
                "cli.error.ability_per_character",
                lang,
                system=system,
                most=most,
                count=c.abilities_per_character,
            )
        )
    visibility = ""
    if c.ability_visibility:
        visibility = _choice("--ability-visibility", c.ability_visibility, VISIBILITIES, lang)
    seats = _ability_lists("--ability", c.ability, c, system, lang) if c.ability else ()
    for p, keys in enumerate(seats):
        if len(keys) > most:
            raise UserError(t("cli.error.ability_too_many", lang, seat=p, most=most, system=system))
    if system == SKILLS:
        seen: dict[str, int] = {}
        for p, keys in enumerate(seats):
            for key in keys:
                if key != RANDOM and key in seen:
                    raise UserError(
                        t(
                            "cli.error.ability_exclusive",
                            lang,
                            key=cli_name(key),
                            seat=p,
                            first=seen[key],
                        )
                    )
                seen.setdefault(key, p)
    qualified = _ability_lists("--qualified", c.qualified, c, system, lang) if c.qualified else ()
    ancestry: tuple[str, ...] = ()
    if c.ancestry:
        colors = _per_seat("--ancestry", c.ancestry, "SEAT=COLOR", c.players, lang)
        ancestry = tuple(
            _choice("--ancestry", colors[p], ANCESTRY_COLORS, lang) if p in colors else ""
            for p in range(c.players)
        )
    insight: tuple[int, ...] = ()
    if c.insight:
        mods = _per_seat("--insight", c.insight, "SEAT=MOD", c.players, lang)
        values = []
        for p in range(c.players):
            text = mods.get(p, "0")
            try:
                value = int(text)
            except ValueError:
                value = None
            if value is None or not -10 <= value <= 30:
                raise UserError(t("cli.error.ability_insight", lang, seat=p, value=text))
            values.append(value)
        insight = tuple(values)
    options = AbilityOptions(
        system=system,
        per_character=c.abilities_per_character,
        assign=assign,
        visibility=visibility,
        seats=seats,
        ancestry=ancestry,
        qualified=qualified,
        insight=insight,
        ancestry_trigger=_ruling("ancestry_trigger", c.ancestry_trigger, lang),
        dungeoneering=_ruling("dungeoneering", c.dungeoneering, lang),
        streetwise=_ruling("streetwise", c.streetwise, lang),
    )
    try:
        options.validate(c.players)
    except ConfigError as e:
        raise UserError(t("cli.error.abilities", lang, reason=error_reason(e, lang))) from None
    return options
