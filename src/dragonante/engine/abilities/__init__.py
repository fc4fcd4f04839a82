"""The D&D ability rules of both books, joined to the engine through its hooks.

* :mod:`~dragonante.engine.abilities.catalog`: every ability as data;
* :mod:`~dragonante.engine.abilities.options`: the table's ability options
  (``GameConfig.abilities``);
* :mod:`~dragonante.engine.abilities.table`: what both systems share;
* :mod:`~dragonante.engine.abilities.disks`: the Legendary ability disks;
* :mod:`~dragonante.engine.abilities.skills`: Emperor's Gambit special abilities;
* :mod:`~dragonante.engine.abilities.assign`: fixed lists, random draws, the draft;
* :mod:`~dragonante.engine.abilities.setup`: a game's or a position's ability table.

A game with ``config.abilities.system`` set gets an ability table at
``state.abilities`` (:func:`~dragonante.engine.abilities.setup.install`);
a game without one never touches this package.
"""

from __future__ import annotations

from dragonante.engine.abilities.catalog import ABILITIES, DISKS, ID, KEY, SKILLS, SYSTEMS, Ability
from dragonante.engine.abilities.options import (
    AbilityConfigError,
    AbilityOptions,
    options_from_dict,
    options_to_dict,
)

__all__ = [
    "ABILITIES",
    "DISKS",
    "ID",
    "KEY",
    "SKILLS",
    "SYSTEMS",
    "Ability",
    "AbilityConfigError",
    "AbilityOptions",
    "options_from_dict",
    "options_to_dict",
]
