"""The table as text: what one seat sees, in its language, and card help."""

from __future__ import annotations

from dragonante.cards import CARD_TYPES, card_number
from dragonante.engine import GameConfig
from dragonante.engine.abilities import ID, AbilityOptions
from dragonante.engine.abilities.catalog import ANCESTRY_COLORS
from dragonante.engine.game import apply, new_game
from dragonante.engine.position import Position, build_position
from dragonante.engine.state import GameState
from dragonante.engine.views import observe
from dragonante.interfaces.narrate import Narrator, Option, Prompt
from dragonante.interfaces.render import (
    ability_help_lines,
    ability_page_lines,
    card_help_lines,
    card_type_lines,
    find_card_types,
    hand_line,
    prompt_lines,
    table_lines,
    table_view,
)


def ids(*names: str) -> list[int]:
    return [card_number(n) for n in names]


def position(**kw: object) -> GameState:
    """Seat 1 (of 3) to play, second in round 2, after a Red Dragon 5 was led."""
    pos = Position(
        hands=[
            ids("L-std-black-1"),
            ids("L-std-red-12", "L-std-white-2", "L-std-gold-4"),
            ids("L-std-blue-1", "L-std-blue-2"),
        ],
        flights=[ids("L-std-red-5"), ids("L-std-gold-13"), ids("L-std-white-3")],
        ante=ids("L-std-green-6", "L-std-copper-7"),
        stakes=17,
        hole=2,
        hole_owed=[0, 0, 3],
        round=2,
        leader=0,
        turn=1,
        round_cards=[*ids("L-std-red-5"), -1, -1],
        effects={"druid": True, "merchant_prince": 2},
        **kw,  # type: ignore[arg-type]
    )
    return build_position(GameConfig(players=3), pos, seed=5)


NAMES = ["Ann", "Bo", "Cy"]


def test_the_table_shows_money_piles_flights_and_the_seat_s_own_hand() -> None:
    s = position()
    view = table_view(s, 1)
    assert view.my_question
    # weaker-or-equal to the Red Dragon 5 just played triggers; the 12 does not
    assert view.triggers == set(ids("L-std-white-2", "L-std-gold-4"))
    lines = table_lines(view, Narrator(NAMES, "en", me=1))
    text = "\n".join(lines)
    assert lines[0] == "--- Gambit 1, round 2 ---"
    assert "Stakes: 17 gold   Hole: 2 gold   Deck: " in text
    assert "Ante: Green Dragon (6), Copper Dragon (7)" in text
    assert "Druid: the weakest flight wins" in text
    assert "Merchant Prince: gold for buying cards goes to Cy" in text
    assert "  Ann       " in text and "Red Dragon (5) = 5  (leads)" in text
    assert "> You " in text and "Gold Dragon (13) = 13" in text
    assert "White Dragon (3) = 3  (owes the hole 3 gold)" in text
    assert (
        "Your hand: White Dragon (2)*, Gold Dragon (4)*, Red Dragon (12)   (* = would trigger now)"
        in text
    )
    # another seat's hand is never listed, only counted
    assert "Blue Dragon" not in text and "Black Dragon" not in text


def test_others_see_who_is_deciding_and_a_spectator_sees_no_hand() -> None:
    s = position()
    text = "\n".join(table_lines(table_view(s, 0), Narrator(NAMES, "en", me=0)))
    assert "Bo is deciding: play a card." in text
    assert "Your hand: Black Dragon (1)" in text and "Red Dragon (12)" not in text
    spectator = "\n".join(table_lines(table_view(s, None), Narrator(NAMES, "it")))
    assert "La tua mano" not in spectator and "Bo sta decidendo: giocare una carta." in spectator
    assert "Piatto: 17 mo   Tana: 2 mo" in spectator
    assert "Druido: vince lo stormo più debole" in spectator


def test_the_hand_line_has_no_marks_outside_the_seat_s_turn() -> None:
    s = position()
    view = table_view(s, 2)
    assert view.triggers == set()
    line = hand_line(view, Narrator(NAMES, "en", me=2))
    assert line == "Your hand: Blue Dragon (1), Blue Dragon (2)"


def test_card_help_gives_every_text_of_a_card() -> None:
    druid = card_help_lines(card_number("L-mor-druid"), "en")
    assert druid[0] == "The Druid (6) - Mortal"
    assert druid[1].startswith("Power: ") and "weakest flight wins" in druid[1]
    tiamat = card_help_lines(card_number("L-leg-tiamat"), "it")
    assert "Tiamat (13)" in tiamat[0]
    assert any(line.startswith("Capacità drago divino: ") for line in tiamat)
    assert any(line.startswith("  Nota: ") for line in tiamat)


def test_cards_are_found_by_name_in_either_language_without_accents() -> None:
    assert [ct.key for ct in find_card_types("druid", "en")] == ["L-mor-druid"]
    assert [ct.key for ct in find_card_types("DRUIDO", "it")] == ["L-mor-druid"]
    # exact names win over partial matches; accents do not matter
    assert [ct.key for ct in find_card_types("red dragon", "en")] == ["L-std-red"]
    assert find_card_types("sacerdote", "it")[0].key in ("L-mor-priest", "L-mor-wyrmpriest")
    assert find_card_types("   ", "en") == []
    assert [ct.key for ct in find_card_types("GUERRÀ DI BRONZÒ", "it")] == ["L-leg-bronze-warlord"]
    lines = card_type_lines(CARD_TYPES["L-std-red"], "en")
    assert lines[0] == "Red Dragon (strength 2, 3, 5, 7, 8, 10, 12) - Evil"


# --- D&D abilities at the table (docs/abilities.md "Who knows what") ---------------------

FAST_HANDS, CUTTING_WORDS, DRACONIC = ID["fast_hands"], ID["cutting_words"], ID["draconic_ancestry"]


def ability_position(visibility: str = "hidden") -> GameState:
    """Seat 0: Fast Hands and Cutting Words; seat 1: Draconic Ancestry (red) and Fast
    Hands, Fast Hands already used (revealed, disk Expended); seat 2: nothing."""
    config = GameConfig(players=3, abilities=AbilityOptions(system="disks", visibility=visibility))
    pos = Position(
        hands=[ids("L-std-black-1"), ids("L-std-red-12"), ids("L-std-blue-1")],
        abilities=[[FAST_HANDS, CUTTING_WORDS], [DRACONIC, FAST_HANDS], []],
        ancestry=[-1, ANCESTRY_COLORS.index("red"), -1],
        revealed=[[], [FAST_HANDS], []] if visibility == "hidden" else None,
        expended=[1],
    )
    return build_position(config, pos, seed=5)


def test_each_seat_sees_its_own_abilities_the_used_ones_and_every_disk() -> None:
    s = ability_position()
    lines = table_lines(table_view(s, 0), Narrator(NAMES, "en", me=0))
    text = "\n".join(lines)
    assert "Abilities (ability disks; the others' are hidden until used):" in text
    assert "  You: Fast Hands, Cutting Words  (disk Ready)" in lines
    # Bo's Fast Hands was used (everyone knows it); the other one, and its ancestry, not
    assert "  Bo: Fast Hands, 1 unknown  (disk Expended)" in lines
    assert "Draconic" not in text and "red ancestry" not in text
    assert "  Cy: none  (disk Ready)" in lines


def test_the_owner_sees_its_ancestry_and_a_public_table_shows_everything() -> None:
    s = ability_position()
    lines = table_lines(table_view(s, 1), Narrator(NAMES, "en", me=1))
    assert "  You: Draconic Ancestry, Fast Hands  (red ancestry; disk Expended)" in lines
    assert "  Ann: 2 unknown  (disk Ready)" in lines
    public = ability_position("public")
    lines = table_lines(table_view(public, None), Narrator(NAMES, "it", me=None))
    assert "Capacità (dischi capacità):" in lines
    assert "  Ann: Mani Svelte, Parole Taglienti  (disco pronto)" in lines
    assert "  Bo: Stirpe Draconica, Mani Svelte  (discendenza: rosso; disco esaurito)" in lines


def test_special_abilities_show_what_is_spent_and_diplomacy_used() -> None:
    config = GameConfig(players=3, abilities=AbilityOptions(system="skills"))
    pos = Position(
        hands=[ids("L-std-black-1"), ids("L-std-red-12"), ids("L-std-blue-1")],
        abilities=[[ID["heal"], ID["bluff"]], [ID["diplomacy"]], []],
        spent=[[ID["heal"]]],
        diplomacy_used=[1],
    )
    s = build_position(config, pos, seed=5)
    lines = table_lines(table_view(s, 2), Narrator(NAMES, "en", me=2))
    assert "Abilities (special abilities):" in lines
    assert "  Ann: Heal (spent), Bluff" in lines
    assert "  Bo: Diplomacy  (Diplomacy used this gambit)" in lines


def test_during_the_ability_draft_nobody_has_used_diplomacy() -> None:
    """Gambit 0 is the draft: "never used" (0) is not "used this gambit" (issue 32 §6)."""
    config = GameConfig(
        players=3, abilities=AbilityOptions(system="skills", assign="draft", per_character=2)
    )
    s = new_game(config, 4)
    for _ in range(3):  # each character has drafted one ability; the draft goes on
        assert s.pending is not None and s.pending.kind == "draft_ability"
        apply(s, s.pending.options[0])
    assert s.gambit == 0 and s.pending is not None
    assert all(s.abilities is not None and s.abilities.to_dict()["held"][p] for p in range(3))
    for seat in (0, 1, 2, None):  # what every table draws its ability notes from
        abilities = observe(s, seat).abilities
        assert abilities is not None and abilities["diplomacy_used"] == [False] * 3


def test_no_ability_section_without_abilities() -> None:
    text = "\n".join(table_lines(table_view(position(), 1), Narrator(NAMES, "en", me=1)))
    assert "Abilities" not in text


def test_ability_help_gives_each_ability_its_text_in_both_languages() -> None:
    assert ability_help_lines([FAST_HANDS], "en") == [
        "Fast Hands",
        "  Card Draw. Trigger: you steal gold from the stakes. Twist: draw only 1 card, "
        "but steal 1 extra gold.",
    ]
    assert ability_help_lines([ID["luck_domain"]], "it")[0] == "Dominio della Fortuna"


def test_the_abilities_page_gives_the_text_of_every_ability_the_seat_knows() -> None:
    """``a``: your own first, then an opponent's used (so known) one, each once; an
    ability still hidden is neither named nor explained (issue 32 §6)."""
    lines = ability_page_lines(table_view(ability_position(), 0), Narrator(NAMES, "en", me=0))
    texts = lines[lines.index("  Cy: none  (disk Ready)") + 1 :]
    assert texts == [
        *ability_help_lines([FAST_HANDS, CUTTING_WORDS], "en"),  # Bo's Fast Hands: told once
    ]
    lines = ability_page_lines(table_view(ability_position(), 2), Narrator(NAMES, "en", me=2))
    assert lines[-2:] == ability_help_lines([FAST_HANDS], "en")  # Bo's, used: known to all
    assert not any("Draconic" in line or "Cutting" in line for line in lines)
    public = ability_page_lines(table_view(ability_position("public"), 2), Narrator(NAMES, "en"))
    assert public[-6:] == ability_help_lines([FAST_HANDS, CUTTING_WORDS, DRACONIC], "en")


def test_a_long_answer_at_the_prompts_hangs_its_wrapped_lines_under_its_text() -> None:
    """At a terminal's width the plain prompts wrap an answer's label, text and why
    under their own first word (a terminal's own wrap went back to column 0)."""
    option = Option(
        answer=0,
        label="Use Fast Hands now, before the next player plays a card",
        detail="Card Draw. Trigger: you steal gold from the stakes. Twist: draw only 1 card.",
        why="does not trigger: 4 is stronger than the 3 Bo played",
    )
    prompt = Prompt(decision_id=1, kind="use_ability", text="Use an ability?", options=[option])
    narrator = Narrator(NAMES, "en", me=0)
    whole = prompt_lines(prompt, narrator)  # a pipe: one line each, as before
    assert whole[1:] == [f"  1) {option.label}", f"     {option.detail}", f"     {option.why}"]
    lines = prompt_lines(prompt, narrator, width=32)
    assert len(lines) > 6 and all(len(line) <= 32 for line in lines)
    assert lines[1].startswith("  1) Use Fast Hands")
    assert all(line.startswith("     ") and line[5] != " " for line in lines[2:])
    assert " ".join(" ".join(lines[1:]).split()) == " ".join(" ".join(whole[1:]).split())
