"""Setting a table's abilities up: a new game's (dealt before the first deal) or a position's."""

from __future__ import annotations

from collections.abc import Sequence

from dragonante.engine.abilities import assign as _assign
from dragonante.engine.abilities.catalog import DISKS, SKILLS
from dragonante.engine.abilities.disks import DiskTable
from dragonante.engine.abilities.options import AbilityOptions
from dragonante.engine.abilities.skills import SkillTable
from dragonante.engine.abilities.table import AbilityTable
from dragonante.engine.state import GameState

_REGISTERED = (_assign,)

SYSTEM_TABLES: dict[str, type[AbilityTable]] = {DISKS: DiskTable, SKILLS: SkillTable}


def new_table(options: AbilityOptions, players: int) -> AbilityTable:
    """An empty ability table for ``options.system``."""
    return SYSTEM_TABLES[options.system](options, players)


def install(s: GameState) -> None:
    """Give a new game its ability table; abilities are dealt before the first deal."""
    s.abilities = new_table(s.config.abilities, s.n)
    s.queue.append(("abilities_deal",))


def place(
    s: GameState,
    held: Sequence[Sequence[int]],
    ancestry: Sequence[int] = (),
    revealed: Sequence[int] | None = None,
) -> AbilityTable:
    """Give a mid-game position its ability table (rules scenarios, analysis)."""
    opts = s.config.abilities
    tbl = new_table(opts, s.n)
    for seat, abilities in enumerate(held):
        tbl.give(seat, tuple(abilities))
    for seat, color in enumerate(ancestry):
        tbl.ancestry[seat] = color
    for seat in range(s.n):
        if revealed is not None and seat < len(revealed):
            tbl.revealed[seat] = revealed[seat]
        elif opts.public:
            tbl.revealed[seat] = sum(1 << a for a in tbl.held[seat])
    s.abilities = tbl
    return tbl
