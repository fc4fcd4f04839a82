"""The engine's configuration errors carry a code, and the catalogs translate every code.

``str(e)`` stays the engine's English; ``config_error.<code>`` in ``en.json``
says exactly the same, and ``it.json`` says it in Italian.
"""

from __future__ import annotations

import ast
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

import dragonante
from dragonante.dice.config import DiceConfig, parse_seats, parse_setting
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.config import DeckOptions, GameConfig, config_from_dict
from dragonante.i18n import catalog, error_reason
from dragonante.kernel.errors import ConfigError
from tests.interfaces.conftest import Cli, assert_one_line_error
from tests.interfaces.test_cli_italian import leaks

SOURCE = Path(dragonante.__file__).parent
ERRORS = ("ConfigError",)


def raise_sites() -> list[tuple[str, ast.Call]]:
    """Every ``raise ConfigError(...)`` of the engines."""
    sites = []
    for folder in ("engine", "dice"):
        for path in sorted((SOURCE / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Raise)
                    and isinstance(node.exc, ast.Call)
                    and isinstance(node.exc.func, ast.Name)
                    and node.exc.func.id in ERRORS
                ):
                    sites.append((f"{path.relative_to(SOURCE)}:{node.lineno}", node.exc))
    return sites


def literal_codes(call: ast.Call) -> list[str] | None:
    """The codes a raise can give: literals, or ``a if cond else b``; None if not literal."""
    for kw in call.keywords:
        if kw.arg != "code":
            continue
        value = kw.value
        options = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
        codes = [v.value for v in options if isinstance(v, ast.Constant)]
        strings = [c for c in codes if isinstance(c, str)]
        return strings if len(strings) == len(options) else None
    return None


def is_rewrap(call: ast.Call) -> bool:
    """``raise ConfigError(str(e), e.code, **e.params)``: passes another error's code on."""
    return (
        bool(call.args)
        and isinstance(call.args[0], ast.Call)
        and isinstance(call.args[0].func, ast.Name)
        and call.args[0].func.id == "str"
    )


def test_every_raise_site_has_a_code_in_both_catalogs() -> None:
    sites = raise_sites()
    assert len(sites) > 70
    codes: set[str] = set()
    uncoded = []
    for where, call in sites:
        found = literal_codes(call)
        if found is None:
            if not is_rewrap(call):
                uncoded.append(where)
            continue
        codes.update(found)
    assert uncoded == [], f"raise sites without code=: {uncoded}"
    for lang in ("en", "it"):
        missing = sorted(c for c in codes if f"config_error.{c}" not in catalog(lang))
        assert missing == [], f"{lang}.json lacks config_error.{missing}"
    unused = sorted(
        k for k in catalog("en") if k.startswith("config_error.") and k[13:] not in codes
    )
    assert unused == []


def test_both_games_raise_one_config_error_class() -> None:
    """One class (``dragonante.kernel.errors``): an interface catches it once for either game."""
    import dragonante.dice as dice
    import dragonante.dice.config as dice_config
    import dragonante.engine as engine
    import dragonante.engine.abilities as abilities
    import dragonante.engine.config as engine_config

    exported = {
        engine_config.ConfigError,
        dice_config.ConfigError,
        engine.ConfigError,
        dice.ConfigError,
        abilities.AbilityConfigError,
    }
    assert exported == {ConfigError}
    defined = [
        f"{path.relative_to(SOURCE)}:{node.name}"
        for path in sorted(SOURCE.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name.endswith("ConfigError")
    ]
    assert defined == ["kernel/errors.py:ConfigError"], defined


def _raises(action: Callable[[], object]) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        action()
    return info.value


def _dice_choice() -> object:
    return parse_setting(DiceConfig(), "withdraw_scope=nowhere")


BAD: list[Callable[[], object]] = [
    lambda: GameConfig(players=9).validate(),
    lambda: GameConfig(gold_per_player=0).validate(),
    lambda: GameConfig(deck=DeckOptions(preset="nope")).validate(),
    lambda: GameConfig(players=6, deck=DeckOptions(special_count=40)).validate(),
    lambda: config_from_dict({"rules": {"ruleset": "nope"}}),
    lambda: config_from_dict({"deck": {"bogus": 1}}),
    lambda: config_from_dict({"ending": {"gambits": "three"}}),
    lambda: config_from_dict({"abilities": {"system": "skills", "insight": [99]}}),
    lambda: DiceConfig(players=9).validate(),
    lambda: parse_setting(DiceConfig(), "nonsense"),
    lambda: parse_setting(DiceConfig(), "gambits=x"),
    _dice_choice,
    lambda: parse_seats("1,x", "--gaming-set"),
    lambda: AbilityOptions(system="psionics").validate(3),
    lambda: AbilityOptions(system="skills", assign="fixed", seats=(("bluff", "nope"),)).validate(2),
    lambda: AbilityOptions(system="skills", assign="fixed", seats=(("desperation",),)).validate(2),
    lambda: AbilityOptions(system="disks", ancestry=("plaid",)).validate(2),
]


@pytest.mark.parametrize("action", BAD)
def test_the_english_catalog_says_what_the_engine_says(action: Callable[[], object]) -> None:
    error = _raises(action)
    assert error.code
    assert error_reason(error, "en") == str(error)
    italian = error_reason(error, "it")
    assert italian != str(error)
    assert leaks(italian) == [], italian


def test_the_code_survives_pickling_and_plain_errors_fall_back() -> None:
    error = _raises(lambda: GameConfig(players=9).validate())
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.code, copy.params) == (str(error), "players_range", {"players": 9})
    plain = ConfigError("something new")
    assert plain.code == "" and error_reason(plain, "it") == "something new"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["dice", "play", "--players", "9"],
            "errore: impossibile preparare questo tavolo: "
            "i giocatori devono essere da 2 a 6, non 9",
        ),
        (
            ["dice", "play", "--set", "rounds_per_gambit=40"],
            "i round per sfida (rounds_per_gambit) devono essere da 1 a 12, non 40",
        ),
        (
            ["simulate", "--players", "3", "--players-remaining", "5"],
            "errore: impossibile preparare questo tavolo: "
            "ending.players_remaining deve essere da 1 a 2 a questo tavolo",
        ),
        (
            ["play", "--deck-selection", "agreed"],
            "la selezione concordata richiede esattamente 10 carte in forced_includes",
        ),
    ],
)
def test_engine_reasons_are_one_italian_line(cli: Cli, args: list[str], expected: str) -> None:
    r = cli([*args, "--lang", "it"])
    assert_one_line_error(r, expected)
    assert leaks(r.err) == [], r.err
    assert "must be" not in r.err and "got" not in r.err


def test_engine_reasons_stay_english_in_english(cli: Cli) -> None:
    r = cli(["dice", "play", "--players", "9", "--lang", "en"])
    assert_one_line_error(r, "cannot set up this table: players must be 2-6, got 9")
