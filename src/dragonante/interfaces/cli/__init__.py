"""The ``dragonante`` command.

Each sub-command lives in its own module of this package and registers
itself on :data:`app`; importing every module here means a new command is
one new module and nothing else to edit.  :func:`main` is the console entry
point: it turns every error a user can cause (bad options, unreadable files,
illegal answers) into one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import typer

# Typer carries its own copy of Click; its errors are these classes.
from typer._click import exceptions as click_errors

from dragonante.extras import MissingExtra
from dragonante.i18n import t
from dragonante.interfaces.cli import click_i18n
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.table_options import help_lang, helptext

for _module in pkgutil.iter_modules(__path__):
    if _module.name not in ("app", "click_i18n"):
        importlib.import_module(f"{__name__}.{_module.name}")

# ``app`` is declared before the catalogs' help language can be known (the
# option modules import it), so its help is set here, in that language.
app.info.help = helptext("cmd.root")


def main(argv: list[str] | None = None) -> None:
    """Run the command line; exit 2 with a one-line message on user errors.

    Click's own usage errors (an unknown option, ``--games abc``) would be
    drawn as a framed box over several lines; here they are one line naming
    the command's ``--help``, like every other mistake.  The line and the
    help's frame (``Usage:``, ``Options``...) are in the language of
    ``--lang`` or the locale, Click's own messages included
    (:mod:`~dragonante.interfaces.cli.click_i18n`).
    """
    lang = help_lang(argv)
    click_i18n.install(lang)
    try:
        code = app(args=argv, prog_name="dragonante", standalone_mode=False)
    except UserError as e:
        typer.echo(t("cli.error.prefix", lang, message=str(e)), err=True)
        sys.exit(2)
    except MissingExtra as e:
        message = t(
            "cli.error.extra_missing", lang, extra=e.extra, feature=e.feature, module=e.module
        )
        typer.echo(t("cli.error.prefix", lang, message=message), err=True)
        sys.exit(2)
    except click_errors.NoArgsIsHelpError as e:
        # ``dragonante`` alone (or a group without a command): the help was
        # printed already; asking for it is not an error.
        del e
        sys.exit(0)
    except click_errors.UsageError as e:
        where = e.ctx.command_path if e.ctx is not None else "dragonante"
        message = click_i18n.usage_message(e, lang)
        typer.echo(t("cli.error.usage", lang, message=message, where=where), err=True)
        sys.exit(2)
    except click_errors.ClickException as e:
        message = " ".join(e.format_message().split())
        typer.echo(t("cli.error.prefix", lang, message=message), err=True)
        sys.exit(e.exit_code)
    except typer.Abort:
        typer.echo(t("cli.aborted", lang), err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


__all__ = ["app", "main"]
