"""The question at the dice table: its text, only its legal answers, and what each does.

Built from the engine's pending :class:`~dragonante.dice.decisions.Decision`
(so nothing illegal can be offered): a die's faces for the tracker's roll
questions (on a dragon-type roll each face names its dragon), roll or
withdraw, a good dragon's demand, Bahamut's sacrifice.  Number keys choose
the first ten answers at once, arrows and Enter or a click any of them, and
the turn question keeps the prompt mode's letters (``r``/``w`` in English,
``t``/``r`` in Italian, :data:`~dragonante.interfaces.dice_render.TURN_WORDS`).

A face above 9 needs two digits, so on a roll the digits are gathered
(:func:`type_face`): a number that no further digit could extend is chosen
at once (``7`` on a d12, ``12``), a prefix (``1`` on a d12) waits for a
second digit or Enter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option as ListOption

from dragonante.dice.decisions import (
    DEMAND,
    PASS,
    PLAY,
    ROLL,
    SACRIFICE,
    TURN,
    TYPE_ROLL,
    WITHDRAW,
    Decision,
)
from dragonante.dice.state import DiceState
from dragonante.i18n import DEFAULT_LANG, t
from dragonante.interfaces.dice_render import (
    TURN_WORDS,
    dragon_text,
    purpose_text,
    tiamat_of,
    you_key,
)

#: The number keys, in the order of the answers they choose.
NUMBER_KEYS = "1234567890"


@dataclass(frozen=True, slots=True)
class Answer:
    """One legal answer: what the list shows, the engine's int, and what it does."""

    label: str
    answer: int
    detail: str = ""


@dataclass(frozen=True, slots=True)
class DiceQuestion:
    """A pending question as the screen asks it."""

    decision_id: int
    seat: int
    kind: str
    text: str
    answers: list[Answer]
    #: Letter shortcuts (the prompt mode's single-letter words) -> answer.
    letters: dict[str, int] = field(default_factory=dict)
    #: The die's sides on a roll question (0 otherwise).
    sides: int = 0

    def index_of(self, answer: int) -> int:
        return next(i for i, a in enumerate(self.answers) if a.answer == answer)


def _prompt(text: str) -> str:
    """A plain prompt's text without its trailing ``: `` or ``? ``'s space."""
    text = text.rstrip()
    return text[:-1] if text.endswith(":") else text


def build_question(
    s: DiceState, d: Decision, names: list[str], lang: str, me: int | None = None
) -> DiceQuestion:
    """The question ``d`` put to ``names[d.seat]``, with every legal answer explained
    (``me``: the seat asked as "you", the one person against bots)."""
    who = names[d.seat]

    def you(key: str) -> str:
        return you_key(key, d.seat, me, lang)

    def gold(n: int) -> str:
        return t("unit.gold", lang, n=n)

    if d.kind == ROLL:
        sides, purpose, die, count = d.ctx
        params = {"who": who, "sides": sides, "purpose": purpose_text(purpose, lang)}
        key = you("dice.ask.roll_advantage" if count > 1 else "dice.ask.roll")
        text = _prompt(t(key, lang, die=die, count=count, **params))
        answers = [
            Answer(str(f), f, dragon_text(f, lang=lang) if purpose == TYPE_ROLL else "")
            for f in d.options
        ]
        return DiceQuestion(d.id, d.seat, d.kind, text, answers, sides=sides)
    if d.kind == TURN:
        known = {
            PLAY: Answer(t("dice.ask.play", lang), PLAY, t("tui.dice.do.play", lang)),
            WITHDRAW: Answer(
                t("dice.ask.withdraw", lang), WITHDRAW, t("tui.dice.do.withdraw", lang)
            ),
        }
        answers = [known[o] for o in d.options if o in known]
        words = TURN_WORDS.get(lang, TURN_WORDS[DEFAULT_LANG])
        letters = {w: a for w, a in words.items() if len(w) == 1 and w.isalpha() and a in d.options}
        text = _prompt(t(you("dice.ask.turn"), lang, who=who))
        return DiceQuestion(d.id, d.seat, d.kind, text, answers, letters)
    if d.kind == DEMAND:
        amount = gold(d.ctx[0])
        answers = [
            Answer(
                names[p], p, t("tui.dice.do.demand", lang, amount=amount, hoard=gold(s.hoards[p]))
            )
            for p in d.options
            if p != PASS
        ]
        answers.append(Answer(t("dice.ask.nobody", lang), PASS, t("tui.dice.do.nobody", lang)))
        text = t(you("tui.dice.ask.demand"), lang, who=who, amount=amount)
        return DiceQuestion(d.id, d.seat, d.kind, text, answers)
    if d.kind == SACRIFICE:
        answers = [
            Answer(
                tiamat_of(p, names, me, lang),
                p,
                t(sacrifice_key(p, d.seat, me, lang), lang, owner=names[p], who=who),
            )
            for p in d.options
            if p != PASS
        ]
        answers.append(Answer(t("dice.ask.not_now", lang), PASS, t("tui.dice.do.not_now", lang)))
        text = t(you("tui.dice.ask.sacrifice"), lang, who=who)
        return DiceQuestion(d.id, d.seat, d.kind, text, answers)
    # a question kind this module does not know yet: raw, but still answerable
    raw = [Answer(str(o), o) for o in d.options]
    return DiceQuestion(d.id, d.seat, d.kind, f"{who}: {d.kind}", raw)


def sacrifice_key(owner: int, seat: int, me: int | None, lang: str) -> str:
    """What a sacrifice does, worded for whose Tiamat it is and who is asked: your own
    (``.own``: you play both dragons), another's asked of you (``.you``), or by name."""
    if me is not None and seat == me and owner == me:
        return "tui.dice.do.sacrifice.own"
    return you_key("tui.dice.do.sacrifice", seat, me, lang)


def type_face(typed: str, digit: str, sides: int) -> tuple[str, bool]:
    """The digits typed so far on a d``sides`` after ``digit``, and whether they are final.

    ``typed + digit`` if that is a face, else ``digit`` alone (a new number), else
    ``""`` (no face: the caller says why).  Final when no further digit could make
    another face, so the face is chosen without Enter.  On a d10, ``0`` alone is 10,
    as the die itself shows it.
    """
    for candidate in (typed + digit, digit):
        if candidate.startswith("0"):
            if candidate == "0" and sides == 10:
                return "10", True
            continue
        value = int(candidate)
        if 1 <= value <= sides:
            return candidate, value * 10 > sides
    return "", False


def answer_renderable(index: int, answer: Answer, numbered: bool = True) -> RenderableType:
    """One answer as the list shows it: its number key, its label, what it does (indented).

    A die's faces are not numbered (the face is what one types), and the dragon
    a type roll's face names follows it on the same line, so more faces fit.
    """
    if not numbered:
        line = Text(f"{answer.label:>2}  ", style="bold")
        line.append(answer.detail, style="italic")
        return line
    line = Text(f"{NUMBER_KEYS[index] if index < len(NUMBER_KEYS) else ' '} ", style="bold")
    line.append(answer.label, style="bold")
    if not answer.detail:
        return line
    return Group(line, Padding(Text(answer.detail, style="italic"), (0, 0, 0, 2)))


class DiceQuestionPanel(Vertical):
    """The question and its answers; posts :class:`Answered` when one is chosen."""

    class Answered(Message):
        """An answer to the question ``decision_id``."""

        def __init__(self, answer: int, decision_id: int) -> None:
            super().__init__()
            self.answer = answer
            self.decision_id = decision_id

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.question: DiceQuestion | None = None
        #: Digits typed so far on a roll question.
        self.typed = ""

    def compose(self) -> ComposeResult:
        yield Static(id="dice-question-text")
        yield OptionList(id="dice-answers")
        yield Static(id="dice-typed")

    def show(self, question: DiceQuestion | None, waiting: str, lang: str) -> None:
        """Show ``question`` (None: ``waiting`` says what is going on, no answers)."""
        same = (
            question is not None
            and self.question is not None
            and question.decision_id == self.question.decision_id
        )
        self.question = question
        self.query_one("#dice-question-text", Static).update(
            Text(question.text if question else waiting, style="bold")
        )
        if same:
            return  # keep the highlighted answer where the person left it
        self.typed = ""
        self.hint("")
        answers = self.query_one("#dice-answers", OptionList)
        answers.set_options(
            [
                ListOption(answer_renderable(i, a, numbered=not question.sides))
                for i, a in enumerate(question.answers)
            ]
            if question
            else []
        )
        if question:
            answers.highlighted = 0
            answers.focus()

    def hint(self, text: str) -> None:
        """The line under the answers: the digits typed so far, or why a key did nothing."""
        self.query_one("#dice-typed", Static).update(Text(text, style="italic"))

    def choose(self, index: int) -> bool:
        """Answer with the ``index``-th answer; False (nothing happens) if there is none."""
        q = self.question
        if q is None or not 0 <= index < len(q.answers):
            return False
        self.question = None  # one answer per question, however fast the keys come
        self.post_message(self.Answered(q.answers[index].answer, q.decision_id))
        return True

    def letter(self, char: str) -> bool:
        """A letter shortcut of the question; False if it is none."""
        q = self.question
        if q is None or char not in q.letters:
            return False
        return self.choose(q.index_of(q.letters[char]))

    def digit(self, digit: str, lang: str) -> bool:
        """A number key: on a roll, one more digit of the face; else the answer it numbers."""
        q = self.question
        if q is None:
            return False
        if not q.sides:
            return self.choose(NUMBER_KEYS.index(digit))
        typed, final = type_face(self.typed, digit, q.sides)
        if not typed:
            value = int(self.typed + digit) if self.typed else int(digit)
            self.typed = ""
            self.hint(t("dice.bad.roll_impossible", lang, sides=q.sides, value=value))
            return False
        if final:
            return self.choose(q.index_of(int(typed)))
        self.typed = typed
        self.query_one("#dice-answers", OptionList).highlighted = q.index_of(int(typed))
        self.hint(t("tui.dice.typed", lang, typed=typed))
        return True

    def clear_typed(self, lang: str) -> None:
        self.typed = ""
        self.hint("")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(event.option_index)
