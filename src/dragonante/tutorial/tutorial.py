"""The guided first game: the steps of :mod:`.steps` laid over a real game on the deal.

:class:`Tutorial` is the whole of it for a front end (no I/O): ``advance()``
lets the bots play up to the player's next question and returns what the
coach says now (:class:`Note`); ``answer()`` gives the player's answer.  The
tutorial reads only what the player's seat may see (the events of
``events_for`` and the seat's observation), never a bot's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from dragonante.engine.decisions import Decision, IllegalAnswer
from dragonante.engine.state import Event
from dragonante.engine.views import Observation, observe
from dragonante.i18n import t
from dragonante.interfaces.narrate import Narrator, table_names
from dragonante.interfaces.trigger_hint import trigger_reason
from dragonante.tutorial.deal import PLAYER, Deal, deal
from dragonante.tutorial.game import TutorialGame
from dragonante.tutorial.progress import Progress, ProgressError
from dragonante.tutorial.steps import BY_ID, HOLE, STEPS, Moment, Step, Words, hole_seen

#: The sorts of note, in the order a moment's notes come.
OUTCOME = "outcome"  # what the player's answer (or the bots) just did
MISSED = "missed"  # a rule that did not come up this time, explained anyway
RULE = "rule"  # the rule behind an outcome, in the events table's words
INTRO = "intro"  # what the next step is about to show, and why
ASK = "ask"  # what the player is asked to do now
FREE = "free"  # a question no step is about: play as you like
DONE = "done"  # the tutorial is over


@dataclass(frozen=True, slots=True)
class Note:
    """One thing the coach says: its sort, the step it belongs to, its text,
    and the primer section that explains it more ("" for none)."""

    kind: str
    step: str
    text: str
    primer: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "step": self.step, "text": self.text, "primer": self.primer}


class Tutorial:
    """One guided game for one player in ``lang``; ``answers`` replays a saved one."""

    def __init__(
        self, lang: str = "en", answers: tuple[int, ...] = (), the_deal: Deal | None = None
    ):
        self.deal = the_deal or deal()
        self.lang = lang
        self.game = TutorialGame(self.deal)
        names = table_names(self.deal.config.players, (PLAYER,), lang)
        self.narrator = Narrator(names, lang, me=PLAYER)
        self.words = Words(self.narrator)
        #: The next step (an index into STEPS; len(STEPS) when all are done).
        self.index = 0
        #: The player's answers so far (the whole of the saved progress).
        self.answers: list[int] = []
        #: For each step shown so far, how many answers the player had given then.
        self.started: dict[int, int] = {}
        self.hole_told = False
        #: The events the player was told, and where the current moment begins.
        self.told: list[Event] = []
        self.since = 0
        #: Where the next step (a watch step) starts reading the events told.
        self.next_from = 0
        #: The act step waiting for the player's answer, and the view it asked from.
        self.asking: int | None = None
        self.asked: Observation | None = None
        self.suggested = list(self.deal.suggested)
        self.suggestion: int | None = None
        #: After :meth:`replay`: the step gone back to (its next notes alone are said).
        self.replaying: str | None = None
        for a in answers:
            self.advance()
            if self.question is None:
                raise ProgressError("the saved answers go on after the end of the game")
            self.answer(a)

    # --- what a front end reads ---------------------------------------------------

    @property
    def question(self) -> Decision | None:
        """The player's question now (None while bots play, or when the game is over)."""
        return self.game.question()

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def step(self) -> Step | None:
        """The step in progress (the one asking, else the next one), None when all are done."""
        i = self.asking if self.asking is not None else self.index
        return STEPS[i] if i < len(STEPS) else None

    def title(self, step: Step) -> str:
        return t(step.key("title"), self.lang)

    def heading(self, step_id: str) -> str:
        """ "Step 5 of 11: A strength flight" (the hole, which comes up anywhere: its title)."""
        step = BY_ID.get(step_id)
        if step is None:
            return ""
        if step not in STEPS:
            return self.title(step)
        number = STEPS.index(step) + 1
        return t(
            "tutorial.heading", self.lang, step=number, total=len(STEPS), title=self.title(step)
        )

    def headed(self, notes: list[Note]) -> list[tuple[str, Note]]:
        """Each note with the heading to show before it ("" for none): a step's
        heading over its first note."""
        out: list[tuple[str, Note]] = []
        last = ""
        for note in notes:
            head = ""
            if note.step and note.step != last:
                head = self.heading(note.step)
                last = note.step
            out.append((head, note))
        return out

    def progress(self) -> Progress:
        """What resumes this tutorial: the player's answers (JSON-ready), and
        whether it is finished (the game over and every step told)."""
        finished = self.over and self.index >= len(STEPS)
        return Progress(tuple(self.answers), self.index, finished)

    @classmethod
    def resume(cls, progress: Progress, lang: str = "en") -> Tutorial:
        """The tutorial as it was saved (:class:`ProgressError` if it does not replay)."""
        try:
            tut = cls(lang, progress.answers)
        except ProgressError:
            raise
        except IllegalAnswer as e:  # an answer the game refuses: another deal, other rules
            raise ProgressError(f"the saved tutorial does not replay: {e}") from None
        if not progress.finished and tut.index != progress.step:
            raise ProgressError("the saved tutorial does not replay: it reaches another step")
        return tut

    def replayable(self) -> int | None:
        """The act step ``replay`` would go back to (the one asking, else the last shown)."""
        if self.asking is not None:
            return self.asking
        shown = [i for i in self.started if STEPS[i].acts]
        return max(shown) if shown else None

    def replay(self) -> Tutorial:
        """A tutorial back at the start of :meth:`replayable`'s step (this one if none)."""
        i = self.replayable()
        if i is None:
            return self
        again = Tutorial(self.lang, tuple(self.answers[: self.started[i]]), self.deal)
        again.replaying = STEPS[i].id
        return again

    # --- the loop -----------------------------------------------------------------

    def advance(self) -> list[Note]:
        """Let the bots play to the player's next question (or the end) and say
        what happened and what comes next."""
        if self.asking is not None and len(self.answers) == self.started[self.asking]:
            return []  # still waiting for the player's answer: nothing new to say
        self.game.run_bots()
        self.told.extend(self.game.new_events())
        moment = self.told[self.since :]
        obs = observe(self.game.state, PLAYER)
        question = self.question
        notes: list[Note] = []
        if self.asking is not None:
            step = STEPS[self.asking]
            m = Moment(moment, obs, question, self.asked)
            notes += self._outcome(step, m)
            self.asking = None
            self._next()
        if not self.hole_told and hole_seen(moment):
            self.hole_told = True
            notes += self._outcome(HOLE, Moment(moment, obs, question))
        while self.index < len(STEPS):
            step = STEPS[self.index]
            m = Moment(self.told[self.next_from :], obs, question)
            if step.acts:
                assert step.ready is not None
                if question is not None and step.ready(m):
                    notes += self._ask(step, m)
                    break
            elif step.seen & {e[1] for e in m.events}:
                notes += self._outcome(step, m)
                self._next()
                continue
            if not self._missed(step, obs.gambit):
                break
            notes.append(Note(MISSED, step.id, t(step.key("missed"), self.lang), step.primer))
            notes.append(Note(RULE, step.id, self.words.rule(step.rule), step.primer))
            self._next()
        if self.asking is None and question is not None:
            notes += self._free(Moment(moment, obs, question))
        if self.over and self.index >= len(STEPS):
            notes.append(Note(DONE, "", t("tutorial.done", self.lang)))
        self.since = len(self.told)
        if self.replaying is not None:  # what led up to the step was said the first time
            notes = [n for n in notes if n.step == self.replaying]
            self.replaying = None
        return notes

    def answer(self, answer: int) -> None:
        """The player's answer (``IllegalAnswer``, nothing changed, if it is not legal)."""
        d = self.question
        assert d is not None, "no question for the player now"
        self.game.answer(answer, d.id)
        self.answers.append(answer)

    # --- the parts of a moment -------------------------------------------------------

    def _next(self) -> None:
        """On to the next step, which reads the events from this moment on."""
        self.index += 1
        self.next_from = self.since

    def _missed(self, step: Step, gambit: int) -> bool:
        return self.over or (step.gambit is not None and gambit > step.gambit)

    def _outcome(self, step: Step, m: Moment) -> list[Note]:
        lines = step.outcome(m, self.words)
        notes = [Note(OUTCOME, step.id, line, step.primer) for line in lines]
        notes.append(Note(RULE, step.id, self.words.rule(step.rule), step.primer))
        return notes

    def _suggest(self, m: Moment) -> int | None:
        """The deal's next suggested answer to this question, if still legal (consumed
        as the scripted bots consume theirs)."""
        d = m.question
        if d is None or not self.suggested or self.suggested[0].kind != d.kind:
            return None
        scripted = self.suggested.pop(0).answer
        return scripted if scripted in d.options else None

    def _ask(self, step: Step, m: Moment) -> list[Note]:
        i = STEPS.index(step)
        self.started[i] = len(self.answers)
        self.asking = i
        self.asked = m.obs
        scripted = self._suggest(m)
        assert step.suggest is not None
        self.suggestion = step.suggest(m, scripted)
        intro = self.words.say(
            step.key("intro"), gambit=m.obs.gambit, gold=self.words.gold(m.obs.hoards[PLAYER])
        )
        notes = [Note(INTRO, step.id, intro, step.primer)]
        if self.suggestion is not None:
            reason = trigger_reason(m.obs, self.suggestion, self.narrator.obj, self.lang)
            answer = self._label(m.question, self.suggestion)
            text = self.words.say(step.key("ask"), answer=answer, reason=reason)
        else:
            text = self.words.say(step.key("ask_any"))
        notes.append(Note(ASK, step.id, text, step.primer))
        return notes

    def _free(self, m: Moment) -> list[Note]:
        """A question no step is about: the deal's suggestion if any, else play as you like."""
        self.asked = m.obs
        scripted = self._suggest(m)
        self.suggestion = scripted
        if scripted is not None:
            text = self.words.say("tutorial.free.suggest", answer=self._label(m.question, scripted))
        else:
            text = self.words.say("tutorial.free.any")
        return [Note(FREE, "", text)]

    def _label(self, d: Decision | None, answer: int) -> str:
        if d is None:
            return ""
        return self.narrator.answer_label(d.kind, answer, d.ctx)


__all__ = ["ASK", "DONE", "FREE", "INTRO", "MISSED", "OUTCOME", "RULE", "Note", "Tutorial"]
