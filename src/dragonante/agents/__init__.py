"""Agent APIs: the game as learning environments.

* :mod:`dragonante.agents.encoding`: the fixed action space, the action mask
  and the observation vector (one seat's view only);
* :mod:`dragonante.agents.pettingzoo`: every seat an agent (PettingZoo AEC);
* :mod:`dragonante.agents.gymnasium`: one seat against our bots (Gymnasium,
  ``dragonante/ThreeDragonAnte-v1``);
* :mod:`dragonante.agents.openspiel`: every seat a player (OpenSpiel);
* :mod:`dragonante.agents.text`: a language model at a seat, the table as
  text and answers in words.

See ``docs/agents.md``.
"""

from dragonante.extras import require

# numpy, Gymnasium, PettingZoo and OpenSpiel are the 'agents' extra: a clear
# message naming it beats a ModuleNotFoundError from the first submodule.
require("agents", "dragonante.agents")
