"""Rules scenarios: small TOML files that set a table, script answers and assert results.

They serve the test suite, a player settling a rules argument
(``dragonante scenario run FILE``) and whoever adds cards later.  The format
is documented in ``docs/scenarios.md``.
"""

from dragonante.scenarios.format import load, parse
from dragonante.scenarios.runner import Result, run
from dragonante.scenarios.scenario import Scenario, ScenarioError

__all__ = ["Result", "Scenario", "ScenarioError", "load", "parse", "run"]
