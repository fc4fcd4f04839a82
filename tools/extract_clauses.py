"""Cut the rulebooks' rules text into clauses, for rule coverage (``scenario coverage --rules``).

Why: the engine is audited clause by clause against the books, and a
scenario quoting a clause is how the project shows it plays that clause as
written.  The cards' entries are already listed from the card table; this
lists the rest of each book's rules: setup, the gambit's steps, special
flights, buying, the hole, debts, winning, the optional rules, the deck
options and the D&D ability rules, and the Dice Gambit's rules.

    python tools/extract_clauses.py ../shared/seeds

writes ``src/dragonante/scenarios/clauses.json``: one entry per paragraph
(a list's items count as one paragraph each), with its book and section.
What is not a rule to play is left out by section (introductions, the
components, the parts of a card, slang, card lists, credits, the card
power explanations, which the card coverage already lists) and, inside a
rules section, by the paragraph's opening words (:data:`NOT_RULES`, each
with why: an example already played by its own scenario, advice to the
players, flavour).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "dragonante" / "scenarios" / "clauses.json"

#: Per book: the seed's file prefix, the book's name, and the sections kept:
#: (first heading's words, the heading that ends the kept text).
BOOKS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "000": (
        "Legendary",
        [
            ("SUMMARY OF PLAY", "Setup Summary"),
            ("GAMBIT SEQUENCE", "Game Play Example"),
            ("APPENDIX 1: BUILDING GAMES", "APPENDIX 2: SLANG"),
            ("APPENDIX 5: ROLEPLAYING RULES", "GLOSSARY"),
        ],
    ),
    "003": (
        "Emperor's Gambit",
        [
            ("CHANGES FROM THE PREVIOUS EDITION", "INTRODUCTION"),
            ("SUMMARY OF PLAY", "PARTS OF A CARD"),
            ("GAMBIT SEQUENCE", "APPENDIX 1: THEME DECKS"),
            ("APPENDIX 2: THREE-DRAGON ANTE IN YOUR D&D CAMPAIGN", "APPENDIX 3: CARD POWER"),
        ],
    ),
    "001": ("Dice Gambit", [("BASICS", "Plaver Tracker")]),
}

#: Paragraphs inside kept sections that are not rules to play, by their
#: opening words (normalized: lower case), with why.
NOT_RULES: dict[str, str] = {
    "1 platinum coin": "the coins' denominations",
    "later in the game, you'll need": "what to keep at hand for the hole's tally",
    "as beginning players": "advice on choosing cards",
    "instead of randomly choosing 10 cards": "introduces the options below",
    "here are some options": "introduces the options below",
    "there's not one right answer": "introduces the options below",
    "putting the two games together requires": "advice to the players",
    "if the point of a session": "the single d20 check: played by skill_check, not a game",
    "the opposite of simply rolling": "roleplaying advice",
    "in this example color flight": "the caption of a picture",
    "in this example strength flight": "the caption of a picture",
    "color flight example": "a caption's title",
    "strength flight example": "a caption's title",
    "when the game is organized by a tavern": "a prize outside the game",
    "player tracker": "the printable tracker sheet",
    "three- dragon ante": "the printable tracker sheet",
    "three-dragon ante: dice gambit –": "the printable tracker sheet",
    "(1) turns & starting ante": "the steps' summary (each step is a clause below)",
    "(2) play a gambit of 3 rounds": "the steps' summary (each step is a clause below)",
    "[on each round, every player": "the steps' summary (each step is a clause below)",
    "(3) special dragon flights": "the steps' summary (each step is a clause below)",
    "(5) determine gambit winner": "the steps' summary (each step is a clause below)",
    "1. each player antes a card": "the steps' list (each step is a section below)",
    "1. ante 2. play cards": "the steps' list (each step is a section below)",
    "future options:": "advice for abilities the list does not have",
    "if the characters in your d&d campaign": "introduces the options below",
    "three-dragon ante: dice gambit is a variant": "introduction",
    "in three-dragon ante (3da for short)": "the summary: each point is a step's clause",
    "in three-dragon ante, you and the other players": "the summary: each point is a step's clause",
    "once each player has played three cards": "the summary: each point is a step's clause",
    "when the players and their pcs agree": "introduces the ability rules below",
    "the three categories of ability": "names the three headings the abilities are listed under",
    "you'll need some coins, poker chips": "things to keep at hand: the engine keeps the tallies",
    "if all players agree, you can try": "introduces the optional rules below",
    "you play the game with the normal rules, roleplaying": "acting in character: no rule",
    "these optional rules give you a way": "introduces the special abilities below",
    "dragons have special powers based on": "introduces the powers and flights below",
    "dragons have powers based on their alignment": "introduces the powers listed below",
}


def _clean(text: str) -> str:
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("**", "").replace("***", "")
    text = re.sub(r"(?<![\w*])\*(?!\s)([^*]+)\*", r"\1", text)
    text = text.replace("*", "")
    return re.sub(r"\s+", " ", text).strip()


def _heading(line: str, plain: bool) -> str | None:
    s = line.strip()
    if s.startswith("#"):
        return _clean(s.lstrip("#"))
    if not plain:
        return None
    # The Dice Gambit's text has no markup: its headings are lines in capitals.
    bare = re.sub(r"\[[^\]]*\]", "", s)
    if bare and bare.upper() == bare and re.search(r"[A-Z]{4}", bare) and len(s) < 60:
        return _clean(s)
    return None


def clauses(text: str, book: str, keep: list[tuple[str, str]]) -> list[dict[str, str]]:
    """The kept sections' paragraphs of one book, with their section names."""
    out: list[dict[str, str]] = []
    lines = text.splitlines()
    plain = not any(line.startswith("#") for line in lines)
    for first, stop in keep:
        start = next(
            (i for i, line in enumerate(lines) if (_heading(line, plain) or "").startswith(first)),
            None,
        )
        if start is None:
            raise SystemExit(f"{book}: no heading {first!r}")
        section = first.title()
        para: list[str] = []
        for line in lines[start + 1 :]:
            head = _heading(line, plain)
            if head is not None and head.startswith(stop):
                break
            if head is not None or not line.strip() or line.lstrip().startswith("- "):
                if para:
                    out.append({"book": book, "section": section, "text": _clean(" ".join(para))})
                    para = []
                if head is not None:
                    section = head
                    continue
                if line.lstrip().startswith("- "):
                    para = [line.lstrip()[2:]]
                continue
            para.append(line)
        if para:
            out.append({"book": book, "section": section, "text": _clean(" ".join(para))})
    kept = []
    for c in out:
        low = c["text"].lower()
        if len(low) < 25 or any(low.startswith(k) for k in NOT_RULES):
            continue
        kept.append(c)
    return kept


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python tools/extract_clauses.py SEEDS_FOLDER", file=sys.stderr)
        return 2
    seeds = Path(argv[0])
    result: list[dict[str, str]] = []
    for prefix, (book, keep) in BOOKS.items():
        path = next(seeds.glob(f"{prefix}_*.txt"))
        result.extend(clauses(path.read_text(encoding="utf-8"), book, keep))
    OUT.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(result)} clauses written to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
