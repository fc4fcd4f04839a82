"""The guided first game (``dragonante learn``; the browser's "Learn to play").

A real game of Three-Dragon Ante on a prepared deal (:mod:`.deal`, written as
a rules scenario), against two bots that play their scripted first moves and
then as the easy bot (:mod:`.scripted`), with a coach laid over it: an
ordered list of steps (:mod:`.steps`) so that in about fifteen minutes
every core rule comes up in play (the ante and a tie in it, leading a round,
a card that triggers and one that does not, a power that asks the player, a
strength flight and a color flight, the end of a gambit and who wins the
stakes, the next gambit, buying with one card left, the hole, the end of the
game).  The game is real: a different answer is never a failure; each step
reads what actually happened from the events and explains it.  No I/O here
but the progress file (:mod:`.progress`).

The API, for a front end::

    from dragonante.tutorial import Tutorial, progress

    tut = Tutorial(lang)                       # or Tutorial.resume(progress.load(), lang)
    while True:
        for note in tut.advance():             # bots play up to the player's question
            show(note.kind, note.text)         # intro / ask / outcome / rule / missed / free / done
        if tut.over:
            break
        d = tut.question                       # the player's Decision (engine answers)
        answer = ask_player(tut.game, d, suggested=tut.suggestion)
        tut.answer(answer)                     # IllegalAnswer if not legal, nothing changed
        progress.save(tut.progress())          # JSON: the player's answers (the deal is fixed)

* ``tut.game`` is a :class:`~dragonante.interfaces.session.LocalGame` (on the
  deal): draw the table from ``tut.game.state`` for seat ``PLAYER`` as for
  any local game (``observe``, the narrator, ``tut.game.all_events()``).
  ``advance`` takes the new events (``tut.told`` keeps them all): do not
  call ``tut.game.new_events()`` yourself.
* ``tut.step`` is the step in progress (``tut.title(step)``, ``step.primer``
  the primer section to open); ``tut.index`` of ``len(STEPS)`` steps;
  ``tut.headed(notes)`` pairs each note with the heading to show over it
  ("Step 5 of 11: A strength flight", over each step's first note).
* ``tut.suggestion`` is the answer the tutorial suggests now (None: any);
  ``Note.to_dict()`` is JSON-ready (``kind``, ``step``, ``text``, ``primer``).
* Resume: save ``tut.progress().to_dict()`` after each answer (before the next
  ``advance``), and ``Tutorial.resume(Progress.from_dict(data), lang)`` rebuilds
  it (:class:`ProgressError` if it does not replay: start a new one); then
  ``advance()`` says what comes next.
* ``tut.replay()`` returns a new tutorial back at the start of the current
  (or last) step that asked the player something; call ``advance()`` on it.
* Skip: :func:`~.tips.normal_game` deals a normal game against easy bots and
  :class:`~.tips.Tips` gives each rule the first time it comes up.
* :mod:`.progress`: save, load, clear (restart) under the XDG data
  directory; and whether ``play`` has offered the tutorial once.

Every word is in the message catalogues (``tutorial.*``, English and
Italian), the rules in the events table's own (``why.*``).  Adding a step:
``docs/tutorial.md``.
"""

from dragonante.tutorial import progress
from dragonante.tutorial.deal import PLAYER, Deal, deal
from dragonante.tutorial.progress import Progress, ProgressError
from dragonante.tutorial.steps import STEPS, Step
from dragonante.tutorial.tips import Tips, normal_game
from dragonante.tutorial.tutorial import Note, Tutorial

__all__ = [
    "PLAYER",
    "STEPS",
    "Deal",
    "Note",
    "Progress",
    "ProgressError",
    "Step",
    "Tips",
    "Tutorial",
    "deal",
    "normal_game",
    "progress",
]
