"""Who gets which ability, before the first gambit: fixed lists, random draws, the draft.

* Legendary (L Appendix 5, "Choosing 3DA Abilities"): "each PC should look
  at the following list ... and note two abilities that they qualify for".
  The draft asks each seat in turn, one ability at a time; several
  characters may note the same ability.  A character who notes Draconic
  Ancestry also names its dragon color.
* Emperor's Gambit (EG Appendix 2): "Each character makes an Insight check.
  In order from the highest check result to the lowest, each character
  chooses one of the special abilities he or she qualifies for ... no other
  character can choose that ability in that game."  With two or three each,
  the same order repeats for every pick (options.md §7.2); tied Insight
  results re-roll among the tied.

Every die and random draw comes from the game's seeded stream, so a game
with abilities is reproducible from (config, seed, answers) like any other.
"""

from __future__ import annotations

from dragonante.engine.abilities import catalog as A
from dragonante.engine.abilities.catalog import ANCESTRY_COLORS, SKILLS
from dragonante.engine.abilities.options import RANDOM
from dragonante.engine.abilities.table import roll, table
from dragonante.engine.core import ask, ev, push, resolver, step
from dragonante.engine.decisions import ANCESTRY_COLOR, DRAFT_ABILITY, Decision
from dragonante.engine.state import GameState
from dragonante.kernel import Step, rng

#: Re-rolls of tied Insight checks before the tie is broken by seat order.
_MAX_REROLLS = 20


def _pool(s: GameState, seat: int, taken: set[int]) -> list[int]:
    """Abilities ``seat`` may still receive: qualified, not held, not taken (skills)."""
    opts = s.config.abilities
    held = table(s).held[seat]
    return [a for a in opts.qualified_for(seat) if a not in held and a not in taken]


def _draw(s: GameState, seat: int, taken: set[int]) -> int:
    """One ability at random for ``seat`` (-1 if none is left)."""
    pool = _pool(s, seat, taken)
    if not pool:
        return -1
    s.rng, k = rng.below(s.rng, len(pool))
    return pool[k]


def _give(s: GameState, seat: int, ability: int, taken: set[int]) -> None:
    tbl = table(s)
    tbl.give(seat, (*tbl.held[seat], ability))
    if s.config.abilities.system == SKILLS:
        taken.add(ability)


def _taken(s: GameState) -> set[int]:
    if s.config.abilities.system != SKILLS:
        return set()
    return {a for h in table(s).held for a in h}


@step("abilities_deal")
def _deal(s: GameState, st: Step) -> None:
    """Give every seat its abilities as ``abilities.assign`` says."""
    opts = s.config.abilities
    n = s.n
    if opts.assign == "draft":
        s.queue.append(("abilities_dealt",))
        if opts.system == SKILLS:
            s.queue.append(("insight_checks",))
        else:
            push(s, *(("draft", k, seat, ()) for k in range(opts.count) for seat in range(n)))
        return
    taken: set[int] = set()
    if opts.assign == "fixed":
        for seat in range(n):  # named abilities first, so random ones avoid them
            for key in opts.seat_list(seat):
                if key != RANDOM:
                    _give(s, seat, A.ID[key], taken)
        for seat in range(n):
            for key in opts.seat_list(seat):
                if key == RANDOM and (a := _draw(s, seat, taken)) >= 0:
                    _give(s, seat, a, taken)
    else:
        for _ in range(opts.count):
            for seat in range(n):
                a = _draw(s, seat, taken)
                if a >= 0:
                    _give(s, seat, a, taken)
    _dealt(s, ("abilities_dealt",))


@step("insight_checks")
def _insight_checks(s: GameState, st: Step) -> None:
    """EG draft: d20 + Insight modifier each; highest first, ties re-rolled."""
    opts = s.config.abilities
    n = s.n
    mods = [opts.insight[p] if p < len(opts.insight) else 0 for p in range(n)]
    totals: dict[int, int] = {}
    for p in range(n):
        d20 = roll(s, 1, 20)[0]
        totals[p] = d20 + mods[p]
        ev(s, "insight_check", seat=p, roll=d20, modifier=mods[p], total=totals[p])
    order = sorted(range(n), key=lambda p: -totals[p])
    # Break ties by re-rolling among the tied, group by group (options.md §7.2).
    final: list[int] = []
    i = 0
    while i < n:
        group = [p for p in order if totals[p] == totals[order[i]]]
        i += len(group)
        final.extend(_break_tie(s, group, 0))
    ev(s, "draft_order", seats=final)
    push(s, *(("draft", k, seat, ()) for k in range(opts.count) for seat in final))


def _break_tie(s: GameState, group: list[int], tries: int) -> list[int]:
    """``group`` (seats with one Insight total) in draft order: "re-roll among the
    tied" (options.md: the books leave Insight ties open).  The re-roll orders the
    whole group; only seats that tie again re-roll again, among themselves, and so
    on (after :data:`_MAX_REROLLS` re-rolls a group keeps its seat order)."""
    if len(group) == 1 or tries >= _MAX_REROLLS:
        return group
    rerolls = {p: roll(s, 1, 20)[0] for p in group}
    ev(s, "insight_reroll", seats=list(group), rolls=[rerolls[p] for p in group])
    ordered = sorted(group, key=lambda p: -rerolls[p])
    out: list[int] = []
    i = 0
    while i < len(ordered):
        tied = [p for p in ordered if rerolls[p] == rerolls[ordered[i]]]
        i += len(tied)
        out.extend(_break_tie(s, tied, tries + 1))
    return out


@step("draft", "pick", "seat", "unused")
def _draft(s: GameState, st: Step) -> None:
    _, _pass, seat, _ = st
    options = tuple(_pool(s, seat, _taken(s)))
    if options:
        ask(s, seat, DRAFT_ABILITY, options)


@resolver(DRAFT_ABILITY)
def _resolve_draft(s: GameState, d: Decision, ability: int) -> None:
    opts = s.config.abilities
    tbl = table(s)
    seat = d.seat
    tbl.give(seat, (*tbl.held[seat], ability))
    vis = None if opts.public else (seat,)
    ev(s, "draft_pick", vis, seat=seat, ability=ability)
    if ability == A.DRACONIC_ANCESTRY and not _configured_color(s, seat):
        ask(s, seat, ANCESTRY_COLOR, tuple(range(len(ANCESTRY_COLORS))))


@resolver(ANCESTRY_COLOR)
def _resolve_color(s: GameState, d: Decision, color: int) -> None:
    table(s).ancestry[d.seat] = color
    vis = None if s.config.abilities.public else (d.seat,)
    ev(s, "ancestry_chosen", vis, seat=d.seat, color=ANCESTRY_COLORS[color])


def _configured_color(s: GameState, seat: int) -> str:
    colors = s.config.abilities.ancestry
    return colors[seat] if seat < len(colors) else ""


@step("abilities_dealt")
def _dealt(s: GameState, st: Step) -> None:
    """Ancestry colors for dragonborn without one, then tell each seat its abilities."""
    opts = s.config.abilities
    tbl = table(s)
    for seat in range(s.n):
        if A.DRACONIC_ANCESTRY in tbl.held[seat] and tbl.ancestry[seat] < 0:
            color = _configured_color(s, seat)
            if color:
                tbl.ancestry[seat] = ANCESTRY_COLORS.index(color)
            else:
                s.rng, tbl.ancestry[seat] = rng.below(s.rng, len(ANCESTRY_COLORS))
    for seat in range(s.n):
        if opts.public:
            for a in tbl.held[seat]:
                tbl.revealed[seat] |= 1 << a
        vis = None if opts.public else (seat,)
        ci = tbl.ancestry[seat]
        ev(
            s,
            "abilities_dealt",
            vis,
            seat=seat,
            abilities=list(tbl.held[seat]),
            color=ANCESTRY_COLORS[ci] if ci >= 0 else "",
        )
