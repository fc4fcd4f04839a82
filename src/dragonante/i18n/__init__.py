"""Message catalogs: every sentence the commands show, in English and Italian.

The catalogs are flat JSON objects (``en.json``, ``it.json`` beside this
module) mapping a dotted key to a message with ``{param}`` placeholders, so
any client - the terminal here, a browser later - can load the very same
files and say the same things.  Keeping the text out of the code is what
lets a translator work without reading Python, and a test checks that both
languages have exactly the same keys and placeholders, so a missing or
misspelt translation is caught before a player sees a raw key.

Italian follows the project glossary (sfida = gambit, stormo = flight,
piatto = stakes, tesoro = hoard, tana = the hole, apertura = ante, "mo" for
gold pieces).
"""

from __future__ import annotations

import json
import os
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

#: The languages with a catalog; the first is the fallback.
LANGS: tuple[str, ...] = ("en", "it")
DEFAULT_LANG = "en"


class CatalogError(ValueError):
    """A catalog file that is missing or malformed (a packaging bug, not a user error)."""


@cache
def catalog(lang: str) -> dict[str, str]:
    """The flat catalog of ``lang``; raises :class:`CatalogError` for an unknown language."""
    if lang not in LANGS:
        raise CatalogError(f"no catalog for language {lang!r}; known: {', '.join(LANGS)}")
    text = resources.files(__package__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise CatalogError(f"{lang}.json must be an object of string messages")
    _loaded[lang] = data
    return data


def has(key: str, lang: str = DEFAULT_LANG) -> bool:
    """Whether ``key`` exists (used to pick optional variants such as ``.you``)."""
    return key in (_loaded.get(lang) or catalog(lang if lang in LANGS else DEFAULT_LANG))


def t(key: str, lang: str = DEFAULT_LANG, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` with its ``{param}`` placeholders filled.

    An unknown language falls back to English and an unknown key to the key
    itself, so a gap in a catalog shows up as a visible key instead of a
    crash in the middle of a game; the catalog test keeps that from
    shipping.  A placeholder the caller did not supply is left as written.
    ``key`` and ``lang`` are positional-only so that messages may have
    placeholders of those names (``{lang}``, ``{key}``).
    """
    table = _loaded.get(lang) or catalog(lang if lang in LANGS else DEFAULT_LANG)
    message = table.get(key)
    if message is None:
        message = catalog(DEFAULT_LANG).get(key, key)
    if not params:
        return message
    try:
        # ``params`` is this call's own dict: no copy into _Params unless a
        # placeholder is missing (the same text either way).
        return message.format_map(params)
    except KeyError:
        return message.format_map(_Params(params))


#: The catalogs already read, by language (``t`` is called for every word the
#: server says: a dict lookup is cheaper than the ``cache`` wrapper's call).
_loaded: dict[str, dict[str, str]] = {}


def error_reason(error: BaseException, lang: str = DEFAULT_LANG, /) -> str:
    """Why ``error`` happened, in ``lang``.

    The engine's configuration errors carry a ``code`` and ``params``: the
    message ``config_error.<code>`` shows them when the catalog has it;
    anything else falls back to the error's own (English) text.
    """
    code = getattr(error, "code", "")
    key = f"config_error.{code}"
    if code and has(key, lang):
        return t(key, lang, **getattr(error, "params", {}))
    return str(error)


class _Params(dict[str, Any]):
    """Format arguments that leave an unknown ``{name}`` in place instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


#: The locale variables that name the language of messages, strongest first (POSIX order).
LOCALE_VARS: tuple[str, ...] = ("LC_ALL", "LC_MESSAGES", "LANG")


def locale_lang(environ: Mapping[str, str] | None = None) -> str:
    """The catalog language the user's locale asks for (``it_IT.UTF-8`` -> ``it``).

    Follows POSIX: the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that
    is set decides, so ``LC_ALL=C`` overrides an Italian ``LANG`` the way it
    does for every other program.  A locale without a catalog (``C``,
    ``de_DE``) speaks the default language rather than failing: the locale is
    a preference, unlike ``--lang``, which is checked.
    """
    env = os.environ if environ is None else environ
    for name in LOCALE_VARS:
        value = env.get(name, "")
        if value:
            code = value.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].lower()
            return code if code in LANGS else DEFAULT_LANG
    return DEFAULT_LANG


def placeholders(message: str) -> set[str]:
    """The ``{param}`` names a message uses (for the catalog consistency test)."""
    return {name for _, name, _, _ in string.Formatter().parse(message) if name}


def check_lang(lang: str) -> str:
    """``lang`` if it has a catalog, else :class:`ValueError` with a one-line message."""
    if lang not in LANGS:
        raise ValueError(t("cli.error.lang", DEFAULT_LANG, lang=lang, choices=", ".join(LANGS)))
    return lang


__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "LOCALE_VARS",
    "CatalogError",
    "catalog",
    "check_lang",
    "has",
    "locale_lang",
    "placeholders",
    "t",
]
