"""The Dice Gambit at the full-screen table: the Textual application.

The plain table's loop (:class:`dragonante.interfaces.cli.dice.Table`)
turned into events, in the card table's style and keys.  After every answer
:meth:`DiceApp.advance` tells the log what happened, shows a summary when a
gambit or the game ends, then either asks the person whose question it is
or lets the bot whose turn it is think in a worker thread, so the screen
stays responsive and says who is thinking; the bot's answer comes back to
the screen's thread, which alone changes the game.

The game-master's tracker is the same application over a game with real
dice: every question, every die's face included, is asked at the keyboard,
``u`` undoes the last answer and the save file (``--save``) is written
after every step.  There is no hot-seat cover: nothing in the Dice Gambit
is hidden, so the question simply names the player it is for.

Every text is a catalog message (``dice.*`` and ``tui.dice.*``) in the
table's language.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Static

from dragonante.dice.decisions import IllegalAnswer
from dragonante.dice.state import Event
from dragonante.dice.table import BAHAMUT, TIAMAT
from dragonante.dice.views import tracker
from dragonante.i18n import t
from dragonante.interfaces.dice_render import describe, dragon_text, shown_names, table_lines
from dragonante.interfaces.events import Why, dice_why
from dragonante.interfaces.tui.dice.game import DiceTableGame
from dragonante.interfaces.tui.dice.question import (
    NUMBER_KEYS,
    DiceQuestion,
    DiceQuestionPanel,
    build_question,
)
from dragonante.interfaces.tui.dice.sheets import SheetsPanel
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.screens import HelpScreen, SummaryScreen, TextScreen
from dragonante.interfaces.tui.thinking import BotThinking
from dragonante.interfaces.tui.why import WhyScreen

#: The two themes Ctrl+T switches between (``t`` is an Italian answer letter).
THEMES = ("textual-dark", "textual-light")


#: The actions that only make sense with the table in front.
TABLE_ACTIONS = frozenset({"help", "dragons", "undo", "clear_typed", "digit"})


class DragonScreen(TextScreen):
    """The d12 dragon table: what each face of the type die rolls."""


class DiceApp(BotThinking[DiceTableGame], App[int]):
    """One Dice Gambit game (or tracker session) at the full-screen table."""

    TITLE = "dragonante dice"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #sheets { height: auto; max-height: 60%; padding: 0 1; }
    #bottom { height: 1fr; min-height: 6; }
    #question { width: 11fr; border: round $accent; }
    #dice-question-text { height: auto; }
    #dice-answers { height: 1fr; border: none; padding: 0; }
    #dice-typed { height: auto; }
    #log { width: 9fr; border: round $panel; scrollbar-size-vertical: 1; }
    #keys { height: 1; background: $panel; padding: 0 1; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("ctrl+c", "quit_game", show=False, priority=True),
        Binding("q", "quit_game", show=False),
        Binding("question_mark", "help", show=False),
        Binding("d", "dragons", show=False),
        Binding("u", "undo", show=False),
        Binding("ctrl+t", "theme", show=False),
        # "why?" (``w`` at the card table; here ``w`` withdraws)
        Binding("y", "why", show=False),
        Binding("backspace", "clear_typed", show=False),
        *(Binding(k, f"digit('{k}')", show=False) for k in NUMBER_KEYS),
    ]

    def __init__(self, game: DiceTableGame, lang: str) -> None:
        super().__init__()
        self.game = game
        self.lang = lang
        #: Log position told so far, and up to which position gambit ends were summarized.
        self.told = 0
        self.summarized = 0
        self.thinking: int | None = None
        self.save_failed: str | None = None
        #: The one person against bots is "You", as at the card table (None: by name).
        self.me = game.humans[0] if len(game.humans) == 1 else None

    @property
    def names(self) -> list[str]:
        """The seats as the table shows them (the record keeps the names given)."""
        return shown_names(self.game.names, self.me, self.lang)

    def compose(self) -> ComposeResult:
        yield SheetsPanel(id="sheets")
        with Horizontal(id="bottom"):
            yield DiceQuestionPanel(id="question")
            yield LogPanel(id="log")
        key = "tui.dice.keys_track" if self.game.tracking else "tui.dice.keys"
        yield Static(t(key, self.lang), id="keys")

    def on_mount(self) -> None:
        self.query_one("#log").border_title = t("tui.title.log", self.lang)
        self._write_save()
        # a resumed game: its past is told at once, and a past gambit end is not summarized again
        self.summarized = len(self.game.log())
        self.advance()

    # --- the game loop, one step per answer ---------------------------------

    def advance(self) -> None:
        """Tell what happened, then ask the next person or start the next bot."""
        if self.thinking is not None:
            return
        game = self.game
        self._tell_new_events()
        if game.over:
            self.redraw()
            self.push_screen(
                SummaryScreen(
                    t("tui.game_over", self.lang),
                    self.game_over_lines(),
                    t("tui.dice.over_keys", self.lang),
                )
            )
            return
        if self._gambit_summary():
            return
        d = game.pending
        assert d is not None
        if game.is_human(d.seat):
            self.redraw()
            return
        self.thinking = d.seat
        self.redraw()
        self.think()

    def on_dice_question_panel_answered(self, message: DiceQuestionPanel.Answered) -> None:
        d = self.game.pending
        if d is None or not self.game.is_human(d.seat) or self.thinking is not None:
            return
        try:
            self.game.answer(message.answer, message.decision_id)
        except IllegalAnswer as e:  # cannot happen: answers come from the options
            self.notify(str(e), severity="error")
            self.redraw()
            return
        self._write_save()
        self.advance()

    def _write_save(self) -> None:
        """The tracker's save file after every step; a failure is said once, not a crash."""
        try:
            self.game.write_save()
        except OSError as e:
            reason = e.strerror or str(e)
            message = t("dice.error.save", self.lang, path=str(self.game.save), reason=reason)
            if message != self.save_failed:
                self.notify(message, severity="error", timeout=10)
            self.save_failed = message
        else:
            self.save_failed = None

    def _lines(self, events: list[Event]) -> list[str]:
        names, me = self.names, self.me
        return [line for e in events if (line := describe(e, names, self.lang, me)) is not None]

    def _tell(self, events: list[Event]) -> None:
        """Tell ``events`` in the log, each line with the rule behind it (``y``)."""
        lines: list[str] = []
        whys: list[Why | None] = []
        for e in events:
            line = describe(e, self.names, self.lang, self.me)
            if line is not None:
                lines.append(line)
                whys.append(dice_why(e[0], self.lang))
        self.query_one(LogPanel).tell(lines, whys=whys)

    def action_why(self) -> None:
        """``y``: the log's lines, the latest selected, with the rule behind each."""
        entries = self.query_one(LogPanel).entries
        if not entries:
            self.notify(t("tui.why.empty", self.lang))
            return
        self.push_screen(WhyScreen(list(entries), self.lang))

    def _tell_new_events(self) -> None:
        log = self.game.log()
        self._tell(log[self.told :])
        self.told = len(log)

    def _gambit_summary(self) -> bool:
        """Show the summary of a gambit that just ended (once, not the last); True if shown."""
        log = self.game.log()
        ends = [i for i in range(self.summarized, len(log)) if log[i][0] == "gambit_end"]
        self.summarized = len(log)
        if not ends:
            return False
        end = ends[-1]
        lines = self.gambit_lines(log[: end + 1])
        self.redraw()
        self.push_screen(
            SummaryScreen(
                t("tui.gambit_over", self.lang, gambit=log[end][1]["tracker"]["gambit"]),
                lines,
                t("tui.close", self.lang),
            ),
            lambda _: self.advance(),
        )
        return True

    def gambit_lines(self, log: list[Event]) -> list[str]:
        """The end of the last gambit in ``log``: its special flights, settlement and
        winner, then every sheet as it stood at its end."""
        start = max(
            (i for i, e in enumerate(log) if e[0] in ("special_flights", "gambit_start")),
            default=0,
        )
        lines = self._lines(log[start:])
        sheets: dict[str, Any] | None = next(
            (e[1]["tracker"] for e in reversed(log) if e[0] == "gambit_end"), None
        )
        if sheets is not None:
            lines += ["", *table_lines(sheets, self.names, self.lang, self.me)]
        return lines

    def game_over_lines(self) -> list[str]:
        """The last gambit's end, who won, and every final sheet."""
        log = self.game.log()
        cut = max((i for i, e in enumerate(log) if e[0] == "gambit_end"), default=len(log) - 1)
        lines = self._lines(log[cut + 1 :])
        return [*lines, "", *self.gambit_lines(log[: cut + 1])]

    def question(self) -> DiceQuestion | None:
        """The pending question if a person answers it here."""
        d = self.game.pending
        if d is None or not self.game.is_human(d.seat) or self.thinking is not None:
            return None
        return build_question(self.game.state, d, self.names, self.lang, self.me)

    def status(self) -> str:
        """Who is deciding: a bot thinking, you, or another person at the keyboard."""
        lang = self.lang
        d = self.game.pending
        if self.game.over:
            return t("tui.header.over", lang)
        if d is None:
            return ""
        name = self.names[d.seat]
        if self.thinking == d.seat:
            return t("tui.thinking", lang, name=name)
        if self.game.tracking:
            return ""  # the question names the roller or the player
        if len(self.game.humans) == 1:
            return t("tui.your_turn", lang)
        return t("tui.dice.turn_of", lang, name=name)

    def redraw(self) -> None:
        """Every panel drawn again from the game as it is now (on the screen's thread)."""
        lang = self.lang
        d = self.game.pending
        deciding = None if d is None else d.seat
        self.query_one(SheetsPanel).show(
            tracker(self.game.state), self.names, lang, deciding, self.status(), self.me
        )
        question = self.question()
        panel = self.query_one(DiceQuestionPanel)
        if question is None:
            panel.border_title = t("tui.dice.title.table", lang)
        elif len(self.game.humans) == 1 and not self.game.tracking:
            panel.border_title = t("tui.title.question", lang)
        else:
            panel.border_title = t("tui.dice.title.move", lang, name=self.names[question.seat])
        waiting = t("tui.header.over", lang) if self.game.over else t("tui.dice.waiting", lang)
        panel.show(question, waiting, lang)

    # --- keys -------------------------------------------------------------------

    def at_table(self) -> bool:
        """Whether the table itself is in front (no help, summary or other page over it)."""
        return self.screen is self.screen_stack[0]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The table's keys work at the table only, not under a page laid over it."""
        if action in TABLE_ACTIONS:
            return self.at_table()
        return True

    def on_key(self, event: events.Key) -> None:
        """The question's letter shortcuts (``r``/``w``, ``t``/``r``), if it has any."""
        if (
            self.at_table()
            and event.character
            and self.query_one(DiceQuestionPanel).letter(event.character.lower())
        ):
            event.stop()

    def action_digit(self, digit: str) -> None:
        panel = self.query_one(DiceQuestionPanel)
        question = panel.question
        if question is not None and not panel.digit(digit, self.lang) and not question.sides:
            # a number with no answer (a bad roll face is said under the answers)
            self.notify(t("dice.bad.number", self.lang, last=len(question.answers)))

    def action_clear_typed(self) -> None:
        self.query_one(DiceQuestionPanel).clear_typed(self.lang)

    def action_help(self) -> None:
        key = "tui.dice.help_track" if self.game.tracking else "tui.dice.help"
        lines = t(key, self.lang).split("\n")
        self.push_screen(
            HelpScreen(
                t("tui.dice.title.help", self.lang),
                lines,
                t("tui.close", self.lang),
                t("tui.scrolls", self.lang),
            )
        )

    def action_dragons(self) -> None:
        """The d12 table: which face rolls which dragon, its alignment and strength."""
        lang = self.lang
        lines = [
            f"{face:>2}  {dragon_text(face, lang=lang)}" for face in range(TIAMAT, BAHAMUT + 1)
        ]
        lines += ["", *t("tui.dice.dragons_note", lang).split("\n")]
        self.push_screen(
            DragonScreen(t("tui.dice.title.dragons", lang), lines, t("tui.close", lang))
        )

    def action_undo(self) -> None:
        """The tracker's undo (the last answer, the game replayed from the others)."""
        lang = self.lang
        if not self.game.tracking:
            self.notify(t("tui.dice.undo.play", lang))
            return
        if self.thinking is not None or not self.game.undo():
            self.notify(t("dice.table.undo_none", lang))
            return
        self._write_save()
        log = self.game.log()
        self.told = self.summarized = len(log)
        self.query_one(LogPanel).clear()
        self._tell(log)
        self.notify(t("dice.table.undone", lang))
        self.advance()

    def action_theme(self) -> None:
        self.theme = THEMES[1] if self.theme == THEMES[0] else THEMES[0]

    def action_quit_game(self) -> None:
        self._write_save()
        self.exit(0)
