"""The table of events: every kind the engines can log has a row, and every row a rule.

Two ways of finding the kinds, checked against each other and the table:
the source (every ``ev(s, "kind", ...)`` of the card engine and ``emit(s,
"kind", ...)`` of the Dice Gambit) and what games really log (random games
under the three rulesets, with both D&D ability systems and short hoards,
every rules scenario under ``tests/scenarios``, and random Dice Gambit
games).  A kind without a row, a row for a kind nobody logs, a field the
row does not list or an event told to the wrong audience fails here.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dragonante.cards import ALL_CARDS
from dragonante.dice import DiceConfig
from dragonante.dice import apply as dice_apply
from dragonante.dice import new_game as dice_game
from dragonante.engine import GameConfig
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.config import DeckOptions, Ending, Rules
from dragonante.engine.state import Event
from dragonante.engine.views import events_for
from dragonante.i18n import has, t
from dragonante.interfaces import events as E
from dragonante.interfaces.narrate import KNOWN_EVENTS, SUBJECT, Narrator, default_names
from dragonante.scenarios import load, run
from dragonante.sim.selfplay import play_random

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "dragonante"
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.toml"))
CLAUSES = SRC / "scenarios" / "clauses.json"
#: ``ev(s, "kind"`` and ``emit(s, "kind"``, the call possibly wrapped over lines.
_EV = re.compile(r'\bev\(\s*s,\s*"(\w+)"')
_EMIT = re.compile(r'\bemit\(\s*s,\s*"(\w+)"')


def _source_kinds(package: str, pattern: re.Pattern[str]) -> set[str]:
    found: set[str] = set()
    for path in (SRC / package).rglob("*.py"):
        found.update(pattern.findall(path.read_text(encoding="utf-8")))
    return found


@cache
def _card_games() -> list[tuple[GameConfig, list[Event]]]:
    """Logs of random games: three rulesets, both ability systems, short hoards."""
    out: list[tuple[GameConfig, list[Event]]] = []
    presets = (
        ("legendary", "legendary"),
        ("emperors_gambit", "eg_full"),
        ("original", "legendary"),
    )
    for ruleset, deck in presets:
        for seed in range(40):
            players = 2 + seed % 5
            kw: dict[str, Any] = {
                "players": players,
                "rules": Rules.preset(ruleset),
                "deck": DeckOptions(preset=deck),
            }
            if seed % 3 == 0:
                kw["gold_per_player"] = 6
            if seed % 4 == 1 and players > 2:
                kw["ending"] = Ending(players_remaining=2)
            if seed % 5 == 2:
                kw["abilities"] = AbilityOptions(
                    system=("disks", "skills")[seed % 2],
                    assign=("random", "draft")[seed // 2 % 2],
                    per_character=3,
                )
            config = GameConfig(**kw).validate()
            s, _ = play_random(config, seed, log=True)
            out.append((config, s.log or []))
    for path in SCENARIOS:
        result = run(load(path))
        if result.state is not None and result.state.log:
            out.append((result.state.config, result.state.log))
    return out


@cache
def _dice_logs() -> list[list[tuple[str, dict[str, Any]]]]:
    logs = []
    for seed in range(120):
        config = DiceConfig(
            players=2 + seed % 5, starting_hoard=8 if seed % 2 else 25, gambits=1 + seed % 3
        )
        s = dice_game(config, seed)
        pick = random.Random(seed)
        while not s.over:
            d = s.pending
            assert d is not None
            dice_apply(s, d.options[pick.randrange(len(d.options))])
        logs.append(list(s.log or []))
    return logs


def test_every_card_kind_in_the_source_has_a_row_and_every_row_a_kind() -> None:
    assert _source_kinds("engine", _EV) == set(E.BY_KIND)


def test_every_dice_kind_in_the_source_has_a_row_and_every_row_a_kind() -> None:
    assert _source_kinds("dice", _EMIT) == set(E.DICE_BY_KIND)


def test_every_kind_games_log_has_a_row_with_its_fields_and_audience() -> None:
    seen: set[str] = set()
    for _config, log in _card_games():
        for vis, kind, data in log:
            row = E.BY_KIND.get(kind)
            assert row is not None, f"{kind} has no row in interfaces/events.py"
            assert set(data) <= set(row.fields), (kind, sorted(data), row.fields)
            if row.seen == E.PUBLIC:
                assert vis is None, f"{kind} is a public row but was told to {vis}"
            elif row.seen == E.PRIVATE:
                assert vis is not None, f"{kind} is a private row but was told to everyone"
            seen.add(kind)
    # The games do reach nearly every kind (the rest are rare corners the
    # source check above still holds to a row).
    assert len(seen) >= len(E.BY_KIND) - 6, sorted(set(E.BY_KIND) - seen)


def test_every_kind_dice_games_log_has_a_row_with_its_fields() -> None:
    seen: set[str] = set()
    for log in _dice_logs():
        for kind, data in log:
            row = E.DICE_BY_KIND.get(kind)
            assert row is not None, f"dice {kind} has no row in interfaces/events.py"
            assert set(data) <= set(row.fields), (kind, sorted(data), row.fields)
            seen.add(kind)
    assert len(seen) >= len(E.DICE_BY_KIND) - 3, sorted(set(E.DICE_BY_KIND) - seen)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_row_has_a_rule_in_each_language_and_a_section_of_the_books(lang: str) -> None:
    clauses = {(c["book"], c["section"]) for c in json.loads(CLAUSES.read_text("utf-8"))}
    for row in E.EVENTS:
        assert has(row.key, lang), f"{row.key} missing in {lang}"
        assert len(t(row.key, lang)) > 30, row.key
        if row.kind == "auto_answer":  # the program's shortcut: no book has it
            assert not row.refs
            continue
        assert row.refs, f"{row.kind} cites no book"
        for ref in row.refs:
            if row is E.SKILL_CHECK:  # extract_clauses.py leaves the d20 check out
                continue
            assert (ref.book, ref.section) in clauses, (row.kind, ref)


def test_every_ability_section_is_a_clause_of_its_book() -> None:
    from dragonante.engine.abilities.catalog import KEY

    clauses = {(c["book"], c["section"]) for c in json.loads(CLAUSES.read_text("utf-8"))}
    for key in KEY:
        ref = E.ability_ref(key)
        assert (ref.book, ref.section) in clauses, key


def test_the_narrator_reads_its_subjects_and_kinds_from_the_table() -> None:
    assert SUBJECT == E.SUBJECTS
    assert frozenset(E.BY_KIND) == KNOWN_EVENTS


def test_a_power_and_its_steps_cite_the_cards_text() -> None:
    """The Red Dragon's steal is explained by the Red Dragon's own text; the
    next card played ends that (the trigger rule explains the play)."""
    red = next(c.index for c in ALL_CARDS if c.type.key.endswith("red") and c.strength == 12)
    log: list[Event] = [
        (None, "play", {"seat": 0, "card": red, "triggered": True}),
        (None, "power", {"seat": 0, "card": red, "this": red}),
        (None, "steal", {"seat": 0, "amount": 3, "taken": 3}),
        (None, "play", {"seat": 1, "card": red, "triggered": False}),
        (None, "steal", {"seat": 1, "amount": 1, "taken": 1}),
    ]
    whys = list(E.explain(log, E.Table("legendary"), "it"))
    text = ALL_CARDS[red].type.text("it")
    assert [w.text if w else None for w in whys] == ["", text, text, "", ""]
    assert whys[0] is not None and whys[0].section == "Triggering Powers"
    assert whys[4] is not None and whys[4].rule == t("why.steal", "it")
    eg = list(E.explain(log, E.Table("emperors_gambit"), "en"))
    assert eg[0] is not None and (eg[0].book, eg[0].section) == (
        "Emperor's Gambit",
        "TRIGGERING POWERS",
    )


def test_an_ability_step_cites_the_abilitys_text_from_its_system_book() -> None:
    from dragonante.engine.abilities.catalog import KEY

    fast = KEY.index("fast_hands")
    log: list[Event] = [
        (None, "ability_used", {"seat": 1, "ability": fast}),
        (None, "draw", {"seat": 1, "asked": 2, "drawn": 2}),
    ]
    used, draw = E.explain(log, E.Table("emperors_gambit", "disks"), "en")
    assert used is not None and draw is not None
    assert used.text == draw.text == t("ability.fast_hands.text", "en")
    assert (draw.book, draw.section) == ("Legendary", "Fast Hands (Card Draw)")


def test_a_seats_whys_name_only_cards_it_was_shown() -> None:
    """Hidden information: a why's text is a card's text only from an event the
    seat was told (a power played face up, an ante effect revealed), or an
    ability's public rules text; never a hidden card's."""
    from dragonante.engine.abilities.catalog import KEY

    abilities = {t(f"ability.{k}.text", "en") for k in KEY}
    texts = 0
    for config, log in _card_games()[:60]:
        table = E.Table(config.rules.ruleset, config.abilities.system)
        for seat in range(config.players):
            mine = events_for(log, seat)
            shown = {
                ALL_CARDS[d["card"]].type.text("en") for _, k, d in mine if k.startswith("power")
            }
            shown |= {
                E._ante_effect_text(d.get("effect"), "en") for _, k, d in mine if k == "ante_effect"
            }
            for why in E.explain(mine, table, "en"):
                assert why is not None
                if why.text:
                    texts += 1
                    assert why.text in shown | abilities, why
    assert texts > 100  # the powers' steps were really explained by their cards


def test_every_narrated_line_of_a_game_has_a_why() -> None:
    for config, log in _card_games()[:30]:
        names = default_names(config.players, "en")
        narrator = Narrator(names, "en", me=0)
        mine = events_for(log, 0)
        lines = E.Explainer(E.Table(config.rules.ruleset), "en").lines(narrator.told(mine), mine)
        assert [text for text, _ in lines] == narrator.events(mine)
        assert all(why is not None and why.rule for _, why in lines)


def test_every_dice_kind_has_a_why() -> None:
    for row in E.DICE_EVENTS:
        why = E.dice_why(row.kind, "it")
        assert why is not None and why.book == "Dice Gambit" and why.rule == t(row.key, "it")


def test_every_front_end_filters_the_log_through_the_engines_views() -> None:
    """Issue 31 §5: the terminal table and the web server take a seat's (or a
    game-master's) events from ``events_for`` / ``events_for_gm``, never by a
    filter of their own that could drift from the engine's."""
    by_hand = re.compile(r"e\[0\] is None|GM_EVENTS = |seat in e\[0\]")
    offenders = [
        str(path.relative_to(SRC))
        for path in (SRC / "interfaces").rglob("*.py")
        if by_hand.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_every_logged_event_has_a_sentence_of_its_own_from_the_tables_variants() -> None:
    """The narrator picks each event's message variant from the table (``VARIANTS``):
    no event of the games falls back to the generic "kind: fields" sentence."""
    assert set(E.VARIANTS) <= set(E.BY_KIND)
    for lang in ("en", "it"):
        for config, log in _card_games()[:80]:
            narrator = Narrator(default_names(config.players, lang), lang, me=0)
            for e in log:
                assert narrator.event(e) != narrator._generic(e[1], e[2]), e


def test_the_legendary_sections_are_cited_by_the_italian_editions_headings() -> None:
    """The Legendary Edition has an Italian edition: an Italian reader is pointed
    to its headings ("Passo 1: Apertura"); the other books keep their own."""
    assert E.section_name("Legendary", "Step 1: Ante", "it") == "Passo 1: Apertura"
    assert E.section_name("Legendary", "Step 1: Ante", "en") == "Step 1: Ante"
    assert E.section_name("Emperor's Gambit", "1. ANTE", "it") == "1. ANTE"
    for ref in (*E.REFS, *E.SKILL_CHECK.refs):
        if ref.book == "Legendary":
            assert E.section_name(ref.book, ref.section, "en") == ref.section
            assert E.section_name(ref.book, ref.section, "it") != ref.section, ref
