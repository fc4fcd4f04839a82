"""Typer's and Click's own words - the frame of ``--help`` and usage errors - from our catalogs.

Our help texts and messages come from the catalogs, but the frame around
them is the library's: the ``Usage:`` line, the ``Options``/``Commands``
panels, ``[default: ...]``, the help option's "Show this message and exit."
and the usage errors ("No such option", "Invalid value for ...").  Left
alone, an Italian ``--help`` is half English.  This module is the one place
that knows how the library produces those words, so a Typer upgrade that
moves them breaks here (and in ``tests/interfaces/test_cli_italian.py``),
nowhere else.

Typer 0.29 carries its own copy of Click without ``gettext``: its messages
are f-strings, so there is no translation catalog to install for them.
Instead:

* the help frame: :func:`install` sets ``typer.rich_utils``'s module
  constants (panel titles, ``[default: ...]``), routes ``typer.core``'s
  ``gettext`` calls (``default:``, ``required``, "No such command") through
  :class:`CatalogTranslations`, and wraps the three methods that write the
  usage prefix, the help option's text and the type names (``<int>``);
* usage errors: :func:`usage_message` rebuilds the message of a Click
  exception from its attributes (the option, the parameter, the
  validation error behind a bad value) with catalog templates, so it does not
  depend on Click's English wording, which it never parses except for the
  two messages that carry nothing else (extra arguments, an option's value
  count).

A value error this module does not know (a validation type not in the
catalog) keeps the library's English reason inside a translated frame.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Sequence
from typing import Any

import typer.core
import typer.rich_utils
from typer._click import exceptions as click_errors
from typer._click.core import Command
from typer._click.formatting import HelpFormatter

from dragonante.i18n import DEFAULT_LANG, has, t

#: The language :func:`install` set last; the wrapped methods read it when they run.
_lang = DEFAULT_LANG
#: The library's originals, kept so that wrapping happens once however often we install.
_originals: dict[str, Callable[..., Any]] = {}


class CatalogTranslations(gettext.NullTranslations):
    """``gettext`` for the msgids ``typer.core`` looks up, answered from our catalog.

    The msgids are Typer's English strings; the answer keeps their
    ``{placeholders}`` (Typer calls ``.format`` on it).  Anything else passes
    through unchanged, as ``NullTranslations`` does.
    """

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def gettext(self, message: str) -> str:
        lang = self.lang
        default, required = t("click.default", lang), t("click.required", lang)
        table = {
            "default: {default}": f"{default}: {{default}}",
            "required": required,
            "env var: {var}": f"{t('click.env_var', lang)}: {{var}}",
            "(dynamic)": f"({t('click.dynamic', lang)})",
            "Arguments": t("click.arguments", lang),
            "Options": t("click.options", lang),
            "Commands": t("click.commands", lang),
            "Aborted!": t("cli.aborted", lang),
            "Missing command.": t("click.missing_command", lang),
            # Typer formats the answer with name=...; the catalog has {name}.
            "No such command {name!r}.": t("click.no_such_command", lang),
        }
        return table.get(message, message)


def install(lang: str) -> None:
    """Make the library's help frame and messages speak ``lang`` from now on.

    Called by :func:`dragonante.interfaces.cli.main` before the app runs;
    installing again (another language, the next in-process run) replaces
    the words, while the methods are wrapped only the first time.
    """
    global _lang
    _lang = lang
    ru = typer.rich_utils
    ru.ARGUMENTS_PANEL_TITLE = t("click.arguments", lang)
    ru.OPTIONS_PANEL_TITLE = t("click.options", lang)
    ru.COMMANDS_PANEL_TITLE = t("click.commands", lang)
    ru.ERRORS_PANEL_TITLE = t("click.error", lang)
    ru.ABORTED_TEXT = t("cli.aborted", lang)
    ru.DEFAULT_STRING = f"[{t('click.default', lang)}: {{}}]"
    ru.ENVVAR_STRING = f"[{t('click.env_var', lang)}: {{}}]"
    ru.REQUIRED_LONG_STRING = f"[{t('click.required', lang)}]"
    ru.DEPRECATED_STRING = f"({t('click.deprecated', lang)}) "
    ru.RICH_HELP = t("click.try_help", lang)
    # The "Usage: " highlight (a regex over the rendered line) follows the word.
    usage = re.escape(t("click.usage", lang))
    ru.highlighter.highlights = [  # type: ignore[misc]  # an instance's own list
        *(h for h in type(ru.highlighter).highlights if "?P<usage>" not in h),
        rf"(?P<usage>{usage} )",
    ]
    # typer.core did ``from gettext import gettext as _``: its calls read this name.
    typer.core._ = CatalogTranslations(lang).gettext  # type: ignore[attr-defined]
    if not _originals:
        _wrap_methods()


def _wrap_methods() -> None:
    """Wrap the methods that write fixed English into the help (once per process)."""
    _originals["write_usage"] = HelpFormatter.write_usage
    _originals["get_help_option"] = Command.get_help_option

    def write_usage(
        self: HelpFormatter, prog: str, args: str = "", prefix: str | None = None
    ) -> None:
        if prefix is None:
            prefix = t("click.usage", _lang) + " "
        _originals["write_usage"](self, prog, args, prefix)

    def get_help_option(self: Command, ctx: Any) -> Any:
        option = _originals["get_help_option"](self, ctx)
        if option is not None:
            option.help = t("click.help_option", _lang)
        return option

    HelpFormatter.write_usage = write_usage  # type: ignore[method-assign]
    Command.get_help_option = get_help_option  # type: ignore[method-assign]
    # A group adds its "COMMAND [ARGS]..." after the command's "[OPTIONS]".
    for command_class in (Command, typer.core.TyperGroup):
        _wrap_usage_pieces(command_class)
    for param_class in (typer.core.TyperOption, typer.core.TyperArgument):
        _wrap_display_type(param_class)


def _wrap_usage_pieces(cls: type[Any]) -> None:
    original = cls.collect_usage_pieces

    def collect_usage_pieces(self: Any, ctx: Any) -> list[str]:
        pieces: list[str] = original(self, ctx)
        words = {
            "[OPTIONS]": t("click.options_metavar", _lang),
            "COMMAND [ARGS]...": t("click.subcommand_metavar", _lang),
        }
        return [words.get(p, p) for p in pieces]

    cls.collect_usage_pieces = collect_usage_pieces


#: The type names Typer shows in help (``<int range>``, ``<list[str]>``).
TYPE_WORD = re.compile(r"\b(bool|float|int|list|path|range|str)\b", re.IGNORECASE)


def _wrap_display_type(cls: type[Any]) -> None:
    original = cls.display_type_rich

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) and not getattr(self, "count", False):
            return None  # a flag takes no value: "--plain", not "--plain <bool>"
        shown: str | None = original(self, ctx)
        if shown is None:
            return None
        return TYPE_WORD.sub(lambda m: t(f"click.type.{m.group(1).lower()}", _lang), shown)

    cls.display_type_rich = display_type_rich


# --- usage errors -----------------------------------------------------------

#: Typer appends this to "No such command" when a command name is close.
DID_YOU_MEAN = re.compile(r"\.? Did you mean (?P<names>.+)\?$")
EXTRA_ARGS = re.compile(r"^Got unexpected extra argument(?:s|\(s\))? \((?P<args>.*)\)$")
NEEDS_VALUES = re.compile(
    r"^Option (?P<name>'[^']*') requires (?:an argument|(?P<n>\d+) arguments)\.$"
)
NO_VALUE = re.compile(r"^Option (?P<name>'[^']*') does not take a value\.$")


def usage_message(error: click_errors.ClickException, lang: str) -> str:
    """The message of a Click usage error in ``lang``, on one line."""
    message = _usage_message(error, lang)
    return " ".join(message.split())


def _usage_message(error: click_errors.ClickException, lang: str) -> str:
    if isinstance(error, click_errors.NoSuchOption):
        text = t("click.no_such_option", lang, name=error.option_name)
        return _with_possible(text, error.possibilities, lang)
    if isinstance(error, click_errors.MissingParameter):
        kind = error.param_type or (error.param.param_type_name if error.param else "parameter")
        key = f"click.missing.{kind}" if has(f"click.missing.{kind}") else "click.missing.parameter"
        return t(key, lang, name=_hint(error))
    if isinstance(error, click_errors.BadParameter):
        reason = _reason(error, lang)
        name = _hint(error)
        if not name:
            return t("click.invalid_value_bare", lang, reason=reason)
        return t("click.invalid_value", lang, name=name, reason=reason)
    text = error.message
    suggestion = DID_YOU_MEAN.search(text)
    if suggestion:
        text = text[: suggestion.start()]
    if m := EXTRA_ARGS.match(text):
        text = t("click.extra_args", lang, args=m.group("args"))
    elif m := NEEDS_VALUES.match(text):
        if m.group("n"):
            text = t("click.needs_values", lang, name=m.group("name"), n=m.group("n"))
        else:
            text = t("click.needs_value", lang, name=m.group("name"))
    elif m := NO_VALUE.match(text):
        text = t("click.no_value", lang, name=m.group("name"))
    text = text.rstrip(".")
    if suggestion:
        text += "; " + t("click.possible", lang, names=suggestion.group("names"))
    return text


def _with_possible(text: str, possible: Sequence[str] | None, lang: str) -> str:
    if not possible:
        return text
    return text + "; " + t("click.possible", lang, names=", ".join(sorted(possible)))


def _hint(error: click_errors.BadParameter) -> str:
    """The parameter as Click names it (``'--games'``, ``'--players' / '-p'``)."""
    hint = error.param_hint
    if hint is None:
        return error.param.get_error_hint() if error.param is not None else ""
    if isinstance(hint, str):
        return hint
    return " / ".join(repr(x) for x in hint)


def _reason(error: click_errors.BadParameter, lang: str) -> str:
    """Why a value was refused: from the validation error behind it when the catalog knows it."""
    cause = error.__cause__
    errors = getattr(cause, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
        except (IndexError, TypeError, ValueError):
            first = None
        if isinstance(first, dict):
            key = f"click.reason.{first.get('type')}"
            if has(key):
                return t(key, lang, input=first.get("input"), **(first.get("ctx") or {}))
    return error.message.rstrip(".")


__all__ = ["CatalogTranslations", "install", "usage_message"]
