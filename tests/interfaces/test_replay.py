"""``dragonante replay``: a recorded game narrated again, checked against its digest."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.config import GameConfig
from dragonante.engine.records import Recorder, loads
from tests.interfaces.conftest import Cli, assert_one_line_error

SHORT = ["play", "--players", "2", "--gold-per-player", "8", "--seed", "11"]


@pytest.fixture
def record(cli: Cli, tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    r = cli([*SHORT, "--record", str(path)], "1\n" * 3000)
    assert r.code == 0, r.err
    return path


def test_replay_narrates_the_game_as_the_table_saw_it(cli: Cli, record: Path) -> None:
    r = cli(["replay", str(record)])
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].startswith("Replay: 2 players, seed 11, ")
    assert lines[0].endswith("; as a spectator saw it.")
    assert lines[1] == "The replay matches the recorded final state."
    # the names the table used (saved with the record): "Player 1" and "Bot 1"
    assert "  Player 1 draws 6 cards." in lines and "  Bot 1 draws 6 cards." in lines
    assert "Game over." in r.out
    # a spectator sees no hand: no drawn card, no face-down ante
    assert "draws 6 cards:" not in r.out and "face down." in r.out
    assert " antes " not in r.out


def test_replay_as_a_seat_shows_that_seat_s_cards(cli: Cli, record: Path) -> None:
    seat0 = cli(["replay", str(record), "--seat", "0"])
    assert seat0.code == 0
    assert "as Player 1 saw it" in seat0.out
    assert "  You draw 6 cards: " in seat0.out
    assert "  Bot 1 draws 6 cards." in seat0.out
    # the same lines the player saw while playing, told in the same words
    play = cli([*SHORT], "1\n" * 3000)
    you_draw = next(x for x in play.out.splitlines() if x.startswith("  You draw 6 cards: "))
    assert you_draw in seat0.out.splitlines()


def test_omniscient_replay_shows_every_hand(cli: Cli, record: Path) -> None:
    r = cli(["replay", str(record), "--omniscient", "--lang", "it"])
    assert r.code == 0
    assert "tutto, carte nascoste comprese" in r.out
    # the table's own names, told in the replay's language
    assert "Giocatore 1 pesca 6 carte: " in r.out and "Bot 1 pesca 6 carte: " in r.out


def test_an_unfinished_record_replays_up_to_where_it_stops(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "part.json"
    cli([*SHORT, "--record", str(path)], "1\n1\n1\nq\n")
    partial = loads(path.read_text())
    assert partial.final_digest is None and len(partial.answers) >= 3  # the bots' answers too
    r = cli(["replay", str(path), "--seat", "0"])
    assert r.code == 0
    assert "The record has no final state to check (an unfinished game)." in r.out
    assert "The record ends here, before the end of the game:" in r.out
    assert "Your hand: " in r.out


def mutate(record: Path, **changes: object) -> str:
    data = json.loads(record.read_text())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("not json at all", "record is not valid JSON"),
        ("[1, 2, 3]", "not a dragonante game record"),
        ('{"format": "something-else"}', "not a dragonante game record"),
        (b"\xff\xfe\x00binary", "not a game record (the file is not UTF-8 text)"),
        ("", "record is not valid JSON"),
    ],
)
def test_malformed_files_are_one_line_errors(
    cli: Cli, tmp_path: Path, content: str | bytes, fragment: str
) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    assert_one_line_error(cli(["replay", str(path)]), fragment)


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"rules_version": 999}, "rules version 999"),
        ({"seed": "eleven"}, "seed must be an integer"),
        ({"answers": "1,2,3"}, "answers must be a list of integers"),
        ({"answers": [12345]}, "answer #1 does not replay"),
        ({"final_digest": "0" * 64}, "final digest mismatch"),
        ({"config": {"players": 9}}, "bad config in record"),
    ],
)
def test_tampered_records_are_refused(
    cli: Cli, record: Path, tmp_path: Path, changes: dict[str, object], fragment: str
) -> None:
    path = tmp_path / "tampered.json"
    path.write_text(mutate(record, **changes))
    assert_one_line_error(cli(["replay", str(path)]), fragment)


def test_missing_files_directories_and_bad_options(cli: Cli, record: Path, tmp_path: Path) -> None:
    assert_one_line_error(cli(["replay", str(tmp_path / "nope.json")]), "cannot read")
    assert_one_line_error(cli(["replay", str(tmp_path)]), "cannot read")
    assert_one_line_error(cli(["replay", str(record), "--seat", "2"]), "--seat must be 0-1")
    assert_one_line_error(
        cli(["replay", str(record), "--seat", "0", "--omniscient"]), "choose one of --seat"
    )
    assert_one_line_error(cli(["replay", str(record), "--gm", "--omniscient"]), "--gm")
    assert_one_line_error(cli(["replay", str(record), "--lang", "xx"]), "unknown language")


def ability_record(tmp_path: Path) -> Path:
    """A finished 3-player game with hidden ability disks: seat 0 has Fast Hands and
    Cutting Words, seat 1 Draconic Ancestry (gold), seat 2 Desperation."""
    config = GameConfig(
        players=3,
        abilities=AbilityOptions(
            system="disks",
            assign="fixed",
            seats=(("fast_hands", "cutting_words"), ("draconic_ancestry",), ("desperation",)),
            ancestry=("", "gold"),
            visibility="hidden",  # a table with a game-master
        ),
    )
    rec = Recorder(config, 21)
    rnd = random.Random(4)
    while rec.state.pending is not None:
        rec.answer(rnd.choice(rec.state.pending.options))
    path = tmp_path / "abilities.json"
    path.write_text(rec.finish().dumps())
    return path


def test_a_game_master_replay_names_every_ability_and_no_hidden_card(
    cli: Cli, tmp_path: Path
) -> None:
    path = ability_record(tmp_path)
    gm = cli(["replay", str(path), "--gm"])
    assert gm.code == 0, gm.err
    assert "as a game-master saw it" in gm.out
    assert "  Player 0 has these abilities: Fast Hands, Cutting Words." in gm.out
    assert "  Player 1 has these abilities: Draconic Ancestry (gold dragon ancestry)." in gm.out
    assert "  Player 2 has these abilities: Desperation." in gm.out
    assert "draws 6 cards:" not in gm.out  # no hand
    # a spectator knows only what was used
    spectator = cli(["replay", str(path)])
    assert "has these abilities" not in spectator.out
    used = [x for x in spectator.out.splitlines() if " uses " in x]
    for line in used:
        assert any(
            name in line for name in ("Fast Hands", "Cutting Words", "Draconic", "Desperation")
        )
    # each seat learns its own at the start
    seat1 = cli(["replay", str(path), "--seat", "1", "--lang", "it"])
    assert "  Le tue capacità: Stirpe Draconica (discendenza draconica: oro)." in seat1.out
    assert "Mani Svelte" not in seat1.out.split(" usa Mani Svelte")[0]


def test_replay_why_follows_each_line_with_its_rule(cli: Cli, record: Path) -> None:
    plain = cli(["replay", str(record), "--seat", "0"]).out.splitlines()
    why = cli(["replay", str(record), "--seat", "0", "--why"])
    assert why.code == 0, why.err
    lines = why.out.splitlines()
    # the same narrated lines, in the same order, each followed by its rule
    assert [x for x in lines if not x.startswith("      ")] == plain
    setup = next(i for i, x in enumerate(lines) if x.startswith("  A new game: 2 players"))
    assert lines[setup + 1].startswith("      Each player starts with 10 gold")
    assert lines[setup + 2] == '      Three-Dragon Ante: Legendary Edition, "SETUP"'
    # a triggered power is explained by its card's own text
    power = next(i for i, x in enumerate(lines) if x.startswith("  Power of "))
    card_text = lines[power].split(": ", 1)[1]
    assert lines[power + 2] == f"      The text: {card_text}"
    told = [i for i, x in enumerate(lines) if x.startswith("  ") and x[2] != " "]
    assert told and all(lines[i + 1].startswith("      ") for i in told)


def test_replay_json_gives_each_event_its_why(cli: Cli, record: Path) -> None:
    r = cli(["replay", str(record), "--json", "--lang", "it"])
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["players"] == 2 and data["seed"] == 11 and data["verified"] and data["over"]
    events = data["events"]
    assert events and all(set(e["why"]) == {"rule", "book", "section", "text"} for e in events)
    # a spectator's view: no private event, so no drawn card and no face-down ante
    assert not any(e["kind"] in ("draw_card", "ante_chosen") or "seen_by" in e for e in events)
    play = next(e for e in events if e["kind"] == "play")
    assert play["why"]["book"] == "Legendary" and play["why"]["section"] == "Triggering Powers"
    assert play["why"]["rule"].startswith("Il potere di una carta si innesca")
    power = next(e for e in events if e["kind"] == "power")
    assert power["why"]["text"] and power["why"]["text"] in power["text"]
