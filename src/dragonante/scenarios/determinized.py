"""The ``determinized`` expectation: what a searching bot may imagine is still the game.

The search bots (IS-MCTS, the heuristic's lookahead) play out imagined worlds:
``determinize(state, seat, seed)`` re-deals everything hidden from ``seat`` -
other hands, the deck, face-down cards, other characters' secret D&D
abilities.  Hidden information is a rule of this project ("nothing a seat may
not see reaches that seat's ... bot"), and an imagined world is only fair if
the seat cannot tell it from the real one and if it could really happen.  So
``[expect.determinized]`` (``seat``, and ``seeds``: default 0-7; or a list of
such tables) checks, for
each seed, that the re-dealt state

* shows ``seat`` exactly what the real one shows (its whole view);
* keeps the game's conservation laws (every card in one zone, gold);
* could be dealt: each character holds as many abilities as before, of the
  table's system, none twice, none shared when the book makes them exclusive
  (special abilities), a Draconic Ancestry color only with Draconic Ancestry
  (and one whenever the real table's dragonborn have theirs);
* does not depend on what the seat cannot see: a twin of the real game whose
  other characters hold other secret abilities (and colors), made here
  without the engine's re-deal, imagines the very same world.
"""

from __future__ import annotations

from typing import Any

from dragonante.engine.abilities.catalog import ANCESTRY_COLORS, EXCLUSIVE_SYSTEMS, of_system
from dragonante.engine.abilities.catalog import ID as ABILITY_ID
from dragonante.engine.abilities.table import AbilityTable
from dragonante.engine.determinize import determinize
from dragonante.engine.invariants import violations
from dragonante.engine.state import GameState
from dragonante.engine.views import observe
from dragonante.scenarios.scenario import ScenarioError

_ANCESTRY = ABILITY_ID["draconic_ancestry"]


def _abilities_dealable(real: AbilityTable, imagined: AbilityTable) -> list[str]:
    """What makes the imagined abilities impossible to deal, if anything."""
    out = []
    system = {a.id for a in of_system(real.system)}
    seen: dict[int, int] = {}
    exclusive = real.system in EXCLUSIVE_SYSTEMS  # the book's, not the table's word
    for p, held in enumerate(imagined.held):
        if len(held) != len(real.held[p]):
            out.append(f"seat {p} holds {len(held)} abilities, really {len(real.held[p])}")
        if len(set(held)) != len(held) or not set(held) <= system:
            out.append(f"seat {p} holds {sorted(held)}: not a deal of the {real.system} abilities")
        for a in held:
            if exclusive and a in seen:
                out.append(f"seats {seen[a]} and {p} both hold ability {a}")
            seen.setdefault(a, p)
        color = imagined.ancestry[p]
        if color >= len(ANCESTRY_COLORS) or (color >= 0 and _ANCESTRY not in held):
            out.append(f"seat {p} has ancestry color {color} with abilities {sorted(held)}")
        dragonborn = _ANCESTRY in real.held[p] and real.ancestry[p] >= 0
        if _ANCESTRY in held and color < 0 and dragonborn:
            out.append(f"seat {p} holds Draconic Ancestry without a color")
    return out


def _twin(s: GameState, seat: int) -> GameState | None:
    """The real game with every ability ``seat`` cannot see swapped for another
    dealable one (None when nothing is hidden from it)."""
    tbl = s.abilities
    if not isinstance(tbl, AbilityTable) or tbl.options.public:
        return None
    twin = s.clone()
    ttbl = twin.abilities
    assert isinstance(ttbl, AbilityTable)
    exclusive = tbl.system in EXCLUSIVE_SYSTEMS
    taken = set(tbl.held[seat]) if exclusive else set()
    kept = [[a for a in h if (tbl.revealed[p] >> a) & 1] for p, h in enumerate(tbl.held)]
    if exclusive:
        taken.update(a for k in kept for a in k)
    changed = False
    for p in range(s.n):
        if p == seat:
            continue
        hidden = len(tbl.held[p]) - len(kept[p])
        # The last dealable abilities of the catalog: another deal than the engine's.
        spare = [a.id for a in reversed(of_system(tbl.system)) if a.id not in taken]
        new = [*kept[p], *[a for a in spare if a not in kept[p]][:hidden]]
        if exclusive:
            taken.update(new)
        ttbl.give(p, tuple(sorted(new)))
        color = tbl.ancestry[p]
        if _ANCESTRY not in new:
            ttbl.ancestry[p] = -1
        elif not (tbl.revealed[p] >> _ANCESTRY) & 1:
            ttbl.ancestry[p] = (max(color, 0) + 1) % len(ANCESTRY_COLORS)
        changed = changed or (ttbl.held[p], ttbl.ancestry[p]) != (tbl.held[p], color)
    return twin if changed else None


def check_determinized(s: GameState, want: Any, at: str, out: list[str]) -> None:
    """Re-deal what ``want["seat"]`` cannot see, for each seed, and check the result
    (``want``: one table, or a list of them for several seats)."""
    if isinstance(want, list):
        for i, one in enumerate(want):
            check_determinized(s, one, f"{at}[{i}]", out)
        return
    if not isinstance(want, dict) or set(want) - {"seat", "seeds"} or "seat" not in want:
        raise ScenarioError(f"{at}: expected a table with seat (and seeds, a list)")
    seat, seeds = want["seat"], want.get("seeds", list(range(8)))
    if type(seat) is not int or not 0 <= seat < s.n:
        raise ScenarioError(f"{at}.seat: no seat {seat!r} at a table of {s.n}")
    if not isinstance(seeds, list) or not all(type(x) is int for x in seeds) or not seeds:
        raise ScenarioError(f"{at}.seeds: expected a list of integers")
    shown = observe(s, seat).to_dict()
    for seed in seeds:
        where = f"{at} (seat {seat}, seed {seed})"
        c = determinize(s, seat, seed)
        imagined = observe(c, seat).to_dict()
        differ = [k for k in shown if imagined.get(k) != shown[k]]
        if differ:
            out.append(f"{where}: the imagined game shows the seat other {', '.join(differ)}")
        out.extend(f"{where}: {v}" for v in violations(c, deck=False))
        if isinstance(s.abilities, AbilityTable) and isinstance(c.abilities, AbilityTable):
            out.extend(f"{where}: {v}" for v in _abilities_dealable(s.abilities, c.abilities))
        twin = _twin(s, seat)
        if twin is not None and determinize(twin, seat, seed).to_dict() != c.to_dict():
            out.append(
                f"{where}: the imagined game depends on the others' secret abilities "
                "(a twin holding other secret abilities imagines another world)"
            )
