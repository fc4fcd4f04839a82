"""The full-screen local game and the tutorial as table sources (issue 31 §5).

``GameSource`` is what ``TableApp`` draws: a stepped source (one bot's answer
at a time) whose seat is the person at the keyboard, nobody behind the
hot-seat cover.  ``TutorialSource`` is what ``LearnApp`` draws: the
tutorial's step as ``wait``, the coach's notes kept for its panel.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from dragonante.engine.records import digest
from dragonante.interfaces.cli.table_options import DEFAULT_TABLE, build_config
from dragonante.interfaces.table_source import SourceRefused, SteppedSource, TableSource
from dragonante.interfaces.tui.game_source import GameSource
from dragonante.interfaces.tui.learn import TutorialSource
from dragonante.interfaces.tui.table import TableGame
from dragonante.tutorial import PLAYER, Tutorial


def game(humans: tuple[int, ...] = (0,), players: int = 3, seed: int = 4) -> TableGame:
    config = build_config(replace(DEFAULT_TABLE, players=players), "en")
    bots = {p: "random" for p in range(players) if p not in humans}
    return TableGame(config, seed, humans, bots)


def test_a_local_game_is_a_stepped_source_and_its_steps_are_its_wait() -> None:
    stepped, waited = GameSource(game(), "en", 0), GameSource(game(), "en", 0)
    assert isinstance(stepped, SteppedSource) and isinstance(stepped, TableSource)
    for _ in range(40):  # the same game, one through think/apply, one through wait
        while (seat := stepped.thinking()) is not None:
            assert seat != 0
            answer, decision = stepped.think()
            assert stepped.game.state.pending is not None  # thinking changed nothing
            stepped.apply(answer, decision)
        waited.wait()
        assert digest(stepped.game.state) == digest(waited.game.state)
        if stepped.over:
            break
        prompt = stepped.prompt()
        assert prompt is not None and prompt == waited.prompt()
        first = prompt.options[0]
        stepped.answer(first.answer, prompt.decision_id)
        waited.answer(first.answer, prompt.decision_id)
    assert stepped.new_events() == stepped.all_events() != []
    assert stepped.new_events() == []  # told once


def test_behind_the_cover_nothing_private_is_drawn_and_a_stale_answer_is_refused() -> None:
    source = GameSource(game(humans=(0, 1), players=2), "en")
    assert source.seat is None and not source.hints_allowed
    assert source.prompt() is None
    assert source.view().seat is None
    assert all(e[0] is None for e in source.all_events())  # public events only
    d = source.game.state.pending
    assert d is not None
    with pytest.raises(SourceRefused):
        source.answer(0, d.id)  # nobody sits at the screen: nobody answers
    source.sit(d.seat)
    assert source.seat == d.seat and source.narrator().me == d.seat
    assert source.prompt() is not None
    with pytest.raises(SourceRefused, match="several people"):
        source.hint()


def test_the_tutorial_source_runs_the_tutorial_on_wait_and_keeps_the_coachs_notes() -> None:
    source = TutorialSource(Tutorial("en"), "en")
    assert isinstance(source, SteppedSource)
    assert source.thinking() is None and source.coached() == []
    source.wait()
    notes = source.coached()
    assert notes and source.coached() == []  # each note handed out once
    prompt = source.prompt()
    assert prompt is not None and source.seat == PLAYER
    source.answer(prompt.options[0].answer, prompt.decision_id)
    assert source.tut.answers == [prompt.options[0].answer]  # through the tutorial
    assert source.thinking() is None  # its bots answer in wait, not in a worker
    source.wait()
    assert source.coached()
