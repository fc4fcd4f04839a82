"""Game configuration: table size, starting gold, deck building, rule switches.

A :class:`GameConfig` plus a seed plus the answers given fully determine a
game.  Every switch the rulebooks or ``rules-notes.md`` leave open is a field
here with the documented default, so a table that rules differently can say
so instead of patching code.  Configs round-trip through plain dicts (JSON)
for game records, and :func:`config_from_dict` rejects anything unknown with
a :class:`ConfigError` naming the offending key (one class for every
setting of both games: :mod:`dragonante.kernel.errors`, re-exported here).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from dragonante.cards import CARD_TYPES
from dragonante.engine.abilities.options import AbilityOptions, options_from_dict, options_to_dict
from dragonante.engine.decks import PRESETS, DeckError, fixed_deck, original_colors

# re-exported: one class for both games
from dragonante.kernel.errors import ConfigError as ConfigError

#: Deck selections of the Legendary Appendix 1.
SELECTIONS = ("random", "druids_party", "pick_em", "traditional", "agreed")
#: The ten specials of the original edition (Appendix 1, "Traditional set").
TRADITIONAL_SPECIALS: tuple[str, ...] = (
    "L-mor-archmage", "L-leg-bahamut", "L-leg-dracolich", "L-mor-dragonslayer", "L-mor-druid",
    "L-mor-fool", "L-mor-priest", "L-mor-princess", "L-mor-thief", "L-leg-tiamat",
)  # fmt: skip
GOLD_CHOICES = (8, 10, 12, 15)
#: Rulesets: the Legendary Edition, Emperor's Gambit, and an approximation of
#: the original 2005 rules as Emperor's Gambit describes them (rules-notes §3).
RULESETS = ("legendary", "emperors_gambit", "original")
DEBT_MODELS = ("hole", "creditors", "immediate")
#: When the ante is anted again (``Rules.ante_redo``).
ANTE_REDOS = ("no_untied_card", "all_tied_for_strongest")
#: Who leads an ante with no untied card that is not anted again (``Rules.ante_tied_leader``).
ANTE_TIED_LEADERS = ("start", "first_strongest")
#: The rule switches whose value is one of a list (for interfaces that set them up).
RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "debt_model": DEBT_MODELS,
    "stake_debt_recipient": ("winner", "next_stakes"),
    "empty_stakes_pending_rewards": ("skip", "resolve"),
    "no_eligible_winner": ("carry_stakes",),
    "hole_recipient": ("game_winner", "house"),
    "ante_redo": ANTE_REDOS,
    "ante_tied_leader": ANTE_TIED_LEADERS,
}
#: ``strength_flight_ante_cards`` value meaning "all the remaining ante cards".
ALL_ANTE_CARDS = -1
#: Every hoard's starting gold under the original rules, whatever the table size.
ORIGINAL_STARTING_GOLD = 50


@dataclass(frozen=True, slots=True)
class DeckOptions:
    """How the 80-card Legendary deck is built (Setup step 2, Appendix 1)."""

    #: Which cards: ``legendary`` (70 + specials chosen by ``selection``),
    #: ``eg_full``, an Emperor's Gambit theme deck, or ``custom``.
    preset: str = "legendary"
    selection: str = "random"
    #: "Show 'em": everyone sees which specials were added.
    reveal_specials: bool = False
    #: Card keys (e.g. ``L-mor-druid``) always added; the rest are random.
    forced_includes: tuple[str, ...] = ()
    special_count: int = 10
    #: ``custom`` preset: card-type keys (all cards of the type) and card ids.
    custom: tuple[str, ...] = ()
    #: Theme decks: use 6 of the 7 Legendary cards of each original color (A53).
    original_colors_six_cards: bool = False


@dataclass(frozen=True, slots=True)
class Rules:
    """Rule switches; defaults are the Legendary Edition with rules-notes rulings.

    ``Rules.preset(name)`` gives a ruleset's defaults (rules-notes §2,
    options.md §1); any field can then be changed on its own.
    """

    ruleset: str = "legendary"
    mortals_form_color_flight: bool = True
    mortals_in_strength_flights: bool = True
    #: Ante cards a strength flight takes (2 L, 3 EG; -1: all, the original rule).
    strength_flight_ante_cards: int = 2
    #: Unpaid gold: ``hole`` (L: owed to the hole, nobody receives it),
    #: ``creditors`` (EG: debts to players and the stakes settled in order at
    #: Step 4), ``immediate`` (original: debts repaid as soon as gold comes in).
    debt_model: str = "hole"
    #: EG (A39): repaid debts to the stakes go to the gambit ``winner`` or the
    #: ``next_stakes``.
    stake_debt_recipient: str = "winner"
    hand_limit: int = 10
    starting_hand: int = 6
    draw_per_gambit: int = 2
    buy_fill_to: int = 4
    min_rounds: int = 3
    #: A26: when the stakes empty, skip the turn's pending powers and rewards.
    empty_stakes_pending_rewards: str = "skip"
    #: A32: whether the Archmage also forces "if you wish" choices inside powers.
    archmage_forces_optional_triggers: bool = True
    #: A28: no eligible winner -> the stakes stay for the next gambit.
    no_eligible_winner: str = "carry_stakes"
    #: Slang "hole in the house": the winner does not get the hole gold.
    hole_recipient: str = "game_winner"
    #: When the ante is discarded and anted again: ``no_untied_card`` (L: "all
    #: the ante cards are tied with at least one other ante card") or
    #: ``all_tied_for_strongest`` (EG: "If all the ante cards are tied for strongest").
    ante_redo: str = "no_untied_card"
    #: EG's ante with no untied card that is not all tied (5, 5, 3, 3): the book
    #: names no leader.  ``start``: the player who started the ante (the last
    #: gambit's winner) leads, as a round's leader stays when its cards are all
    #: tied; ``first_strongest``: the first player clockwise from there who anted
    #: the strongest card.
    ante_tied_leader: str = "start"
    #: If positive, every hoard starts with this much whatever the number of
    #: players: the original rules' 50 (EG: "Previous Rule: Each player started
    #: with 50 gold coins regardless of the number of players").  Zero: the
    #: config's ``gold_per_player`` x players.  ``starting_gold_fixed`` wins.
    starting_hoard: int = 0

    @classmethod
    def preset(cls, ruleset: str, **changes: Any) -> Rules:
        """The defaults of ``ruleset``, with ``changes`` applied."""
        if ruleset not in RULESETS:
            raise ConfigError(
                f"unknown ruleset {ruleset!r}; choose from {', '.join(RULESETS)}",
                code="unknown_ruleset",
                ruleset=ruleset,
                choices=", ".join(RULESETS),
            )
        base: dict[str, Any] = {"ruleset": ruleset}
        if ruleset == "emperors_gambit":
            base.update(
                mortals_form_color_flight=False,
                strength_flight_ante_cards=3,
                debt_model="creditors",
                ante_redo="all_tied_for_strongest",
            )
        elif ruleset == "original":
            base.update(
                mortals_form_color_flight=False,
                mortals_in_strength_flights=False,
                strength_flight_ante_cards=ALL_ANTE_CARDS,
                debt_model="immediate",
                starting_hoard=ORIGINAL_STARTING_GOLD,
            )
        base.update(changes)
        return cls(**base)


@dataclass(frozen=True, slots=True)
class Ending:
    """When the game ends besides "a hoard is empty at Step 4" (EG optional rules).

    Zero switches a rule off.  The time limit is kept by the interface (the
    engine has no clock): when it runs out it calls
    :func:`dragonante.engine.game.call_last_gambit`, and exactly one more
    gambit is played after the current one.  A series of games is played
    with :mod:`dragonante.engine.series`.
    """

    #: Play this many gambits, then the most gold wins (optional rule 4).
    gambits: int = 0
    #: The game ends at Step 4 when a hoard holds at least this much (rule 3).
    target_gold: int = 0
    #: Empty hoards eliminate players until this many remain (rule 2).
    players_remaining: int = 0
    #: Informational for interfaces: minutes before the last gambit (rule 5).
    time_limit_minutes: int = 0
    #: Games in a series, scored by combined final gold (rule 1).
    series_games: int = 0


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything about a table except the seed and the answers."""

    players: int = 4
    gold_per_player: int = 10
    #: If positive, every hoard starts with this much instead (any agreed
    #: amount: EG optional rule 6; the original rules' 50 is ``rules.starting_hoard``).
    starting_gold_fixed: int = 0
    deck: DeckOptions = field(default_factory=DeckOptions)
    rules: Rules = field(default_factory=Rules)
    ending: Ending = field(default_factory=Ending)
    #: The D&D abilities of either book (none by default), with any ruleset and deck.
    abilities: AbilityOptions = field(default_factory=AbilityOptions)
    #: Apply questions with a single legal answer automatically (they are logged).
    auto_single: bool = True

    @property
    def starting_gold(self) -> int:
        """Each player's starting hoard: the agreed fixed amount, else the
        ruleset's (50 under the original rules), else 10 (or the chosen amount) x players."""
        if self.starting_gold_fixed > 0:
            return self.starting_gold_fixed
        if self.rules.starting_hoard > 0:
            return self.rules.starting_hoard
        return self.players * self.gold_per_player

    def validate(self) -> GameConfig:
        """Raise :class:`ConfigError` unless this config can be played."""
        if not 2 <= self.players <= 6:
            raise ConfigError(
                f"players must be 2-6, got {self.players}",
                code="players_range",
                players=self.players,
            )
        if self.gold_per_player < 1:
            raise ConfigError(
                f"gold_per_player must be positive, got {self.gold_per_player}",
                code="gold_per_player_positive",
                gold=self.gold_per_player,
            )
        if self.starting_gold_fixed < 0:
            raise ConfigError(
                "starting_gold_fixed cannot be negative", code="starting_gold_negative"
            )
        d = self.deck
        if d.preset not in PRESETS:
            raise ConfigError(
                f"unknown deck preset {d.preset!r}; choose from {', '.join(PRESETS)}",
                code="unknown_preset",
                preset=d.preset,
                choices=", ".join(PRESETS),
            )
        if d.preset != "legendary":
            try:
                cards = fixed_deck(d.preset, d.custom)
            except DeckError as e:
                raise ConfigError(str(e)) from e
            need = (self.rules.starting_hand + 2) * self.players
            if len(cards) < need:
                raise ConfigError(
                    f"the {d.preset} deck has {len(cards)} cards; {self.players} players "
                    f"need at least {need}",
                    code="deck_too_small",
                    preset=d.preset,
                    cards=len(cards),
                    players=self.players,
                    need=need,
                )
        elif d.custom:
            raise ConfigError(
                "custom cards are only used with the custom preset", code="custom_without_preset"
            )
        if d.original_colors_six_cards and not original_colors(d.preset):
            raise ConfigError(
                f"original_colors_six_cards needs a theme deck with original-edition colors, "
                f"not {d.preset}",
                code="six_cards_preset",
                preset=d.preset,
            )
        if d.selection not in SELECTIONS:
            raise ConfigError(
                f"unknown deck selection {d.selection!r}; choose from {', '.join(SELECTIONS)}",
                code="unknown_selection",
                selection=d.selection,
                choices=", ".join(SELECTIONS),
            )
        if not 0 <= d.special_count <= 30:
            raise ConfigError(
                f"special_count must be 0-30, got {d.special_count}",
                code="special_count_range",
                count=d.special_count,
            )
        for key in d.forced_includes:
            t = CARD_TYPES.get(key)
            if t is None or t.set not in ("legendary-dragon", "legendary-mortal"):
                raise ConfigError(
                    f"{key!r} is not a Legendary special card (Mortal or Legendary)",
                    code="not_special_card",
                    key=key,
                )
        if len(set(d.forced_includes)) != len(d.forced_includes):
            raise ConfigError("forced_includes lists a card twice", code="forced_twice")
        _check_specials(d)
        if d.selection == "agreed" and len(d.forced_includes) != d.special_count:
            raise ConfigError(
                f"the agreed selection needs exactly {d.special_count} cards in forced_includes",
                code="agreed_count",
                count=d.special_count,
            )
        if d.selection == "pick_em" and len(d.forced_includes) + self.players > d.special_count:
            raise ConfigError("pick 'em needs room for one pick per player", code="pick_em_room")
        r = self.rules
        if r.ruleset not in RULESETS:
            raise ConfigError(
                f"unknown ruleset {r.ruleset!r}; choose from {', '.join(RULESETS)}",
                code="unknown_ruleset",
                ruleset=r.ruleset,
                choices=", ".join(RULESETS),
            )
        if r.debt_model not in DEBT_MODELS:
            raise ConfigError(
                f"debt_model is one of {', '.join(DEBT_MODELS)}",
                code="debt_model",
                choices=", ".join(DEBT_MODELS),
            )
        if r.stake_debt_recipient not in ("winner", "next_stakes"):
            raise ConfigError(
                "stake_debt_recipient is 'winner' or 'next_stakes'", code="stake_debt_recipient"
            )
        ending = self.ending
        for name in (
            "gambits",
            "target_gold",
            "players_remaining",
            "time_limit_minutes",
            "series_games",
        ):
            if getattr(ending, name) < 0:
                raise ConfigError(
                    f"ending.{name} cannot be negative", code="ending_negative", name=name
                )
        if ending.players_remaining and not 1 <= ending.players_remaining < self.players:
            raise ConfigError(
                f"ending.players_remaining must be 1-{self.players - 1} at this table",
                code="players_remaining_range",
                most=self.players - 1,
            )
        if r.hand_limit < r.buy_fill_to or r.hand_limit < 1:
            raise ConfigError("hand_limit must be at least buy_fill_to", code="hand_limit")
        if r.starting_hand > r.hand_limit:
            raise ConfigError("starting_hand cannot exceed hand_limit", code="starting_hand")
        if r.ante_redo not in ANTE_REDOS:
            raise ConfigError(
                f"ante_redo is one of {', '.join(ANTE_REDOS)}",
                code="ante_redo",
                choices=", ".join(ANTE_REDOS),
            )
        if r.ante_tied_leader not in ANTE_TIED_LEADERS:
            raise ConfigError(
                f"ante_tied_leader is one of {', '.join(ANTE_TIED_LEADERS)}",
                code="ante_tied_leader",
                choices=", ".join(ANTE_TIED_LEADERS),
            )
        if r.starting_hoard < 0:
            raise ConfigError("rules.starting_hoard cannot be negative", code="starting_hoard")
        if r.min_rounds < 1:
            raise ConfigError("min_rounds must be at least 1", code="min_rounds")
        if r.strength_flight_ante_cards < ALL_ANTE_CARDS:
            raise ConfigError(
                "strength_flight_ante_cards is a count, or -1 for all",
                code="strength_flight_ante_cards",
            )
        if r.empty_stakes_pending_rewards not in ("skip", "resolve"):
            raise ConfigError(
                "empty_stakes_pending_rewards is 'skip' or 'resolve'",
                code="empty_stakes_pending_rewards",
            )
        if r.no_eligible_winner != "carry_stakes":
            raise ConfigError(
                "no_eligible_winner supports only 'carry_stakes'", code="no_eligible_winner"
            )
        if r.hole_recipient not in ("game_winner", "house"):
            raise ConfigError("hole_recipient is 'game_winner' or 'house'", code="hole_recipient")
        self.abilities.validate(self.players)
        return self

    def with_(self, **changes: Any) -> GameConfig:
        """A copy with top-level fields changed (``deck``/``rules`` take dicts too)."""
        if isinstance(changes.get("deck"), dict):
            changes["deck"] = _build(DeckOptions, changes["deck"], "deck")
        if isinstance(changes.get("rules"), dict):
            changes["rules"] = _rules(changes["rules"])
        if isinstance(changes.get("ending"), dict):
            changes["ending"] = _build(Ending, changes["ending"], "ending")
        if isinstance(changes.get("abilities"), dict):
            changes["abilities"] = options_from_dict(changes["abilities"])
        return replace(self, **changes)


def _check_specials(d: DeckOptions) -> None:
    """However the specials are chosen, the Legendary deck is the 70 dragons plus
    exactly ``special_count`` specials (Setup step 2: "add 10 ..."): a choice that
    would give more or fewer is refused here, never built short or long."""
    if d.preset != "legendary":
        return
    forced = set(d.forced_includes)
    if d.selection == "traditional":
        if d.special_count != len(TRADITIONAL_SPECIALS):
            raise ConfigError(
                f"the traditional set is {len(TRADITIONAL_SPECIALS)} specials; "
                f"special_count must be {len(TRADITIONAL_SPECIALS)}, got {d.special_count}",
                code="traditional_count",
                count=len(TRADITIONAL_SPECIALS),
                got=d.special_count,
            )
        extra = sorted(forced - set(TRADITIONAL_SPECIALS))
        if extra:
            raise ConfigError(
                f"the traditional set is fixed: {', '.join(extra)} cannot be added to it",
                code="traditional_forced",
                cards=", ".join(extra),
            )
        return
    if d.selection == "druids_party":
        forced.add("L-mor-druid")
    if len(forced) > d.special_count:
        raise ConfigError(
            f"{len(forced)} specials are forced in (the forced includes, and the Druid "
            f"in Druid's party) but the deck takes {d.special_count}",
            code="forced_too_many",
            forced=len(forced),
            count=d.special_count,
        )


def config_to_dict(config: GameConfig) -> dict[str, Any]:
    """A JSON-ready dict (tuples become lists).  A table without abilities has no
    ``abilities`` key, so its records read exactly as before abilities existed."""
    d = asdict(config)
    d["deck"]["forced_includes"] = list(config.deck.forced_includes)
    d["deck"]["custom"] = list(config.deck.custom)
    if config.abilities.enabled:
        d["abilities"] = options_to_dict(config.abilities)
    else:
        del d["abilities"]
    return d


def _rules(data: Any) -> Rules:
    """Rules from a dict: the named ruleset's defaults, then the listed changes."""
    if not isinstance(data, dict):
        raise ConfigError("rules must be an object", code="rules_object")
    ruleset = data.get("ruleset", "legendary")
    if not isinstance(ruleset, str):
        raise ConfigError("rules.ruleset must be a string", code="ruleset_string")
    base = Rules.preset(ruleset)
    changes = _build(Rules, data, "rules")
    return replace(base, **{k: getattr(changes, k) for k in data})


def _build(cls: Any, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be an object", code="section_object", where=where)
    names = {f.name: f for f in fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        f = names.get(key)
        if f is None:
            raise ConfigError(
                f"unknown {where} option {key!r}", code="unknown_option", where=where, key=key
            )
        default = getattr(cls(), key)
        if isinstance(default, tuple):
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ConfigError(
                    f"{where}.{key} must be a list of card keys",
                    code="option_card_list",
                    where=where,
                    key=key,
                )
            value = tuple(value)
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ConfigError(
                    f"{where}.{key} must be true or false", code="option_bool", where=where, key=key
                )
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(
                    f"{where}.{key} must be an integer", code="option_int", where=where, key=key
                )
        elif isinstance(default, str) and not isinstance(value, str):
            raise ConfigError(
                f"{where}.{key} must be a string", code="option_string", where=where, key=key
            )
        kwargs[key] = value
    return cls(**kwargs)


def config_from_dict(data: Any) -> GameConfig:
    """Parse and validate a config dict; raises :class:`ConfigError`."""
    if not isinstance(data, dict):
        raise ConfigError("config must be an object", code="config_object")
    data = dict(data)
    deck = _build(DeckOptions, data.pop("deck", {}), "deck")
    rules = _rules(data.pop("rules", {}))
    ending = _build(Ending, data.pop("ending", {}), "ending")
    abilities = options_from_dict(data.pop("abilities", {}))
    top = _build(_Top, data, "config")
    return GameConfig(
        players=top.players,
        gold_per_player=top.gold_per_player,
        starting_gold_fixed=top.starting_gold_fixed,
        deck=deck,
        rules=rules,
        ending=ending,
        abilities=abilities,
        auto_single=top.auto_single,
    ).validate()


@dataclass(frozen=True, slots=True)
class _Top:
    players: int = 4
    gold_per_player: int = 10
    starting_gold_fixed: int = 0
    auto_single: bool = True
