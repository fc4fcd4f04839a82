"""dragonante: the definitive digital Three-Dragon Ante.

Packages, with one-way dependencies ``interfaces -> sim -> bots -> engine -> cards``
(and both engines -> ``kernel``; ``docs/engine.md`` draws the house):

* :mod:`dragonante.kernel` - decisions, the seeded random stream and the step
  interpreter both games run on (standard library only);
* :mod:`dragonante.cards` - every card as data;
* :mod:`dragonante.engine` - the pure, standard-library rules state machine
  (Legendary Edition, Emperor's Gambit, mixed decks, optional rules);
* :mod:`dragonante.scenarios` - the rules-test file format and its runner;
* :mod:`dragonante.dice` - the Dice Gambit variant, its own small engine;
* :mod:`dragonante.bots` - players that see only what their seat sees;
* :mod:`dragonante.sim` - self-play, simulation and benchmarks;
* :mod:`dragonante.interfaces` - the command line and other front ends.
"""

__version__ = "0.1.0"

#: Bumped whenever the engine's behaviour changes, so old game records are
#: refused instead of replaying into a different game.  The golden games
#: (``tests/golden``) pin digests made under this number: a behaviour change
#: fails them until it is bumped and they are regenerated
#: (``python -m tests.golden --update``).  The Dice Gambit has its own,
#: ``dragonante.dice.records.DICE_RULES_VERSION``.
RULES_VERSION = 4

# The optional compiled engine (``dragonante.compiled_engine``): imported
# before any engine module, so that a current compiled build is the one used.
from dragonante import compiled_engine as _compiled_engine  # noqa: E402

_compiled_engine.install()
