"""The full-screen table: the Textual application that plays one game.

The loop of the plain ``play`` turned into events.  After every answer,
:meth:`TableApp.advance` tells the log what happened (for the seat at the
keyboard only), shows a summary when a gambit or the game ends, and then
either asks the person whose question it is or lets the bot whose turn it
is think in a worker thread, so the screen stays responsive and says who
is thinking.  The bot's answer comes back to the screen's thread, which
alone changes the game.

Hot-seat: with several people at the table, a cover screen hides
everything before the next person's question, and the table is then drawn
for that person only; everyone is called by name (never "You": two people
are at the screen), and take-back is neither offered nor shown.  Every text
is a catalog message (``tui.*`` and the narrator's), in the table's language.

The table never loses a game: leaving a game in progress (``q``, Ctrl+C)
asks first and saves it (``play --resume`` continues it); ``s`` saves to a
new file each time rather than over an earlier one; the notices name the
command as this player types it (:mod:`~dragonante.interfaces.launch`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from pathlib import Path

from textual.binding import Binding

from dragonante.engine.decisions import IllegalAnswer
from dragonante.engine.state import Event, GameState
from dragonante.engine.views import events_for
from dragonante.i18n import t
from dragonante.interfaces.events import Explainer, table_of
from dragonante.interfaces.hangup import EXIT_HANGUP, on_hangup_in_loop
from dragonante.interfaces.launch import command
from dragonante.interfaces.narrate import Narrator, gold, involves, table_names
from dragonante.interfaces.tui.base import TableBase
from dragonante.interfaces.tui.hinting import HintAsking
from dragonante.interfaces.tui.log import LogPanel
from dragonante.interfaces.tui.question import QuestionPanel
from dragonante.interfaces.tui.screens import (
    ConfirmScreen,
    CoverScreen,
    GameOverScreen,
    SummaryScreen,
)
from dragonante.interfaces.tui.snapshot import take_snapshot
from dragonante.interfaces.tui.table import TableGame
from dragonante.interfaces.tui.thinking import BotThinking

#: Events that end a gambit (a summary is shown after them).
GAMBIT_END = frozenset({"gambit_won", "no_winner"})
#: How the log sets "since your last turn" apart from the sentences around it.
SINCE_STYLE = "bold"
#: The key line fits an 80-column terminal (with its padding).
KEYS_WIDTH = 78
#: Exit code after leaving with Ctrl+C (128 + SIGINT, as the plain prompts).
EXIT_INTERRUPTED = 130

#: The table's names for its seats (kept under this name for its callers).
seat_names = table_names


def fresh_path(seed: int, taken: Collection[Path] = ()) -> Path:
    """``dragonante-SEED.json`` in the current directory, or ``-2``, ``-3``... when
    that file exists: a save never replaces an earlier record."""
    n = 1
    while True:
        path = Path(f"dragonante-{seed}.json" if n == 1 else f"dragonante-{seed}-{n}.json")
        if not path.exists() and path not in taken:
            return path
        n += 1


class TableApp(BotThinking[TableGame], HintAsking, TableBase):
    """One local game at the full-screen table; the exit code is its result."""

    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("u", "take_back", show=False),
        Binding("s", "save", show=False),
        Binding("h", "hint", show=False),
    ]

    def __init__(
        self,
        game: TableGame,
        lang: str,
        record: Path | None = None,
        time_limit_minutes: int = 0,
        clock: Callable[[], float] = time.monotonic,
        gambit_summaries: bool = True,
        series_lines: Callable[[GameState], list[str]] | None = None,
    ) -> None:
        super().__init__(lang)
        #: Lines the game-over screen adds for a series (its totals so far).
        self.series_lines = series_lines
        self.game = game
        self.record_path = record
        self.clock = clock
        self.deadline = clock() + 60 * time_limit_minutes if time_limit_minutes > 0 else None
        self.gambit_summaries = gambit_summaries
        self.names = list(game.names) or table_names(game.config.players, game.humans, lang)
        #: One person against bots is "You"; in hot-seat everyone keeps a name.
        self.you = len(game.humans) == 1
        self.debt_model = game.config.rules.debt_model
        #: The seat at the keyboard (None behind the hot-seat cover).
        self.viewer: int | None = game.humans[0] if len(game.humans) == 1 else None
        self.narrator = self._narrator(self.viewer)
        #: Log position told so far, and up to which gambit ends were summarized:
        #: a resumed game's past is told, but its gambit ends were seen before it
        #: was left (a box now would pair that gambit with today's hoards).
        self.told = 0
        self.summarized = len(game.log())
        self.thinking: int | None = None
        self.covered = False
        #: The last file the game was saved in (printed after the table closes).
        self.saved_to: Path | None = None
        #: Every file this table has written (``s`` never writes over one).
        self.written: set[Path] = set()
        #: The question for which "since your last turn" was told.
        self.since_told: int | None = None

    def _narrator(self, seat: int | None) -> Narrator:
        #: The rule behind each event the viewer is told (a new viewer starts afresh).
        self.explainer = Explainer(table_of(self.game.config), self.lang)
        return Narrator(self.names, self.lang, me=seat, debt_model=self.debt_model, you=self.you)

    def _tell_events(self, events: list[Event]) -> None:
        """Tell the viewer's events, each line with the rule behind it (``w``)."""
        told = self.explainer.lines(self.narrator.told(events), events)
        self.tell([line for line, _ in told], whys=[why for _, why in told])

    def keys_line(self) -> str:
        """The keys that work at this table: ``a`` with abilities, ``u`` against bots only."""
        keys = ["answer", "move", "card"]
        if self.game.config.abilities.enabled:
            keys.append("abilities")
        if self.game.take_back_allowed:
            keys += ["undo", "hint"]
        keys += ["save", "help", "quit"]
        line = "  ".join(t(f"tui.key.{k}", self.lang) for k in keys)
        # the arrows are in the help, and so is the hint; every other key stays in view
        for spare in ("move", "hint"):
            if len(line) > KEYS_WIDTH and spare in keys:
                keys.remove(spare)
                line = "  ".join(t(f"tui.key.{k}", self.lang) for k in keys)
        return line

    def on_mount(self) -> None:
        super().on_mount()
        on_hangup_in_loop(self.hang_up)
        self.advance()

    def hang_up(self) -> None:
        """The terminal went away (SIGHUP): save a game in progress where ``q``
        would, without asking (nobody can answer), and leave."""
        if not self.game.over:
            self.write_record(self.save_path())
        else:
            self._autosave()
        self.exit(EXIT_HANGUP)

    # --- the game loop, one step per answer ---------------------------------

    def advance(self) -> None:
        """Tell what happened, then ask the next person or start the next bot."""
        if self.thinking is not None or self.covered:
            return
        game = self.game
        self._check_clock()
        self._tell_new_events()
        if self._gambit_summary():
            return
        seat = game.deciding
        if game.over:
            self.redraw()
            self.push_screen(
                GameOverScreen(
                    t("tui.game_over", self.lang),
                    self.game_over_lines(),
                    t("tui.over_keys", self.lang),
                    t("tui.scrolls", self.lang),
                )
            )
            return
        if game.is_human(seat):
            if seat != self.viewer:
                self._cover_for(seat)
                return
            self._tell_since_last_turn(seat)
            self.redraw()
            return
        self.thinking = seat
        self.redraw()
        self.think()

    def on_question_panel_answered(self, message: QuestionPanel.Answered) -> None:
        game = self.game
        if not game.is_human(game.deciding) or game.deciding != self.viewer:
            return
        self._check_clock()
        try:
            game.answer(message.answer, message.decision_id)
        except IllegalAnswer as e:  # cannot happen: answers come from the options
            self.notify(t("play.illegal", self.lang, reason=str(e)), severity="error")
            self.redraw()
            return
        self._autosave()
        self.advance()

    def _check_clock(self) -> None:
        if self.deadline is not None and self.clock() >= self.deadline:
            self.deadline = None
            self.game.call_last_gambit()

    def _tell_new_events(self) -> None:
        log = self.game.log()
        seat = self.viewer
        visible = events_for(log, seat, self.told)
        self.told = len(log)
        if seat is None:
            return  # behind the cover: told when the next person sits down
        self._tell_events(visible)

    def _tell_since_last_turn(self, seat: int | None) -> None:
        """Once per question: how the viewer's hoard moved since their last answer,
        each change with the sentences (only those this seat may see) that say why."""
        assert seat is not None
        pending = self.game.state.pending
        if pending is None or self.since_told == pending.id:
            return
        self.since_told = pending.id
        changes = self.game.since_last_turn(seat)
        before = self.game.hoard_at_last_turn(seat)
        if changes is None or before is None:
            return
        lang = self.lang
        now = self.game.state.hoards[seat]
        if not changes:
            self.tell([t("tui.since.same", lang, gold=gold(now, lang))], SINCE_STYLE)
            return
        lines = [t("tui.since", lang, before=gold(before, lang), after=gold(now, lang))]
        for delta, events in changes:
            lines.append(
                t(
                    "tui.since.change",
                    lang,
                    delta=("+" if delta > 0 else "−") + gold(abs(delta), lang),
                    why=" ".join(self._why(seat, events)),
                )
            )
        self.tell(lines, SINCE_STYLE)

    def _why(self, seat: int, events: list[Event]) -> list[str]:
        """The sentences of one answer's events that concern ``seat`` (all it may
        see of them when none names it: an ante everyone pays, say)."""
        visible = events_for(events, seat)
        mine = [e for e in visible if involves(e, seat)]
        return self.narrator.events(mine or visible)

    def _gambit_summary(self) -> bool:
        """Show the summary of a gambit that just ended (once); True if shown."""
        log = self.game.log()
        ends = [i for i in range(self.summarized, len(log)) if log[i][1] in GAMBIT_END]
        self.summarized = len(log)
        if not ends or not self.gambit_summaries or self.game.over or self.viewer is None:
            return False
        end = ends[-1]
        gambit = next((e[2]["gambit"] for e in reversed(log[:end]) if e[1] == "gambit_start"), 0)
        following = log[end:]
        stop = next((i for i, e in enumerate(following) if e[1] == "gambit_start"), len(following))
        seat = self.viewer
        shown = events_for(following[:stop], seat)
        lines = self.narrator.events(shown)
        lines.append(
            t("tui.hoards", self.lang, hoards=self.narrator.hoards(self.game.state.hoards))
        )
        self.redraw()
        self.push_screen(
            SummaryScreen(
                t("tui.gambit_over", self.lang, gambit=gambit), lines, t("tui.close", self.lang)
            ),
            lambda _: self.advance(),
        )
        return True

    def game_over_lines(self) -> list[str]:
        """Who won, every hoard, and how to save or leave."""
        state = self.game.state
        winners = list(state.winners)
        humans = self.game.humans
        if len(humans) == 1:
            me = humans[0]
            if me in winners:
                key = "play.won_shared" if len(winners) > 1 else "play.won"
            else:
                key = "play.lost"
            first = t(key, self.lang, names=self.narrator.seats(winners))
        else:
            first = t("tui.winners", self.lang, names=self.narrator.seats(winners))
        lines = [first, t("tui.hoards", self.lang, hoards=self.narrator.hoards(state.hoards))]
        if self.series_lines is not None:
            lines.extend(self.series_lines(state))
        return lines

    def _cover_for(self, seat: int | None) -> None:
        """Hide the table until ``seat``'s person presses a key, then draw it for them."""
        assert seat is not None
        self.viewer = None
        self.narrator = self._narrator(None)
        self.covered = True
        self.redraw()

        def uncover(_: None) -> None:
            self.covered = False
            self.viewer = seat
            self.narrator = self._narrator(seat)
            self._retell()
            self.since_told = None
            self.advance()

        self.push_screen(CoverScreen(t("tui.cover", self.lang, name=self.names[seat])), uncover)

    def _retell(self) -> None:
        """The whole log again, as the viewer may see it (a new viewer, or a take-back)."""
        panel = self.query_one(LogPanel)
        panel.clear()
        seat = self.viewer
        log = self.game.log()
        visible = events_for(log, seat)
        self.explainer = Explainer(table_of(self.game.config), self.lang)
        self._tell_events(visible)
        self.told = len(log)
        self.summarized = len(log)

    def redraw(self) -> None:
        """A new snapshot for the viewer, and every panel drawn from it."""
        specs = sorted(set(self.game.bot_specs.values()))
        snap = take_snapshot(self.game.state, self.narrator, self.thinking, ", ".join(specs))
        waiting = (
            t("tui.waiting", self.lang) if not self.game.over else t("tui.header.over", self.lang)
        )
        self.draw(snap, waiting)

    # --- keys -------------------------------------------------------------------

    def action_take_back(self) -> None:
        game = self.game
        if not game.take_back_allowed:
            self.notify(t("tui.take_back.hot_seat", self.lang))
            return
        if self.thinking is not None or not game.is_human(game.deciding):
            self.notify(t("tui.take_back.wait", self.lang))
            return
        if not game.take_back():
            self.notify(t("tui.take_back.none", self.lang))
            return
        self._autosave()
        self._retell()
        self.since_told = None
        self.notify(t("tui.take_back.done", self.lang))
        self.advance()

    def save_path(self) -> Path:
        """Where ``s`` saves: the ``--record`` (or resumed) file, kept current after
        every answer; else a new file named after the seed, never one written before."""
        if self.record_path is not None:
            return self.record_path
        return fresh_path(self.game.seed, self.written)

    def action_save(self) -> None:
        path = self.save_path()
        if self.write_record(path):
            self.notify(
                t(
                    "play.record_saved",
                    self.lang,
                    path=str(path),
                    command=command("replay", str(path)),
                )
            )

    def write_record(self, path: Path) -> bool:
        """The game record (the format ``replay`` reads, with who sat where); a
        notice, not a crash, on failure."""
        try:
            path.write_text(self.game.record_text(), encoding="utf-8")
        except OSError as e:
            reason = e.strerror or str(e)
            self.notify(
                t("cli.error.record_write", self.lang, path=str(path), reason=reason),
                severity="error",
            )
            return False
        self.saved_to = path
        self.written.add(path)
        return True

    def _autosave(self) -> None:
        if self.record_path is not None:
            self.write_record(self.record_path)

    def action_quit_game(self) -> None:
        """``q``: leave; a game in progress asks first and is saved."""
        self._leave(0)

    def action_interrupt(self) -> None:
        """Ctrl+C: as ``q`` (a second Ctrl+C at the question leaves), exit code 130."""
        self._leave(EXIT_INTERRUPTED)

    def _leave(self, code: int) -> None:
        if self.game.over:
            self._autosave()
            self.exit(0)
            return
        if isinstance(self.screen, ConfirmScreen):
            self.screen.dismiss(True)  # a second Ctrl+C at the question: leave
            return
        path = self.save_path()
        lines = t(
            "tui.leave.text",
            self.lang,
            path=str(path),
            command=command("play", "--resume", str(path)),
        ).split("\n")

        def answered(leave: bool | None) -> None:
            if leave and self.write_record(path):
                self.exit(code)

        self.push_screen(
            ConfirmScreen(t("tui.leave.title", self.lang), lines, t("tui.leave.keys", self.lang)),
            answered,
        )
