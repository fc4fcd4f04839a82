"""The full-screen table for a local game: people and bots at this computer.

A :class:`~dragonante.interfaces.tui.source_app.SourceTableApp` drawing a
:class:`~dragonante.interfaces.tui.game_source.GameSource`: the loop is
the seam's (after every answer the seat's new events are told, then a bot
thinks in a worker thread, its answer given on the screen's thread, which
alone changes the game, or the person is asked).  This module adds only
what a local game has, through the loop's hooks: a summary when a gambit
ends and the game-over page (:meth:`TableApp.interlude`), the hot-seat
cover, "since your last turn", the time limit
(:meth:`TableApp.before_step`), take-back, the hint and saving.

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

from dragonante.engine.state import Event, GameState
from dragonante.engine.views import events_for
from dragonante.i18n import t
from dragonante.interfaces.events import table_of
from dragonante.interfaces.hangup import EXIT_HANGUP, on_hangup_in_loop
from dragonante.interfaces.launch import command
from dragonante.interfaces.narrate import Narrator, gold, involves, table_names
from dragonante.interfaces.tui.game_source import GameSource
from dragonante.interfaces.tui.hinting import HintAsking
from dragonante.interfaces.tui.screens import (
    ConfirmScreen,
    CoverScreen,
    GameOverScreen,
    SummaryScreen,
)
from dragonante.interfaces.tui.source_app import SourceTableApp
from dragonante.interfaces.tui.table import TableGame

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


class TableApp(HintAsking, SourceTableApp):
    """One local game at the full-screen table; the exit code is its result."""

    BINDINGS = [  # noqa: RUF012 (Textual's own declaration style)
        Binding("u", "take_back", show=False),
        Binding("s", "save", show=False),
        Binding("h", "hint", show=False),
    ]
    source: GameSource

    def __init__(
        self,
        game: TableGame,
        lang: str,
        record: Path | None = None,
        time_limit_minutes: int = 0,
        clock: Callable[[], float] = time.monotonic,
        gambit_summaries: bool = True,
        series_lines: Callable[[GameState], list[str]] | None = None,
        source: GameSource | None = None,
    ) -> None:
        # the seat at the keyboard: the one person's, or nobody yet (the hot-seat cover)
        viewer = game.humans[0] if len(game.humans) == 1 else None
        if source is None:  # else a source of its own over ``game`` (the tutorial's)
            source = GameSource(game, lang, viewer)
        super().__init__(source, table_of(game.config))
        #: Lines the game-over screen adds for a series (its totals so far).
        self.series_lines = series_lines
        self.record_path = record
        self.clock = clock
        self.deadline = clock() + 60 * time_limit_minutes if time_limit_minutes > 0 else None
        self.gambit_summaries = gambit_summaries
        #: Up to which log position gambit ends were summarized: a resumed game's
        #: past is told, but its gambit ends were seen before it was left (a box
        #: now would pair that gambit with today's hoards).
        self.summarized = len(game.log())
        self.covered = False
        #: The last file the game was saved in (printed after the table closes).
        self.saved_to: Path | None = None
        #: Every file this table has written (``s`` never writes over one).
        self.written: set[Path] = set()
        #: The question for which "since your last turn" was told.
        self.since_told: int | None = None

    @property
    def game(self) -> TableGame:
        """The game the source keeps (its record, its bots, take-back)."""
        return self.source.game

    @property
    def viewer(self) -> int | None:
        """The seat at the keyboard (None behind the hot-seat cover)."""
        return self.source.seat

    @property
    def narrator(self) -> Narrator:
        """The narrator for the viewer (names as this table calls them)."""
        return self.source.narrator()

    @property
    def names(self) -> list[str]:
        return self.source.names

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
        # before the table's own on_mount starts the game (Textual calls both)
        on_hangup_in_loop(self.hang_up)

    def hang_up(self) -> None:
        """The terminal went away (SIGHUP): save a game in progress where ``q``
        would, without asking (nobody can answer), and leave."""
        if not self.game.over:
            self.write_record(self.save_path())
        else:
            self._autosave()
        self.exit(EXIT_HANGUP)

    # --- the loop's hooks ---------------------------------------------------------

    def held(self) -> bool:
        """Behind the hot-seat cover nothing moves until the next person sits down."""
        return self.covered

    def before_step(self) -> None:
        """The time limit: once it has run out, the gambit under way is the last."""
        if self.deadline is not None and self.clock() >= self.deadline:
            self.deadline = None
            self.game.call_last_gambit()

    def tell_new(self) -> None:
        """Behind the cover nothing is told (the next person is told it all on sitting down)."""
        if self.viewer is None:
            self.source.new_events()
            return
        super().tell_new()

    def interlude(self) -> bool:
        """A gambit's summary, the game-over page, the cover before another person's
        question; or, at the viewer's own question, what changed since their last."""
        if self._gambit_summary():
            return True
        game = self.game
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
            return True
        seat = game.deciding
        if game.is_human(seat):
            if seat != self.viewer:
                self._cover_for(seat)
                return True
            self._tell_since_last_turn(seat)
        return False

    def answered(self) -> None:
        self._autosave()

    def opponents(self) -> str:
        return ", ".join(sorted(set(self.game.bot_specs.values())))

    def waiting_text(self) -> str:
        key = "tui.header.over" if self.game.over else "tui.waiting"
        return t(key, self.lang)

    def give_answer(self, answer: int, decision_id: int) -> None:
        """Only the viewer's own question is answered, the time limit checked first."""
        game = self.game
        if not game.is_human(game.deciding) or game.deciding != self.viewer:
            return
        self.before_step()
        super().give_answer(answer, decision_id)

    # --- what only a local table tells --------------------------------------------

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
        shown = events_for(following[:stop], self.viewer)
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
        self.source.sit(None)
        self.covered = True
        self.redraw()

        def uncover(_: None) -> None:
            self.covered = False
            self.source.sit(seat)
            self._retell()
            self.since_told = None
            self.advance()

        self.push_screen(CoverScreen(t("tui.cover", self.lang, name=self.names[seat])), uncover)

    def _retell(self) -> None:
        """The whole log again, as the viewer may see it (a new viewer, or a take-back)."""
        self.retell()
        self.summarized = len(self.game.log())

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
