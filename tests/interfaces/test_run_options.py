"""Run options (``--lang``, ``--json``, ``--seed``, ``--games``...) are declared once.

Each is one :class:`~dragonante.interfaces.cli.run_options.RunOption`; a
command may give it another default or its own help sentence, never its own
``typer.Option`` with the same flag.  The commands are read as source (the
flags of every ``typer.Option`` call, or the parameter's name when a call
names no flag, as typer does) and as built Click commands.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main

from dragonante.i18n import t
from dragonante.interfaces import cli as cli_package
from dragonante.interfaces.cli import app
from dragonante.interfaces.cli.run_options import (
    GAMES,
    JSON,
    PLAYERS,
    RUN_OPTIONS,
    SEED,
    RunOption,
)
from tests.interfaces.conftest import Cli

CLI = Path(cli_package.__file__).parent
#: Every flag a run option owns, long and short.
RUN_FLAGS = {f for o in RUN_OPTIONS for f in (o.flag, o.short) if f}


def option_flags(call: ast.Call, parameter: str | None) -> list[str]:
    """The flags a ``typer.Option(...)`` call gives its parameter."""
    flags = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if not flags and parameter is not None:
        flags = ["--" + parameter.replace("_", "-")]
    return flags


def typer_option_calls() -> Iterator[tuple[str, list[str]]]:
    """(where, flags) of every ``typer.Option`` call in the command modules."""
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        owner: dict[int, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.arg) and node.annotation is not None:
                for inner in ast.walk(node.annotation):
                    owner[id(inner)] = node.arg
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "Option"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "typer"
            ):
                where = f"{path.name}:{node.lineno}"
                yield where, option_flags(node, owner.get(id(node)))


def test_no_command_declares_a_run_option_again() -> None:
    calls = list(typer_option_calls())
    assert len(calls) > 50  # the scan sees the commands' own options
    again = [
        (where, flags)
        for where, flags in calls
        if RUN_FLAGS & set(flags) and not where.startswith("run_options.py")
    ]
    assert again == []


def walk(command: Any, path: str) -> Iterator[tuple[str, Any]]:
    yield path, command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from walk(sub, f"{path} {name}")


def test_every_run_flag_means_one_option_on_every_command() -> None:
    """A run flag never comes with another option's flags (``--seed -n``), and
    ``--lang`` is on every command that prints anything."""
    seen: dict[str, set[str]] = {}
    leaves = set()
    for path, command in walk(typer.main.get_command(app), "dragonante"):
        if not getattr(command, "commands", None):
            leaves.add(path)
        for param in command.params:
            names = {*param.opts, *param.secondary_opts}
            for option in RUN_OPTIONS:
                if option.flag in names:
                    assert names <= {option.flag, option.short}, (path, names)
                    seen.setdefault(option.flag, set()).add(path)
    assert len(leaves) > 12 and seen["--lang"] == leaves
    assert {"--json", "--seed", "--games", "--players", "--out"} <= set(seen)


def flags(info: Any) -> tuple[str, ...]:
    """An OptionInfo's flags (typer keeps the first where the default once was)."""
    return tuple(f for f in (info.default, *info.param_decls) if isinstance(f, str))


def test_an_option_keeps_its_flags_and_takes_a_commands_own_help() -> None:
    assert flags(GAMES.option()) == ("--games", "-n")
    assert flags(GAMES.option(short=False)) == ("--games",)
    own = JSON.option("opt.cards_json")
    assert flags(own) == ("--json",) and own.help == t("opt.cards_json", "en")
    limited = PLAYERS.option("opt.load_players", short=False, min=2, max=6)
    assert (limited.min, limited.max, flags(limited)) == (2, 6, ("--players",))
    formatted = SEED.option("dice.opt.bots", params={"bots": "x, y"})
    assert formatted.help == t("dice.opt.bots", "en", bots="x, y")


@pytest.mark.parametrize("option", RUN_OPTIONS, ids=lambda o: f"{o.flag}:{o.help}")
def test_every_declaration_has_help_in_both_languages(option: RunOption[Any]) -> None:
    assert t(option.help, "en") != option.help and t(option.help, "it") != t(option.help, "en")


@pytest.mark.parametrize(
    ("args", "shown", "absent"),
    [
        (["simulate", "--help"], "-n", None),
        (["tournament", "--help"], "--games", "-n "),
        (["loadtest", "--help"], "--players", "-p "),
        (["bench", "--help"], "-s", None),
    ],
)
def test_help_keeps_each_commands_flags(
    cli: Cli, args: list[str], shown: str, absent: str | None
) -> None:
    r = cli([*args, "--lang", "en"])
    assert r.code == 0 and shown in r.out
    if absent is not None:
        assert absent not in r.out


def test_run_options_keep_working_with_their_per_command_defaults(cli: Cli) -> None:
    r = cli(["simulate", "-n", "3", "--players", "3", "--json", "--lang", "en"])
    assert r.code == 0, r.err
    assert '"games": 3' in r.out and '"seed": 0' in r.out
    r = cli(["tournament", "--seats", "random,random", "--games", "2", "--seed", "5", "--json"])
    assert r.code == 0, r.err
    r = cli(["simulate", "--lang", "xx"])
    assert r.code == 2 and "xx" in r.err
