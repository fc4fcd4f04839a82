"""The plain prompts: any table source, drawn as lines and answered by number.

``play --plain`` (a local game), ``play --join --plain`` (a seat on a
server) and any other :class:`~dragonante.interfaces.table_source.TableSource`
are played by this one loop: wait while the others answer, tell what the
seat may see of what happened, show the table and the numbered question,
read the answer and pass it on, until the game is over.  What differs
between tables (saving a record, a time limit, the line to come back to a
server's seat) is left to the hooks :meth:`PlainTable.before_answer`,
:meth:`PlainTable.after_answer` and :meth:`PlainTable.on_leave`.

Between two numbers the person may type ``?N`` (the card or ability of
choice N), ``?name`` (card types by name), ``t`` (the table again), ``l``
(everything seen so far), ``a`` (the D&D abilities), ``r`` (the rules
primer), ``hint`` (the best bot's advice, where the table gives one), ``h``
(help) and ``q`` (leave).  A bad answer is explained and asked again; the
end of the input leaves as ``q`` does.
"""

from __future__ import annotations

import shutil
import sys
from typing import TextIO

import typer

from dragonante.engine.state import Event
from dragonante.i18n import t
from dragonante.interfaces import primer
from dragonante.interfaces.hangup import EXIT_HANGUP, HangUp, raise_on_hangup
from dragonante.interfaces.narrate import Narrator, Prompt
from dragonante.interfaces.render import (
    ability_page_lines,
    card_help_lines,
    card_type_lines,
    find_card_types,
    prompt_lines,
    table_lines,
)
from dragonante.interfaces.table_source import SourceClosed, SourceRefused, TableSource

#: Exit code after Ctrl-C (128 + SIGINT, the shell convention).
EXIT_INTERRUPTED = 130
#: At most this many card types are shown for one "?name" look-up.
MAX_LOOKUP = 4
#: What asks for a hint (``h`` is the help).
HINT_WORDS = ("hint", "consiglio")
#: What leaves the table.
QUIT_WORDS = ("q", "quit", "exit", "esci")
#: The narrowest line a long answer is wrapped to (a tiny window wraps anyway).
MIN_WIDTH = 30
#: What shows the help.
HELP_WORDS = ("h", "help", "?", "aiuto")


class AskAgain(Exception):
    """Raised from :meth:`PlainTable.ask`: the table changed under the question
    (a tutorial's step replayed): wait on the source and draw it again."""


class LeaveTable(Exception):
    """Raised from :meth:`PlainTable.ask`: leave the table now with ``code``
    (a tutorial skipped for a normal game)."""

    def __init__(self, code: int = 0) -> None:
        super().__init__(code)
        self.code = code


class PlainTable:
    """The terminal loop over ``source``: narrate, show the table, ask, read, answer."""

    def __init__(self, source: TableSource, stdin: TextIO) -> None:
        self.source = source
        self.lang = source.lang
        self.stdin = stdin

    @property
    def narrator(self) -> Narrator:
        """The source's narrator (a source may rename seats as the table fills)."""
        return self.source.narrator()

    def say(self, line: str = "") -> None:
        typer.echo(line)

    # --- hooks for what only some tables do ------------------------------------

    def before_answer(self) -> None:
        """Called before each wait and each answer (a local table's time limit)."""

    def after_answer(self) -> None:
        """Called after each answer the source took (a local table saves its record)."""

    def on_leave(self) -> None:
        """Called whenever the person leaves, at the end or before it (a saved-record note)."""

    def on_hang_up(self) -> None:
        """The terminal went away: keep what can be kept, say nothing."""

    # --- the loop -----------------------------------------------------------------

    def run(self) -> int:
        """Play to the end (or until the person stops); returns the exit code."""
        restore = raise_on_hangup()
        try:
            return self._loop()
        except HangUp:  # the terminal went away: save as on q, say nothing to nobody
            self.on_hang_up()
            return EXIT_HANGUP
        except EOFError:
            self.say()
            self.say(t("play.eof", self.lang))
            self.on_leave()
            return 0
        except KeyboardInterrupt:
            self.say()
            self.say(t("play.interrupted", self.lang))
            self.on_leave()
            return EXIT_INTERRUPTED
        except SourceClosed as e:
            self.say()
            self.say(str(e))
            return 1
        finally:
            restore()
            self.source.close()

    def _loop(self) -> int:
        while True:
            source = self.source  # a replayed tutorial step is a new source
            self.before_answer()
            source.wait()
            self.tell_notes()
            self.narrate(source.new_events())
            if source.over:
                return self.game_over()
            prompt = source.prompt()
            if prompt is None:
                continue  # woken by a note (a lobby change, a refusal): wait again
            self.show_table(prompt)
            try:
                answer = self.ask(prompt)
            except AskAgain:
                continue
            except LeaveTable as leave:
                return leave.code
            if answer is None:
                self.say(t("play.quit", self.lang))
                self.on_leave()
                return 0
            self.before_answer()
            try:
                source.answer(answer, prompt.decision_id)
            except SourceRefused as e:
                self.say(str(e))
                continue
            self.after_answer()

    def game_over(self) -> int:
        """The game has ended: the last table, who won; the exit code."""
        self.show_table()
        self.say()
        self.say(self.result_line())
        self.on_leave()
        return 0

    def result_line(self) -> str:
        """Who won, said to the seat (you, shared, someone else)."""
        winners = self.source.winners()
        narrator = self.narrator
        if self.source.seat is None:
            return t("tui.winners", self.lang, names=narrator.seats(winners))
        if self.source.seat in winners:
            key = "play.won_shared" if len(winners) > 1 else "play.won"
        else:
            key = "play.lost"
        return t(key, self.lang, names=narrator.seats(winners))

    def tell_notes(self) -> None:
        """What the table says besides the game's events (a refusal, a notice)."""
        for line in self.source.notes():
            self.say(line)

    def narrate(self, events: list[Event]) -> None:
        lines = self.narrator.events(events)
        if lines:
            self.say()
            for line in lines:
                self.say(f"  {line}")

    def show_table(self, prompt: Prompt | None = None) -> None:
        view = self.source.view()
        if view is None:
            return
        hand = view.obs.hand or []
        cards = {o.card for o in prompt.options} if prompt is not None else set()
        # The numbered choices of an ante or play question are the hand itself.
        show_hand = not (hand and cards == set(hand))
        self.say()
        for line in table_lines(view, self.narrator, show_hand=show_hand):
            self.say(line)
        if prompt is not None:
            self.say()
            for line in prompt_lines(prompt, self.narrator, self.width()):
                self.say(line)

    def width(self) -> int | None:
        """The terminal's width, so that a long answer wraps under its own text;
        None when the output is not a terminal (whole lines for whoever reads it)."""
        if not sys.stdout.isatty():
            return None
        return max(MIN_WIDTH, shutil.get_terminal_size().columns)

    def read(self, message: str) -> str:
        typer.echo(message, nl=False)
        sys.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line.strip()

    def ask(self, prompt: Prompt) -> int | None:
        """Read until a valid choice (its engine answer) or ``q`` (None)."""
        lang = self.lang
        count = len(prompt.options)
        while True:
            text = self.read(t("play.input", lang, last=count))
            word = text.lower()
            if not text:
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= count:
                    return prompt.options[k - 1].answer
                self.say(t("play.bad_number", lang, number=text, last=count))
            elif word in QUIT_WORDS:
                return None
            elif word in HELP_WORDS:
                for line in t("play.help", lang).split("\n"):
                    self.say(line)
                self.say(t("play.help_primer", lang))
            elif word in HINT_WORDS:
                self.show_hint()
            elif word in ("t", "table", "tavolo"):
                self.show_table(prompt)
            elif word in ("a", "abilities", "capacità", "capacita"):
                self.ability_help()
            elif word in ("l", "log"):
                for line in self.narrator.events(self.source.all_events()):
                    self.say(f"  {line}")
            elif word == "r" or word.startswith("r "):
                self.primer(word[1:].strip())
            elif text.startswith("?"):
                self.card_help(text[1:].strip(), prompt)
            else:
                self.say(t("play.bad_input", lang, text=text, last=count))

    def show_hint(self) -> None:
        """``hint``: the best bot's answer to this question and what the best
        answers are worth to it; the question is then asked again."""
        if not self.source.hints_allowed:
            self.say(t("hint.off", self.lang))
            return
        self.say(t("hint.thinking", self.lang))
        try:
            lines = self.source.hint()
        except SourceRefused as e:
            lines = [str(e)]
        for line in lines:
            self.say(line)

    def ability_help(self) -> None:
        """``a``: the table's ability rows, and every ability this seat knows (its own,
        the opponents' known ones) with its full text."""
        view = self.source.view()
        seat = self.source.seat
        if view is None or seat is None or view.obs.abilities is None:
            self.say(t("play.no_abilities", self.lang))
            return
        for line in ability_page_lines(view, self.narrator):
            self.say(line)

    def primer(self, name: str) -> None:
        """``r``: the rules primer (``r trigger``: that section), then the question again."""
        lang = self.lang
        only = primer.section_id(name) if name else None
        if name and only is None:
            choices = ", ".join(primer.SECTIONS)
            self.say(t("cli.error.rules_section", lang, section=name, choices=choices))
            return
        for line in primer.text_lines(lang, only):
            self.say(line)

    def card_help(self, query: str, prompt: Prompt) -> None:
        """``?N``: the card of choice N; ``?name``: card types by name."""
        lang = self.lang
        if query.isdigit():
            k = int(query)
            if not 1 <= k <= len(prompt.options):
                self.say(t("play.bad_number", lang, number=query, last=len(prompt.options)))
                return
            option = prompt.options[k - 1]
            card = option.card
            if card < 0 and option.detail:
                self.say(option.label)
                self.say("  " + option.detail)
                return
            if card < 0:
                self.say(t("play.not_a_card", lang, number=k))
                return
            for line in card_help_lines(card, lang):
                self.say(line)
            return
        found = find_card_types(query, lang)
        if not found:
            self.say(t("play.no_such_card", lang, query=query))
            return
        for ct in found[:MAX_LOOKUP]:
            for line in card_type_lines(ct, lang):
                self.say(line)
        if len(found) > MAX_LOOKUP:
            more = ", ".join(ct.name(lang) for ct in found[MAX_LOOKUP:])
            self.say(t("play.more_cards", lang, names=more))


__all__ = ["EXIT_INTERRUPTED", "HINT_WORDS", "AskAgain", "LeaveTable", "PlainTable"]
