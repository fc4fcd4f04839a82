"""Run a rules scenario: set the table, play the script, check the expectations.

Strict by design (the XMage card-test model): every question the engine
asks must be the next scripted step (same seat, same kind), every scripted
answer must be used and legal, and when the script ends the game must be
waiting at a natural boundary (a ``play`` or ``ante`` question, or the game
is over) unless the scenario says ``stop = "any"``.  A question nobody
scripted is a failure, so a scenario cannot pass while a power silently
asked something unexpected.  The game's conservation laws are checked at the
end of every scenario as well.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from dragonante.cards import ALL_CARDS
from dragonante.engine import decisions as q
from dragonante.engine.abilities.catalog import ANCESTRY_COLORS
from dragonante.engine.abilities.catalog import KEY as ABILITY_KEY
from dragonante.engine.abilities.disks import DiskTable
from dragonante.engine.abilities.skills import SkillTable
from dragonante.engine.abilities.table import AbilityTable
from dragonante.engine.config import ConfigError, config_from_dict
from dragonante.engine.core import flight_total
from dragonante.engine.decisions import IllegalAnswer
from dragonante.engine.effects import BY_NAME as EFFECT
from dragonante.engine.effects import CARDS, SEATS, shown
from dragonante.engine.game import apply, call_last_gambit, new_game
from dragonante.engine.invariants import violations
from dragonante.engine.position import PositionError, build_position
from dragonante.engine.state import Event, GameState
from dragonante.engine.tables import COLORS
from dragonante.i18n import error_reason
from dragonante.scenarios.determinized import check_determinized
from dragonante.scenarios.format import ABILITY_ID, answer_value, card, cards
from dragonante.scenarios.scenario import Scenario, ScenarioError
from dragonante.scenarios.shown import check_shown
from dragonante.scenarios.skill_check import check_failures

_BOUNDARY = frozenset({q.PLAY, q.ANTE})


@dataclass(slots=True)
class Result:
    """Outcome of one scenario: ``failures`` is empty when it passed."""

    scenario: Scenario
    failures: list[str] = field(default_factory=list)
    state: GameState | None = None
    events: list[Event] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def name(c: int, kind: str = "") -> str:
    """An answer as written in a scenario (card id, ability key...), for messages."""
    if kind in (q.USE_ABILITY, q.DRAFT_ABILITY) and 0 <= c < len(ABILITY_KEY):
        return ABILITY_KEY[c]
    if kind == q.ANCESTRY_COLOR and 0 <= c < len(ANCESTRY_COLORS):
        return ANCESTRY_COLORS[c]
    if c == q.PASS:
        return "pass"
    if c == q.DONE:
        return "done"
    if c == q.ALL:
        return "all"
    if 0 <= c < len(ALL_CARDS):
        return ALL_CARDS[c].id
    return str(c)


def describe_options(kind: str, options: tuple[int, ...]) -> str:
    if kind in (q.USE_ABILITY, q.DRAFT_ABILITY, q.ANCESTRY_COLOR):
        return ", ".join(name(o, kind) for o in options)
    if kind in q.SEAT_ANSWERS or kind in q.CODE_ANSWERS:
        return ", ".join(str(o) for o in options)
    return ", ".join(name(o) for o in options)


def run(scenario: Scenario) -> Result:
    """Play ``scenario`` and collect every mismatch with its expectations."""
    if scenario.refused:
        return run_refused(scenario)
    result = Result(scenario)
    if scenario.check is not None:  # a d20 skill check, not a game
        result.failures.extend(check_failures(scenario))
        return result
    try:
        if scenario.position is None:
            s = new_game(scenario.config, scenario.seed)
        else:
            s = build_position(scenario.config, scenario.position, scenario.seed)
    except PositionError as e:
        result.failures.append(f"table: {e}")
        return result
    result.state = s
    assert s.log is not None
    start = 0
    for i, st in enumerate(scenario.steps, 1):
        d = s.pending
        where = f"step {i} (seat {st.seat} {st.ask} -> {st.answer_text})"
        if d is None:
            result.failures.append(f"{where}: the game is over; this answer was never asked for")
            break
        if d.seat != st.seat or d.kind != st.ask:
            result.failures.append(
                f"{where}: unscripted question: seat {d.seat} is asked {d.kind!r} "
                f"(options: {describe_options(d.kind, d.options)})"
            )
            break
        if st.options is not None and sorted(st.options) != sorted(d.options):
            result.failures.append(
                f"{where}: options are {describe_options(d.kind, d.options)}, "
                f"expected {describe_options(d.kind, st.options)}"
            )
        if st.time_up:
            call_last_gambit(s)
        try:
            apply(s, st.answer, d.id)
        except IllegalAnswer:
            result.failures.append(
                f"{where}: not a legal answer; legal: {describe_options(d.kind, d.options)}"
            )
            break
        if st.expect:
            _check(s, st.expect, s.log[start:], f"after step {i}", result.failures)
    else:
        d = s.pending
        if d is not None and scenario.stop == "boundary" and d.kind not in _BOUNDARY:
            result.failures.append(
                f"end of script: unscripted question: seat {d.seat} is asked {d.kind!r} "
                f"(options: {describe_options(d.kind, d.options)})"
            )
    _check(s, scenario.expect, s.log[start:], "expect", result.failures)
    deck = scenario.position is None  # a position's cards are its own, not a deck's
    result.failures.extend(f"invariant: {v}" for v in violations(s, deck=deck))
    result.events = s.log[start:]
    return result


def run_refused(scenario: Scenario) -> Result:
    """A table that must be refused: building it (the config, then a new game)
    must raise a ConfigError whose message contains ``scenario.refused``, both
    its own text and the one a player reads (the catalog's, by its code)."""
    result = Result(scenario)
    want = scenario.refused
    try:
        new_game(config_from_dict(copy.deepcopy(scenario.raw_config)), scenario.seed)
    except ConfigError as e:
        for told in dict.fromkeys((str(e), error_reason(e))):
            if want not in told:
                result.failures.append(f"refused: {told!r} does not contain {want!r}")
        return result
    result.failures.append(f"refused: the table was accepted, expected a refusal: {want!r}")
    return result


def _multiset(xs: list[int]) -> list[str]:
    return sorted(name(x) for x in xs)


def _per_seat(value: Any, n: int, where: str) -> dict[int, Any]:
    """Per-seat expectations given as a full list or a table keyed by seat number."""
    if isinstance(value, list):
        if len(value) != n:
            raise ScenarioError(f"{where}: expected {n} entries, one per seat")
        return dict(enumerate(value))
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not k.isdigit() or int(k) >= n:
                raise ScenarioError(f"{where}: {k!r} is not a seat")
            out[int(k)] = v
        return out
    raise ScenarioError(f"{where}: expected a list per seat or a table keyed by seat")


def _event_matches(event: Event, spec: Any, where: str) -> bool:
    vis, kind, data = event
    if isinstance(spec, str):
        return kind == spec
    if isinstance(spec, dict):
        if spec.get("kind") != kind:
            return False
        for key, want in spec.items():
            if key == "kind":
                continue
            if key == "seen_by":  # who may see the event: "all" or a list of seats
                if want == "all":
                    if vis is not None:
                        return False
                elif not isinstance(want, list):
                    raise ScenarioError(f"{where}: seen_by is 'all' or a list of seats")
                elif vis is None or sorted(vis) != sorted(want):
                    return False
                continue
            got = data.get(key)
            if key == "ability" and isinstance(want, str):
                want = ABILITY_ID.get(want, want)
            if isinstance(want, str) and isinstance(got, int) and key in _CARD_FIELDS:
                if got != card(want, where):
                    return False
            elif isinstance(want, list) and isinstance(got, list) and key in _CARD_FIELDS:
                if sorted(got) != sorted(cards(want, where)):
                    return False
            elif got != want:
                return False
        return True
    raise ScenarioError(f"{where}: an event is a kind string or a table with a 'kind'")


_CARD_FIELDS = frozenset({"card", "old", "new", "gave", "took", "this", "cards"})


def _check(
    s: GameState, expect: dict[str, Any], events: list[Event], where: str, out: list[str]
) -> None:
    n = s.n

    def mismatch(key: str, got: Any, want: Any) -> None:
        out.append(f"{where}: {key} is {got!r}, expected {want!r}")

    for key, want in expect.items():
        at = f"{where}.{key}"
        if key in ("hoards", "hole_owed", "hand_sizes", "totals"):
            got: Any = {
                "hoards": list(s.hoards),
                "hole_owed": list(s.hole_owed),
                "hand_sizes": [len(h) for h in s.hands],
                "totals": [flight_total(s, p) for p in range(n)],
            }[key]
            if got != want:
                mismatch(key, got, want)
        elif key in (
            "stakes",
            "hole",
            "leader",
            "round",
            "gambit",
            "gambit_winner",
            "phase",
        ):
            got = getattr(s, key)
            if got != want:
                mismatch(key, got, want)
        elif key == "debts":
            got_d = [list(d) for d in s.debts]
            if got_d != [list(d) for d in want]:
                mismatch(key, got_d, want)
        elif key == "deck_size":
            if len(s.deck) != want:
                mismatch(key, len(s.deck), want)
        elif key == "winners":
            if sorted(s.winners) != sorted(want):
                mismatch(key, list(s.winners), want)
        elif key in EFFECT:
            e = EFFECT[key]
            got = shown(e, getattr(s, key), n, None)
            if e.shape == CARDS:
                got, want = sorted(map(name, got)), sorted(name(c) for c in cards(want, at))
            elif e.shape == SEATS:
                want = sorted(want)
            if got != want:
                mismatch(key, got, want)
        elif key == "hands":
            for p, ids in _per_seat(want, n, at).items():
                got_h = _multiset(s.hands[p])
                if got_h != sorted(name(c) for c in cards(ids, at)):
                    mismatch(f"hands[{p}]", got_h, sorted(ids))
        elif key == "flights":
            for p, ids in _per_seat(want, n, at).items():
                got_f = [name(c) for c in s.flights[p]]
                if got_f != [name(c) for c in cards(ids, at)]:
                    mismatch(f"flights[{p}]", got_f, ids)
        elif key == "round_cards":
            got_rc = ["" if c < 0 else name(c) for c in s.round_card]
            if got_rc != want:
                mismatch(key, got_rc, want)
        elif key in ("ante", "discard"):
            zone = s.ante if key == "ante" else s.discard
            if _multiset(zone) != sorted(name(c) for c in cards(want, at)):
                mismatch(key, _multiset(zone), sorted(want))
        elif key == "specials":
            if _multiset(s.specials) != sorted(name(c) for c in cards(want, at)):
                mismatch(key, _multiset(s.specials), sorted(want))
        elif key in ("in_game", "not_in_game"):
            # In the game = one of this game's cards and not set aside unseen.
            aside = set(s.aside)
            for cid in want:
                c = card(cid, at)
                inside = c in s.universe and c not in aside
                if inside != (key == "in_game"):
                    out.append(
                        f"{where}: {cid} is {'in' if inside else 'not in'} the game, "
                        f"expected {'in' if key == 'in_game' else 'not in'}"
                    )
        elif key == "discard_contains":
            missing = [w for w in want if card(w, at) not in s.discard]
            if missing:
                out.append(f"{where}: discard pile lacks {missing}")
        elif key == "deck_top":
            top = [name(c) for c in reversed(s.deck[-len(want) :])] if want else []
            if top != want:
                mismatch(key, top, want)
        elif key == "pending":
            _check_pending(s, want, at, out)
        elif key == "shown":
            check_shown(s, want, at, out)
        elif key == "determinized":
            check_determinized(s, want, at, out)
        elif key in ("events", "events_absent"):
            _check_events(events, key, want, at, out)
        elif key in ("triggered", "not_triggered"):
            fired = {e[2]["card"] for e in events if e[1] == "power"}
            for cid in want:
                did = card(cid, at) in fired
                if did != (key == "triggered"):
                    out.append(
                        f"{where}: {cid} {'did not trigger' if not did else 'triggered'}, "
                        f"expected {'a trigger' if key == 'triggered' else 'no trigger'}"
                    )
        elif key in ("abilities", "revealed", "disks", "spent", "gambits_won"):
            _check_abilities(s, key, want, at, mismatch)
        elif key in ("collected_colors", "collected_strengths"):
            for p, vals in _per_seat(want, n, at).items():
                mask = getattr(s, key)[p]
                if key == "collected_colors":
                    got_c = [c for i, c in enumerate(COLORS) if (mask >> i) & 1]
                    if sorted(got_c) != sorted(vals):
                        mismatch(f"{key}[{p}]", got_c, vals)
                else:
                    got_s = [i for i in range(32) if (mask >> i) & 1]
                    if got_s != sorted(vals):
                        mismatch(f"{key}[{p}]", got_s, vals)


def _check_abilities(s: GameState, key: str, want: Any, at: str, mismatch: Any) -> None:
    """Expectations about the D&D abilities (per seat, as a list or a table by seat)."""
    tbl = s.abilities
    if not isinstance(tbl, AbilityTable):
        raise ScenarioError(f"{at}: this table plays without abilities")
    for p, value in _per_seat(want, s.n, at).items():
        if key == "disks":
            got: Any = "expended" if isinstance(tbl, DiskTable) and not tbl.ready(p) else "ready"
        elif key == "gambits_won":
            got = tbl.wins[p]
        elif key == "abilities":
            got = sorted(ABILITY_KEY[a] for a in tbl.held[p])
            value = sorted(value)
        elif key == "revealed":
            got = sorted(ABILITY_KEY[a] for a in tbl.held[p] if (tbl.revealed[p] >> a) & 1)
            value = sorted(value)
        else:  # spent
            mask = tbl.spent[p] if isinstance(tbl, SkillTable) else 0
            got = sorted(ABILITY_KEY[a] for a in tbl.held[p] if (mask >> a) & 1)
            value = sorted(value)
        if got != value:
            mismatch(f"{key}[{p}]", got, value)


def _check_pending(s: GameState, want: Any, at: str, out: list[str]) -> None:
    d = s.pending
    if want in ("over", "none"):
        if d is not None:
            out.append(f"{at}: seat {d.seat} is asked {d.kind!r}, expected the game over")
        return
    if not isinstance(want, dict):
        raise ScenarioError(f"{at}: expected 'over' or a table with seat and kind")
    if d is None:
        out.append(f"{at}: the game is over, expected a question")
        return
    if "seat" in want and d.seat != want["seat"]:
        out.append(f"{at}: seat {d.seat} is asked, expected seat {want['seat']}")
    if "kind" in want and d.kind != want["kind"]:
        out.append(f"{at}: the question is {d.kind!r}, expected {want['kind']!r}")
    if "source" in want:
        source = -1 if want["source"] == "" else card(want["source"], f"{at}.source")
        if d.source != source:
            got = "no card" if d.source < 0 else name(d.source)
            out.append(f"{at}: the question comes from {got}, expected {want['source']!r}")
    if "options" in want:
        opts = sorted(answer_value(v, at) for v in want["options"])
        if sorted(d.options) != opts:
            out.append(
                f"{at}: options are {describe_options(d.kind, d.options)}, "
                f"expected {describe_options(d.kind, tuple(opts))}"
            )


def _check_events(events: list[Event], key: str, want: Any, at: str, out: list[str]) -> None:
    if not isinstance(want, list):
        raise ScenarioError(f"{at}: expected a list of events")
    if key == "events":
        # In order, as a subsequence of what happened.
        i = 0
        for spec in want:
            while i < len(events) and not _event_matches(events[i], spec, at):
                i += 1
            if i == len(events):
                out.append(f"{at}: no event {spec!r} (in this order) among {_kinds(events)}")
                return
            i += 1
    else:
        for spec in want:
            hit = next((e for e in events if _event_matches(e, spec, at)), None)
            if hit is not None:
                out.append(f"{at}: event {spec!r} happened: {hit[1]} {hit[2]}")


def _kinds(events: list[Event]) -> str:
    counts = Counter(e[1] for e in events)
    return ", ".join(f"{k}x{v}" if v > 1 else k for k, v in counts.items())
