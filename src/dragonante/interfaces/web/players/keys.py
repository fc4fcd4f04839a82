"""Player keys and public player ids: how they are made, checked and stored.

A key is 256 random bits (``secrets.token_urlsafe``), so guessing one is
hopeless; lookups are rate-limited anyway, like invite codes
(``House.check_lookup``).  The database keeps ``hash_token(key)`` only, and
a key is compared in constant time once its row is found by that hash.
The public id names a person (the leaderboard, a host handing them a seat)
and opens nothing.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.storage.players import new_id, same_hash
from dragonante.interfaces.web.storage.store import hash_token

#: Made and compared where the players' rows are kept (``storage/players.py``,
#: which both storages use); named here with the rest of the keys' words.
__all__ = ["check_id", "check_key", "key_hash", "new_id", "new_key", "same_hash"]

#: Random bytes of a key (256 bits; the brief asks for 128 or more).
KEY_BYTES = 32
#: What a key looks like: ``token_urlsafe`` output, nothing else accepted.
KEY_RE = re.compile(r"[A-Za-z0-9_-]{32,64}")
#: A public player id: ``p`` and ten hexadecimal digits.
ID_RE = re.compile(r"p[0-9a-f]{10}")


def new_key() -> str:
    """A fresh player key (shown once to its person, never stored as is)."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    """What the database keeps of a key (the same hash as a seat token's)."""
    return hash_token(key)


def check_key(key: Any) -> str:
    """``key`` if it has a key's shape, else a 400 :class:`HubError`: a
    malformed key is refused before any lookup."""
    if not isinstance(key, str) or not KEY_RE.fullmatch(key):
        raise HubError("bad_key", "that is not a player key")
    return key


def check_id(player: Any) -> str:
    """``player`` if it is a public player id, else a 400 :class:`HubError`."""
    if not isinstance(player, str) or not ID_RE.fullmatch(player.strip().lower()):
        raise HubError("bad_player", "that is not a player id (p and ten digits 0-9, a-f)")
    return player.strip().lower()
