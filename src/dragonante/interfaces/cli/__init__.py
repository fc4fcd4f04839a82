"""The ``dragonante`` command.

Each sub-command lives in its own module of this package and registers
itself on :data:`app`.  :func:`main` is the console entry point: it turns
every error a user can cause (bad options, unreadable files, illegal
answers) into one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import sys

import typer

# Importing the command modules registers their commands on ``app``.
from dragonante.interfaces.cli import cards as _cards
from dragonante.interfaces.cli.app import UserError, app

_COMMANDS = (_cards,)


def main(argv: list[str] | None = None) -> None:
    """Run the command line; exit 2 with a one-line message on user errors."""
    try:
        app(args=argv, prog_name="dragonante", standalone_mode=True)
    except UserError as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(2)


__all__ = ["app", "main"]
