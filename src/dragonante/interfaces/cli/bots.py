"""``dragonante bots``: every bot a spec may name, what it is and how strong.

One row per registered bot (the built-in ones, then those of installed
packages' ``dragonante.bots`` entry points): its name, the level people pick
it by, its kind (``rules``, ``search`` or ``learned``), what it is, and its
measured strength with the ``tournament`` command that measured it
(``docs/bots.md``).  ``--json`` gives one object per bot, for scripts.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from dragonante.bots import entries
from dragonante.i18n import has, t
from dragonante.interfaces.cli.app import app
from dragonante.interfaces.cli.run_options import JSON, LANG, LangOpt, check_lang
from dragonante.interfaces.cli.table_options import helptext


@app.command("bots", help=helptext("cmd.bots"))
def bots_command(
    as_json: Annotated[bool, JSON.option("opt.bots_json")] = JSON.default,
    lang: LangOpt = LANG.default,
) -> None:
    """List every bot: name, level, kind, what it is, measured strength."""
    lang = check_lang(lang)
    for e in entries():
        if as_json:
            typer.echo(json.dumps(e.to_dict(), ensure_ascii=False))
            continue
        about = t(f"bots.about.{e.name}", lang) if has(f"bots.about.{e.name}", lang) else e.about
        level = t("bots.level", lang, level=e.level) if e.level else ""
        typer.echo(f"{e.name:<12}{level:<16}{t(f'bots.kind.{e.kind}', lang):<10}{about}")
        if e.origin != "dragonante":
            typer.echo(f"{'':12}{t('bots.origin', lang, origin=e.origin)}")
        s = e.strength
        if s is None:
            continue
        typer.echo(
            f"{'':12}"
            + t(
                "bots.strength",
                lang,
                rate=f"{100 * s.win_rate:.1f}",
                low=f"{100 * s.low:.1f}",
                high=f"{100 * s.high:.1f}",
                against=s.against,
                players=s.players,
                games=s.games,
            )
        )
        typer.echo(f"{'':12}  {s.command}")
