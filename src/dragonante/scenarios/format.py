"""The rules-scenario file format: parse and validate a TOML scenario.

A scenario sets a table, scripts the answers and states the expected
results (see ``docs/scenarios.md`` for the full format with examples).  This
module turns the TOML text into a :class:`Scenario` and rejects anything it
does not understand with a :class:`ScenarioError` that names the file and
the offending key, so a typo in a rules test never passes silently.

Cards are written by their physical id (``L-std-red-12``, ``L-mor-druid``);
answers by card id, seat number, or one of the words ``pass``, ``done``,
``yes``, ``no``, ``give`` / ``stakes`` (Blue Dragon modes).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from dragonante.cards import CARD_BY_ID
from dragonante.engine import decisions as q
from dragonante.engine.abilities.catalog import ANCESTRY_COLORS
from dragonante.engine.abilities.catalog import ID as ABILITY_ID
from dragonante.engine.config import ConfigError, config_from_dict
from dragonante.engine.effects import (
    CARDS,
    COUNTS,
    FLAG,
    SCENARIO_KEYS,
    SEATS,
    VISIBLE,
    scenario_help,
)
from dragonante.engine.position import Position
from dragonante.scenarios.scenario import Scenario, ScenarioError, Step, title_and_rule, unplayed
from dragonante.scenarios.skill_check import parse_check

#: Words accepted as answers, by meaning.
ANSWER_WORDS: dict[str, int] = {
    "pass": q.PASS,
    "pay": q.PASS,
    "done": q.DONE,
    "yes": q.YES,
    "no": q.NO,
    "give": 0,  # Blue Dragon: each opponent gives you gold
    "stakes": 1,  # Blue Dragon: each opponent pays the stakes per card in your flight
    "all": q.ALL,  # Adventurer: discard your entire hand
}

#: Keys allowed in ``[table]``, with what they hold.
_TABLE_KEYS = {
    "start": "turn | ante | round_end | new",
    "seed": "integer",
    "hands": "list of card-id lists, one per seat",
    "flights": "list of card-id lists, one per seat",
    "ante": "card ids",
    "deck_top": "card ids, first is drawn first",
    "discard": "card ids",
    "specials_in_deck": "special card ids shuffled into the deck under deck_top",
    "hoards": "gold per seat",
    "stakes": "integer",
    "hole": "integer",
    "hole_owed": "gold each seat owes the hole",
    "gambit": "integer",
    "round": "integer",
    "leader": "seat",
    "turn": "players who already played this round",
    "round_cards": "card id (or empty string) each seat played this round",
    "eliminated": "seats out of the game (players_remaining): no cards, no turn",
    "collected_colors": "per seat, list of color names",
    "collected_strengths": "per seat, list of strengths",
    "debts": "EG debts in the order incurred: [debtor, creditor, amount], -1 = stakes",
    "abilities": "per seat, its D&D ability keys",
    "ancestry": "per seat, its Draconic Ancestry color (or an empty string)",
    "revealed": "per seat, the ability keys everyone already knows",
    "disks": "per seat, ready or expended (Legendary ability disks)",
    "spent": "per seat, special abilities used and not yet recharged",
    "diplomacy_used": "seats that used Diplomacy this gambit",
    "gambits_won": "gambits each seat has won so far",
    "ancestry_plays": "cards matching each seat's ancestry played this gambit",
    # The running effects of triggered powers, from the effects table.
    **{key: scenario_help(key) for key in SCENARIO_KEYS},
}

#: Keys allowed in ``[expect]`` and in a step's ``expect``.
EXPECT_KEYS = frozenset(
    {
        "hoards",
        "stakes",
        "hole",
        "hole_owed",
        "hands",
        "hand_sizes",
        "flights",
        "ante",
        "deck_top",
        "deck_size",
        "discard",
        "discard_contains",
        "leader",
        "round",
        "gambit",
        "phase",
        "gambit_winner",
        "winners",
        "totals",
        "pending",
        "shown",
        "determinized",
        "events",
        "events_absent",
        "triggered",
        "not_triggered",
        "round_cards",
        "collected_colors",
        "collected_strengths",
        "debts",
        "specials",
        "in_game",
        "not_in_game",
        "abilities",
        "revealed",
        "disks",
        "spent",
        "gambits_won",
        # The running effects some seat may see, from the effects table.
        *(e.name for e in VISIBLE),
    }
)


def card(value: Any, where: str) -> int:
    """A card id to its engine number, or a clear error."""
    if not isinstance(value, str):
        raise ScenarioError(f"{where}: expected a card id string, got {value!r}")
    c = CARD_BY_ID.get(value)
    if c is None:
        hint = [cid for cid in CARD_BY_ID if cid.startswith(value)]
        more = f" (did you mean {', '.join(hint[:6])}?)" if hint else ""
        raise ScenarioError(f"{where}: unknown card id {value!r}{more}")
    return c.index


def cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected a list of card ids")
    return [card(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _ints(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise ScenarioError(f"{where}: expected a list of integers")
    return list(value)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{where}: expected an integer, got {value!r}")
    return value


def per_seat_cards(value: Any, where: str, players: int) -> list[list[int]]:
    if not isinstance(value, list) or len(value) > players:
        raise ScenarioError(f"{where}: expected a list of at most {players} card-id lists")
    out = [cards(v, f"{where}[{i}]") for i, v in enumerate(value)]
    return out + [[] for _ in range(players - len(out))]


def answer_value(value: Any, where: str) -> int:
    """An answer as written in a scenario to the integer the engine takes."""
    if isinstance(value, bool):
        raise ScenarioError(f"{where}: write yes/no, not true/false")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        word = ANSWER_WORDS.get(value.lower())
        if word is not None:
            return word
        if value in ABILITY_ID:  # use_ability, draft_ability
            return ABILITY_ID[value]
        if value in ANCESTRY_COLORS:  # ancestry_color
            return ANCESTRY_COLORS.index(value)
        return card(value, where)
    raise ScenarioError(f"{where}: expected a card id, a seat number or a word, got {value!r}")


def _position(table: dict[str, Any], players: int, where: str) -> Position:
    from dragonante.engine.tables import COLORS

    for key in table:
        if key not in _TABLE_KEYS:
            raise ScenarioError(
                f"{where}.{key}: unknown table key; known keys: {', '.join(sorted(_TABLE_KEYS))}"
            )
    if "hands" not in table:
        raise ScenarioError(f"{where}.hands: every table needs the players' hands")
    pos = Position(hands=per_seat_cards(table["hands"], f"{where}.hands", players))
    if "flights" in table:
        pos.flights = per_seat_cards(table["flights"], f"{where}.flights", players)
    for key in ("ante", "deck_top", "discard", "specials_in_deck"):
        if key in table:
            setattr(pos, key, cards(table[key], f"{where}.{key}"))
    for key in ("stakes", "hole", "gambit", "round", "leader", "turn"):
        if key in table:
            setattr(pos, key, _int(table[key], f"{where}.{key}"))
    for key in ("hoards", "hole_owed"):
        if key in table:
            setattr(pos, key, _ints(table[key], f"{where}.{key}"))
    if "eliminated" in table:
        pos.eliminated = _ints(table["eliminated"], f"{where}.eliminated")
    for key, effects in SCENARIO_KEYS.items():
        if key in table:
            value = table[key]
            if effects[0].shape == CARDS:
                value = cards(value, f"{where}.{key}")
            elif effects[0].shape in (SEATS, COUNTS):
                value = _ints(value, f"{where}.{key}")
            elif effects[0].shape == FLAG:
                if not isinstance(value, bool):
                    raise ScenarioError(f"{where}.{key}: expected true or false")
            else:
                value = _int(value, f"{where}.{key}")
            pos.effects[key] = value
    if "debts" in table:
        pos.debts = _debts(table["debts"], players, f"{where}.debts")
    if "round_cards" in table:
        rc = table["round_cards"]
        if not isinstance(rc, list) or len(rc) != players:
            raise ScenarioError(f"{where}.round_cards: expected one entry per seat")
        pos.round_cards = [
            -1 if v in ("", None) else card(v, f"{where}.round_cards[{i}]")
            for i, v in enumerate(rc)
        ]
    if "collected_colors" in table:
        cc = table["collected_colors"]
        if not isinstance(cc, list) or len(cc) != players:
            raise ScenarioError(f"{where}.collected_colors: expected one list per seat")
        masks = []
        for i, colors in enumerate(cc):
            mask = 0
            for col in colors:
                if col not in COLORS:
                    raise ScenarioError(f"{where}.collected_colors[{i}]: unknown color {col!r}")
                mask |= 1 << COLORS.index(col)
            masks.append(mask)
        pos.collected_colors = masks
    if "collected_strengths" in table:
        cs = table["collected_strengths"]
        if not isinstance(cs, list) or len(cs) != players:
            raise ScenarioError(f"{where}.collected_strengths: expected one list per seat")
        pos.collected_strengths = [
            sum(1 << st for st in _ints(v, f"{where}.collected_strengths[{i}]"))
            for i, v in enumerate(cs)
        ]
    _abilities(table, players, where, pos)
    start = table.get("start", "turn")
    if start not in ("turn", "ante", "round_end"):
        raise ScenarioError(f"{where}.start: expected turn, ante, round_end or new")
    pos.start = start
    return pos


def ability_keys(value: Any, where: str) -> list[int]:
    """A list of ability keys to their numbers, or a clear error."""
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise ScenarioError(f"{where}: expected a list of ability keys")
    out = []
    for k in value:
        if k not in ABILITY_ID:
            raise ScenarioError(f"{where}: unknown ability {k!r}; known: {', '.join(ABILITY_ID)}")
        out.append(ABILITY_ID[k])
    return out


def _per_seat_abilities(value: Any, players: int, where: str) -> list[list[int]]:
    if not isinstance(value, list) or len(value) > players:
        raise ScenarioError(f"{where}: expected a list of at most {players} ability-key lists")
    out = [ability_keys(v, f"{where}[{i}]") for i, v in enumerate(value)]
    return out + [[] for _ in range(players - len(out))]


def _abilities(table: dict[str, Any], players: int, where: str, pos: Position) -> None:
    """The D&D ability keys of ``[table]``."""
    if "abilities" in table:
        pos.abilities = _per_seat_abilities(table["abilities"], players, f"{where}.abilities")
    if "revealed" in table:
        pos.revealed = _per_seat_abilities(table["revealed"], players, f"{where}.revealed")
    if "spent" in table:
        pos.spent = _per_seat_abilities(table["spent"], players, f"{where}.spent")
    if "ancestry" in table:
        colors = table["ancestry"]
        if not isinstance(colors, list) or len(colors) > players:
            raise ScenarioError(f"{where}.ancestry: expected a color (or '') per seat")
        out = []
        for i, c in enumerate(colors):
            if c and c not in ANCESTRY_COLORS:
                raise ScenarioError(
                    f"{where}.ancestry[{i}]: {c!r} is not one of {', '.join(ANCESTRY_COLORS)}"
                )
            out.append(ANCESTRY_COLORS.index(c) if c else -1)
        pos.ancestry = out
    if "disks" in table:
        disks = table["disks"]
        if (
            not isinstance(disks, list)
            or len(disks) != players
            or any(d not in ("ready", "expended") for d in disks)
        ):
            raise ScenarioError(f"{where}.disks: expected 'ready' or 'expended' for every seat")
        pos.expended = [p for p, d in enumerate(disks) if d == "expended"]
    if "diplomacy_used" in table:
        pos.diplomacy_used = _ints(table["diplomacy_used"], f"{where}.diplomacy_used")
    for key in ("gambits_won", "ancestry_plays"):
        if key in table:
            setattr(pos, key, _ints(table[key], f"{where}.{key}"))


def _debts(value: Any, players: int, where: str) -> list[tuple[int, int, int]]:
    """EG debts as ``[debtor, creditor, amount]`` triples (creditor -1: the stakes)."""
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected a list of [debtor, creditor, amount]")
    out = []
    for i, d in enumerate(value):
        t = _ints(d, f"{where}[{i}]")
        if len(t) != 3 or not 0 <= t[0] < players or not -1 <= t[1] < players or t[2] <= 0:
            raise ScenarioError(
                f"{where}[{i}]: expected [debtor seat, creditor seat or -1, amount > 0]"
            )
        out.append((t[0], t[1], t[2]))
    return out


def _expect(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ScenarioError(f"{where}: expected a table of expectations")
    for key in data:
        if key not in EXPECT_KEYS:
            raise ScenarioError(
                f"{where}.{key}: unknown expectation; known: {', '.join(sorted(EXPECT_KEYS))}"
            )
    return dict(data)


def parse(text: str, path: str = "<scenario>") -> Scenario:
    """Parse scenario TOML text; raises :class:`ScenarioError` on any problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"{path}: not valid TOML: {e}") from e
    if "skill_check" in data:  # one d20 check instead of a game: no table, no steps
        return parse_check(data, path)
    known = {"title", "rule", "config", "table", "step", "expect", "stop", "refused"}
    for key in data:
        if key not in known:
            raise ScenarioError(f"{path}: unknown top-level key {key!r}")
    title, rule = title_and_rule(data, path)
    if "refused" in data:
        return _refused(data, path, title, rule)
    try:
        config = config_from_dict(data.get("config", {}))
    except ConfigError as e:
        raise ScenarioError(f"{path}: config: {e}") from e
    table = data.get("table")
    if not isinstance(table, dict):
        raise ScenarioError(f"{path}: a scenario needs a [table]")
    seed = _int(table.get("seed", 0), f"{path}: table.seed")
    position: Position | None
    if table.get("start") == "new":
        extra = set(table) - {"start", "seed"}
        if extra:
            raise ScenarioError(
                f"{path}: table.start = 'new' deals a fresh game; remove {sorted(extra)}"
            )
        position = None
    else:
        position = _position(
            {k: v for k, v in table.items() if k != "seed"}, config.players, f"{path}: table"
        )
    steps: list[Step] = []
    raw_steps = data.get("step", [])
    if not isinstance(raw_steps, list):
        raise ScenarioError(f"{path}: steps are written as [[step]] tables")
    for i, st in enumerate(raw_steps):
        where = f"{path}: step {i + 1}"
        for key in st:
            if key not in ("seat", "ask", "answer", "options", "expect", "time_up"):
                raise ScenarioError(f"{where}: unknown key {key!r}")
        if "seat" not in st or "ask" not in st or "answer" not in st:
            raise ScenarioError(f"{where}: needs seat, ask and answer")
        seat = _int(st["seat"], f"{where}.seat")
        if not 0 <= seat < config.players:
            raise ScenarioError(f"{where}.seat: no seat {seat} at a {config.players}-player table")
        if st["ask"] not in q.KINDS:
            raise ScenarioError(
                f"{where}.ask: unknown question {st['ask']!r}; known: {', '.join(q.KINDS)}"
            )
        time_up = st.get("time_up", False)
        if not isinstance(time_up, bool):
            raise ScenarioError(f"{where}.time_up: expected true or false")
        options = None
        if "options" in st:
            if not isinstance(st["options"], list):
                raise ScenarioError(f"{where}.options: expected a list")
            options = tuple(
                answer_value(v, f"{where}.options[{j}]") for j, v in enumerate(st["options"])
            )
        steps.append(
            Step(
                seat=seat,
                ask=st["ask"],
                answer=answer_value(st["answer"], f"{where}.answer"),
                answer_text=str(st["answer"]),
                options=options,
                expect=_expect(st.get("expect", {}), f"{where}.expect"),
                time_up=time_up,
            )
        )
    stop = data.get("stop", "boundary")
    if stop not in ("boundary", "any"):
        raise ScenarioError(f"{path}: stop must be 'boundary' or 'any'")
    return Scenario(
        path=path,
        title=title,
        rule=rule,
        config=config,
        position=position,
        seed=seed,
        steps=steps,
        expect=_expect(data.get("expect", {}), f"{path}: expect"),
        stop=stop,
    )


def _refused(data: dict[str, Any], path: str, title: str, rule: str) -> Scenario:
    """A scenario whose table must be refused (``refused = "text"``).

    Why apart: every other scenario plays a valid table, so nothing could say
    that a table the books do not allow is refused.  The ``[config]`` is kept
    as written and not built here: the runner builds it each time it runs
    (the mutation runners parse the files once, then change the engine).
    """
    text = data["refused"]
    if not isinstance(text, str) or not text:
        raise ScenarioError(f"{path}: refused must be the text the refusal's message contains")
    extra = sorted(set(data) & {"table", "step", "expect", "stop"})
    if extra:
        raise ScenarioError(f"{path}: a refused table is never played; remove {extra}")
    raw = data.get("config", {})
    if not isinstance(raw, dict):
        raise ScenarioError(f"{path}: config must be a table")
    return unplayed(path, title, rule, refused=text, raw_config=raw)


def load(path: str | Path) -> Scenario:
    """Read and parse a scenario file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError(f"{p}: cannot read: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise ScenarioError(f"{p}: not UTF-8 text") from e
    return parse(text, str(p))


__all__ = [
    "ABILITY_ID",
    "answer_value",
    "card",
    "cards",
    "load",
    "parse",
]
