"""A bot's answer worked out off the screen's thread, for any full-screen table.

The card table and the Dice Gambit table both let bots think in a Textual
thread worker so the screen stays responsive; when the worker ends, the
answer is applied on the screen's own thread (only that thread changes the
game) and the table moves on.  One mixin keeps that hand-off in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from textual import work
from textual.app import App
from textual.worker import Worker, WorkerState

from dragonante.i18n import t


class BotGame(Protocol):
    """What a table's game offers its bots: an answer, and a way to apply it."""

    def bot_answer(self) -> tuple[int, int]: ...

    def answer(self, answer: int, decision_id: int | None = None) -> Any: ...


G = TypeVar("G", bound=BotGame)


class BotThinking(App[int], Generic[G]):
    """Mixed into a Textual app with ``game``, ``lang``, ``thinking``,
    ``advance()`` and ``redraw()``: ``think()`` starts the bot's worker, and its
    end applies the answer (or says the bot failed) and advances the table."""

    game: G
    lang: str
    thinking: int | None

    if TYPE_CHECKING:  # provided by the table itself (not defined here: they would shadow it)

        def advance(self) -> None: ...

        def redraw(self) -> None: ...

    @work(thread=True, exclusive=True, group="bot")
    def think(self) -> tuple[int, int]:
        """The bot's answer, worked out off the screen's thread."""
        return self.game.bot_answer()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "bot":
            return
        if event.state == WorkerState.SUCCESS:
            answer, decision_id = event.worker.result  # type: ignore[misc]
            self.thinking = None
            self.game.answer(answer, decision_id)
            self.advance()
        elif event.state == WorkerState.ERROR:
            self.thinking = None
            self.notify(
                t("tui.bot_failed", self.lang, error=str(event.worker.error)), severity="error"
            )
            self.redraw()
