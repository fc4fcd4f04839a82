"""The Dice Gambit says "you" to the one person against bots, as the card table does.

Every line of many bot games is worded with seat 0 as "you" (``me=0``) in both
languages: no "You" left with another player's verb, no "Tu" where Italian
says "te" or "tuo", and the lines about the other seats keep their names
(issue 32 §6: the Dice Gambit said "Player 1" where the card table said "You").
"""

from __future__ import annotations

import re

import pytest

from dragonante.bots.dice import DiceSeatView, make_bot
from dragonante.dice.config import DiceConfig
from dragonante.dice.game import apply, new_game
from dragonante.dice.views import tracker
from dragonante.interfaces.dice_render import describe, question, shown_names, table_lines
from dragonante.interfaces.narrate import table_names

#: A subject "You"/"Tu" followed by a third-person verb (the seat's name's form).
WRONG = {
    "en": re.compile(
        r"\bYou (rolls|plays|pays|steals|takes|has|wins|makes|withdraws|sacrifices|goes)\b"
        r"|\bYou's\b|\bto You\b|\bowes You\b"
    ),
    "it": re.compile(
        r"\bTu (tira|gioca|paga|ruba|prende|ha|vince|fa|si|sacrifica|inizia|non)\b"
        r"|\b(di|a|con|tra) Tu\b|Turno di Tu"
    ),
}


def lines_of_games(lang: str, games: int = 30) -> list[str]:
    """Every line (events, questions, sheets) of ``games`` four-seat bot games, seat 0 "you"."""
    names = shown_names(table_names(4, (0,), lang), 0, lang)
    lines: list[str] = []
    for seed in range(games):
        s = new_game(DiceConfig(players=4, gambits=2), seed)
        bots = [make_bot("random", seed * 7 + p) for p in range(4)]
        told = 0
        while s.pending is not None:
            d = s.pending
            lines.append(question(s, d, names, lang, me=0)[0])
            apply(s, bots[d.seat].choose(DiceSeatView(s, d.seat)))
            log = s.log or []
            lines.extend(line for e in log[told:] if (line := describe(e, names, lang, 0)))
            told = len(log)
        lines.extend(table_lines(tracker(s), names, lang, 0))
    return lines


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_line_says_you_to_the_person_and_names_the_bots(lang: str) -> None:
    lines = lines_of_games(lang)
    wrong = [line for line in lines if WRONG[lang].search(line)]
    assert wrong == []
    you = {
        "en": ("You roll a d12", "> Your turn.", "You play a "),
        "it": ("Tiri un d12", "> Il tuo turno.", "Giochi un "),
    }
    for start in you[lang]:
        assert any(start in line for line in lines), start
    assert any(line.startswith("Bot 1 ") for line in lines)
    assert not any("Player 1" in line or "Giocatore 1" in line for line in lines)
