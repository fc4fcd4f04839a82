"""The registry of equivalent mutants stays true to the code it excuses.

Issue 21 counts the mutants the rules scenarios kill; an equivalent mutant
is left out of the score only through an entry in
``tests/mutation/equivalent/``.  These tests keep the entries honest: each
is complete and explained, and its ``before`` text is still in its module
(an entry for code that has changed would excuse nothing, or the wrong
thing).  The matching of survivors against entries is tested on a registry
of its own.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "mutation_equivalents", TOOLS / "mutation_equivalents.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mutation_equivalents", module)
    spec.loader.exec_module(module)
    return module


ME = _tool()

DIFF = """--- a/src/dragonante/engine/decks.py
+++ b/src/dragonante/engine/decks.py
@@ -99,7 +99,7 @@
     if preset in THEME_VARIANTS:
-        return tuple(new if c == old else c for c in colors), unique
+        return tuple(new if c is old else c for c in colors), unique
     return THEME_DECKS[preset]"""

ENTRY = """[[mutant]]
function = "theme_types"
before = "return tuple(new if c == old else c for c in colors), unique"
after = "return tuple(new if c is old else c for c in colors), unique"
why = "both strings are constants of the module's own tables: one object each"
"""


def test_every_registered_equivalent_is_complete_and_still_in_its_module() -> None:
    assert ME.check() == []


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(ME, "REGISTRY", tmp_path)
    monkeypatch.setattr(ME, "SAVED", tmp_path / "saved")
    return tmp_path


def test_a_survivor_matching_an_entry_is_equivalent_the_rest_left(registry: Path) -> None:
    (registry / "dragonante.engine.decks.toml").write_text(ENTRY, encoding="utf-8")
    other = DIFF.replace("c is old", "c is not old")
    verdict = ME.classify(
        "src/dragonante/engine/decks.py",
        [
            ("### survived: line 102 core/ReplaceComparisonOperator_Eq_Is #0 in theme_types", DIFF),
            (
                "### survived: line 102 core/ReplaceComparisonOperator_Eq_IsNot #0 in theme_types",
                other,
            ),
            ("### survived: line 102 core/ReplaceComparisonOperator_Eq_Is #0 in fixed_deck", DIFF),
        ],
    )
    assert [(s.function, s.head[28:62]) for s in verdict.equivalent] == [
        ("theme_types", "ReplaceComparisonOperator_Eq_Is #0")
    ]
    assert len(verdict.left) == 2  # another mutant, and the same text in another function
    assert verdict.stale == []


def test_an_entry_matching_no_survivor_is_reported_stale(registry: Path) -> None:
    (registry / "dragonante.engine.decks.toml").write_text(ENTRY, encoding="utf-8")
    verdict = ME.classify("dragonante.engine.decks", [])
    assert [e.function for e in verdict.stale] == ["theme_types"]


def test_the_score_leaves_the_equivalents_out_and_a_retest_adds_its_kills(registry: Path) -> None:
    (registry / "dragonante.engine.decks.toml").write_text(ENTRY, encoding="utf-8")
    head = "### survived: line 102 core/X #0 in theme_types"
    verdict = ME.classify("dragonante.engine.decks", [(head, DIFF), (head + "x", DIFF)])
    lines = ME.record("dragonante.engine.decks", 100, 80, verdict, retest=False)
    assert "killed 80  registered equivalent 1  left 1" in lines[0]
    assert "kill rate 80.0%" in lines[0] and "mutation score 80.8%" in lines[0]
    # A re-test of the two survivors kills one: 81 killed of the same 100.
    one = ME.classify("dragonante.engine.decks", [(head, DIFF)])
    again = ME.record("dragonante.engine.decks", 2, 1, one, retest=True)
    assert "mutants 100  killed 81  registered equivalent 1  left 0" in again[0]


HEAD = "[[mutant]]\nfunction = 'f'\nbefore = 'a'\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[mutant]]\nfunction = 'f'\nbefore = 'a'\nafter = 'b'\n", "exactly the keys"),
        (
            "[[mutant]]\nfunction = 'f'\nbefore = 'a'\nafter = 'a'\nwhy = '" + "x" * 30 + "'\n",
            "different",
        ),
        (
            "[[mutant]]\nfunction = 'f'\nbefore = 'a'\nafter = 'b'\nwhy = 'because'\n",
            "must explain",
        ),
        ("[[mutant]\n", "not valid TOML"),
    ],
)
def test_a_malformed_entry_is_refused_with_its_place(
    registry: Path, text: str, message: str
) -> None:
    (registry / "dragonante.engine.decks.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        ME.load("dragonante.engine.decks")


def test_an_entry_whose_code_changed_fails_the_check(registry: Path) -> None:
    (registry / "dragonante.engine.decks.toml").write_text(
        ENTRY.replace("c == old", "c == older"), encoding="utf-8"
    )
    assert any("is not in decks.py" in p for p in ME.check())


def test_a_retest_after_a_run_without_summary_starts_from_its_verdicts(registry: Path) -> None:
    # Runs made before summaries existed left the verdicts of every mutant.
    saved = registry / "saved"
    saved.mkdir()
    rows = [["op", i, "killed" if i < 7 else "survived"] for i in range(10)]
    (saved / "dragonante.engine.decks.survivors.verdicts.json").write_text(
        json.dumps(rows), encoding="utf-8"
    )
    verdict = ME.classify("dragonante.engine.decks", [("h in f", DIFF)])
    lines = ME.record("dragonante.engine.decks", 3, 2, verdict, retest=True)
    assert "mutants 10  killed 9  registered equivalent 0  left 1" in lines[0]
