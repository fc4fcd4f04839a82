"""The replay source: a saved game stepped through on the table-source seam."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.config import GameConfig
from dragonante.engine.records import GameRecord, Recorder, digest, replay
from dragonante.engine.views import GM_EVENTS, events_for
from dragonante.interfaces.cli.plain_table import PlainTable
from dragonante.interfaces.narrate import Narrator, default_names
from dragonante.interfaces.replay_source import ReplaySource
from dragonante.interfaces.table_source import SourceRefused, TableSource
from tests.interfaces.conftest import Cli, assert_one_line_error


def played(players: int = 3, seed: int = 21, abilities: bool = False) -> GameRecord:
    """A whole game played by random answers, as a record."""
    config = GameConfig(players=players)
    if abilities:
        config = GameConfig(players=players, abilities=AbilityOptions(system="disks"))
    rec = Recorder(config, seed)
    rnd = random.Random(seed)
    while rec.state.pending is not None:
        rec.answer(rnd.choice(rec.state.pending.options))
    return rec.finish()


def source_for(record: GameRecord, seat: int | None = None, **view: bool) -> ReplaySource:
    players = record.config.players
    narrator = Narrator(default_names(players, "en", me=seat), "en", me=seat)
    return ReplaySource(record, narrator, seat, **view)


def test_a_replay_source_is_a_table_source_that_asks_nothing() -> None:
    source = source_for(played(), seat=1)
    assert isinstance(source, TableSource)
    assert source.prompt() is None and not source.hints_allowed
    with pytest.raises(SourceRefused):
        source.answer(0, 0)
    with pytest.raises(SourceRefused):
        source.hint()
    with pytest.raises(ValueError):
        source_for(played(), seat=0, gm=True)


def test_stepping_forward_tells_each_event_of_the_seat_once_and_no_one_else_s() -> None:
    record = played()
    source = source_for(record, seat=0)
    told = source.new_events()
    while not source.over:
        source.wait()
        told += source.new_events()
        # never a hidden card of another seat: every event is public or seat 0's
        assert all(vis is None or 0 in vis for vis, _, _ in told)
        view = source.view()
        assert view.obs.hand == list(source.state.hands[0])
    assert source.position == len(record.answers) and source.finished
    assert digest(source.state) == record.final_digest
    assert told == events_for(replay(record).log or [], 0)
    assert source.winners() == list(source.state.winners)
    # a hidden card was dealt to the others: the source left it out
    assert len(told) < len(source.state.log or [])


def test_back_replays_the_game_to_the_answer_before() -> None:
    record = played(players=2, seed=5)
    source = source_for(record)
    source.go_to(10)
    at_ten = digest(source.state)
    source.forward()
    assert source.back() and source.position == 10
    assert digest(source.state) == at_ten
    source.go_to(0)
    assert not source.back() and source.position == 0
    source.to_end()
    assert not source.forward() and source.over


def test_a_game_master_sees_the_hidden_abilities_and_no_hidden_card() -> None:
    source = source_for(played(players=3, seed=8, abilities=True), gm=True)
    source.to_end()
    events = source.all_events()
    assert any(kind in GM_EVENTS for _, kind, _ in events)
    assert all(vis is None or kind in GM_EVENTS for vis, kind, _ in events)
    assert source.view().obs.hand is None


def test_the_omniscient_view_tells_the_whole_log() -> None:
    source = source_for(played(), omniscient=True)
    source.to_end()
    assert source.all_events() == source.state.log


def test_the_plain_prompts_draw_a_replay_as_any_other_source(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One loop: the plain table tells a replay's steps and its result, asking nothing."""
    record = played(players=2, seed=3)
    source = source_for(record, seat=0)
    assert PlainTable(source, io.StringIO("")).run() == 0
    out = capsys.readouterr().out
    narrator = source.narrator()
    for line in narrator.events(source.all_events()):
        assert f"  {line}" in out
    assert "Game over" in out


def test_the_full_screen_replay_needs_a_terminal(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(played(players=2, seed=3).dumps())
    assert_one_line_error(cli(["replay", str(path), "--screen"]), "--screen needs a terminal")
    assert_one_line_error(cli(["replay", str(path), "--screen", "--json"]), "--screen")
