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

from dragonante.interfaces.cli.app import UserError, app

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "app":
        importlib.import_module(f"{__name__}.{_module.name}")


def main(argv: list[str] | None = None) -> None:
    """Run the command line; exit 2 with a one-line message on user errors."""
    try:
        app(args=argv, prog_name="dragonante", standalone_mode=True)
    except UserError as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(2)


__all__ = ["app", "main"]
