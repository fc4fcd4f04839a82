"""``dragonante learn``: the guided first game, full screen or with numbered prompts.

    dragonante learn                # full screen in a terminal; goes on where you left off
    dragonante learn --plain        # numbered prompts on standard input, like play --plain
    dragonante learn --restart      # start again from the first step
    dragonante learn --lang it

The tutorial is :mod:`dragonante.tutorial` (no I/O); this module is its
terminal front: the plain prompts (:class:`LearnSession`, the ``play``
prompts with a coach's notes between them) and the hand-off to the
full-screen table (:mod:`dragonante.interfaces.tui.learn`).

Progress is saved after every answer in the XDG data directory
(:func:`dragonante.tutorial.progress.default_path`), so ``learn`` goes on
from where the player left (``q``, the end of the input, Ctrl-C, a closed
terminal) and ``--restart`` starts again; a finished tutorial starts again
too.  At the prompts ``replay`` goes back to the start of the current step,
``skip`` leaves for a normal game against easy bots with tips on, Enter
takes the answer the tutorial suggests; the ``play`` words (``h``, ``?N``,
``t``, ``l``, ``r``, ``hint``, ``q``) work as there.  EOF and ``q`` end
cleanly with exit code 0, like ``play``.

The first ``play`` at a terminal offers the tutorial once
(:func:`offer_tutorial`): never with piped input, so scripts and CI are
never asked.
"""

from __future__ import annotations

import contextlib
import os
import sys
import textwrap
from typing import Annotated, TextIO

import typer

from dragonante.engine.state import Event
from dragonante.i18n import t
from dragonante.interfaces.cli.app import app
from dragonante.interfaces.cli.local_plain import PlaySession, is_terminal
from dragonante.interfaces.cli.plain_table import EXIT_INTERRUPTED, AskAgain, LeaveTable
from dragonante.interfaces.cli.run_options import LANG, PLAIN, LangOpt, PlainOpt, check_lang
from dragonante.interfaces.cli.table_options import helptext
from dragonante.interfaces.launch import command
from dragonante.interfaces.local_source import LocalSource
from dragonante.interfaces.narrate import Narrator, Prompt, table_names
from dragonante.interfaces.session import LocalGame
from dragonante.tutorial import STEPS, Note, Progress, ProgressError, Tips, Tutorial, progress
from dragonante.tutorial import normal_game as deal_normal_game
from dragonante.tutorial.tutorial import ASK, DONE, FREE, RULE

#: What the player types for a step again, and to skip to a normal game.
REPLAY_WORDS = ("replay", "again", "rifai", "ancora")
SKIP_WORDS = ("skip", "salta")
YES_WORDS = ("y", "yes", "s", "si", "sì")
#: The coach's lines are wrapped to this width (the log's lines are not).
WIDTH = 78
#: What a finished (or skipped) tutorial leads to.
NORMAL = "normal"


class ReplayStep(Exception):
    """The player typed ``replay``."""


class SkipTutorial(Exception):
    """The player typed ``skip``."""


def start_tutorial(lang: str, restart: bool) -> tuple[Tutorial, list[str]]:
    """The saved tutorial (unless ``restart``, or it was finished), else a new
    one; with the lines that say which."""
    lines: list[str] = []
    saved: Progress | None = None
    if restart:
        with contextlib.suppress(OSError):  # not saved: the next run may go on from there
            progress.clear()
    else:
        try:
            saved = progress.load()
        except ProgressError as e:
            lines.append(t("learn.progress_bad", lang, reason=str(e)))
    if saved is not None and saved.answers and not saved.finished:
        try:
            tut = Tutorial.resume(saved, lang)
        except ProgressError as e:
            lines.append(t("learn.progress_bad", lang, reason=str(e)))
        else:
            step = tut.step
            title = tut.title(step) if step is not None else ""
            lines.append(
                t(
                    "learn.resumed",
                    lang,
                    step=min(tut.index + 1, len(STEPS)),
                    total=len(STEPS),
                    title=title,
                    command=command("learn", "--restart"),
                )
            )
            return tut, lines
    return Tutorial(lang), lines


def coach_lines(headed: list[tuple[str, Note]], lang: str) -> list[str]:
    """Notes as lines (:meth:`Tutorial.headed`): each step's heading over its first
    note, the rule set apart (with the primer section that says more), what to do
    marked."""
    lines: list[str] = []
    for head, note in headed:
        if head:
            lines += ["", head]
        elif note.kind == DONE:
            lines.append("")
        prefix = {RULE: "  ", ASK: "» ", FREE: "» "}.get(note.kind, "")
        text = note.text
        if note.kind == RULE and note.primer:
            text += " " + t("learn.plain.more", lang, section=note.primer)
        for part in textwrap.wrap(text, WIDTH - len(prefix)) or [""]:
            lines.append(prefix + part)
    return lines


class CoachedSource(LocalSource):
    """The tutorial as the plain table's source: its bots run in
    :meth:`Tutorial.advance` (which also says what the coach tells), its
    answers go through the tutorial (so it knows them), its events are the
    ones the tutorial told, and it is over when the tutorial is."""

    def __init__(self, tut: Tutorial, hint_iters: int, printed: int) -> None:
        super().__init__(tut.game, tut.narrator, hint_iters)
        self.tut = tut
        #: How many of the tutorial's told events are printed (a resumed one: all
        #: but those of the moment it goes on from).
        self.printed = printed
        #: The coach's notes not yet said.
        self.coached: list[Note] = []

    @property
    def over(self) -> bool:
        return self.tut.over

    def wait(self) -> None:
        self.coached += self.tut.advance()

    def new_events(self) -> list[Event]:
        events = self.tut.told[self.printed :]
        self.printed = len(self.tut.told)
        return events

    def answer(self, answer: int, decision_id: int) -> None:
        self.tut.answer(answer)

    def take_coached(self) -> list[Note]:
        """The coach's notes since the last call."""
        notes, self.coached = self.coached, []
        return notes


class LearnSession(PlaySession):
    """The ``play`` prompts drawing the tutorial (a :class:`CoachedSource`),
    with the coach's words between them: what happened and the rules before
    the table, what to do now just over the question.

    The loop is the plain table's; the table, the question, the help, the hint
    and the card texts are ``play``'s.
    """

    def __init__(self, tut: Tutorial, stdin: TextIO) -> None:
        super().__init__(tut.game, tut.narrator, None, stdin)
        self.tut = tut
        self.coach = CoachedSource(tut, self.hint_iters, tut.since)
        self.source = self.coach
        #: The coach's words for the coming question (said just over it).
        self.asks: list[tuple[str, Note]] = []
        #: The choice number Enter gives (the tutorial's suggestion), if any.
        self.enter: str | None = None
        self.save_failed = False
        #: What comes after: NORMAL for a normal game, else nothing.
        self.next: str | None = None

    def read(self, message: str) -> str:
        line = super().read(message)
        word = line.lower()
        if word in REPLAY_WORDS:
            raise ReplayStep
        if word in SKIP_WORDS:
            raise SkipTutorial
        if word in ("h", "help", "?", "aiuto"):
            self.say(t("learn.plain.help", self.lang))
        if not line and self.enter is not None:
            return self.enter
        return line

    def narrate(self, events: list[Event]) -> None:
        """The moment's events, then what the coach says of them (its words on
        what to do now are kept for just over the question)."""
        super().narrate(events)
        headed = self.tut.headed(self.coach.take_coached())
        self.asks = [(h, n) for h, n in headed if n.kind in (ASK, FREE)]
        for line in coach_lines([hn for hn in headed if hn not in self.asks], self.lang):
            self.say(line)

    def ask(self, prompt: Prompt) -> int | None:
        answers = [o.answer for o in prompt.options]
        suggestion = self.tut.suggestion
        self.enter = str(answers.index(suggestion) + 1) if suggestion in answers else None
        for line in coach_lines(self.asks, self.lang):
            self.say(line)
        if self.enter is not None:
            self.say(t("learn.plain.enter", self.lang, number=self.enter))
        try:
            return super().ask(prompt)
        except ReplayStep:
            self._replay()
            raise AskAgain from None
        except SkipTutorial:
            self.next = NORMAL
            raise LeaveTable(0) from None

    def after_answer(self) -> None:
        self._save()

    def game_over(self) -> int:
        return self._over()

    def _replay(self) -> None:
        again = self.tut.replay()
        if again is self.tut:
            self.say(t("learn.replay.none", self.lang))
            return
        self.tut = again
        self.game = again.game
        # the table, the log and the hint are drawn from the source: the replayed game's
        self.coach = CoachedSource(again, self.hint_iters, len(again.told))
        self.source = self.coach
        self.say("")
        self.say(t("learn.replay.done", self.lang))
        self._save()

    def _save(self) -> None:
        reason = progress.try_save(self.tut.progress())
        if reason and not self.save_failed:
            self.save_failed = True
            self.say(t("learn.save_failed", self.lang, reason=reason))

    def _over(self) -> int:
        self._save()
        self.show_table()
        self.say("")
        reply = self.read(t("learn.plain.next", self.lang)).lower()
        if reply in YES_WORDS:
            self.next = NORMAL
        return 0

    def on_leave(self) -> None:
        if self.tut.answers and not self.tut.over and not self.save_failed:
            self.say(t("learn.left", self.lang, command=command("learn")))


class TipsSession(PlaySession):
    """A normal game at the ``play`` prompts, each rule told the first time it comes up."""

    def __init__(self, game: LocalGame, narrator: Narrator, stdin: TextIO) -> None:
        super().__init__(game, narrator, None, stdin)
        self.tips = Tips(game.state.config, narrator.lang)

    def narrate(self, events: list[Event]) -> None:
        super().narrate(events)
        for tip in self.tips.tips(events):
            for part in textwrap.wrap(tip, WIDTH - 2):
                self.say(f"  {part}")


def normal_game_plain(lang: str, stdin: TextIO) -> int:
    """A normal game against easy bots with tips on, at the plain prompts."""
    game = deal_normal_game()
    narrator = Narrator(table_names(game.state.n, (game.human,), lang), lang, me=game.human)
    typer.echo("")
    typer.echo(t("learn.normal", lang))
    return TipsSession(game, narrator, stdin).run()


def run_plain(lang: str, restart: bool, stdin: TextIO) -> int:
    """The tutorial at the plain prompts (then the normal game, if asked for)."""
    tut, lines = start_tutorial(lang, restart)
    typer.echo(t("learn.intro", lang))
    for line in lines:
        typer.echo(line)
    typer.echo(t("learn.plain.keys", lang))
    session = LearnSession(tut, stdin)
    code = session.run()
    if code == 0 and session.next == NORMAL:
        return normal_game_plain(lang, stdin)
    return code


def run_full_screen(lang: str, restart: bool) -> int:
    """The tutorial at the full-screen table (Textual is imported only here)."""
    from dragonante.interfaces.tui.learn import LearnApp, TipsTableApp, normal_table

    tut, lines = start_tutorial(lang, restart)
    app_ = LearnApp(tut, lang, lines)
    result = app_.run()
    code = result if isinstance(result, int) else 0
    if code == 0 and app_.next == NORMAL:
        tips = TipsTableApp(normal_table(), lang)
        result = tips.run()
        code = result if isinstance(result, int) else 0
    elif app_.tut.answers and not app_.tut.over:
        typer.echo(t("learn.left", lang, command=command("learn")))
    return code


def run_tutorial(lang: str, plain: bool, restart: bool = False) -> int:
    """The tutorial, full screen when both ends are a terminal (and not ``plain``)."""
    if not plain and is_terminal(sys.stdin) and is_terminal(sys.stdout):
        return run_full_screen(lang, restart)
    return run_plain(lang, restart, sys.stdin)


@app.command("learn", help=helptext("cmd.learn"))
def learn_command(
    lang: LangOpt = LANG.default,
    plain: PlainOpt = PLAIN.default,
    restart: Annotated[bool, typer.Option("--restart", help=helptext("opt.restart"))] = False,
) -> None:
    """Learn Three-Dragon Ante in a guided first game."""
    raise typer.Exit(run_tutorial(check_lang(lang), plain, restart))


def offer_tutorial(lang: str) -> bool:
    """Ask a newcomer at a terminal, once ever, whether to learn first; True if yes.

    Never asks when standard input or output is not a terminal (a pipe, a
    script) or under CI (``CI`` set): those never block on a question they did
    not expect.  The
    offer is remembered before it is made, so it is made once even if the
    player answers with Ctrl-D."""
    interactive = is_terminal(sys.stdin) and is_terminal(sys.stdout) and not os.environ.get("CI")
    if not interactive or progress.offered():
        return False
    try:
        progress.mark_offered()
    except OSError:
        return False  # it could not be remembered: do not ask at every game
    typer.echo(t("learn.offer", lang, command=command("learn")), nl=False)
    sys.stdout.flush()
    try:
        line = sys.stdin.readline()
    except KeyboardInterrupt:
        typer.echo()
        typer.echo(t("play.interrupted", lang))
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if not line:  # the input ended: no tutorial, and play ends as at any question
        typer.echo()
        return False
    return line.strip().lower() in ("", *YES_WORDS)


__all__ = [
    "LearnSession",
    "TipsSession",
    "learn_command",
    "offer_tutorial",
    "run_tutorial",
    "start_tutorial",
]
