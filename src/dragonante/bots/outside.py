"""Outside agents written in Python: the ``module:function`` bot spec.

A researcher's agent is seated without touching dragonante: the spec names a
module (importable from the working directory or the installed packages) and
an attribute in it, which is either

* a **function** called at every question with what the built-in bots are
  given, the seat's :class:`~dragonante.bots.base.SeatView` (its view, its
  filtered events, and ``view.decision``: the question and its legal
  answers), returning the answer (one of ``view.decision.options``); or
* a **bot class** (anything with a ``choose(view)`` method), made once per
  seat as ``cls(seed)``.

An answer that is not legal is refused by :class:`OutsideAnswerError`,
naming the agent, the question and the legal answers, before it reaches the
engine.  Specs come only from the user's own command line or code, never
from a web client (``dragonante.bots.registry``).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from typing import Any

from dragonante.bots.base import Bot, SeatView
from dragonante.bots.errors import BotSpecError


class OutsideAnswerError(ValueError):
    """An outside agent answered something that is not a legal answer."""


def load_target(spec: str) -> Any:
    """The object ``module:attribute`` names; :class:`BotSpecError` saying why not."""
    module_name, _, attr = spec.partition(":")
    if os.getcwd() not in sys.path:  # the user's own modules, as ``python -m`` finds them
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotSpecError(f"bot {spec!r}: cannot import module {module_name!r} ({exc})") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise BotSpecError(f"bot {spec!r}: module {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise BotSpecError(f"bot {spec!r}: {attr!r} is not a function or a bot class")
    return obj


class FunctionBot:
    """A function ``answer(view) -> int`` as a bot, its answers checked."""

    def __init__(self, spec: str, function: Callable[[SeatView], Any]) -> None:
        self.name = spec
        self.function = function

    def choose(self, view: SeatView) -> int:
        d = view.decision
        answer = self.function(view)
        if isinstance(answer, bool) or not isinstance(answer, int) or answer not in d.options:
            raise OutsideAnswerError(
                f"bot {self.name!r} answered {answer!r} to {d.kind!r}; "
                f"legal answers: {', '.join(map(str, d.options))}"
            )
        return int(answer)


def outside_bot(spec: str, seed: int) -> Bot:
    """The bot ``spec`` (``module:function`` or ``module:BotClass``) names."""
    obj = load_target(spec)
    if isinstance(obj, type):
        bot = obj(seed)
        if not callable(getattr(bot, "choose", None)):
            raise BotSpecError(f"bot {spec!r}: {obj.__name__} has no choose(view) method")
        return FunctionBot(spec, bot.choose)
    return FunctionBot(spec, obj)


__all__ = ["FunctionBot", "OutsideAnswerError", "load_target", "outside_bot"]
