"""The table source: what a front end needs from a table, whoever keeps the game.

A front end (the plain prompts of ``play --plain``, the full-screen table,
``replay``) draws one seat's picture of a table and passes that seat's
answers on.  Where the game lives differs: the engine in this process
(:class:`~dragonante.interfaces.local_source.LocalSource`, over
:class:`~dragonante.interfaces.session.LocalGame`), a server reached over
the seat's WebSocket
(:class:`~dragonante.interfaces.online_source.OnlineSource`), or a saved
record (:class:`~dragonante.interfaces.replay_source.ReplaySource`).  A
front end asks a :class:`TableSource` and nothing else, so one loop serves
every kind of table, and the information barrier stays in the sources: a
source hands out only what its seat may see (a local source filters the
log through the engine's ``events_for`` / ``events_for_gm``, an online one
receives nothing else from the server).

What a front end does with a source, in order::

    source.wait()                      # the others play (bots think, frames come)
    lines = narrator.events(source.new_events())
    view, prompt = source.view(), source.prompt()
    ...                                # draw them, read the person's answer
    source.answer(option.answer, prompt.decision_id)
    ...                                # until source.over
    source.close()

``hint()`` is the best bot's advice on the current question, in words
(:mod:`dragonante.interfaces.hint_words`); ``hints_allowed`` says whether
this table gives one at all (a table with other people only if its host
allows it).  A refusal (an answer the server did not take, a hint the
table does not give) is :class:`SourceRefused` with the sentence to show,
never a traceback, and changes nothing.

The front ends on the seam: ``PlainTable(source, stdin)``
(:mod:`dragonante.interfaces.cli.plain_table`) for numbered prompts (``play
--plain``, ``learn --plain``, ``play --join --plain``), ``SourceTableApp``
(:mod:`dragonante.interfaces.tui.source_app`) for the full-screen table, and
``ReplayApp`` on a ``ReplaySource`` (``replay --screen``) and ``TableApp``
(the full-screen ``play``) on a
:class:`~dragonante.interfaces.tui.game_source.GameSource`, its hot-seat
covers, take-back, saving and time limit in the hooks of ``SourceTableApp``;
``replay``'s printed narration reads a ``ReplaySource`` too.  A replay is a
source that asks nothing: ``prompt`` is None, ``wait`` is one step through
the record, ``over`` means the record's end.  A full-screen table steps a
:class:`SteppedSource` one bot at a time (who is thinking shows, and the
game changes on the screen's thread only).  The full-screen tutorial
(``LearnApp``) is a ``TableApp`` on a ``TutorialSource``, and
``OnlineTableApp`` (``play --join``) a ``SourceTableApp`` on a
:class:`~dragonante.interfaces.tui.frame_source.FrameSource`, fed by the
screen's own connection: every front end draws a source.

**A new source** (the tutorial, say) plugs in without a new loop: it either
wraps its own :class:`~dragonante.interfaces.session.LocalGame` in a
:class:`~dragonante.interfaces.local_source.LocalSource` (whose ``wait``
lets the bots, scripted or not, answer) and subclasses it to add what it
says between questions, or implements the members below from scratch.
Either way every front end on the seam then plays it.  The members it must
keep: only the seat's own view and events, the question only when it is the
seat's, and answers checked by whoever keeps the game.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from dragonante.engine.state import Event
from dragonante.interfaces.narrate import Narrator, Prompt
from dragonante.interfaces.render import TableView


class SourceRefused(Exception):
    """The source did not take an answer or give a hint: the sentence to show."""


class SourceClosed(Exception):
    """The table is gone for this seat (a server refused it): the sentence to show."""


@runtime_checkable
class TableSource(Protocol):
    """One seat's table, as any front end draws it."""

    @property
    def lang(self) -> str:
        """The language the source's own words are in (the narrator's)."""
        ...

    @property
    def seat(self) -> int | None:
        """The seat drawn (None: a spectator's public view)."""
        ...

    @property
    def over(self) -> bool:
        """Whether the game has ended (nothing more will be asked)."""
        ...

    @property
    def hints_allowed(self) -> bool:
        """Whether this table gives the seat a hint from the best bot."""
        ...

    def narrator(self) -> Narrator:
        """The narrator for the seat (names as this table calls them, "You" for it)."""
        ...

    def wait(self) -> None:
        """Until the seat is asked or the game is over: the others answer meanwhile.

        Raises :class:`SourceClosed` when the table is gone for this seat."""
        ...

    def view(self) -> TableView | None:
        """The seat's view of the table now (None before the game starts)."""
        ...

    def prompt(self) -> Prompt | None:
        """The seat's own question with its legal answers, or None."""
        ...

    def new_events(self) -> list[Event]:
        """What the seat may see of what happened since the last call."""
        ...

    def all_events(self) -> list[Event]:
        """Everything the seat may see since the game began."""
        ...

    def notes(self) -> list[str]:
        """What the table said to the seat since the last call besides the game's
        events (a server's notice, a refused answer, a turn that timed out)."""
        ...

    def answer(self, answer: int, decision_id: int) -> None:
        """The seat's answer to question ``decision_id``; :class:`SourceRefused` if not taken."""
        ...

    def hint(self) -> list[str]:
        """The best bot's answer to the current question and why, in words;
        :class:`SourceRefused` when there is none to give now."""
        ...

    def winners(self) -> list[int]:
        """The seats that won (once the game is over)."""
        ...

    def close(self) -> None:
        """Let go of what the source holds (a connection); safe to call twice."""
        ...


@runtime_checkable
class SteppedSource(TableSource, Protocol):
    """A source whose bots a front end may step through one answer at a time.

    ``wait`` lets every bot answer at once, in whatever thread calls it.  A
    full-screen table wants more: to say which bot is thinking, and to keep
    every change of the game on its own thread (it saves, takes back and
    copies the game for a hint there).  A stepped source splits ``wait`` in
    three: ``thinking`` names the bot to answer next, ``think`` works its
    answer out without changing anything (safe in a worker thread) and
    ``apply`` gives it, on the thread that owns the game.  When no bot needs
    thinking (``thinking()`` is None), ``wait`` gives at once whatever answers
    are left that need none (a tutorial's scripted bots; nothing for a plain
    local game) and the front end calls it on its own thread before drawing.
    A local game's ``wait`` is then ``while thinking() is not None:
    apply(*think())``."""

    def thinking(self) -> int | None:
        """The bot seat whose answer comes next (None: the seat is asked, or the end)."""
        ...

    def think(self) -> tuple[int, int]:
        """That bot's answer and the question's id, the game unchanged."""
        ...

    def apply(self, answer: int, decision_id: int) -> None:
        """Give the answer :meth:`think` worked out."""
        ...


__all__ = ["SourceClosed", "SourceRefused", "SteppedSource", "TableSource"]
