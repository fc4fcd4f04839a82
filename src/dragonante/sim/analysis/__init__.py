"""Balance analysis: which cards, seats, antes and flights win, over many games.

* :mod:`.summary`: the integer tallies of many games and how one game's
  events add to them (mergeable, so chunks can run anywhere);
* :mod:`.run`: plays the games in chunks of seeds, on one or more processes;
* :mod:`.report`: turns a summary into rates, 95% Wilson intervals and lifts;
* :mod:`.plots` and :mod:`.html`: the PNG plots and the ``report.html`` page.

See ``docs/analysis.md`` for what every number means.
"""

from dragonante.sim.analysis.run import run_analysis, run_chunk
from dragonante.sim.analysis.summary import Summary, add_game

__all__ = ["Summary", "add_game", "run_analysis", "run_chunk"]
