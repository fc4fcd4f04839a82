"""The guided first game's core: the deal brings every rule up, answers adapt, progress resumes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from dragonante.cards import ALL_CARDS
from dragonante.engine.decisions import Decision
from dragonante.engine.records import digest
from dragonante.engine.views import observe
from dragonante.i18n import has
from dragonante.interfaces.narrate import card_label
from dragonante.scenarios import load, run
from dragonante.tutorial import PLAYER, STEPS, Note, Progress, ProgressError, Tutorial, progress
from dragonante.tutorial.steps import HOLE
from dragonante.tutorial.tutorial import ASK, MISSED, OUTCOME

Chooser = Callable[[Tutorial, Decision], int]


def suggested(tut: Tutorial, d: Decision) -> int:
    return tut.suggestion if tut.suggestion is not None else d.options[0]


def last_option(tut: Tutorial, d: Decision) -> int:
    return d.options[-1]


def play(tut: Tutorial, choose: Chooser, stop: int | None = None) -> list[Note]:
    """Play on (to the end, or until ``stop`` answers in all); every note said."""
    notes: list[Note] = []
    while True:
        notes += tut.advance()
        if tut.over or (stop is not None and len(tut.answers) >= stop):
            return notes
        d = tut.question
        assert d is not None
        tut.answer(choose(tut, d))


def test_the_suggested_game_brings_every_listed_rule_up_in_play() -> None:
    tut = Tutorial("en")
    notes = play(tut, suggested)
    log = tut.game.state.log or []

    def happened(kind: str, **match: object) -> bool:
        return any(k == kind and all(d.get(f) == v for f, v in match.items()) for _, k, d in log)

    reveal = next(d["cards"] for _, k, d in log if k == "ante_reveal")
    assert sorted(ALL_CARDS[c].strength for c in reveal) == [4, 5, 5]  # a tie at the top
    first_ante = next(d for _, k, d in log if k == "ante_paid")
    assert first_ante == {"leader": PLAYER, "amount": 5}  # the two 5s tie; your 4 leads
    assert happened("round_start", round=1, leader=PLAYER)
    plays = [d for _, k, d in log if k == "play" and d["seat"] == PLAYER]
    assert plays[0]["triggered"] and any(p["triggered"] for p in plays[1:])
    assert any(not p["triggered"] for p in plays)
    assert happened("blue_mode", seat=PLAYER)  # a power asked the player
    assert happened("strength_flight") and happened("color_flight", seat=PLAYER)
    assert happened("gambit_won") and happened("gambit_start", gambit=2)
    assert happened("buy", seat=PLAYER)
    assert any(k == "pay" and d["short"] > 0 for _, k, d in log)  # the hole
    assert happened("hole_won") and happened("game_over")
    told = {n.step for n in notes if n.kind == OUTCOME}
    assert told == {s.id for s in STEPS} | {HOLE.id}
    assert not [n for n in notes if n.kind == MISSED]
    assert tut.index == len(STEPS) and tuple(tut.game.state.winners) == (PLAYER,)
    assert len(tut.answers) == 10  # the tutorial's length in decisions (docs/tutorial.md)


def test_the_deal_is_a_scenario_that_plays_its_script_through() -> None:
    from importlib.resources import files

    path = files("dragonante.tutorial").joinpath("deal.toml")
    result = run(load(str(path)))
    assert result.passed, result.failures


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("choose", [last_option, lambda tut, d: d.options[0]])
def test_any_answers_reach_the_end_with_every_step_explained(lang: str, choose: Chooser) -> None:
    tut = Tutorial(lang)
    notes = play(tut, choose)
    assert tut.over and tut.index == len(STEPS)
    covered = {n.step for n in notes if n.kind in (OUTCOME, MISSED)}
    assert {s.id for s in STEPS} <= covered
    for n in notes:
        assert not n.text.startswith("tutorial."), n  # every message is in the catalogue
        assert "{" not in n.text, n


def test_a_different_answer_is_explained_not_failed() -> None:
    tut = Tutorial("en")
    tut.advance()
    d = tut.question
    assert d is not None and tut.suggestion is not None
    other = next(a for a in d.options if a != tut.suggestion)
    tut.answer(other)
    notes = tut.advance()
    outcome = [n.text for n in notes if n.kind == OUTCOME and n.step == "ante"]
    assert outcome and "lead" in " ".join(outcome)


def test_notes_never_name_a_card_the_player_has_not_seen() -> None:
    tut = Tutorial("en")
    while True:
        notes = tut.advance()
        s = tut.game.state
        obs = observe(s, PLAYER)
        known = {c for cards in obs.known_in_hands.values() for c in cards}
        text = " ".join(n.text for n in notes)
        for p in range(s.n):
            if p == PLAYER:
                continue
            for c in s.hands[p]:
                if c not in known:
                    assert card_label(c, "en") not in text, (c, text)
        if tut.over:
            break
        d = tut.question
        assert d is not None
        tut.answer(suggested(tut, d))


def test_resume_after_leaving_mid_way_goes_on_exactly(tmp_path: Path) -> None:
    path = tmp_path / "tutorial.json"
    tut = Tutorial("en")
    play(tut, suggested, stop=3)
    d = tut.question
    assert d is not None
    tut.answer(suggested(tut, d))
    progress.save(tut.progress(), path)  # as a front end saves: after each answer
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["answers"] == tut.answers and saved["format"] == "dragonante-tutorial"
    loaded = progress.load(path)
    assert loaded is not None
    back = Tutorial.resume(loaded, "en")
    assert digest(back.game.state) == digest(tut.game.state)
    assert back.index == tut.index and back.asking == tut.asking
    assert [n.text for n in play(back, suggested)] == [n.text for n in play(tut, suggested)]


def test_replay_goes_back_to_the_start_of_the_step() -> None:
    tut = Tutorial("en")
    while tut.step is None or tut.step.id != "trigger" or tut.asking is None:
        tut.advance()
        d = tut.question
        assert d is not None
        if tut.step is not None and tut.step.id == "trigger" and tut.asking is not None:
            break
        tut.answer(suggested(tut, d))
    at = len(tut.answers)
    d = tut.question
    assert d is not None
    tut.answer(next(a for a in d.options if a != tut.suggestion))
    tut.advance()
    again = tut.replay()
    notes = again.advance()
    assert len(again.answers) == at
    assert again.step is not None and again.step.id == "trigger"
    assert [n.kind for n in notes if n.step == "trigger"] == ["intro", ASK]


def test_progress_that_cannot_be_used_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tutorial.json"
    assert progress.load(path) is None and not progress.offered(path)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ProgressError):
        progress.load(path)
    path.write_text(json.dumps({**Progress().to_dict(), "rules_version": -1}), encoding="utf-8")
    with pytest.raises(ProgressError):
        progress.load(path)
    with pytest.raises(ProgressError):
        Tutorial.resume(Progress((9999,)), "en")


def test_offered_once_and_kept_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "d" / "tutorial.json"
    assert not progress.offered(path)
    progress.mark_offered(path)
    assert progress.offered(path)
    progress.save(Progress((1, 2)), path)
    progress.clear(path)
    assert progress.offered(path) and progress.load(path) is None


def test_default_path_follows_the_xdg_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/some/data")
    assert progress.default_path() == Path("/some/data/dragonante/tutorial.json")


def test_every_step_has_its_words_in_both_languages() -> None:
    for step in (*STEPS, HOLE):
        for lang in ("en", "it"):
            assert has(step.key("title"), lang) and has(step.key("missed"), lang), step.id
            if step.acts:
                for part in ("intro", "ask", "ask_any"):
                    assert has(step.key(part), lang), (step.id, part, lang)
