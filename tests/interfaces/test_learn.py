"""``dragonante learn --plain``: the whole tutorial from a scripted stdin; the offer in ``play``.

Right answers (Enter takes the suggestion) and wrong ones (always another
choice), in English and Italian; leaving with ``q`` or at the end of the
input and going on with the next ``learn``; ``replay``; ``skip`` to a
normal game with tips; ``--restart``; a saved file that cannot be used; and
the tutorial offered once, at a terminal only.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dragonante.engine.decisions import Decision
from dragonante.i18n import t
from dragonante.tutorial import STEPS, Tutorial, progress
from dragonante.tutorial.steps import HOLE
from tests.interfaces.conftest import Cli

ONES = "1\n" * 3000


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its progress in its own data directory."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    return tmp_path


def wrong_choices(lang: str) -> list[str]:
    """The choice numbers (as the prompts number them) of an answer other than the
    suggestion at every question, by playing the tutorial's core alongside."""
    tut = Tutorial(lang)
    lines: list[str] = []
    while True:
        tut.advance()
        if tut.over:
            return lines
        d: Decision | None = tut.question
        assert d is not None
        prompt = tut.narrator.prompt(tut.game.state)
        assert prompt is not None
        answers = [o.answer for o in prompt.options]
        k = next((i for i, a in enumerate(answers) if a != tut.suggestion), 0)
        lines.append(str(k + 1))
        tut.answer(answers[k])


def titles(lang: str) -> list[str]:
    return [t(s.key("title"), lang) for s in STEPS]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_whole_tutorial_with_the_suggested_answers(cli: Cli, lang: str) -> None:
    r = cli(["learn", "--plain", "--lang", lang], "\n" * 40 + "n\n")
    assert r.code == 0, r.err
    for title in titles(lang):
        assert title in r.out
    # the outcomes were told, not the rules that did not come up
    assert t("tutorial.color_flight.done.you", lang).split("{")[0] in r.out
    assert t("tutorial.buy.done.you", lang).split(",")[0] in r.out
    flat = " ".join(r.out.split())  # the coach's lines are wrapped
    assert not [s for s in STEPS if t(s.key("missed"), lang) in flat]
    assert t(HOLE.key("title"), lang) in r.out  # the hole, explained where it came up
    assert t("tutorial.done", lang).split()[0] in r.out
    assert t("learn.plain.next", lang).strip() in r.out
    assert "Traceback" not in r.out + r.err
    saved = progress.load()
    assert saved is not None and saved.finished and len(saved.answers) == 10


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_whole_tutorial_with_other_answers_explains_what_they_did(cli: Cli, lang: str) -> None:
    choices = wrong_choices(lang)
    r = cli(["learn", "--plain", "--lang", lang], "\n".join([*choices, "n"]) + "\n")
    assert r.code == 0, r.err
    assert t("tutorial.heading", lang, step=1, total=len(STEPS), title=titles(lang)[0]) in r.out
    flat = " ".join(r.out.split())  # the coach's lines are wrapped
    missed = [s for s in STEPS if t(s.key("missed"), lang) in flat]
    assert missed, "some rule did not come up and was explained anyway"
    assert t("tutorial.done", lang).split()[0] in r.out
    saved = progress.load()
    assert saved is not None and saved.finished


@pytest.mark.parametrize("stop", ["q\n", ""])
def test_leaving_mid_way_keeps_the_progress_and_learn_goes_on(cli: Cli, stop: str) -> None:
    r = cli(["learn", "--plain"], "\n\n\n" + stop)
    assert r.code == 0, r.err
    assert "Your progress is saved: " in r.out and "learn" in r.out
    saved = progress.load()
    assert saved is not None and len(saved.answers) == 3 and not saved.finished
    again = cli(["learn", "--plain"], "\n" * 40 + "n\n")
    assert again.code == 0, again.err
    assert "Going on from step 3 of 11: A power that asks you." in again.out
    assert "Step 1 of 11" not in again.out
    assert "Step 11 of 11" in again.out or "The end of the game" in again.out
    done = progress.load()
    assert done is not None and done.finished and done.answers[:3] == saved.answers


def test_restart_and_a_finished_tutorial_start_again(cli: Cli) -> None:
    cli(["learn", "--plain"], "\n\nq\n")
    r = cli(["learn", "--plain", "--restart"], "q\n")
    assert "Step 1 of 11" in r.out and "Going on" not in r.out
    assert progress.load() is None  # forgotten
    cli(["learn", "--plain"], "\n" * 40 + "n\n")
    finished = progress.load()
    assert finished is not None and finished.finished
    r = cli(["learn", "--plain"], "q\n")
    assert "Step 1 of 11" in r.out and "Going on" not in r.out


def test_replay_goes_back_to_the_start_of_the_step(cli: Cli) -> None:
    # the ante, the lead, the Blue's question, a triggering card; then back
    r = cli(["learn", "--plain"], "\n\n\n\nreplay\nq\n")
    assert r.code == 0, r.err
    assert "Back to the start of this step" in r.out
    # asked, its outcome told, asked again
    assert r.out.count("Step 4 of 11: A card that triggers") == 3
    saved = progress.load()
    assert saved is not None and len(saved.answers) == 3  # the answer taken back is gone


def test_a_replayed_step_draws_the_replayed_game() -> None:
    # The prompts draw the table, the log and the hint from the session's source:
    # after a replay that must be the replayed game, not the one left behind.
    import io

    from dragonante.interfaces.cli.learn import LearnSession
    from dragonante.interfaces.local_source import LocalSource

    tut = Tutorial("en")
    tut.advance()
    while tut.index < 3 and not tut.over:
        d = tut.question
        assert d is not None
        tut.answer(tut.suggestion if tut.suggestion is not None else d.options[0])
        tut.advance()
    session = LearnSession(tut, io.StringIO())
    session._replay()
    assert session.tut is not tut
    source = session.source
    assert isinstance(source, LocalSource) and source.game is session.tut.game
    assert session.source.all_events() == session.tut.game.all_events()


def test_skip_leaves_for_a_normal_game_with_tips(cli: Cli) -> None:
    r = cli(["learn", "--plain"], "\nskip\n" + ONES)
    assert r.code == 0, r.err
    assert "A normal game against two easy bots, with tips" in r.out
    normal = r.out[r.out.index("A normal game against two easy bots") :]
    tips = [line for line in normal.splitlines() if line.strip().startswith("Tip: ")]
    assert len(tips) == len(set(tips)) >= 3
    assert "Game over" in normal


def test_a_saved_file_that_cannot_be_used_starts_again(cli: Cli, data_home: Path) -> None:
    path = data_home / "dragonante" / "tutorial.json"
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps({"format": "dragonante-tutorial", "rules_version": -7, "answers": [1]})
    )
    r = cli(["learn", "--plain"], "q\n")
    assert r.code == 0 and "could not be used (saved under other rules); it starts again" in r.out
    assert "Step 1 of 11" in r.out


def at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dragonante.interfaces.cli.learn.is_terminal", lambda stream: True)
    monkeypatch.delenv("CI", raising=False)


def test_the_first_play_at_a_terminal_offers_the_tutorial_once(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    at_a_terminal(monkeypatch)
    game = ["play", "--plain", "--players", "2", "--gold-per-player", "8", "--seed", "3"]
    first = cli(game, "n\n" + ONES)
    assert first.code == 0, first.err
    assert first.out.count("New to Three-Dragon Ante?") == 1 and "Game over" in first.out
    second = cli(game, ONES)
    assert "New to Three-Dragon Ante?" not in second.out


def test_yes_to_the_offer_starts_the_tutorial(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    at_a_terminal(monkeypatch)
    r = cli(["play", "--plain", "--lang", "it"], "\nq\n")
    assert r.code == 0, r.err
    assert "Non conosci Three-Dragon Ante?" in r.out and "Passo 1 di 11" in r.out


def test_piped_input_is_never_asked(cli: Cli, data_home: Path) -> None:
    r = cli(["play", "--players", "2", "--gold-per-player", "8", "--seed", "3"], ONES)
    assert r.code == 0 and "New to Three-Dragon Ante?" not in r.out
    assert not (data_home / "dragonante").exists()  # nothing written either


def test_ci_is_never_asked(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    at_a_terminal(monkeypatch)
    monkeypatch.setenv("CI", "true")
    r = cli(["play", "--plain", "--players", "2", "--gold-per-player", "8", "--seed", "3"], ONES)
    assert r.code == 0 and "New to Three-Dragon Ante?" not in r.out


def test_progress_that_cannot_be_saved_is_said_once_and_the_tutorial_goes_on(
    cli: Cli, data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = data_home / "a-file"
    blocked.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    r = cli(["learn", "--plain"], "\n" * 40 + "n\n")
    assert r.code == 0, r.err
    assert r.out.count("Your progress could not be saved") == 1
    assert t("tutorial.done", "en").split()[0] in r.out and "Traceback" not in r.out + r.err


def test_at_a_terminal_learn_opens_the_full_screen_table_then_the_normal_game(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dragonante.interfaces.tui import learn as tui_learn

    at_a_terminal(monkeypatch)
    ran: list[str] = []

    def tutorial_run(app: tui_learn.LearnApp) -> int:
        ran.append(f"learn {app.tut.lang} {len(app.opening)}")
        app.next = "normal"
        return 0

    def normal_run(app: tui_learn.TipsTableApp) -> int:
        ran.append(f"normal {sorted(app.game.bot_specs.values())}")
        return 0

    monkeypatch.setattr(tui_learn.LearnApp, "run", tutorial_run)
    monkeypatch.setattr(tui_learn.TipsTableApp, "run", normal_run)
    r = cli(["learn", "--lang", "it"])
    assert r.code == 0, r.err
    assert ran == ["learn it 0", "normal ['easy', 'easy']"]


def test_leaving_the_full_screen_tutorial_says_how_to_go_on(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dragonante.interfaces.tui import learn as tui_learn

    at_a_terminal(monkeypatch)

    def one_answer(app: tui_learn.LearnApp) -> int:
        app.tut.advance()
        assert app.tut.suggestion is not None
        app.tut.answer(app.tut.suggestion)
        return 0

    monkeypatch.setattr(tui_learn.LearnApp, "run", lambda app: 0)
    assert "Your progress is saved" not in cli(["learn"]).out  # nothing to keep yet
    monkeypatch.setattr(tui_learn.LearnApp, "run", one_answer)
    r = cli(["learn"])
    assert r.code == 0 and "Your progress is saved: " in r.out


def test_the_offer_at_the_end_of_input_or_ctrl_c_plays_nothing_and_asks_no_more(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    at_a_terminal(monkeypatch)
    ended = cli(["play", "--plain", "--seed", "3"], "")
    assert ended.code == 0 and "New to Three-Dragon Ante?" in ended.out
    assert "Step 1 of 11" not in ended.out and "Traceback" not in ended.out + ended.err
    assert progress.offered()

    class CtrlC:
        def readline(self) -> str:
            raise KeyboardInterrupt

    progress.default_path().unlink()
    r = cli(["play", "--plain", "--seed", "3"], CtrlC())
    assert r.code == 130 and "Traceback" not in r.out + r.err
    assert progress.offered()


def test_a_real_pipe_plays_the_tutorial_through_and_ends_with_0(data_home: Path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_DATA_HOME": str(data_home), "CI": ""}
    script = "from dragonante.interfaces.cli import main; main(['learn', '--lang', 'it'])"
    done = subprocess.run(
        [sys.executable, "-c", script],
        input="\n" * 10,  # no --plain: a pipe gets the prompts; the input ends at the last one
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Passo 11 di 11: La fine della partita" in done.stdout
    assert "L'input è finito" in done.stdout
    saved = progress.load(data_home / "dragonante" / "tutorial.json")
    assert saved is not None and saved.finished
