"""When the terminal goes away: save the game instead of losing it.

Closing a terminal window, or an SSH connection that drops, sends the
program SIGHUP, whose default action ends it on the spot: a game left that
way was lost, although ``q`` and Ctrl-C save it (issue 32, section 6).  The
full-screen table (an asyncio loop under Textual) and the numbered prompts
(a blocking ``input()``) each catch the signal here and save the game as
``q`` would, then leave with :data:`EXIT_HANGUP`, the shell's code for a
process ended by SIGHUP.  Where the system has no SIGHUP (Windows) nothing
is installed.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from types import FrameType

#: 128 + SIGHUP: what a shell reports for a process the hang-up ended.
EXIT_HANGUP = 129


class HangUp(Exception):
    """Raised in the numbered prompts' loop when the terminal went away."""


def on_hangup_in_loop(callback: Callable[[], None]) -> bool:
    """Run ``callback`` in the running asyncio loop when SIGHUP arrives (the
    full-screen table); False where that cannot be set up."""
    sighup = getattr(signal, "SIGHUP", None)
    if sighup is None:
        return False
    try:
        asyncio.get_running_loop().add_signal_handler(sighup, callback)
    except (RuntimeError, NotImplementedError, ValueError):
        return False  # no running loop, or not the main thread (a test's pilot)
    return True


def raise_on_hangup() -> Callable[[], None]:
    """Make SIGHUP raise :class:`HangUp` (the numbered prompts, blocked in
    ``input()``); returns the function that puts the old handler back."""
    sighup = getattr(signal, "SIGHUP", None)
    if sighup is None:
        return lambda: None

    def hung_up(signum: int, frame: FrameType | None) -> None:
        raise HangUp

    try:
        old = signal.signal(sighup, hung_up)
    except ValueError:  # not the main thread
        return lambda: None

    def restore() -> None:
        signal.signal(sighup, old)

    return restore
