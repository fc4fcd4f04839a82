"""The table as text, and answers in words: the seat of a language-model agent.

A person at the terminal reads the table (:mod:`dragonante.interfaces.render`),
the story so far and a numbered question (:mod:`dragonante.interfaces.narrate`),
and types a number.  An agent that reads and writes text (a language model,
a script, a person on a chat line) needs the same, plus two things a
keyboard never does: every legal answer named in words that stand alone
("play Red Dragon (8)", "pay 5 gold to Bot 1 instead"), and a free-text
reply read back into an engine answer, by its number or by its words, with
anything else refused by a clear message that lists the legal answers again
(:class:`NotAnAnswer`, a ``ValueError``; never a traceback at the agent).

Everything is built from a bot's :class:`~dragonante.bots.base.SeatView`:
the seat's observation and its filtered events, nothing else, so the text
cannot name a card the seat may not see, and a text agent can sit wherever a
bot sits (:class:`TextBot`).  English and Italian, as the rest of the table.

This module needs nothing beyond the player's install;
:mod:`dragonante.agents.text` re-exports it beside the learning environments.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dragonante.bots.base import SeatView
from dragonante.engine import decisions as D
from dragonante.engine.views import Observation
from dragonante.i18n import DEFAULT_LANG, LANGS, has, t
from dragonante.interfaces.narrate import Narrator, Option, Prompt, card_label, default_names
from dragonante.interfaces.render import TRIGGER_MARK, TableView, from_observation, table_lines

#: Answers that are codes, not the thing a question is about: their words are
#: the narrator's label as it stands ("pay 5 gold to Bot 1 instead", "done").
_CODES = frozenset({D.PASS, D.DONE, D.ALL})


#: A listed answer in :meth:`TextSeat.read`'s text ("  3) play Red Dragon (8) *"):
#: its number and its words, for agents that are scripts.
LISTED_ANSWER = re.compile(r"^ +(\d+)\) (.+?)(?: \*)?$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class TextAnswer:
    """One legal answer as an agent reads and writes it."""

    #: Its place in the listed answers, from 1 (an agent may reply with it).
    number: int
    #: The engine's answer (a card number, a seat, a code).
    answer: int
    #: The answer in words that stand alone: "play Red Dragon (8)".
    words: str
    #: Shorter names that also pick it: "Red Dragon (8)", "Bot 1".
    aliases: tuple[str, ...] = ()
    #: Its card's power would trigger if played now.
    triggers: bool = False
    #: What it does besides (an ability's text, the special flights it completes).
    detail: str = ""

    def line(self, width: int = 1) -> str:
        """The answer as listed: "  3) play Red Dragon (8) *"."""
        mark = f" {TRIGGER_MARK}" if self.triggers else ""
        return f"  {self.number:>{width}}) {self.words}{mark}"


class NotAnAnswer(ValueError):
    """A reply that names no legal answer, or names several: the message says
    which, lists the legal answers and asks again, in the seat's language."""

    def __init__(self, reply: str, answers: Sequence[TextAnswer], lang: str, key: str) -> None:
        self.reply = reply
        self.answers = list(answers)
        width = len(str(len(answers)))
        listed = "\n".join(a.line(width) for a in answers)
        super().__init__(t(key, lang, reply=reply.strip(), answers=listed))


def fold(text: str) -> str:
    """A reply or a name made comparable: lower case, no accents, punctuation
    and runs of spaces as one space ("Drago Rosso (8)." -> "drago rosso 8")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^\w]+", " ", plain).split())


def _decapitalize(label: str) -> str:
    return label[:1].lower() + label[1:]


def answer_words(kind: str, option: Option, narrator: Narrator) -> str:
    """An option's words: the question's verb with the option's name where the
    catalogue has one (``text.answer.<kind>``: "play {answer}"), else the
    narrator's label, which already says what it does ("pay 5 gold to Bot 1
    instead")."""
    key = f"text.answer.{kind}"
    if option.answer not in _CODES and has(key, narrator.lang):
        return t(key, narrator.lang, answer=option.label)
    return _decapitalize(option.label)


def _aliases(kind: str, option: Option, narrator: Narrator) -> tuple[str, ...]:
    """The shorter names of an option: its label, the bare card, the bare seat."""
    names = [option.label]
    if option.card >= 0:
        names.append(card_label(option.card, narrator.lang))
    elif kind in D.SEAT_ANSWERS and option.answer >= 0:
        names += [narrator.label(option.answer), narrator.names[option.answer]]
    return tuple(dict.fromkeys(names))


def text_answers(obs: Observation, narrator: Narrator) -> list[TextAnswer]:
    """The legal answers of the seat's pending question, named and numbered in
    the terminal's order (the hand's order for cards); [] if it is not asked."""
    prompt = narrator.prompt(None, obs)
    return [] if prompt is None else prompt_answers(prompt, narrator)


def prompt_answers(prompt: Prompt, narrator: Narrator) -> list[TextAnswer]:
    """A prompt's options as text answers (a local prompt, or one a server sent)."""
    return [
        TextAnswer(
            number=i,
            answer=o.answer,
            words=answer_words(prompt.kind, o, narrator),
            aliases=_aliases(prompt.kind, o, narrator),
            triggers=o.triggers,
            detail=o.detail,
        )
        for i, o in enumerate(prompt.options, 1)
    ]


def turn_text(
    view: TableView,
    narrator: Narrator,
    prompt: Prompt | None,
    answers: Sequence[TextAnswer],
    story: Sequence[str] = (),
) -> str:
    """A seat's turn as one text: the story, the table, the question, the answers."""
    lang = narrator.lang
    lines: list[str] = []
    if story:
        lines.append(t("text.story", lang))
        lines += [f"  {s}" for s in story]
        lines.append("")
    lines.append(t("text.table", lang))
    lines += table_lines(view, narrator)
    if prompt is None or not answers:
        return "\n".join(lines)
    lines += ["", prompt.text]
    width = len(str(len(answers)))
    for a in answers:
        lines.append(a.line(width))
        if a.detail:
            lines.append(f"  {'':>{width}}  {a.detail}")
    if any(a.triggers for a in answers):
        lines.append(t("prompt.trigger_legend", lang, mark=TRIGGER_MARK))
    lines += ["", t("text.how_to_answer", lang)]
    return "\n".join(lines)


#: "3", "3)", "3.", "#3", "3) play Red Dragon (8)": a number, perhaps echoed
#: with the words it was listed with.
_NUMBERED = re.compile(r"^\s*#?(\d+)\s*(?:[).:\-]\s*|\s+|$)(.*)$", re.DOTALL)


def read_answer(reply: str, answers: Sequence[TextAnswer], lang: str = DEFAULT_LANG) -> TextAnswer:
    """The answer a free-text ``reply`` names: its number, its words or one of its
    names, in any case, with or without accents, quotes and punctuation.

    A reply of several lines (a model that thinks aloud first) is read by its
    last line when the whole names nothing.  Raises :class:`NotAnAnswer`
    (listing the legal answers) for anything else, and for a reply whose
    words fit several answers.
    """
    if not answers:
        raise NotAnAnswer(reply, answers, lang, "text.refused.not_asked")
    lines = [line for line in reply.splitlines() if line.strip()]
    if len(lines) > 1:
        try:
            return _read_one(reply, answers, lang)
        except NotAnAnswer:
            try:
                return _read_one(lines[-1], answers, lang)
            except NotAnAnswer:
                pass
            raise NotAnAnswer(reply, answers, lang, "text.refused") from None
    return _read_one(reply, answers, lang)


def _read_one(reply: str, answers: Sequence[TextAnswer], lang: str) -> TextAnswer:
    said = reply.strip().strip("`'\"*“”‘’«» \t\n")
    m = _NUMBERED.match(said)
    if m:
        number, rest = int(m.group(1)), fold(m.group(2))
        if 1 <= number <= len(answers):
            chosen = answers[number - 1]
            if not rest or rest in _names(chosen):
                return chosen
        elif not rest:
            raise NotAnAnswer(reply, answers, lang, "text.refused.number")
    wanted = fold(said)
    found = [a for a in answers if wanted in _names(a)] if wanted else []
    if len(found) == 1:
        return found[0]
    raise NotAnAnswer(reply, answers, lang, "text.refused.ambiguous" if found else "text.refused")


def _names(answer: TextAnswer) -> set[str]:
    return {fold(answer.words), *(fold(a) for a in answer.aliases)}


class TextSeat:
    """One seat's table as text, and its replies read back into answers.

    ``read(view)`` gives what a person at the table sees when asked: what
    happened since the last read, the table, the question and its answers
    numbered, each in words; ``answer(view, reply)`` is the engine answer a
    reply names.  ``names`` are the players' names by seat ("Bot N" when not
    given; the seat itself is "You").
    """

    def __init__(
        self,
        seat: int,
        players: int,
        lang: str = DEFAULT_LANG,
        names: Sequence[str] | None = None,
        debt_model: str = "hole",
    ) -> None:
        self.seat = seat
        self.lang = lang if lang in LANGS else DEFAULT_LANG
        self.names = list(names) if names is not None else default_names(players, self.lang, seat)
        self.narrator = Narrator(self.names, self.lang, me=seat, debt_model=debt_model)
        #: How many of the seat's visible events have been told already.
        self._told = 0

    @classmethod
    def for_view(
        cls, view: SeatView, lang: str = DEFAULT_LANG, names: Sequence[str] | None = None
    ) -> TextSeat:
        """The text seat of ``view``'s seat at its table."""
        config = view.config
        return cls(view.seat, config.players, lang, names, config.rules.debt_model)

    def story(self, view: SeatView) -> list[str]:
        """The sentences for what this seat saw happen since the last call (a
        new game starts the story again)."""
        events = view.events()
        if len(events) < self._told:
            self._told = 0
        lines = self.narrator.events(events[self._told :])
        self._told = len(events)
        return lines

    def answers(self, view: SeatView) -> list[TextAnswer]:
        """The seat's legal answers now, named and numbered."""
        return text_answers(view.observation(), self.narrator)

    def read(self, view: SeatView) -> str:
        """The seat's turn as one text: the story, the table, the question, the answers."""
        obs = view.observation()
        story = self.story(view)
        prompt = self.narrator.prompt(None, obs)
        answers = [] if prompt is None else prompt_answers(prompt, self.narrator)
        return turn_text(from_observation(obs), self.narrator, prompt, answers, story)

    def answer(self, view: SeatView, reply: str) -> int:
        """The engine answer ``reply`` names; :class:`NotAnAnswer` if none."""
        return read_answer(reply, self.answers(view), self.lang).answer


#: An agent that reads the seat's text and replies with text.
Respond = Callable[[str], str]


class TextAgentGaveUp(RuntimeError):
    """A text agent that named no legal answer in all the tries it was given."""


class TextBot:
    """A text agent as a bot: every question becomes :meth:`TextSeat.read`'s
    text, handed to ``respond``; a reply that names no legal answer is answered
    with the refusal (which lists the legal answers), up to ``tries`` replies
    per question, then :class:`TextAgentGaveUp` is raised.

    ``respond`` is the agent: a language model's chat call, a person's
    ``input``, a script.  One ``TextBot`` per seat (it remembers what it told).
    """

    name = "text"

    def __init__(
        self,
        respond: Respond,
        lang: str = DEFAULT_LANG,
        names: Sequence[str] | None = None,
        tries: int = 3,
    ) -> None:
        if tries < 1:
            raise ValueError(f"tries must be at least 1, got {tries}")
        self.respond = respond
        self.lang = lang
        self.names = names
        self.tries = tries
        self._seat: TextSeat | None = None

    @property
    def text_seat(self) -> TextSeat | None:
        """The seat's text table, once it has been asked (None before)."""
        return self._seat

    def choose(self, view: SeatView) -> int:
        seat = self._seat
        if seat is None or seat.seat != view.seat:
            seat = self._seat = TextSeat.for_view(view, self.lang, self.names)
        text = seat.read(view)
        answers = seat.answers(view)
        for _ in range(self.tries):
            reply = self.respond(text)
            try:
                return read_answer(reply, answers, seat.lang).answer
            except NotAnAnswer as refused:
                text = str(refused)
        raise TextAgentGaveUp(t("text.gave_up", seat.lang, tries=self.tries))


__all__ = [
    "LISTED_ANSWER",
    "NotAnAnswer",
    "Respond",
    "TextAgentGaveUp",
    "TextAnswer",
    "TextBot",
    "TextSeat",
    "answer_words",
    "fold",
    "prompt_answers",
    "read_answer",
    "text_answers",
    "turn_text",
]
