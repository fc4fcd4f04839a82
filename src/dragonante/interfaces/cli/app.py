"""The Typer application object shared by every sub-command module."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="dragonante",
    help="Three-Dragon Ante: play, simulate, benchmark and study the card game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class UserError(Exception):
    """A problem with what the user asked for; printed as one line, exit code 2."""


def fail(message: str) -> None:
    """Stop the command with a one-line error and exit code 2."""
    raise UserError(message)


@app.callback()
def root() -> None:
    """Three-Dragon Ante: play, simulate, benchmark and study the card game."""
