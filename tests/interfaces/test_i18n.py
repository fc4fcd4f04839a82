"""The message catalogs: both languages say the same things with the same blanks."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

import dragonante
from dragonante.i18n import LANGS, catalog, check_lang, has, locale_lang, placeholders, t


def raw(lang: str) -> dict[str, str]:
    text = resources.files("dragonante.i18n").joinpath(f"{lang}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def test_both_languages_have_exactly_the_same_keys() -> None:
    en, it = raw("en"), raw("it")
    assert sorted(set(en) - set(it)) == []
    assert sorted(set(it) - set(en)) == []


def test_both_languages_use_the_same_placeholders_in_every_message() -> None:
    en, it = raw("en"), raw("it")
    different = {k: (placeholders(en[k]), placeholders(it[k])) for k in en if k in it}
    assert {k: v for k, v in different.items() if v[0] != v[1]} == {}


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_non_empty_text_and_formats_cleanly(lang: str) -> None:
    for key, message in catalog(lang).items():
        assert message.strip(), key
        filled = t(key, lang, **dict.fromkeys(placeholders(message), "X"))
        assert "{" not in filled and "}" not in filled, key


def test_italian_uses_the_glossary_terms() -> None:
    it = catalog("it")
    assert it["unit.gold"] == "{n} mo"
    assert "Piatto" in it["table.summary"] and "Tana" in it["table.summary"]
    assert it["table.col.hoard"] == "Tesoro" and it["table.col.flight"] == "Stormo"
    assert it["event.gambit_start"] == "=== Sfida {gambit} ==="
    assert "carta d'apertura" in it["question.ante"]


def test_t_fills_placeholders_and_falls_back() -> None:
    assert t("unit.gold", "en", n=3) == "3 gold"
    assert t("unit.gold", "it", n=3) == "3 mo"
    # an unknown language speaks English; an unknown key shows itself
    assert t("unit.gold", "fr", n=3) == "3 gold"
    assert t("no.such.key", "it") == "no.such.key"
    # a placeholder not supplied stays visible instead of raising
    assert t("unit.gold", "en") == "{n} gold"
    # "key" and "lang" may be placeholders too
    assert "xyz" in t("cli.error.include", "en", key="xyz")
    assert "fr" in t("cli.error.lang", "en", lang="fr", choices="en, it")


def test_has_and_check_lang() -> None:
    assert has("event.play.you") and not has("event.nothing")
    assert check_lang("it") == "it"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        check_lang("de")


#: A message key written literally in a call that looks one up: ``t("play.quit", lang)``,
#: ``helptext("opt.seed")``, ``has("event.play.you")``, the Dice Gambit's
#: ``you("dice.event.roll")`` (its ``.you`` variant when there is one), and the web
#: narration's ``t(lang, "question.private")`` (language first).
KEY_CALL = re.compile(
    r"""\b(?:t|helptext|has|you|you_key)\(\s*(?:[\w.]+,\s*)?["']([a-z0-9_]+(?:\.[a-z0-9_]+)+)["']"""
)
#: The help of a run option: its declaration, ``RunOption("--seed", "opt.seed", ...)``,
#: and a command's own sentence for it, ``JSON.option("opt.cards_json")``.
OPTION_KEY = re.compile(
    r"""(?:\bRunOption\(\s*["'][^"']+["'],\s*|\.option\(\s*)["']([a-z0-9_]+(?:\.[a-z0-9_]+)+)["']"""
)
SRC = Path(dragonante.__file__).parent


def used_keys() -> dict[str, list[str]]:
    """Every key the source looks up literally, with the files that use it."""
    keys: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for key in KEY_CALL.findall(text) + OPTION_KEY.findall(text):
            keys.setdefault(key, []).append(str(path.relative_to(SRC)))
    return keys


def test_the_source_scan_finds_the_keys_it_should() -> None:
    """The scan itself works: it sees keys of each call form (else the next test proves nothing)."""
    keys = used_keys()
    assert len(keys) > 200
    for key in ("play.quit", "opt.seed", "dice.event.turn", "dice.cmd.play", "question.private"):
        assert key in keys, key
    assert "interfaces/cli/run_options.py" in keys["opt.games"]
    assert "interfaces/cli/cards.py" in keys["opt.cards_json"]
    assert KEY_CALL.findall('t(f"dice.type.{x}", lang)') == []  # dynamic keys are not guessed


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_the_source_uses_exists_in_every_catalog(lang: str) -> None:
    """A message used in code but missing from a catalog would show as its raw key."""
    missing = {k: files for k, files in used_keys().items() if k not in raw(lang)}
    assert missing == {}


def test_catalog_files_are_sorted_so_that_parallel_additions_merge_cleanly() -> None:
    for lang in LANGS:
        keys = list(raw(lang))
        assert keys == sorted(keys), lang


def test_locale_lang_follows_posix_precedence() -> None:
    assert locale_lang({"LANG": "it_IT.UTF-8"}) == "it"
    assert locale_lang({"LANG": "it_CH@euro"}) == "it"
    assert locale_lang({"LANG": "en_GB.UTF-8"}) == "en"
    # a language without a catalog, or the C locale, speaks the default
    assert locale_lang({"LANG": "de_DE.UTF-8"}) == "en"
    assert locale_lang({"LANG": "C.UTF-8"}) == "en"
    assert locale_lang({}) == "en"
    # LC_ALL beats LC_MESSAGES beats LANG; empty values do not count
    assert locale_lang({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}) == "en"
    assert locale_lang({"LC_MESSAGES": "it_IT", "LANG": "en_US"}) == "it"
    assert locale_lang({"LC_ALL": "", "LANG": "it_IT.UTF-8"}) == "it"
