"""The Dice Gambit in Italian: ``--lang it`` or an Italian locale, whole games, no English left.

"No English left" is checked against the catalogs themselves: every piece of
fixed English text in ``en.json`` that Italian does not share (a sentence
between placeholders) must be absent from Italian output, so a message that
forgot its ``lang`` - and speaks English - fails here, whichever it is.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from functools import cache

import pytest

from dragonante.i18n import catalog, placeholders
from dragonante.interfaces.cli import main

#: Plain English words that Italian output has no reason to contain.
ENGLISH_WORDS = re.compile(
    r"\b(the|and|rolls|roll a|pays|wins|gold|stakes|hoard|dragon|strength|player|gambit|turn)\b",
    re.IGNORECASE,
)


@cache
def english_only_fragments() -> frozenset[str]:
    """Fixed English text (between placeholders) of ``en.json`` that no Italian message has."""
    italian = "\n".join(catalog("it").values())
    fragments = set()
    for message in catalog("en").values():
        for part in re.split(r"\{[a-z_]+\}", message):
            part = part.strip(" .,:;()-=*>[]'\n")
            if len(part) >= 8 and " " in part and part not in italian:
                fragments.add(part)
    return frozenset(fragments)


def english_leaks(text: str) -> list[str]:
    leaks = [f for f in english_only_fragments() if f in text]
    leaks += [m.group(0) for m in ENGLISH_WORDS.finditer(text)]
    return sorted(set(leaks))


def run(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 0), out, err


def test_the_leak_check_catches_english() -> None:
    """The check itself can fail: English catalog text and English words are caught."""
    assert english_leaks("Bot 2 steals 6 gold from the stakes.")
    assert english_leaks("Answer the question, or type: sheet, quit.")
    assert english_leaks("Bot 2 ruba 6 mo dal piatto.") == []
    # the fragments are real English sentences of the catalog, not shared words
    assert "Nothing to undo yet" in english_only_fragments()
    assert "Bahamut" not in english_only_fragments()


def test_a_whole_game_in_italian_with_a_person_at_the_table(monkeypatch, capsys) -> None:
    """A person answers "1" to everything (roll, the first opponent, the first Tiamat)."""
    code, out, err = run(
        ["dice", "play", "--lang", "it", "--players", "3", "--seed", "11", "--gambits", "2"],
        monkeypatch,
        capsys,
        "1\n" * 400,
    )
    assert code == 0, err
    assert out.startswith("Sfida dei Dadi, 3 giocatori, seme 11.")
    assert "[T]iri un drago o ti [r]itiri?" in out  # "tu", as at the card table
    assert "Tiri un d12 per l'ordine di turno" in out and "Tesori finali: Tu " in out
    assert "=== Sfida 2 ===" in out and "Piatto:" in out and "Forza totale:" in out
    assert "vince la partita!" in out and "Tesori finali:" in out
    assert english_leaks(out) == []


def test_an_italian_locale_picks_italian_without_lang(monkeypatch, capsys) -> None:
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    code, out, _ = run(
        ["dice", "play", "--humans", "0", "--players", "2", "--seed", "4"], monkeypatch, capsys, ""
    )
    assert code == 0
    assert "vince la partita!" in out
    assert english_leaks(out) == []
    # --lang beats the locale
    code, out, _ = run(
        ["dice", "play", "--humans", "0", "-p", "2", "--seed", "4", "--lang", "en"],
        monkeypatch,
        capsys,
        "",
    )
    assert "wins the game!" in out


def test_the_tracker_in_italian_to_the_end(monkeypatch, capsys) -> None:
    """Rolls typed by hand; Italian words: 'aiuto', 'scheda', a bad answer, 'r' withdraws."""
    # Turn order 5, 3; Ann rolls (t) a Green dragon (d12: 7) of strength 6 (d8); Bo withdraws
    # (r); Ann, alone, still rolls rounds 2 and 3 ("A gambit is made up of 3 Rounds").
    typed = "5\n13\naiuto\n3\nscheda\nt\n7\n6\nr\n7\n6\n7\n6\n"
    code, out, err = run(
        ["dice", "track", "--lang", "it", "-p", "2", "--names", "Ann,Bo"],
        monkeypatch,
        capsys,
        typed,
    )
    assert code == 0, err
    assert "Segnapunti della Sfida dei Dadi, 2 giocatori." in out
    assert "un d12 mostra da 1 a 12; 13 è impossibile: tira di nuovo" in out
    assert "Rispondi alla domanda, oppure scrivi: scheda, esci, annulla" in out
    assert "Ann inizia (ha tirato 5)." in out
    assert "Ann gioca un Drago Verde (malvagio), Forza 6." in out
    assert "Bo si ritira da questa sfida" in out
    assert "*** Ann vince la partita! ***" in out
    assert english_leaks(out) == []


def test_italian_errors_are_one_line(monkeypatch, capsys) -> None:
    code, _, err = run(["dice", "play", "--lang", "it", "--humans", "9"], monkeypatch, capsys, "")
    assert code == 2
    assert err == "errore: --humans deve essere da 0 a 4, non 9\n"
    code, _, err = run(["dice", "play", "--lang", "it", "-p", "2"], monkeypatch, capsys, "")
    assert code == 2 and "l'input è finito prima della fine della partita" in err


DICE_COMMANDS = ["play", "track", "simulate", "settings"]


@pytest.mark.parametrize("command", DICE_COMMANDS)
@pytest.mark.parametrize("how", ["locale", "option"])
def test_help_is_italian(command: str, how: str) -> None:
    """``--help`` texts are fixed at import, so each language needs its own process."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    args = ["dice", command, "--help"]
    if how == "locale":
        env["LANG"] = "it_IT.UTF-8"
    else:
        args.append("--lang=it")
    env["COLUMNS"] = "200"  # one help text per line, so that fragments are not wrapped
    code = "import sys; from dragonante.interfaces.cli import main; main(sys.argv[1:])"
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    help_text = done.stdout
    assert catalog("it")[f"dice.cmd.{command}"].split(" (")[0].split(":")[0] in help_text
    assert [f for f in english_only_fragments() if f in help_text] == []


def test_every_dice_message_has_both_languages_and_the_same_blanks() -> None:
    en, it = catalog("en"), catalog("it")
    dice = [k for k in en if k.startswith("dice.")]
    assert len(dice) > 100
    for key in dice:
        assert key in it
        assert placeholders(en[key]) == placeholders(it[key]), key
