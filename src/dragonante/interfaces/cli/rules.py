"""``dragonante rules``: the rules primer in the terminal.

The text is the message catalogues' ``primer.*`` (:mod:`dragonante.interfaces.primer`),
the same the full-screen table's help and the browser's "Rules" open.
``--section ID`` prints one section; ``--markdown`` prints ``docs/primer.md``
(every language unless ``--lang`` names one), which is how that page is made.
"""

from __future__ import annotations

from typing import Annotated

import typer

from dragonante.i18n import LANGS, t
from dragonante.interfaces import primer
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.run_options import LANG, LangOpt, check_lang
from dragonante.interfaces.cli.table_options import helptext


def _section_help() -> str:
    return helptext("opt.rules_section").format(choices=", ".join(primer.SECTIONS))


@app.command("rules", help=helptext("cmd.rules"))
def rules_command(
    section: Annotated[str | None, typer.Option("--section", help=_section_help())] = None,
    as_markdown: Annotated[
        bool, typer.Option("--markdown", help=helptext("opt.rules_markdown"))
    ] = False,
    lang: LangOpt = LANG.default,
) -> None:
    """Print the rules primer (or one section of it, or its Markdown page)."""
    if as_markdown and lang is None:
        typer.echo(primer.markdown(LANGS), nl=False)
        return
    lang = check_lang(lang)
    if as_markdown:
        typer.echo(primer.markdown((lang,)), nl=False)
        return
    only = None
    if section is not None:
        only = primer.section_id(section)
        if only is None:
            raise UserError(
                t(
                    "cli.error.rules_section",
                    lang,
                    section=section,
                    choices=", ".join(primer.SECTIONS),
                )
            )
    for line in primer.text_lines(lang, only):
        typer.echo(line)
