"""The ability options table (options.md §6.3, §7.2; docs/abilities.md): what is refused, what
is accepted, and what a seat is told of the settings.

Why a unit test and not scenarios: a scenario always plays a valid table, so it cannot show a
configuration refused, nor a boundary accepted that a wrong check would refuse; and what
:meth:`AbilityOptions.as_known_by` hides is a property of the config handed to each seat, not
of the game.  These tests kill the mutants of ``engine/abilities/options.py`` that the
scenarios cannot (docs/mutation.md lists them).
"""

from __future__ import annotations

import json
import re
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from dragonante.engine import ConfigError
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.abilities.catalog import ABILITIES, SKILLS
from dragonante.engine.config import config_from_dict


def _config(abilities: dict[str, Any], players: int = 6) -> None:
    config_from_dict({"players": players, "abilities": abilities})


def _refused(abilities: dict[str, Any], players: int = 6) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        _config(abilities, players)
    return info.value


SKILL_POOL = sum(1 for a in ABILITIES if a.system == SKILLS)


def test_the_special_ability_pool_is_the_sixteen_of_the_book() -> None:
    # EG Appendix 2 lists fifteen skill abilities and Luck Domain.
    assert SKILL_POOL == 16


@pytest.mark.parametrize(
    "abilities",
    [
        {"system": "disks", "per_character": 0},
        {"system": "disks", "per_character": 4},
        {"system": "skills", "per_character": 3},  # 15 picks at five seats: 16 cover them
        {"system": "disks", "assign": "random"},
        {"system": "disks", "assign": "draft"},
        {"system": "disks", "per_character": 4, "assign": "draft"},  # disks may be shared
        {"system": "disks", "assign": "fixed", "seats": [["random", "random"], ["fast_hands"]]},
        {"system": "disks", "assign": "fixed", "seats": [["fast_hands"], ["fast_hands"]]},
        {"system": "skills", "assign": "fixed", "seats": [["random"], ["random"], ["bluff"]]},
        {
            "system": "disks",
            "qualified": [
                [
                    "fast_hands",
                    "desperation",
                    "cutting_words",
                    "practice_counts",
                    "inspiring_leader",
                ]
            ],
        },
        {"system": "skills", "insight": [-10, 30, 0]},
        {"system": "disks", "ancestry": ["black", "", "white"]},
        {
            "system": "disks",
            "ancestry_trigger": "each_after",
            "streetwise": "flight_strength",
            "dungeoneering": "choose",
            "visibility": "hidden",
        },
    ],
)
def test_valid_tables_are_accepted(abilities: dict[str, Any]) -> None:
    _config(abilities, players=5)


def test_special_abilities_exactly_covering_the_pool_are_accepted_one_more_refused() -> None:
    """'Once a special ability has been chosen, no other character can choose that ability in
    that game': 16 fixed picks fit the 16 abilities, 17 do not."""
    sixteen = [["random"] * 3] * 5 + [["random"]]
    _config({"system": "skills", "assign": "fixed", "seats": sixteen})
    e = _refused({"system": "skills", "assign": "fixed", "seats": [*sixteen[:5], ["random"] * 2]})
    assert e.code == "abilities_not_enough" and e.params == {"need": 17, "pool": 16}
    # A fixed table counts its lists, not per_character times the players.
    e = _refused({"system": "skills", "assign": "fixed", "seats": [["random"] * 3] * 6})
    assert e.params["need"] == 18
    e = _refused({"system": "skills", "per_character": 3, "assign": "draft"})
    assert e.params["need"] == 18


@pytest.mark.parametrize(
    ("abilities", "code", "message"),
    [
        ({"system": "disks", "per_character": -1}, "abilities_per_character", "1-4"),
        ({"system": "disks", "ancestry_trigger": "third"}, "abilities_choice", "ancestry_trigger"),
        ({"system": "disks", "streetwise": "all"}, "abilities_choice", "streetwise"),
        (
            {"system": "skills", "qualified": [["fast_hands"]]},
            "abilities_other_system",
            "'fast_hands' is not one of the skills abilities \\(one of the Legendary abilities\\)",
        ),
        (
            {"system": "disks", "qualified": [[], ["bogus"]]},
            "abilities_unknown_ability",
            "abilities.qualified\\[1\\]: 'bogus' is not one of the disks abilities$",
        ),
        (
            {"system": "disks", "qualified": [["random"]]},
            "abilities_unknown_ability",
            "'random' is not one of",
        ),
        (
            {"system": "disks", "assign": "fixed", "seats": [["random", "bogus"]]},
            "abilities_unknown_ability",
            "'bogus'",
        ),
        (
            {"system": "disks", "qualified": [["desperation", "desperation"]]},
            "abilities_listed_twice",
            "qualified\\[0\\] lists an ability twice",
        ),
        (
            {"system": "disks", "assign": "fixed", "seats": [["random"] * 5]},
            "abilities_seat_max",
            "at most 4 abilities",
        ),
        (
            {"system": "skills", "assign": "draft", "seats": [["bluff"], ["bluff"]]},
            "abilities_seats_only_fixed",
            "only used with assign = 'fixed'",
        ),
        (
            {"system": "skills", "assign": "random", "seats": [["bluff"], ["bluff"]]},
            "abilities_seats_only_fixed",
            "only used with assign = 'fixed'",
        ),
        (
            {"system": "disks", "assign": "fixed", "seats": [["streetwise"]]},
            "abilities_other_system",
            "'streetwise' is not one of the disks abilities "
            "\\(one of the Emperor's Gambit abilities\\)",
        ),
        (
            {"system": "disks", "qualified": [["versatile_trickster", "versatile_trickster"]]},
            "abilities_listed_twice",
            "lists an ability twice",
        ),
        (
            {"system": "skills", "assign": "fixed", "seats": [["stealth"], ["stealth"]]},
            "abilities_special_exclusive",
            "belongs to one character only",
        ),
        ({"system": "skills", "insight": [-11]}, "abilities_insight_range", "-10 to \\+30"),
        ({"system": "skills", "insight": [31]}, "abilities_insight_range", "-10 to \\+30"),
        ({"system": "skills", "insight": [0] * 7}, "abilities_too_many_seats", "insight"),
        ({"system": "disks", "ancestry": [""] * 7}, "abilities_too_many_seats", "ancestry"),
        ({"system": "disks", "qualified": [[]] * 7}, "abilities_too_many_seats", "qualified"),
        ({"system": "disks", "seats": [["fast_hands", 3]]}, "abilities_seat_lists", "key lists"),
        ({"system": "disks", "qualified": ["fast_hands"]}, "abilities_seat_lists", "key lists"),
        ({"system": "disks", "ancestry": "red"}, "abilities_color_list", "list of colors"),
        ({"system": "disks", "ancestry": [1]}, "abilities_color_list", "list of colors"),
        ({"system": "skills", "insight": 5}, "abilities_int_list", "list of integers"),
        ({"system": "skills", "insight": [True]}, "abilities_int_list", "list of integers"),
        ({"system": "skills", "insight": ["a"]}, "abilities_int_list", "list of integers"),
        ({"system": "disks", "per_character": "2"}, "abilities_int", "must be an integer"),
        ({"system": "disks", "per_character": True}, "abilities_int", "must be an integer"),
        ({"system": "disks", "visibility": 1}, "abilities_string", "must be a string"),
    ],
)
def test_invalid_tables_are_refused_with_their_code(
    abilities: dict[str, Any], code: str, message: str
) -> None:
    e = _refused(abilities)
    assert e.code == code
    assert len(str(e).splitlines()) == 1
    assert re.search(message, str(e)), str(e)


def test_options_are_immutable() -> None:
    """A config is shared by every seat's view and the game record: nothing may change it."""
    opts = AbilityOptions(system="disks")
    with pytest.raises(FrozenInstanceError):
        opts.system = "skills"  # type: ignore[misc]
    assert hash(opts) == hash(AbilityOptions(system="disks"))


HIDDEN = AbilityOptions(
    system="disks",
    assign="fixed",
    visibility="hidden",
    seats=(("fast_hands", "random"), ("draconic_ancestry",), ("desperation",)),
    ancestry=("", "red", "blue"),
    qualified=(("fast_hands",), ("draconic_ancestry", "cutting_words"), ()),
)


def test_hidden_abilities_a_seat_is_told_only_its_own() -> None:
    """With hidden abilities 'only the owner and a game-master know an ability until it is
    used': seat 1 sees its own list, color and qualifications, and of the others only how many
    abilities they have."""
    known = HIDDEN.as_known_by(1)
    assert known.seats == (("random", "random"), ("draconic_ancestry",), ("random",))
    assert known.ancestry == ("", "red", "")
    assert known.qualified == ((), ("draconic_ancestry", "cutting_words"), ())
    last = HIDDEN.as_known_by(2)
    assert last.seats == (("random", "random"), ("random",), ("desperation",))
    assert last.ancestry == ("", "", "blue")
    first = HIDDEN.as_known_by(0)
    assert first.seats == (("fast_hands", "random"), ("random",), ("random",))
    assert first.ancestry == ("", "", "")
    assert first.qualified == (("fast_hands",), (), ())


def test_a_spectator_is_told_no_seat_s_hidden_abilities() -> None:
    known = HIDDEN.as_known_by(None)
    assert known.seats == (("random", "random"), ("random",), ("random",))
    assert known.ancestry == ("", "", "")
    assert known.qualified == ((), (), ())
    # Everything else (the rulings, the system) is the table's to know.
    assert known.visibility == "hidden" and known.system == "disks"


def test_public_abilities_are_told_to_everyone() -> None:
    public = AbilityOptions(
        system="disks",
        assign="fixed",
        seats=(("fast_hands",), ("cutting_words",)),
        ancestry=("red",),
    )
    assert public.as_known_by(1) == public
    assert public.as_known_by(None) == public


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (
            '{"system": "skills", "assign": "fixed", "seats": [["bluff"], ["bluff"]]}',
            "abilities_special_exclusive",
        ),
        ('{"system": "disks", "assign": "fixed"}', "abilities_fixed_needs_seats"),
        ('{"system": "skills", "per_character": 3}', "abilities_not_enough"),
        (
            '{"system": "skills", "assign": "fixed", "seats": [["random", "random", "random"],'
            ' ["random", "random", "random"], ["random", "random", "random"],'
            ' ["random", "random", "random"], ["random", "random", "random"],'
            ' ["random", "random", "random"]]}',
            "abilities_not_enough",
        ),
    ],
)
def test_options_read_from_json_text_are_checked_the_same(text: str, code: str) -> None:
    """A config read from a file or a socket holds strings equal to, not identical with, the
    module's constants: every check must compare by value."""
    assert _refused(json.loads(text)).code == code


def test_the_hint_names_the_other_book_for_options_read_from_json_text() -> None:
    e = _refused(json.loads('{"system": "skills", "qualified": [["fast_hands"]]}'))
    assert "(one of the Legendary abilities)" in str(e)
