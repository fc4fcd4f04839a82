"""Dice Gambit settings: table size, starting hoard, and every ruling as a switch.

options.md §8 resolves the seed's ambiguous points; each resolution is the
default of a field here, and its alternative is the other allowed value, so
a table that reads the rules differently says so instead of patching code.
Points the seed and §8 leave silent are settings too where players could
reasonably disagree (``docs/dice.md`` lists them all).  A config round-trips
through a plain dict (JSON) for save files; :func:`config_from_dict` refuses
unknown keys and bad values with a :class:`ConfigError` naming them (the
card game's class too: :mod:`dragonante.kernel.errors`, re-exported here).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final

# re-exported: one class for both games
from dragonante.kernel.errors import ConfigError as ConfigError

#: §8.11: each gambit starts from the starting hoard (``reset``) or hoards carry over.
HOARD_MODES: Final = ("reset", "carry")
#: §8.8: a withdrawal lasts for the ``gambit`` or the rest of the ``session``.
WITHDRAW_SCOPES: Final = ("gambit", "session")
#: §8.7: criteria in order, each over the players (``criteria``), or player by player.
FLIGHT_ORDERS: Final = ("criteria", "player")
#: §8.10: repaid stake debts go to the stakes ``winner``, are ``lost`` to play,
#: or are ``forgiven`` (the debtor keeps the gold).
STAKE_DEBT_PAYEES: Final = ("winner", "lost", "forgiven")
#: §8.10: debts are settled in the order ``incurred`` across the table, or
#: player by player in ``turn_order``.
SETTLEMENT_ORDERS: Final = ("incurred", "turn_order")

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6


@dataclass(frozen=True, slots=True)
class DiceConfig:
    """Everything about a Dice Gambit table except the seed and the answers."""

    players: int = 4
    #: §8.1 "50 gold (or other agreed to amount)".
    starting_hoard: int = 50
    rounds_per_gambit: int = 3
    #: Seats that own a Three-Dragon Ante gaming set: they roll with advantage
    #: on the turn-order d12, strength dice and tie-breaker d20s (§8.3).
    gaming_set_owners: tuple[int, ...] = ()
    #: Gambits to play; more than one is the seed's optional multi-gambit game.
    gambits: int = 1
    multi_gambit_hoard: str = "reset"
    #: §8.6 [resolution]: a Bahamut sacrifice's replacements ante and trigger.
    replacement_is_full_play: bool = True
    withdraw_scope: str = "gambit"
    #: The seed's optional withdrawal ("Optionally, a player can instead choose
    #: to withdraw"); off, nobody is asked and everyone plays every turn.
    withdrawal: bool = True
    #: §8.7 [resolution]: criteria-major evaluation of the special flights.
    flight_order: str = "criteria"
    #: §8.10 [resolution]: where repaid debts to the stakes go.
    stake_debt_payee: str = "winner"
    settlement_order: str = "incurred"
    #: "A gambit is made up of 3 Rounds" ("On your turn in each of the three
    #: rounds you roll a dragon card"): once every other player has withdrawn,
    #: the last one still rolls the remaining rounds (a God Flight stays
    #: possible).  ``False`` is a house rule: the gambit skips to the special flights.
    lone_player_plays_on: bool = True

    @property
    def multi_gambit(self) -> bool:
        """options.md's ``dg.multi_gambit``: more than one gambit is played."""
        return self.gambits > 1

    def has_gaming_set(self, seat: int) -> bool:
        return seat in self.gaming_set_owners

    def validate(self) -> DiceConfig:
        """Return self, or raise :class:`ConfigError` saying what cannot be played."""
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(
                f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {self.players}",
                code="dice_players_range",
                min=MIN_PLAYERS,
                max=MAX_PLAYERS,
                players=self.players,
            )
        if self.starting_hoard < 1:
            raise ConfigError(
                f"starting_hoard must be positive, got {self.starting_hoard}",
                code="dice_starting_hoard",
                hoard=self.starting_hoard,
            )
        if not 1 <= self.rounds_per_gambit <= 12:
            raise ConfigError(
                f"rounds_per_gambit must be 1-12, got {self.rounds_per_gambit}",
                code="dice_rounds_range",
                rounds=self.rounds_per_gambit,
            )
        if not 1 <= self.gambits <= 1000:
            raise ConfigError(
                f"gambits must be 1-1000, got {self.gambits}",
                code="dice_gambits_range",
                gambits=self.gambits,
            )
        for seat in self.gaming_set_owners:
            if not 0 <= seat < self.players:
                raise ConfigError(
                    f"gaming_set_owners: seat {seat} is not at a table of {self.players}",
                    code="dice_gaming_set_seat",
                    seat=seat,
                    players=self.players,
                )
        if len(set(self.gaming_set_owners)) != len(self.gaming_set_owners):
            raise ConfigError("gaming_set_owners lists a seat twice", code="dice_gaming_set_twice")
        for name, allowed in (
            ("multi_gambit_hoard", HOARD_MODES),
            ("withdraw_scope", WITHDRAW_SCOPES),
            ("flight_order", FLIGHT_ORDERS),
            ("stake_debt_payee", STAKE_DEBT_PAYEES),
            ("settlement_order", SETTLEMENT_ORDERS),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise ConfigError(
                    f"{name} must be one of {', '.join(allowed)}, got {value!r}",
                    code="dice_setting_choice",
                    name=name,
                    choices=", ".join(allowed),
                    value=value,
                )
        return self


#: Setting names and their types, for ``--set key=value`` and save files.
SETTINGS: Final[dict[str, type]] = {
    "players": int,
    "starting_hoard": int,
    "rounds_per_gambit": int,
    "gaming_set_owners": tuple,
    "gambits": int,
    "multi_gambit_hoard": str,
    "replacement_is_full_play": bool,
    "withdraw_scope": str,
    "withdrawal": bool,
    "flight_order": str,
    "stake_debt_payee": str,
    "settlement_order": str,
    "lone_player_plays_on": bool,
}
assert set(SETTINGS) == {f.name for f in fields(DiceConfig)}


def config_to_dict(config: DiceConfig) -> dict[str, Any]:
    data = asdict(config)
    data["gaming_set_owners"] = list(config.gaming_set_owners)
    return data


def config_from_dict(data: Any) -> DiceConfig:
    """A validated config from a plain dict; unknown keys or bad types are refused."""
    if not isinstance(data, dict):
        raise ConfigError("config must be an object of settings", code="dice_config_object")
    values: dict[str, Any] = {}
    for key, value in data.items():
        kind = SETTINGS.get(key)
        if kind is None:
            raise ConfigError(f"unknown setting {key!r}", code="dice_unknown_setting", key=key)
        if kind is tuple:
            if not isinstance(value, list) or not all(type(v) is int for v in value):
                raise ConfigError(f"{key} must be a list of seats", code="dice_seat_list", key=key)
            values[key] = tuple(value)
        elif type(value) is not kind:
            raise ConfigError(
                f"{key} must be {kind.__name__}, got {value!r}",
                code="dice_setting_type",
                key=key,
                kind=kind.__name__,
                value=value,
            )
        else:
            values[key] = value
    return DiceConfig(**values).validate()


def parse_setting(config: DiceConfig, text: str) -> DiceConfig:
    """Apply one ``key=value`` from the command line (``--set withdraw_scope=session``)."""
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    raw = raw.strip()
    kind = SETTINGS.get(key)
    if not sep or kind is None:
        raise ConfigError(
            f"expected KEY=VALUE with KEY one of {', '.join(SETTINGS)}, got {text!r}",
            code="dice_key_value",
            choices=", ".join(SETTINGS),
            text=text,
        )
    value: Any
    if kind is bool:
        lowered = raw.lower()
        if lowered in ("1", "true", "yes", "on"):
            value = True
        elif lowered in ("0", "false", "no", "off"):
            value = False
        else:
            raise ConfigError(
                f"{key} must be true or false, got {raw!r}", code="dice_bool", key=key, raw=raw
            )
    elif kind is int:
        try:
            value = int(raw)
        except ValueError:
            raise ConfigError(
                f"{key} must be a whole number, got {raw!r}", code="dice_int", key=key, raw=raw
            ) from None
    elif kind is tuple:
        value = parse_seats(raw, key)
    else:
        value = raw
    return replace(config, **{key: value}).validate()


def parse_seats(raw: str, what: str) -> tuple[int, ...]:
    """Seat numbers as typed by people (``1,3``: first and third player) -> 0-based seats."""
    if not raw.strip():
        return ()
    seats: list[int] = []
    for part in raw.split(","):
        try:
            n = int(part.strip())
        except ValueError:
            raise ConfigError(
                f"{what}: {part.strip()!r} is not a seat number",
                code="dice_seat_number",
                what=what,
                part=part.strip(),
            ) from None
        if n < 1:
            raise ConfigError(
                f"{what}: seats are numbered from 1, got {n}",
                code="dice_seat_from_one",
                what=what,
                n=n,
            )
        seats.append(n - 1)
    return tuple(seats)
