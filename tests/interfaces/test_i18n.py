"""The message catalogs: both languages say the same things with the same blanks."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from dragonante.i18n import LANGS, catalog, check_lang, has, placeholders, t


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
