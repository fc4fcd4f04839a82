"""The kernel both games run on: decisions, the seeded stream, the step interpreter.

* :mod:`~dragonante.kernel.decisions`: :class:`Decision` (one question to one
  seat, every answer one int) and :class:`IllegalAnswer`;
* :mod:`~dragonante.kernel.rng`: the seeded SplitMix64 stream kept as one
  integer in the state;
* :mod:`~dragonante.kernel.interpreter`: :class:`Registry`, one per game, with
  the ``@step`` / ``@resolver`` / ``@power`` registries, the validated
  ``apply``, the trusted ``advance`` and the chance query ``answered`` /
  ``draws_on_chance``;
* :mod:`~dragonante.kernel.errors`: :class:`ConfigError`, the one error of a
  table's settings for both games.

The card game (:mod:`dragonante.engine`) and the Dice Gambit
(:mod:`dragonante.dice`) are the only packages that build on the interpreter;
everything else answers through their public ``apply`` / ``advance``.  The
kernel imports nothing but the standard library and nothing of either game.
"""

from dragonante.kernel import rng
from dragonante.kernel.decisions import PASS, Decision, IllegalAnswer
from dragonante.kernel.errors import ConfigError, RunawayGame
from dragonante.kernel.interpreter import Apply, KernelState, Registry, Step

__all__ = [
    "PASS",
    "Apply",
    "ConfigError",
    "Decision",
    "IllegalAnswer",
    "KernelState",
    "Registry",
    "RunawayGame",
    "Step",
    "rng",
]
