"""``h`` at the full-screen table: a hint from the best bot, worked out off the screen's thread.

The hint (:func:`dragonante.bots.hint.hint`) searches for about a second,
so it runs in a Textual thread worker on a copy of the game taken on the
screen's thread (the person may answer meanwhile: the game itself is never
read from the worker), and its page opens when it is done - unless the
question has changed by then, when it is dropped.  It is for one person
against bots: in hot-seat, where several people share the screen, there
is none (as the web table has none at tables with other people unless the
host allows them).  The words are :mod:`dragonante.interfaces.hint_words`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import App

from dragonante.bots import SeatView
from dragonante.bots.hint import HINT_ITERS, hint, hint_seed
from dragonante.engine.state import GameState
from dragonante.i18n import t
from dragonante.interfaces.hint_words import hint_words
from dragonante.interfaces.narrate import Narrator
from dragonante.interfaces.tui.screens import CardScreen

if TYPE_CHECKING:
    from dragonante.interfaces.tui.game_source import GameSource


class HintAsking(App[int]):
    """Mixed into the local table (its ``source``, ``lang``, ``thinking``):
    ``action_hint`` asks the hard bot about the question of the seat drawn."""

    source: GameSource
    lang: str
    thinking: int | None
    #: The hint's search budget (tests ask for fewer iterations).
    hint_iters = HINT_ITERS
    #: The question whose hint is being worked out (None: none is).
    _hint_for: int | None = None

    def action_hint(self) -> None:
        lang = self.lang
        game = self.source.game
        if not self.source.hints_allowed:
            self.notify(t("hint.people", lang))
            return
        d = game.state.pending
        seat = self.source.seat
        if game.over or d is None or seat is None or d.seat != seat or self.thinking is not None:
            self.notify(t("hint.none", lang))
            return
        self.notify(t("hint.thinking", lang))
        if self._hint_for == d.id:
            return  # already being worked out: its page opens when it is done
        self._hint_for = d.id
        copy = game.state.clone()
        copy.log = list(game.state.log or [])
        self.find_hint(copy, seat, hint_seed(game.seed, d.id), d.id, self.source.narrator())

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(
        self, copy: GameState, seat: int, seed: int, decision: int, narrator: Narrator
    ) -> None:
        """The hint on the copy, then its page on the screen's thread."""
        view = SeatView(copy, seat)
        try:
            found = hint(view, seed, self.hint_iters)
            lines = hint_words(found, narrator, view.observation()).lines
        except Exception as e:  # said on the screen, as a bot's failure is; the game goes on
            self.call_from_thread(self._hint_failed, str(e))
            return
        self.call_from_thread(self._show_hint, decision, lines)

    def _hint_failed(self, error: str) -> None:
        self._hint_for = None
        self.notify(t("tui.bot_failed", self.lang, error=error), severity="error")

    def _show_hint(self, decision: int, lines: list[str]) -> None:
        self._hint_for = None
        state = self.source.game.state
        if state.pending is None or state.pending.id != decision or state.over:
            return  # answered meanwhile: the hint is of a question gone by
        lang = self.lang
        self.push_screen(
            CardScreen(t("hint.title", lang), lines, t("tui.close", lang), t("tui.scrolls", lang))
        )
