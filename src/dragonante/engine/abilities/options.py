"""How a table uses D&D abilities: which book's system, who has what, the rulings.

:class:`AbilityOptions` is the ``abilities`` part of a
:class:`~dragonante.engine.config.GameConfig`.  With ``system`` empty (the
default) there are no abilities and the engine runs exactly as before.

Who has which ability (``assign``):

* ``fixed``: ``seats`` lists each seat's abilities by key; the word
  ``random`` in a list stands for one ability drawn at random (so
  ``[["random", "random"], [], [], []]`` gives seat 0 two random abilities
  and the others none);
* ``random``: every seat draws ``per_character`` abilities at random;
* ``draft``: the books' way of choosing.  Legendary: each character in turn
  notes the abilities it qualifies for (several characters may have the
  same one).  Emperor's Gambit: everyone makes an Insight check, then, from
  the highest result down, each picks one ability nobody has taken; with
  two or three per character the same order repeats for each pick.

``qualified`` restricts, per seat, what the draft and random draws may give
(the character's skills and features, as the game-master rules); empty
means everything.  The rulings where players could disagree are fields
here too; ``docs/abilities.md`` explains each one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from dragonante.engine.abilities.catalog import (
    ABILITIES,
    ANCESTRY_COLORS,
    DEFAULT_PER_CHARACTER,
    ID,
    MAX_PER_CHARACTER,
    SKILLS,
    SYSTEMS,
)
from dragonante.kernel.errors import ConfigError

ASSIGNMENTS = ("fixed", "random", "draft")
VISIBILITIES = ("hidden", "public")
#: A ``seats`` entry standing for one ability drawn at random.
RANDOM = "random"
#: The old name of :class:`~dragonante.kernel.errors.ConfigError`, kept so callers
#: that import it keep working: ability options fail like any other setting.
AbilityConfigError = ConfigError


@dataclass(frozen=True, slots=True)
class AbilityOptions:
    """The D&D ability rules of a table (options.md §6.3 and §7.2)."""

    #: ``""`` (no abilities), ``disks`` (Legendary) or ``skills`` (Emperor's Gambit).
    system: str = ""
    #: Abilities per character for ``random`` and ``draft`` (0: the book's default,
    #: two disk abilities or one special ability).
    per_character: int = 0
    assign: str = "random"
    #: ``hidden``: only the owner (and a game-master) knows an ability until it is
    #: used; ``public``: everyone knows from the start.  Empty: the book's default
    #: at a table without a game-master, public (Legendary: "If the game doesn't
    #: have a GM, make your chosen abilities public from the start"; the Emperor's
    #: Gambit draft is open).  Only a table with a game-master (the web table's
    #: game-master role) chooses ``hidden``.
    visibility: str = ""
    #: ``fixed``: each seat's ability keys (``random`` for a random one).
    seats: tuple[tuple[str, ...], ...] = ()
    #: Draconic Ancestry color per seat (``""``: drawn at random when needed).
    ancestry: tuple[str, ...] = ()
    #: Per seat, the abilities the character qualifies for (empty: all).
    qualified: tuple[tuple[str, ...], ...] = ()
    #: Per seat, the Insight modifier added to the d20 of the Emperor's Gambit draft.
    insight: tuple[int, ...] = ()
    #: Draconic Ancestry triggers on the ``second`` matching card played in a
    #: gambit only, or on the second and ``each_after``.
    ancestry_trigger: str = "second"
    #: Dungeoneering's different card: another ``random`` one, or one the user
    #: picks from the opponent's hand shown to them (``choose``).
    dungeoneering: str = "random"
    #: Streetwise: each opponent pays the strength of ``any_card`` of the user's
    #: flight (its choice), or of the strength flight's cards (``flight_strength``).
    streetwise: str = "any_card"

    @property
    def enabled(self) -> bool:
        return bool(self.system)

    @property
    def count(self) -> int:
        """Abilities per character for random assignment and the draft."""
        return self.per_character or DEFAULT_PER_CHARACTER.get(self.system, 0)

    @property
    def public(self) -> bool:
        """Everyone knows every ability from the start (the default: no game-master)."""
        return self.visibility != "hidden"

    def validate(self, players: int) -> None:
        """Raise :class:`ConfigError` unless a table of ``players`` can use these."""
        if not self.system:
            if self != AbilityOptions():
                raise ConfigError(
                    "abilities.system must be 'disks' or 'skills' when other ability "
                    "options are set",
                    code="abilities_system_needed",
                )
            return
        if self.system not in SYSTEMS:
            raise ConfigError(
                f"unknown abilities.system {self.system!r}; choose from {', '.join(SYSTEMS)}",
                code="abilities_unknown_system",
                system=self.system,
                choices=", ".join(SYSTEMS),
            )
        most = MAX_PER_CHARACTER[self.system]
        if not 0 <= self.per_character <= most:
            raise ConfigError(
                f"abilities.per_character must be 1-{most}",
                code="abilities_per_character",
                most=most,
            )
        if self.assign not in ASSIGNMENTS:
            raise ConfigError(
                f"unknown abilities.assign {self.assign!r}; choose from {', '.join(ASSIGNMENTS)}",
                code="abilities_unknown_assign",
                assign=self.assign,
                choices=", ".join(ASSIGNMENTS),
            )
        if self.visibility and self.visibility not in VISIBILITIES:
            raise ConfigError(
                "abilities.visibility is 'hidden' or 'public'", code="abilities_visibility"
            )
        for name, value, choices in (
            ("ancestry_trigger", self.ancestry_trigger, ("second", "each_after")),
            ("dungeoneering", self.dungeoneering, ("random", "choose")),
            ("streetwise", self.streetwise, ("any_card", "flight_strength")),
        ):
            if value not in choices:
                raise ConfigError(
                    f"abilities.{name} is one of {', '.join(choices)}",
                    code="abilities_choice",
                    name=name,
                    choices=", ".join(choices),
                )
        own = {a.key for a in ABILITIES if a.system == self.system}
        for field, lists in (("seats", self.seats), ("qualified", self.qualified)):
            if len(lists) > players:
                raise ConfigError(
                    f"abilities.{field} lists more seats than players",
                    code="abilities_too_many_seats",
                    field=field,
                )
            for seat, keys in enumerate(lists):
                for key in keys:
                    if key == RANDOM and field == "seats":
                        continue
                    if key not in own:
                        other = "Emperor's Gambit" if self.system != SKILLS else "Legendary"
                        hint = f" (one of the {other} abilities)" if key in ID else ""
                        raise ConfigError(
                            f"abilities.{field}[{seat}]: {key!r} is not one of the "
                            f"{self.system} abilities{hint}",
                            code="abilities_other_system" if hint else "abilities_unknown_ability",
                            field=field,
                            seat=seat,
                            key=key,
                            system=self.system,
                            other=other,
                        )
                named = [k for k in keys if k != RANDOM]
                if len(set(named)) != len(named):
                    raise ConfigError(
                        f"abilities.{field}[{seat}] lists an ability twice",
                        code="abilities_listed_twice",
                        field=field,
                        seat=seat,
                    )
            if field == "seats":
                for seat, keys in enumerate(lists):
                    if len(keys) > most:
                        raise ConfigError(
                            f"abilities.seats[{seat}]: at most {most} abilities per character",
                            code="abilities_seat_max",
                            seat=seat,
                            most=most,
                        )
        if self.system == SKILLS and self.assign == "fixed":
            named = [k for keys in self.seats for k in keys if k != RANDOM]
            if len(set(named)) != len(named):
                raise ConfigError(
                    "abilities.seats: a special ability belongs to one character only",
                    code="abilities_special_exclusive",
                )
        if self.assign == "fixed" and not self.seats:
            raise ConfigError(
                "abilities.assign = 'fixed' needs abilities.seats",
                code="abilities_fixed_needs_seats",
            )
        if self.assign != "fixed" and self.seats:
            raise ConfigError(
                "abilities.seats is only used with assign = 'fixed'",
                code="abilities_seats_only_fixed",
            )
        if len(self.ancestry) > players:
            raise ConfigError(
                "abilities.ancestry lists more seats than players",
                code="abilities_too_many_seats",
                field="ancestry",
            )
        for seat, color in enumerate(self.ancestry):
            if color and color not in ANCESTRY_COLORS:
                raise ConfigError(
                    f"abilities.ancestry[{seat}]: {color!r} is not a dragon color "
                    f"({', '.join(ANCESTRY_COLORS)})",
                    code="abilities_ancestry_color",
                    seat=seat,
                    color=color,
                    choices=", ".join(ANCESTRY_COLORS),
                )
        if len(self.insight) > players:
            raise ConfigError(
                "abilities.insight lists more seats than players",
                code="abilities_too_many_seats",
                field="insight",
            )
        if any(not -10 <= m <= 30 for m in self.insight):
            raise ConfigError(
                "abilities.insight modifiers must be -10 to +30", code="abilities_insight_range"
            )
        self._check_enough(players)

    def _check_enough(self, players: int) -> None:
        """Special abilities are exclusive: the pool must cover every pick."""
        if self.system != SKILLS:
            return
        pool = sum(1 for a in ABILITIES if a.system == SKILLS)
        if self.assign == "fixed":
            need = sum(len(keys) for keys in self.seats)
        else:
            need = self.count * players
        if need > pool:
            raise ConfigError(
                f"{need} special abilities are needed but there are only {pool}",
                code="abilities_not_enough",
                need=need,
                pool=pool,
            )

    def as_known_by(self, seat: int | None) -> AbilityOptions:
        """These options as ``seat`` may know them: with hidden abilities, another
        seat's fixed list becomes that many ``random`` entries, its ancestry and
        qualifications are blanked (a game-master's notes, not the table's)."""
        if self.public or not self.system:
            return self
        seats = tuple(
            keys if p == seat else (RANDOM,) * len(keys) for p, keys in enumerate(self.seats)
        )
        ancestry = tuple(c if p == seat else "" for p, c in enumerate(self.ancestry))
        qualified = tuple(q if p == seat else () for p, q in enumerate(self.qualified))
        return replace(self, seats=seats, ancestry=ancestry, qualified=qualified)

    def seat_list(self, seat: int) -> tuple[str, ...]:
        return self.seats[seat] if seat < len(self.seats) else ()

    def qualified_for(self, seat: int) -> tuple[int, ...]:
        """Ability numbers ``seat`` may draw or pick (every one of the system if unsaid)."""
        keys = self.qualified[seat] if seat < len(self.qualified) else ()
        return _qualified(self.system, keys)


def _qualified(system: str, keys: tuple[str, ...]) -> tuple[int, ...]:
    """Called only while abilities are dealt or drafted (a few times a game): no cache."""
    if not keys:
        return tuple(a.id for a in ABILITIES if a.system == system)
    return tuple(sorted(ID[k] for k in keys))


def options_from_dict(data: Any) -> AbilityOptions:
    """Parse the ``abilities`` object of a config (lists of strings, ints, words)."""
    if not isinstance(data, dict):
        raise ConfigError("abilities must be an object", code="abilities_object")
    kwargs: dict[str, Any] = {}
    defaults = AbilityOptions()
    for key, value in data.items():
        if key not in AbilityOptions.__dataclass_fields__:
            raise ConfigError(
                f"unknown abilities option {key!r}", code="abilities_unknown_option", key=key
            )
        default = getattr(defaults, key)
        where = f"abilities.{key}"
        if key in ("seats", "qualified"):
            if not isinstance(value, list | tuple) or not all(
                isinstance(v, list | tuple) and all(isinstance(k, str) for k in v) for v in value
            ):
                raise ConfigError(
                    f"{where} must be a list of ability-key lists, per seat",
                    code="abilities_seat_lists",
                    where=where,
                )
            value = tuple(tuple(v) for v in value)
        elif key == "ancestry":
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ConfigError(
                    f"{where} must be a list of colors, per seat",
                    code="abilities_color_list",
                    where=where,
                )
            value = tuple(value)
        elif key == "insight":
            if not isinstance(value, list | tuple) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value
            ):
                raise ConfigError(
                    f"{where} must be a list of integers, per seat",
                    code="abilities_int_list",
                    where=where,
                )
            value = tuple(value)
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{where} must be an integer", code="abilities_int", where=where)
        elif not isinstance(value, str):
            raise ConfigError(f"{where} must be a string", code="abilities_string", where=where)
        kwargs[key] = value
    return AbilityOptions(**kwargs)


def options_to_dict(options: AbilityOptions) -> dict[str, Any]:
    """JSON-ready (tuples become lists)."""
    return {
        "system": options.system,
        "per_character": options.per_character,
        "assign": options.assign,
        "visibility": options.visibility,
        "seats": [list(v) for v in options.seats],
        "ancestry": list(options.ancestry),
        "qualified": [list(v) for v in options.qualified],
        "insight": list(options.insight),
        "ancestry_trigger": options.ancestry_trigger,
        "dungeoneering": options.dungeoneering,
        "streetwise": options.streetwise,
    }
