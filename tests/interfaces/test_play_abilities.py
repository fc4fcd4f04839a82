"""``dragonante play`` with D&D abilities: the draft, the ability rows, help, narration.

The player sees its own abilities and the used ones of others, is offered
each ability by name with its text (``?N``), can list its abilities (``a``),
and never sees another seat's hidden ability before it is used.
"""

from __future__ import annotations

import re
import sys

import pytest

from tests.interfaces.conftest import Cli

ONES = "1\n" * 3000
DISKS = ["play", "--players", "2", "--gold-per-player", "8", "--seed", "5", "--abilities", "disks"]
DISKS += ["--opponents", "random"]  # the games these tests were written for


def test_the_draft_offers_every_ability_with_its_text(cli: Cli) -> None:
    r = cli([*DISKS, "--ability-assign", "draft", "--abilities-per-character", "1"], "?1\n" + ONES)
    assert r.code == 0, r.err
    out = r.out
    assert "Choose an ability for your character." in out
    assert "  1) Desperation" in out and "12) Magical Discouragement" in out
    # each ability is offered with what it does, on the line under it
    assert re.search(r" 1\) Desperation\n +Card Draw\. Trigger: you end a gambit", out)
    assert re.search(r"12\) Magical Discouragement\n +Card Denial\. Trigger: an opponent", out)
    # ?1: the full text of the first choice
    assert "Desperation\n  Card Draw. Trigger: you end a gambit with 1 to 9 gold" in out
    assert "You choose Desperation." in out
    assert "--- Game over ---" in out


def test_a_lists_your_abilities_and_the_table_shows_the_rows(cli: Cli) -> None:
    args = [*DISKS, "--ability", "0=fast-hands,cutting-words", "--ability", "1=versatile-trickster"]
    args[args.index("--seed") + 1] = "4"  # a game in which Bot 1 buys cards and uses it
    args += ["--ability-visibility", "hidden"]  # as a game-master would run it
    r = cli(args, "a\n" + ONES)
    assert r.code == 0, r.err
    out = r.out
    assert "Your abilities: Fast Hands, Cutting Words." in out
    assert "Abilities (ability disks; the others' are hidden until used):" in out
    assert "  You: Fast Hands, Cutting Words  (disk Ready)" in out
    assert "Fast Hands\n  Card Draw. Trigger: you steal gold from the stakes." in out
    # Bot 1's ability is unknown until it is used, then known to everyone
    assert "Bot 1 uses Versatile Trickster." in out
    before = out.split("Bot 1 uses Versatile Trickster.")[0]
    assert "Versatile Trickster" not in before
    assert "  Bot 1: 1 unknown  (disk " in before


def test_italian_play_with_special_abilities(cli: Cli) -> None:
    args = [
        "play",
        "--players",
        "3",
        "--seed",
        "2",
        "--lang",
        "it",
        "--abilities",
        "skills",
        "--ability",
        "0=bluff",
        "--ability",
        "1=heal",
        "--ability",
        "2=arcana",
    ]
    r = cli(args, "a\n" + ONES)
    assert r.code == 0, r.err
    out = r.out
    assert "Le tue capacità: Raggirare." in out
    assert "Capacità (capacità speciali):" in out  # public: the book's default
    assert "  Bot 1: Guarire" in out and "  Bot 2: Arcano" in out
    assert "Raggirare\n  Sempre attiva." in out
    # the others' known abilities with their text too: what the player needs to know
    assert "Guarire\n  Ricarica. All'inizio del tuo turno" in out
    assert "Arcano\n  Sempre attiva. Ogni volta che completi" in out
    assert not re.search(r"\b(ability|prompt|event|answer)\.[a-z_]+", out)  # no raw key


def test_a_without_abilities_says_so(cli: Cli) -> None:
    r = cli(["play", "--players", "2", "--seed", "1"], "a\nq\n")
    assert "This table plays without D&D abilities." in r.out


def test_without_a_game_master_everyone_knows_every_ability_from_the_start(cli: Cli) -> None:
    """Legendary Appendix 5: 'If the game doesn't have a GM, make your chosen abilities
    public from the start' - the command line has no game-master (issue 21, deviation 12)."""
    args = [*DISKS, "--ability", "0=fast-hands,cutting-words", "--ability", "1=versatile-trickster"]
    args[args.index("--seed") + 1] = "4"
    r = cli(args, ONES)
    assert r.code == 0, r.err
    before = r.out.split("Bot 1 uses Versatile Trickster.")[0]
    assert "  Bot 1: Versatile Trickster" in before
    assert "unknown" not in before


def test_at_a_terminal_a_long_ability_text_hangs_under_its_name(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The draft's texts wrap at the terminal's width under their own first word
    (the terminal's own wrap went back to column 0: issue 32 §6)."""
    monkeypatch.setenv("COLUMNS", "44")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    args = [*DISKS, "--ability-assign", "draft", "--abilities-per-character", "1"]
    r = cli(args, "q\n")
    assert r.code == 0, r.err
    draft = r.out[r.out.index("Choose an ability for your character.") :].splitlines()
    first = draft.index("   1) Desperation")
    after = next(i for i in range(first + 1, len(draft)) if re.match(r" +2\) ", draft[i]))
    text = draft[first + 1 : after]  # Desperation's text, wrapped
    assert text[0] == "      Card Draw. Trigger: you end a gambit"
    assert len(text) > 2 and all(line.startswith("      ") and len(line) <= 44 for line in text)
