"""D&D abilities in the engine: configs, records, what each seat sees, search re-deals.

The rules of each ability are tested by the scenarios under
``tests/scenarios/abilities``; this file checks what holds for every
ability at once: a table with abilities is set up as configured, replays
byte for byte from its record, never shows a seat another seat's hidden
abilities (its view, its events, the config it is given), and re-deals
those abilities for search without using what the seat cannot know.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from dragonante.engine import ConfigError, GameConfig, apply, new_game
from dragonante.engine.abilities import ID, AbilityOptions
from dragonante.engine.abilities.catalog import ABILITIES, DISKS, SKILLS, of_system
from dragonante.engine.abilities.table import PRIVATE_KIND, AbilityTable
from dragonante.engine.config import config_from_dict, config_to_dict
from dragonante.engine.decisions import ABILITY_KINDS, DRAFT_ABILITY
from dragonante.engine.determinize import determinize
from dragonante.engine.records import Recorder, digest, loads, replay
from dragonante.engine.state import GameState
from dragonante.engine.views import Observation, Question, config_for, events_for, observe


def table(s: GameState) -> AbilityTable:
    assert isinstance(s.abilities, AbilityTable)
    return s.abilities


def play(config: GameConfig, seed: int, answers: int = 10_000) -> GameState:
    s = new_game(config, seed)
    pick = random.Random(seed)
    for _ in range(answers):
        if s.over:
            break
        assert s.pending is not None
        apply(s, pick.choice(s.pending.options))
    return s


# --- configuration -------------------------------------------------------------------


def test_a_table_without_abilities_has_no_ability_state_and_an_unchanged_record() -> None:
    s = new_game(GameConfig(), 3)
    assert s.abilities is None
    assert "abilities" not in config_to_dict(GameConfig())
    assert "abilities" not in s.to_dict()
    assert observe(s, 0).abilities is None


def test_ability_options_round_trip_through_a_config_dict() -> None:
    config = GameConfig(
        players=3,
        abilities=AbilityOptions(
            system="disks",
            assign="fixed",
            seats=(("fast_hands", "random"), (), ("draconic_ancestry",)),
            ancestry=("", "", "red"),
            visibility="public",
            ancestry_trigger="each_after",
        ),
    )
    data = config_to_dict(config)
    assert data["abilities"]["seats"] == [["fast_hands", "random"], [], ["draconic_ancestry"]]
    assert config_from_dict(data) == config


@pytest.mark.parametrize(
    ("abilities", "message"),
    [
        ({"system": "psionics"}, "unknown abilities.system"),
        ({"assign": "draft"}, "abilities.system must be"),
        ({"system": "disks", "per_character": 5}, "per_character must be 1-4"),
        ({"system": "skills", "per_character": 4}, "per_character must be 1-3"),
        ({"system": "disks", "assign": "fixed"}, "needs abilities.seats"),
        ({"system": "disks", "seats": [["fast_hands"]]}, "only used with assign = 'fixed'"),
        (
            {"system": "disks", "assign": "fixed", "seats": [["bluff"]]},
            "not one of the disks abilities \\(one of the Emperor's Gambit abilities\\)",
        ),
        (
            {"system": "skills", "assign": "fixed", "seats": [["bluff"], ["bluff"]]},
            "belongs to one character only",
        ),
        (
            {"system": "disks", "assign": "fixed", "seats": [["fast_hands", "fast_hands"]]},
            "lists an ability twice",
        ),
        ({"system": "disks", "ancestry": ["purple"]}, "not a dragon color"),
        ({"system": "skills", "per_character": 3}, "18 special abilities are needed"),
        ({"system": "disks", "seats": 3}, "list of ability-key lists"),
        ({"system": "disks", "bogus": 1}, "unknown abilities option 'bogus'"),
        ({"system": "disks", "dungeoneering": "peek"}, "dungeoneering is one of random, choose"),
    ],
)
def test_bad_ability_options_are_refused_with_a_clear_message(
    abilities: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        config_from_dict({"players": 6, "abilities": abilities})


def test_fixed_assignment_gives_the_listed_abilities_and_random_ones_where_asked() -> None:
    opts = AbilityOptions(
        system=SKILLS, assign="fixed", seats=(("bluff", "random"), ("random",), ())
    )
    s = new_game(GameConfig(players=3, abilities=opts), 1)
    held = table(s).held
    assert held[0][0] == ID["bluff"] and len(held[0]) == 2
    assert len(held[1]) == 1 and held[2] == ()
    everyone = [a for h in held for a in h]
    assert len(everyone) == len(set(everyone))  # special abilities are exclusive


@pytest.mark.parametrize("system", [DISKS, SKILLS])
def test_random_assignment_respects_qualifications(system: str) -> None:
    allowed = [a.key for a in of_system(system)][:3]
    opts = AbilityOptions(system=system, per_character=1, qualified=(tuple(allowed),))
    for seed in range(30):
        s = new_game(GameConfig(players=2, abilities=opts), seed)
        assert ABILITIES[table(s).held[0][0]].key in allowed


def test_draconic_ancestry_gets_a_color_and_dealt_events_are_private() -> None:
    opts = AbilityOptions(
        system=DISKS,
        assign="fixed",
        seats=(("draconic_ancestry",), ("desperation",)),
        visibility="hidden",
    )
    s = new_game(GameConfig(players=2, abilities=opts), 4)
    assert table(s).ancestry[0] >= 0 and table(s).ancestry[1] == -1
    assert s.log is not None
    dealt = [e for e in s.log if e[1] == "abilities_dealt"]
    assert [e[0] for e in dealt] == [(0,), (1,)]


# --- records -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "abilities",
    [
        AbilityOptions(system=DISKS),
        AbilityOptions(system=DISKS, assign="draft", per_character=3),
        AbilityOptions(system=SKILLS, assign="draft", per_character=2, insight=(2, 0, -1, 5)),
        AbilityOptions(system=SKILLS, per_character=3, dungeoneering="choose"),
    ],
)
def test_a_game_with_abilities_replays_byte_for_byte(abilities: AbilityOptions) -> None:
    config = GameConfig(players=4, abilities=abilities)
    rec = Recorder(config, 77)
    pick = random.Random(5)
    while not rec.state.over:
        d = rec.state.pending
        assert d is not None
        rec.answer(pick.choice(d.options), d.id)
    record = loads(rec.record.dumps())
    assert record.config == config
    again = replay(record)
    assert digest(again) == rec.record.final_digest
    assert again.log == rec.state.log


# --- what each seat sees -------------------------------------------------------------------


def _swap_hidden(s: GameState, seat: int, abilities: tuple[int, ...]) -> GameState:
    """A copy of ``s`` in which ``seat`` secretly holds other (unused) abilities."""
    c = s.clone(keep_log=True)
    tbl = table(c)
    assert tbl.revealed[seat] == 0
    tbl.give(seat, abilities)
    return c


def test_another_seats_hidden_abilities_are_invisible_until_used() -> None:
    opts = AbilityOptions(
        system=DISKS,
        assign="fixed",
        seats=(("fast_hands", "desperation"), ("cutting_words",), ()),
        visibility="hidden",
    )
    config = GameConfig(players=3, abilities=opts)
    a = new_game(config, 2)
    b = _swap_hidden(a, 0, (ID["practice_counts"], ID["versatile_trickster"]))
    for seat in (1, 2, None):
        assert observe(a, seat) == observe(b, seat)
        assert _abilities(observe(a, seat))["held"][0] == []
        assert _abilities(observe(a, seat))["counts"][0] == 2
        assert a.log is not None
        assert events_for(a.log, seat) == events_for(b.log or [], seat)
    assert _abilities(observe(a, 0))["held"][0] == [ID["fast_hands"], ID["desperation"]]
    # A game-master sees every character's abilities (and still no hand).
    gm = observe(a, None, gm=True)
    assert _abilities(gm)["held"][1] == [ID["cutting_words"]]
    assert gm.hand is None
    # The config a seat is given leaves the other seats' lists out.
    mine = config_for(config, 1).abilities
    assert mine.seats == (("random", "random"), ("cutting_words",), ())
    assert config_for(config, None).abilities.seats[1] == ("random",)
    assert config_for(config, 1) == config_for(
        replace(
            config,
            abilities=replace(
                opts, seats=(("practice_counts", "versatile_trickster"), ("cutting_words",), ())
            ),
        ),
        1,
    )


def test_a_used_ability_is_revealed_to_everyone() -> None:
    opts = AbilityOptions(system=DISKS)
    for seed in range(40):
        s = play(GameConfig(players=3, abilities=opts), seed, 400)
        assert s.log is not None
        used = [e[2] for e in s.log if e[1] == "ability_used"]
        for data in used:
            assert (
                data["ability"]
                in _abilities(observe(s, (data["seat"] + 1) % 3))["held"][data["seat"]]
            )
        if used:
            return
    pytest.fail("no ability was used in 40 games")


def test_public_abilities_are_known_from_the_start() -> None:
    s = new_game(
        GameConfig(players=3, abilities=AbilityOptions(system=DISKS, visibility="public")), 1
    )
    assert _abilities(observe(s, 2))["held"] == [list(h) for h in table(s).held]
    assert s.log is not None
    assert all(e[0] is None for e in s.log if e[1] == "abilities_dealt")


def test_another_seats_hidden_ability_question_shows_only_that_it_is_deciding() -> None:
    opts = AbilityOptions(system=DISKS, assign="draft", visibility="hidden")
    s = new_game(GameConfig(players=3, abilities=opts), 8)
    d = s.pending
    assert d is not None and d.kind == DRAFT_ABILITY and d.kind in ABILITY_KINDS
    assert _question(observe(s, d.seat)).kind == DRAFT_ABILITY
    other = (d.seat + 1) % 3
    assert _question(observe(s, other)).to_dict() == {
        "id": d.id,
        "seat": d.seat,
        "kind": PRIVATE_KIND,
        "source": -1,
    }
    # the pick itself is logged for the picker alone
    apply(s, d.options[0])
    assert s.log is not None
    pick = next(e for e in s.log if e[1] == "draft_pick")
    assert pick[0] == (d.seat,)


# --- search re-deals ----------------------------------------------------------------------


def test_determinize_redeals_hidden_abilities_and_keeps_what_the_seat_knows() -> None:
    opts = AbilityOptions(system=SKILLS, assign="random", per_character=2, visibility="hidden")
    s = play(GameConfig(players=4, abilities=opts), 11, 30)
    tbl = table(s)
    tbl.revealed[2] = 1 << tbl.held[2][0]  # seat 2 has used its first ability
    seen: set[tuple[int, ...]] = set()
    for seed in range(40):
        d = table(determinize(s, 0, seed))
        assert d.held[0] == tbl.held[0]  # our own
        assert tbl.held[2][0] in d.held[2]  # revealed
        assert [len(h) for h in d.held] == [len(h) for h in tbl.held]
        everyone = [a for h in d.held for a in h]
        assert len(everyone) == len(set(everyone))  # still exclusive
        assert not set(tbl.held[0]) & {a for h in d.held[1:] for a in h}
        seen.add(d.held[1])
    assert len(seen) > 5  # really re-dealt


def test_determinize_cannot_tell_states_apart_by_hidden_abilities() -> None:
    opts = AbilityOptions(
        system=DISKS, assign="fixed", seats=(("fast_hands",), ("desperation",)), visibility="hidden"
    )
    a = new_game(GameConfig(players=2, abilities=opts), 3)
    b = _swap_hidden(a, 1, (ID["cutting_words"],))
    for seed in range(10):
        da, db = determinize(a, 0, seed), determinize(b, 0, seed)
        assert digest(da) == digest(db)


def test_public_abilities_are_never_redealt() -> None:
    opts = AbilityOptions(system=DISKS, visibility="public")
    s = new_game(GameConfig(players=4, abilities=opts), 6)
    for seed in range(5):
        assert table(determinize(s, 1, seed)).held == table(s).held


def test_a_card_the_shadow_dragon_took_stays_private_while_dungeoneering_is_asked() -> None:
    # Seat 0's Shadow Dragon takes a random card from seat 1; seat 0 holds
    # Dungeoneering and is asked whether to take another instead.  Seat 2 must
    # not learn which card was taken before it replaces the Shadow.
    from dragonante.cards import card_number
    from dragonante.engine.config import DeckOptions, Rules
    from dragonante.engine.position import Position, build_position

    def n(*names: str) -> list[int]:
        return [card_number(x) for x in names]

    config = GameConfig(
        players=3,
        rules=Rules.preset("emperors_gambit"),
        deck=DeckOptions(preset="eg_full"),
        abilities=AbilityOptions(system=SKILLS, assign="fixed", seats=(("dungeoneering",),)),
    )
    pos = Position(
        hands=[
            n("EG-shadow-1", "EG-brown-5"),
            n("EG-steel-4", "EG-brown-9", "EG-mithral-7"),
            n("EG-gray-4", "EG-gray-6"),
        ],
        flights=[n("EG-gray-2"), n("EG-iron-3"), n("EG-mithral-3")],
        stakes=12,
        abilities=[[ID["dungeoneering"]], [], []],
    )
    s = build_position(config, pos, seed=0)
    apply(s, card_number("EG-shadow-1"))
    d = s.pending
    assert d is not None and d.kind == "use_ability" and d.seat == 0
    taken = s.hands[0][-1]
    view = observe(s, 2)
    assert view.revealed == [] and all(taken not in c for c in view.known_in_hands.values())
    assert s.log is not None
    assert all(e[2].get("card") != taken for e in events_for(s.log, 2))
    assert taken in (observe(s, 0).hand or [])


def test_abilities_are_public_unless_a_game_master_hides_them() -> None:
    """Legendary Appendix 5: 'If the game doesn't have a GM, make your chosen abilities
    public from the start.'  The engine (command line, simulations, agents) has no
    game-master: public by default; the web table, which has one, hides disks."""
    from dragonante.interfaces.web.hub import with_game_master

    assert AbilityOptions(system=DISKS).public
    assert AbilityOptions(system="skills").public
    assert not AbilityOptions(system=DISKS, visibility="hidden").public
    web = with_game_master(GameConfig(abilities=AbilityOptions(system=DISKS)))
    assert web.abilities.visibility == "hidden"
    chosen = GameConfig(abilities=AbilityOptions(system=DISKS, visibility="public"))
    assert with_game_master(chosen).abilities.public
    assert with_game_master(GameConfig(abilities=AbilityOptions(system="skills"))).abilities.public


def _abilities(view: Observation) -> dict[str, Any]:
    """The view's D&D abilities (the table has them)."""
    assert view.abilities is not None
    return view.abilities


def _question(view: Observation) -> Question:
    assert view.question is not None
    return view.question
