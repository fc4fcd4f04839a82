"""The command line in Italian: every ``--help``, the usage errors, the locale.

``--help`` texts are fixed when the command modules are imported, so the
Italian help of every command is collected by one subprocess per way of
asking (``LANG=it_IT.UTF-8``, ``--lang=it``) and checked here; everything
else runs in-process.  "No English" means: none of the catalog's English-only
sentences (:func:`tests.dice.test_cli_italian.english_only_fragments`) and
none of the words Typer and Click put around our texts.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from dragonante.engine.decks import PRESETS
from dragonante.i18n import catalog, has, t
from dragonante.interfaces.cli import click_i18n
from tests.dice.test_cli_italian import english_only_fragments
from tests.interfaces.conftest import Cli, assert_one_line_error

#: The library's own English around our texts (help frame and usage errors).
LIBRARY_ENGLISH = re.compile(
    r"Usage:|\bOptions\b|\bCommands\b|\bArguments\b|Show this message|\[default:|\[required\]"
    r"|\[OPTIONS\]|\bCOMMAND\b|\[ARGS\]|<(?:int|str|float|bool|list)\b|\brange\b|\bError\b"
    r"|Missing|No such|Invalid value|Did you mean|Possible options|Got unexpected|requires an"
    r"|does not take|Input should|Aborted|Presets:"
)

#: Walks the command tree in a fresh process and prints {command path: help}.
HELP_SCRIPT = """
import contextlib, io, json, sys
sys.argv = ["dragonante", *sys.argv[1:]]  # help_lang() reads --lang from here at import
import typer.main
from dragonante.interfaces.cli import app, main

def paths(command, prefix):
    yield prefix
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from paths(sub, [*prefix, name])

helps = {}
for path in paths(typer.main.get_command(app), []):
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    # a group has no --lang of its own (its help follows the locale); a command does
    lang = [] if hasattr(command, "commands") else sys.argv[1:]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main([*path, "--help", *lang])
    helps[" ".join(["dragonante", *path])] = out.getvalue()
print(json.dumps(helps))
"""


#: The command groups (no --lang option of their own).
GROUPS = ("dragonante", "dragonante dice", "dragonante ratings", "dragonante scenario")


@cache
def italian_helps(how: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    env["COLUMNS"] = "250"  # one help text per line, so that no sentence is cut by wrapping
    args = []
    if how == "locale":
        env["LANG"] = "it_IT.UTF-8"
    else:
        # groups have no --lang: their help is checked with the locale, commands' with both
        args = ["--lang=it"]
    done = subprocess.run(
        [sys.executable, "-c", HELP_SCRIPT, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    helps: dict[str, str] = json.loads(done.stdout)
    return helps


def leaks(text: str) -> list[str]:
    """English in ``text``: catalog sentences Italian lacks, and the library's words."""
    found = [f for f in english_only_fragments() if f in text]
    found += [m.group(0) for m in LIBRARY_ENGLISH.finditer(text)]
    return sorted(set(found))


def test_the_leak_check_catches_english() -> None:
    assert leaks("Usage: dragonante tournament [OPTIONS]") == ["Usage:", "[OPTIONS]"]
    assert leaks("│ --games  <int>  [default: 100]") == ["<int", "[default:"]
    assert leaks("Games to play.") == ["Games to play"]
    assert leaks(" Uso: dragonante tournament [OPZIONI]  <intero>  [predefinito: 100]") == []


@pytest.mark.parametrize("how", ["locale", "option"])
def test_every_command_help_is_italian(how: str) -> None:
    helps = italian_helps(how)
    # every command and group is there, subcommands included
    for path in ("dragonante", "dragonante tournament", "dragonante scenario run"):
        assert path in helps, sorted(helps)
    assert "dragonante dice track" in helps and len(helps) >= 15
    if how == "option":
        helps = {p: text for p, text in helps.items() if p not in GROUPS}
    for path, text in helps.items():
        assert text.strip(), path
        assert leaks(text) == [], (path, leaks(text))
    tournament = helps["dragonante tournament"]
    assert "Uso: dragonante tournament [OPZIONI]" in tournament
    assert "Opzioni" in tournament and "[predefinito: 100]" in tournament
    assert "Mostra questo messaggio ed esce." in tournament
    assert catalog("it")["opt.tournament_seed"] in tournament
    assert "Argomenti" in helps["dragonante scenario run"]
    if how == "locale":
        assert "Comandi" in helps["dragonante"] and "COMANDO [ARGOMENTI]" in helps["dragonante"]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["tournament", "--seats", "baseline,baseline", "--games", "0"],
            "errore: --games deve essere almeno 1, non 0",
        ),
        (["tournament", "--bogus"], "errore: l'opzione --bogus non esiste"),
        (["tournament"], "errore: manca l'opzione '--seats'"),
        (["simulate", "--games", "abc"], "errore: valore non valido per '--games' / '-n': 'abc'"),
        (["serve", "--port", "0"], "'--port': 0 deve essere almeno 1"),
        (["simulate", "extra"], "errore: argomenti in più non previsti: extra"),
        (["simulate", "--json=1"], "errore: l'opzione '--json' non accetta un valore"),
        (["simulate", "--lang", "it", "--games"], "errore: l'opzione '--games' richiede un valore"),
        (["tournament", "--seats", "nobot,baseline"], "errore: bot 'nobot' sconosciuto"),
        (["tournament", "--seats", "baseline"], "un tavolo ha da 2 a 6 posti, non 1"),
        (["scenario", "run", "no-such-dir"], "errore: no-such-dir: file o cartella inesistente"),
    ],
)
def test_usage_errors_are_one_italian_line(cli: Cli, args: list[str], expected: str) -> None:
    r = cli(args if "--lang" in args else [*args, "--lang", "it"])
    assert_one_line_error(r, expected)
    assert leaks(r.err) == [], r.err


def test_close_names_are_suggested_in_italian(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    r = cli(["tournament", "--gamez", "3", "--lang", "it"])
    assert_one_line_error(r, "l'opzione --gamez non esiste; forse intendevi --gambits, --games?")
    # a command name is not an option: the root has no --lang, the locale decides
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    r = cli(["tournamen"])
    assert_one_line_error(r, "il comando 'tournamen' non esiste; forse intendevi 'tournament'?")


def test_usage_errors_stay_english_in_english(cli: Cli) -> None:
    r = cli(["tournament", "--bogus", "--lang", "en"])
    assert_one_line_error(r, "error: no such option: --bogus")
    r = cli(["serve", "--port", "0"])
    assert_one_line_error(r, "invalid value for '--port': 0 must be at least 1")


@pytest.mark.parametrize("command", ["tournament", "simulate", "analyze"])
def test_the_locale_picks_italian(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, command: str, tmp_path: Path
) -> None:
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    args = {
        "tournament": ["tournament", "--seats", "baseline,baseline", "--games", "0"],
        "simulate": ["simulate", "--games", "0"],
        "analyze": ["analyze", "--games", "0", "--out", str(tmp_path)],
    }[command]
    assert_one_line_error(cli(args), "errore: --games deve essere almeno 1, non 0")
    # --lang still wins over the locale
    assert_one_line_error(cli([*args, "--lang", "en"]), "error: --games must be at least 1")


def test_a_tournament_and_a_simulation_report_in_italian(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    monkeypatch.setenv("COLUMNS", "150")
    r = cli(["tournament", "--seats", "baseline,baseline", "--games", "2", "--seed", "3"])
    assert r.code == 0, r.err
    assert "2 partite, 2 giocatori, seme 3" in r.out and "vittorie" in r.out
    assert leaks(r.out) == []
    r = cli(["simulate", "--games", "2", "-p", "3"])
    assert r.code == 0, r.err
    assert r.out.startswith(t("sim.summary", "it", games=2, players=3, first=0, last=1)[:20])


def test_typer_gettext_msgids_have_catalog_answers() -> None:
    it = click_i18n.CatalogTranslations("it")
    assert it.gettext("Missing command.") == "manca il comando"
    assert it.gettext("default: {default}").format(default=3) == "predefinito: 3"
    assert it.gettext("No such command {name!r}.").format(name="x") == "il comando 'x' non esiste"
    assert it.gettext("something Typer adds later") == "something Typer adds later"


def test_every_deck_preset_has_a_description_in_the_catalogs() -> None:
    """The presets' help is looked up by a computed key, which the source scan cannot see."""
    for preset in PRESETS:
        assert has(f"deck.preset.{preset}", "en"), preset
        assert has(f"deck.preset.{preset}", "it"), preset
