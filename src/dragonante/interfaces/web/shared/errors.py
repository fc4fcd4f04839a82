"""The lobby's refusals: :class:`HubError`, and the one for a table of older rules.

A leaf module (it imports no other part of the hub), so every part of the
web package can raise the same refusal without importing the hub: the app
turns it into ``{"error": code, "detail": why}`` with its HTTP status.
"""

from __future__ import annotations

from typing import Protocol

from dragonante import RULES_VERSION


class Versioned(Protocol):
    """What :func:`old_rules` reads of a stored table (``store.StoredTable``).

    A protocol rather than the store's class, so that this module stays a
    leaf below storage too: the refusals do not import the database.
    """

    @property
    def code(self) -> str: ...

    @property
    def rules_version(self) -> int: ...


class HubError(Exception):
    """A request the lobby refuses; ``status`` is the HTTP status to answer with."""

    def __init__(
        self, code: str, detail: str, status: int = 400, retry_after: int | None = None
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status
        #: Seconds after which the same request may succeed (``Retry-After``).
        self.retry_after = retry_after


def old_rules(stored: Versioned) -> HubError | None:
    """The refusal for a table stored under another ``RULES_VERSION`` (else None).

    Its answers replayed under these rules would play a different game
    without a word (issue 21 §3), so such a table is never rebuilt: a
    visitor gets this message instead.
    """
    if stored.rules_version == RULES_VERSION:
        return None
    return HubError(
        "old_game",
        f"table {stored.code} was played under rules version {stored.rules_version}, "
        f"this server plays version {RULES_VERSION}: its game cannot be shown or "
        "continued here, because replaying it under other rules would give a different game",
        410,
    )


def expired(code: str) -> HubError:
    """The refusal for a table that expired before its game started."""
    return HubError("expired", f"table {code} expired before its game started", 410)
