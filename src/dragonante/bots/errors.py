"""The error of a bot that cannot be set up, below the registry and the loaders.

The registry (:mod:`.registry`) loads outside agents (:mod:`.outside`) and saved
policies (:mod:`.saved`) on demand, and those report a spec they cannot load
with this same error: it lives here so that neither side imports the other
to raise it (``tests/kernel/test_house.py`` refuses import circles).
"""

from __future__ import annotations


class BotSpecError(ValueError):
    """A bot spec with an unknown setting, a value of the wrong kind, or an
    outside agent that cannot be loaded (the message says which)."""
