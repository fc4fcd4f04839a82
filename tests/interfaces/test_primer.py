"""The rules primer: one text in the catalogues, printed, generated and linked by id.

What a newcomer must learn is checked against the rulebooks' facts (the
trigger rule, what each special flight pays, the hand limit, buying), in
both languages; ``dragonante rules`` prints it whole or one section; and
``docs/primer.md`` is exactly what the catalogues generate.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dragonante.i18n import LANGS, catalog
from dragonante.interfaces import primer
from tests.interfaces.conftest import Cli, assert_one_line_error

ROOT = Path(__file__).resolve().parents[2]


def test_every_section_has_a_title_and_text_in_both_languages_and_nothing_else() -> None:
    for lang in LANGS:
        keys = {k for k in catalog(lang) if k.startswith("primer.")}
        expected = {"primer.title", "primer.intro"}
        for s in primer.SECTIONS:
            expected |= {f"primer.{s}.title", f"primer.{s}.text"}
        assert keys == expected, lang


@pytest.mark.parametrize("lang", LANGS)
def test_sections_are_in_reading_order_with_stable_keys(lang: str) -> None:
    got = primer.sections(lang)
    assert [s.id for s in got] == list(primer.SECTIONS)
    assert [s.key for s in got][5] == "primer.trigger"
    assert all(s.title and all(line.strip() for line in s.lines) for s in got)


def test_the_facts_a_newcomer_needs_are_stated() -> None:
    """The rulebook's numbers, as the primer states them (Legendary Edition, p. 4-11)."""
    text = {s.id: " ".join(s.lines) for s in primer.sections("en")}
    assert (
        "equal to or lower than the strength of the card the player on your right"
        in (text["trigger"])
    )
    assert "first card of the round" in text["trigger"]
    assert "second strongest" in text["flights"] and "9, 4 and 13" in text["flights"]
    assert "two ante cards" in text["flights"]
    assert "exactly one card" in text["buying"] and "four cards" in text["buying"]
    assert "more than ten cards" in text["drawing"]
    assert "10 gold for each player" in text["goal"]
    assert "into the hole" in text["end"] and "takes all the gold in the hole" in text["end"]
    eg = text["emperors_gambit"]
    assert "three ante cards" in eg and "Ante effects" in eg and "Debts" in eg
    assert "docs/abilities.md" in text["abilities"]
    it = {s.id: " ".join(s.lines) for s in primer.sections("it")}
    assert "uguale o inferiore" in it["trigger"] and "tana" in it["end"]
    assert "stormo di colore" in it["flights"].lower()


@pytest.mark.parametrize(
    ("name", "expected"),
    [("trigger", "trigger"), ("primer.flights", "flights"), ("Emperors-Gambit", "emperors_gambit")],
)
def test_a_section_is_named_by_id_key_or_command_line_spelling(name: str, expected: str) -> None:
    assert primer.section_id(name) == expected
    assert primer.section_id("nonsense") is None


def test_rules_prints_the_whole_primer(cli: Cli) -> None:
    result = cli(["rules", "--lang", "en"])
    assert result.code == 0, result.err
    for s in primer.sections("en"):
        assert s.title.upper() in result.out
    assert result.out.startswith("Three-Dragon Ante: the rules in brief")


def test_rules_prints_one_section_in_italian(cli: Cli) -> None:
    result = cli(["rules", "--lang", "it", "--section", "trigger"])
    assert result.code == 0, result.err
    assert result.out.startswith("QUANDO UN POTERE SI INNESCA")
    assert "STORMI" not in result.out  # only that section


def test_rules_with_an_unknown_section_is_a_one_line_error(cli: Cli) -> None:
    assert_one_line_error(cli(["rules", "--section", "bogus"]), "bogus", "trigger")


def test_docs_primer_md_is_generated_from_the_catalogues(cli: Cli) -> None:
    """Regenerate with the command the page names when this fails."""
    page = (ROOT / "docs" / "primer.md").read_text(encoding="utf-8")
    assert page == primer.markdown(), f"docs/primer.md is stale: run {primer.REGENERATE}"
    assert primer.REGENERATE in page
    result = cli(["rules", "--markdown"])
    assert result.out == page
    # one anchor per section and language, so other pages can link to a section
    anchors = re.findall(r'<a id="(\w+)-(\w+)"></a>', page)
    assert anchors == [(lang, s) for lang in LANGS for s in primer.SECTIONS]


def test_the_markdown_keeps_lists_as_lists() -> None:
    page = primer.markdown(("en",))
    assert "\n\n1. Ante: everyone" in page and "\n- Strength flight: three cards" in page


def test_play_plain_help_names_the_primer_and_r_prints_a_section(cli: Cli) -> None:
    args = ["play", "--players", "2", "--seed", "3", "--lang", "en"]
    r = cli(args, "h\nr trigger\nr bogus\nr\nq\n")
    assert r.code == 0, r.err
    assert "r ID for one section" in r.out  # the help says how to read it
    assert "WHEN A POWER TRIGGERS" in r.out  # r trigger: that section
    assert "unknown section 'bogus'" in r.out  # a bad name is said, and the question asked again
    assert "HOW TO WIN" in r.out and "BUYING CARDS" in r.out  # r alone: the whole primer
    assert r.out.count("Your choice (1-6, h for help): ") >= 5
