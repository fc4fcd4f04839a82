"""Narration: every event the engine emits reads as a sentence, in both languages.

Checked three ways: the engine's source is scanned for every event kind it
can log today (a new kind fails here until it has a message); a hand-made
example of every kind and variant is narrated for a spectator and for the
seat that acts; and whole random games with three decks are narrated for
every seat.  Unknown kinds and malformed data fall back to a generic line.
Prompts: every decision kind gets numbered, labelled choices matching the
legal answers exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from dragonante.cards import ALL_CARDS, card_number
from dragonante.engine import apply, new_game
from dragonante.engine import decisions as D
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.config import DeckOptions, GameConfig, Rules
from dragonante.engine.flow import would_trigger
from dragonante.engine.state import Event, GameState
from dragonante.engine.tables import COLORS
from dragonante.engine.views import events_for
from dragonante.i18n import LANGS, t
from dragonante.interfaces.narrate import (
    KNOWN_EVENTS,
    SUBJECT,
    Narrator,
    ability_name,
    ability_text,
    card_label,
)
from dragonante.sim.selfplay import play_random

RED12 = card_number("L-std-red-12")
BLACK2 = card_number("L-std-black-2")
GOLD4 = card_number("L-std-gold-4")
DRUID = card_number("L-mor-druid")
SEER = card_number("L-leg-silver-seer")
NAMES = ["Ann", "Bo", "Cy"]


def engine_event_kinds() -> set[str]:
    """Every kind the engine's source logs: ``ev(s, "kind", ...)``."""
    kinds: set[str] = set()
    for package in ("dragonante.engine", "dragonante.engine.abilities"):
        for entry in resources.files(package).iterdir():
            if entry.name.endswith(".py"):
                kinds.update(re.findall(r'\bev\(\s*s,\s*"(\w+)"', entry.read_text("utf-8")))
    return kinds


#: A realistic example of every event kind and every variant of its message.
EXAMPLES: dict[str, list[dict[str, Any]]] = {
    "setup": [{"players": 3, "gold": 30, "deck": 80}],
    "specials_shown": [{"cards": [DRUID, SEER]}],
    "pick_special": [{"seat": 1, "card": DRUID}],
    "draw_card": [{"seat": 1, "card": RED12}],
    "draw": [{"seat": 1, "asked": 2, "drawn": 2}, {"seat": 1, "asked": 2, "drawn": 1}],
    "reshuffle": [{"size": 31}],
    "gambit_start": [{"gambit": 2, "stakes": 0}, {"gambit": 3, "stakes": 7}],
    "ante_chosen": [{"seat": 1, "card": RED12}],
    "ante_placed": [{"seat": 1}],
    "ante_reveal": [{"cards": [RED12, -1, GOLD4]}],
    "ante_redo": [{}],
    "ante_paid": [{"leader": 1, "amount": 12}],
    "round_start": [{"round": 1, "leader": 1}],
    "round_end": [{"round": 1, "leader": 1}],
    "play": [
        {"seat": 1, "card": RED12, "triggered": False},
        {"seat": 1, "card": RED12, "triggered": True},
    ],
    "turn_skipped": [{"seat": 1}],
    "power": [{"seat": 1, "card": RED12, "this": RED12}],
    "power_unsupported": [{"seat": 1, "card": RED12}],
    "auto_answer": [
        {"seat": 1, "question": "play", "answer": RED12},
        {"seat": 1, "question": "give_or_pay", "answer": D.PASS},
        {"seat": 1, "question": "choose_opponent", "answer": 2},
    ],
    "pay": [
        {"payer": 1, "to": -1, "amount": 3, "paid": 3, "short": 0},
        {"payer": 1, "to": 2, "amount": 5, "paid": 2, "short": 3},
    ],
    "steal": [{"seat": 1, "amount": 3, "taken": 2}],
    "buy": [
        {"seat": 1, "card": GOLD4, "price": 4, "to": -1},
        {"seat": 1, "card": GOLD4, "price": 4, "to": 2},
        {"seat": 1, "card": GOLD4, "price": 4, "to": 1},
        {"seat": 1, "card": -1, "price": 0, "to": -1},
    ],
    "blue_mode": [{"seat": 1, "mode": 0}, {"seat": 1, "mode": 1}],
    "chose_pay": [{"seat": 1, "to": 2}],
    "gives_card": [{"seat": 1, "to": 2, "card": GOLD4}],
    "gift_refused": [{"seat": 1, "card": GOLD4}],
    "take_ante": [{"seat": 1, "card": GOLD4}],
    "take_random": [{"taker": 1, "victim": 2}],
    "take_random_card": [{"taker": 1, "victim": 2, "card": GOLD4}],
    "take_random_none": [{"taker": 1, "victim": 2}],
    "replace": [
        {"seat": 1, "old": RED12, "new": GOLD4, "how": how}
        for how in ("copper", "trickster", "wyrmling", "sorcerer", "shadow")
    ],
    "chain_ended": [{"seat": 1, "card": GOLD4}],
    "swap": [{"seat": 1, "other": 2, "gave": DRUID, "took": SEER}],
    "sorcerer_reveal": [{"seat": 1, "cards": [RED12, GOLD4, BLACK2]}],
    "to_ante": [{"seat": 1, "cards": [RED12]}],
    "seer_look": [{"seat": 1, "cards": [RED12, GOLD4, BLACK2]}],
    "seer_keep": [{"seat": 1, "card": RED12}],
    "seer_discard": [{"seat": 1, "count": 2}],
    "seer_discard_cards": [{"seat": 1, "cards": [GOLD4, BLACK2]}],
    "discard_from_hand": [{"seat": 1, "card": GOLD4}],
    "kobold_draw": [{"seat": 1, "count": 2}],
    "prophet_reveal": [{"seat": 1, "card": RED12}],
    "slay": [{"seat": 1, "owner": 2, "card": RED12}, {"seat": 1, "owner": 1, "card": RED12}],
    "color_flight": [{"seat": 1, "color": "red", "amount": 12}],
    "strength_flight": [{"seat": 1, "strength": 4}],
    "stakes_empty": [{}],
    "scoring": [{"totals": [12, 20, 7], "round": 3}],
    "tie": [{"seats": [0, 1]}],
    "warlord_round": [{}],
    "gambit_won": [{"winner": 1, "amount": 30}],
    "priest_split": [{"winner": 1, "partner": 2, "amount": 30, "share": 15}],
    "monarch_gift": [{"seat": 1, "gift": 3}],
    "no_winner": [{"stakes": 9}],
    "hole_paid": [{"seat": 1, "owed": 5, "paid": 3}],
    "hole_won": [{"seats": [1], "amount": 4}, {"seats": [0, 1], "amount": 5}],
    "game_over": [
        {"winners": [1], "hoards": [0, 40, 20]},
        {"winners": [0, 1], "hoards": [30, 30, 0]},
    ],
    "ante_effect": [
        {"effect": "dragon_turtle", "amount": 2},
        {"effect": "spy", "seat": 1, "payment": 2},
    ],
    "copy": [{"seat": 1, "card": RED12}],
    "adventurer_split": [{"winner": 1, "seats": [0, 2], "amount": 20}],
    "stack": [{"seat": 1, "amount": 7}],
    "debt_paid": [
        {"seat": 1, "to": 2, "owed": 5, "paid": 5},
        {"seat": 1, "to": -1, "owed": 5, "paid": 2},
    ],
    "debt_waived": [{"seat": 1, "owed": 4}],
    "eliminated": [{"seat": 1}],
    "target_reached": [{"target": 100}],
    "last_gambit_called": [{"gambit": 5}],
    # D&D abilities (ability numbers: 2 Draconic Ancestry, 3 Fast Hands, 10 Cutting Words,
    # 13 Bluff, 17 Heal, 19 Insight)
    "abilities_dealt": [
        {"seat": 1, "abilities": [3, 10], "color": ""},
        {"seat": 1, "abilities": [2, 3], "color": "red"},
        {"seat": 1, "abilities": [], "color": ""},
    ],
    "insight_check": [{"seat": 1, "roll": 14, "modifier": 2, "total": 16}],
    "insight_reroll": [{"seats": [0, 2], "rolls": [5, 12]}],
    "draft_order": [{"seats": [2, 0, 1]}],
    "draft_pick": [{"seat": 1, "ability": 13}],
    "ancestry_chosen": [{"seat": 1, "color": "blue"}],
    "ability_used": [{"seat": 1, "ability": 3}, {"seat": 1, "ability": 2, "color": "red"}],
    "disk_ready": [{"seat": 1}],
    "abilities_ready": [{"seat": 1, "abilities": [17, 19]}],
    "ability_dice": [{"seat": 1, "dice": [3, 4], "amount": 7}],
    "buy_denied": [{"seat": 1, "by": 2, "size": 3}],
    "religion_keep": [{"seat": 1, "card": RED12}],
    "heal_reveal": [{"seat": 1, "card": RED12}],
    "insight_look": [{"seat": 1, "winner": 2, "cards": [RED12, BLACK2]}],
    "dungeoneering": [{"seat": 1, "victim": 2}],
    "dungeoneering_cards": [{"seat": 1, "victim": 2, "old": RED12, "new": BLACK2}],
    "dungeoneering_look": [{"seat": 1, "victim": 2, "cards": [RED12, BLACK2]}],
    "perception_swap": [{"seat": 1, "old": RED12, "new": BLACK2}],
    "luck_redraw": [{"seat": 1, "card": GOLD4}],
    "streetwise": [{"seat": 1, "card": GOLD4, "amount": 4}],
    "diplomacy": [{"seat": 1, "leader": 2}],
}


def is_generic(text: str, kind: str) -> bool:
    return text.startswith("(" + kind.replace("_", " ") + ":")


def assert_sentence(text: str, kind: str) -> None:
    assert text and text.strip() == text, (kind, text)
    assert "{" not in text and "}" not in text, (kind, text)
    assert "event." not in text and not is_generic(text, kind), (kind, text)


def test_every_event_kind_the_engine_logs_has_a_message_and_an_example() -> None:
    kinds = engine_event_kinds()
    assert len(kinds) > 50  # the scan works
    assert sorted(kinds - KNOWN_EVENTS) == []
    assert sorted(kinds - set(EXAMPLES)) == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_every_example_reads_as_a_sentence_for_everyone_and_for_the_actor(
    kind: str, lang: str
) -> None:
    for data in EXAMPLES[kind]:
        event: Event = (None, kind, data)
        for me in (None, 0, 1, 2):
            assert_sentence(Narrator(NAMES, lang, me=me).event(event), kind)


def test_every_event_with_an_acting_seat_says_you_to_that_seat() -> None:
    for kind, field in SUBJECT.items():
        for data in EXAMPLES[kind]:
            if data.get(field) != 1:
                continue
            event: Event = (None, kind, data)
            for lang in LANGS:
                mine = Narrator(NAMES, lang, me=1).event(event)
                theirs = Narrator(NAMES, lang, me=0).event(event)
                assert "Bo" not in mine and "Bo" in theirs, (kind, mine, theirs)


def test_the_acting_seat_is_you_and_the_others_are_named() -> None:
    play: Event = (None, "play", {"seat": 1, "card": RED12, "triggered": True})
    assert Narrator(NAMES, "en", me=1).event(play) == (
        "You play Red Dragon (12); its power triggers."
    )
    assert Narrator(NAMES, "en", me=0).event(play) == (
        "Bo plays Red Dragon (12); its power triggers."
    )
    assert Narrator(NAMES, "it", me=1).event(play) == (
        "Giochi Drago Rosso (12); il suo potere si innesca."
    )
    pay: Event = (None, "pay", {"payer": 2, "to": 1, "amount": 5, "paid": 2, "short": 3})
    assert Narrator(NAMES, "en", me=1).event(pay) == (
        "Cy pays 2 gold to you. (3 gold short: owed to the hole.)"
    )
    assert Narrator(NAMES, "it", me=1).event(pay) == (
        "Cy paga 2 mo a te. (mancano 3 mo: da pagare nella tana.)"
    )
    debt = Narrator(NAMES, "en", me=1, debt_model="creditors").event(pay)
    assert debt.endswith("(3 gold short: owed as a debt.)")
    slay: Event = (None, "slay", {"seat": 2, "owner": 1, "card": RED12})
    assert Narrator(NAMES, "en", me=1).event(slay) == "Cy slays Red Dragon (12) in your flight."
    assert Narrator(NAMES, "it", me=0).event(slay) == (
        "Cy stermina Drago Rosso (12) nello stormo di Bo."
    )


def test_a_power_event_quotes_the_card_text_in_the_language() -> None:
    power: Event = (None, "power", {"seat": 0, "card": BLACK2, "this": BLACK2})
    assert Narrator(NAMES, "en").event(power) == (
        "Power of Black Dragon (2): Steal 3 gold from the stakes."
    )
    assert Narrator(NAMES, "it").event(power) == "Drago Nero (2), potere: Ruba 3 mo dal piatto."


def test_unknown_kinds_and_malformed_data_fall_back_to_a_generic_line() -> None:
    n = Narrator(NAMES, "en", me=0)
    text = n.event((None, "dragon_sneezes", {"seat": 1, "card": RED12, "amount": 3}))
    assert text == "(dragon sneezes: seat Bo, card Red Dragon (12), amount 3)"
    assert n.event((None, "brand_new", {})) == "(brand new: -)"
    # a known kind with data of the wrong shape does not crash the table
    broken = n.event((None, "play", {"seat": "?"}))
    assert broken.startswith("(play:")
    assert n.event((None, "pay", {"payer": 1})).startswith("(pay:")
    assert n.events([(None, "scoring", "not a dict")])  # type: ignore[list-item]


def test_draws_antes_and_automatic_answers_are_told_once() -> None:
    events: list[Event] = [
        ((0,), "draw_card", {"seat": 0, "card": RED12}),
        ((0,), "draw_card", {"seat": 0, "card": GOLD4}),
        (None, "draw", {"seat": 0, "asked": 2, "drawn": 2}),
        (None, "draw", {"seat": 1, "asked": 2, "drawn": 2}),
        ((0,), "auto_answer", {"seat": 0, "question": "ante", "answer": RED12}),
        ((0,), "ante_chosen", {"seat": 0, "card": RED12}),
        (None, "ante_placed", {"seat": 0}),
        (None, "seer_discard", {"seat": 0, "count": 2}),
        ((0,), "seer_discard_cards", {"seat": 0, "cards": [GOLD4, BLACK2]}),
    ]
    assert Narrator(NAMES, "en", me=0).events(events) == [
        "You draw 2 cards: Red Dragon (12), Gold Dragon (4).",
        "Bo draws 2 cards.",
        "You ante Red Dragon (12) face down.",
        "You discard face down: Gold Dragon (4), Black Dragon (2).",
    ]
    public = [e for e in events if e[0] is None]
    assert Narrator(NAMES, "en", me=1).events(public) == [
        "Ann draws 2 cards.",
        "You draw 2 cards.",
        "Ann puts an ante card face down.",
        "Ann discards 2 cards face down.",
    ]


CONFIGS = [
    GameConfig(players=3),
    GameConfig(players=4, deck=DeckOptions(selection="pick_em", reveal_specials=True)),
    GameConfig(
        players=5, deck=DeckOptions(preset="eg_full"), rules=Rules.preset("emperors_gambit")
    ),
    GameConfig(players=2, gold_per_player=8),
    GameConfig(players=6, deck=DeckOptions(preset="eg_full")),
]


def random_games(count: int) -> Iterator[GameState]:
    for g in range(count):
        state, _ = play_random(CONFIGS[g % len(CONFIGS)], 1000 + g, log=True)
        yield state


def test_whole_random_games_narrate_every_event_for_every_seat_in_both_languages() -> None:
    seen: set[str] = set()
    for state in random_games(25):
        log = state.log or []
        names = [f"P{p}" for p in range(state.n)]
        for lang in LANGS:
            for seat in [None, *range(state.n)]:
                n = Narrator(names, lang, me=seat, debt_model=state.config.rules.debt_model)
                for e in events_for(log, seat):
                    assert_sentence(n.event(e), e[1])
                    seen.add(e[1])
                assert all("{" not in line for line in n.events(events_for(log, seat)))
    assert {"play", "power", "pay", "gambit_won", "game_over", "draw_card"} <= seen


#: Decks rich in the specials that ask questions, so every decision kind comes up.
INTERACTIVE = (
    "L-mor-dragonslayer",
    "L-leg-copper-trickster",
    "L-mor-princess",
    "L-mor-prophet",
    "L-mor-illusionist",
    "L-mor-kobold",
    "L-mor-sorcerer",
    "L-leg-silver-seer",
    "L-leg-chromatic-wyrmling",
    "L-leg-red-destroyer",
)
PROMPT_CONFIGS = [
    GameConfig(players=3, deck=DeckOptions(forced_includes=INTERACTIVE)),
    GameConfig(players=4, deck=DeckOptions(selection="pick_em")),
    GameConfig(players=3, deck=DeckOptions(preset="eg_full")),
    GameConfig(players=5, deck=DeckOptions(preset="eg_full")),
    # the D&D abilities: every ability question (docs/abilities.md)
    GameConfig(
        players=5, abilities=AbilityOptions(system="skills", assign="draft", per_character=3)
    ),
    GameConfig(
        players=6, abilities=AbilityOptions(system="disks", assign="draft", per_character=4)
    ),
]


def check_prompt(s: GameState, kinds: set[str]) -> None:
    """The pending question, as its seat is asked it in both languages."""
    d = s.pending
    if d is None:
        return
    names = [f"P{p}" for p in range(s.n)]
    for lang in LANGS:
        prompt = Narrator(names, lang, me=d.seat).prompt(s)
        assert prompt is not None and prompt.kind == d.kind
        assert sorted(o.answer for o in prompt.options) == sorted(d.options)
        assert prompt.text and "{" not in prompt.text, prompt.text
        narrator = Narrator(names, lang, me=d.seat)
        unknown = t("prompt.unknown", lang, question=narrator.question(d.kind))
        assert prompt.text != unknown, f"no prompt of its own for {d.kind} {d.ctx}"
        for o in prompt.options:
            assert o.label and "{" not in o.label and "answer." not in o.label
            if o.card >= 0:
                assert card_label(o.card, lang) in o.label
            if d.kind in (D.USE_ABILITY, D.DRAFT_ABILITY) and o.answer != D.PASS:
                # an ability is offered by name, with what it does
                assert o.label == ability_name(o.answer, lang)
                assert o.detail == ability_text(o.answer, lang) and o.detail
    kinds.add(d.kind)
    # nobody else is asked this question
    assert Narrator(names, "en", me=(d.seat + 1) % s.n).prompt(s) is None


def test_every_decision_kind_gets_numbered_choices_matching_the_legal_answers() -> None:
    kinds: set[str] = set()
    for g in range(1000):  # stops as soon as every kind was asked (a few hundred games)
        if kinds >= set(D.KINDS):
            break
        config = PROMPT_CONFIGS[g % len(PROMPT_CONFIGS)]
        play_random(config, 5000 + g, on_step=lambda s: check_prompt(s, kinds))
    assert sorted(set(D.KINDS) - kinds) == []


def test_play_prompts_mark_the_cards_that_would_trigger() -> None:
    s = new_game(GameConfig(players=3), 4)
    while s.pending is not None and s.pending.kind != D.PLAY:
        apply(s, s.pending.options[0])
    assert s.pending is not None
    seat = s.pending.seat
    prompt = Narrator(["a", "b", "c"], "en", me=seat).prompt(s)
    assert prompt is not None
    assert [o.triggers for o in prompt.options] == [
        would_trigger(s, seat, o.answer) for o in prompt.options
    ]
    assert all(o.triggers for o in prompt.options)  # the leader's first card always triggers
    # the next player's cards trigger only up to the strength just played
    apply(s, min(s.pending.options, key=lambda c: ALL_CARDS[c].strength))
    while s.pending is not None and s.pending.kind != D.PLAY:
        apply(s, s.pending.options[0])
    assert s.pending is not None and s.pending.kind == D.PLAY
    nxt = s.pending.seat
    prompt = Narrator(["a", "b", "c"], "en", me=nxt).prompt(s)
    assert prompt is not None
    assert [o.triggers for o in prompt.options] == [
        would_trigger(s, nxt, o.answer) for o in prompt.options
    ]
    strengths = [ALL_CARDS[o.answer].strength for o in prompt.options]
    assert strengths == sorted(strengths)  # choices are listed weakest first


def _first_play(players: int, seed: int) -> tuple[GameState, int]:
    s = new_game(GameConfig(players=players), seed)
    while s.pending is not None and s.pending.kind != D.PLAY:
        apply(s, s.pending.options[0])
    assert s.pending is not None
    return s, s.pending.seat


def _plain_dragon(options: tuple[int, ...]) -> int:
    """A one-color dragon of the hand (not a god, a mortal or a multicolor card)."""
    return next(
        c
        for c in options
        if c >= 0
        and ALL_CARDS[c].type.kind == "dragon"
        and len(ALL_CARDS[c].type.colors) == 1
        and ALL_CARDS[c].type.dragon_god["en"] is None
    )


@pytest.mark.parametrize("lang", LANGS)
def test_play_choices_say_which_special_flight_they_would_complete(lang: str) -> None:
    """A play's detail names the color or strength flight the card would
    complete as the third matching card of the seat's flight, and nothing when
    it completes none."""
    s, seat = _first_play(3, 4)
    assert s.pending is not None
    card = _plain_dragon(s.pending.options)
    color = ALL_CARDS[card].type.colors[0]
    held = {c for h in s.hands for c in h}
    same_color = [
        c.index
        for c in ALL_CARDS
        if c.type.colors == (color,)
        and c.index not in held
        and c.strength != ALL_CARDS[card].strength
        and c.type.set == ALL_CARDS[card].type.set
    ][:2]
    s.flights[seat] = same_color
    prompt = Narrator(["a", "b", "c"], lang, me=seat).prompt(s)
    assert prompt is not None
    details = {o.answer: o.detail for o in prompt.options}
    color_name = t(f"color.{color}", lang)
    assert details[card] == t("answer.completes.color", lang, color=color_name)
    # cards of another color and strength complete nothing
    for other, detail in details.items():
        o = ALL_CARDS[other]
        if color not in o.type.colors and o.strength not in {
            ALL_CARDS[c].strength for c in same_color
        }:
            assert detail == "", o.name("en")

    strength = ALL_CARDS[card].strength
    same_strength = [
        c.index
        for c in ALL_CARDS
        if c.strength == strength
        and c.type.kind == "dragon"
        and color not in c.type.colors
        and c.index not in held
    ][:2]
    assert len(same_strength) == 2
    s.flights[seat] = same_strength
    prompt = Narrator(["a", "b", "c"], lang, me=seat).prompt(s)
    assert prompt is not None
    detail = next(o.detail for o in prompt.options if o.answer == card)
    assert t("answer.completes.strength", lang, strength=strength) in detail

    s.flights[seat] = same_strength[:1]  # two cards after the play: no flight yet
    prompt = Narrator(["a", "b", "c"], lang, me=seat).prompt(s)
    assert prompt is not None
    assert next(o.detail for o in prompt.options if o.answer == card) == ""


def test_a_collected_color_is_not_offered_again() -> None:
    """Each color pays a player once per gambit (D17): no hint for it once collected."""
    s, seat = _first_play(3, 4)
    assert s.pending is not None
    card = _plain_dragon(s.pending.options)
    color = ALL_CARDS[card].type.colors[0]
    held = {c for h in s.hands for c in h}
    s.flights[seat] = [
        c.index
        for c in ALL_CARDS
        if c.type.colors == (color,)
        and c.index not in held
        and c.strength != ALL_CARDS[card].strength
    ][:2]
    s.collected_colors[seat] |= 1 << COLORS.index(color)
    prompt = Narrator(["a", "b", "c"], "en", me=seat).prompt(s)
    assert prompt is not None
    assert "flight" not in next(o.detail for o in prompt.options if o.answer == card)
