"""A hint from the best bot in words, for every table (terminal, full screen, browser).

:func:`dragonante.bots.hint.hint` gives the hard bot's answer and its
figures; this module says them in the table's language, naming each answer
exactly as the question's numbered choices name it (the narrator's
:class:`~dragonante.interfaces.narrate.Prompt`, the labels ``play --plain``
prints and the browser shows), so the hint's "Red Dragon (12)" is the
choice the person sees.  Every word comes from the message catalogues
(``hint.*``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dragonante.bots.hint import ONLY, SETUP, AnswerWorth, Hint
from dragonante.engine.views import Observation
from dragonante.i18n import t
from dragonante.interfaces.narrate import Narrator


@dataclass(frozen=True, slots=True)
class HintWords:
    """A hint as the table says it: its lines, and each explained answer's label."""

    #: The sentences, first the choice, then why (one line per answer explained).
    lines: list[str]
    #: The chosen answer's label, as its numbered choice reads.
    choice: str
    #: For each answer explained, best first: its label and its figures.
    answers: list[dict[str, Any]]


def percent(share: float, lang: str) -> str:
    """A share (0-1) as a whole percentage ("31%", Italian "31%")."""
    return t("hint.percent", lang, n=round(100 * share))


def signed_gold(amount: float, lang: str) -> str:
    """A mean change of gold, signed, one decimal ("+3.2 gold", Italian "+3,2 mo")."""
    text = f"{amount:+.1f}".replace("-", "−")
    if lang == "it":
        text = text.replace(".", ",")
    return t("unit.gold", lang, n=text)


def hint_words(h: Hint, narrator: Narrator, obs: Observation) -> HintWords:
    """``h`` in ``narrator``'s language; ``obs``: the observation of the seat the
    hint is for (its question's labels are read from it)."""
    lang = narrator.lang
    prompt = narrator.prompt(None, obs)
    labels = {o.answer: o.label for o in prompt.options} if prompt is not None else {}

    def label(answer: int) -> str:
        return labels.get(answer) or narrator.answer_label(h.kind, answer)

    choice = label(h.choice)
    lines = [t("hint.choice", lang, answer=choice)]
    if h.how == ONLY:
        lines.append(t("hint.only", lang))
    elif h.how == SETUP:
        lines.append(t("hint.setup", lang))
    elif h.answers:
        lines.append(t("hint.searched", lang, iterations=h.iterations))
    answers: list[dict[str, Any]] = []
    for w in h.answers:
        lines.append(_answer_line(w, label(w.answer), h.iterations, lang))
        answers.append(
            {
                "value": w.answer,
                "label": label(w.answer),
                "visits": w.visits,
                "win": round(w.win, 4),
                "stakes": round(w.stakes, 4),
                "gold": round(w.gold, 2),
            }
        )
    return HintWords(lines, choice, answers)


def _answer_line(w: AnswerWorth, label: str, iterations: int, lang: str) -> str:
    return t(
        "hint.answer",
        lang,
        answer=label,
        win=percent(w.win, lang),
        stakes=percent(w.stakes, lang),
        gold=signed_gold(w.gold, lang),
        visits=w.visits,
        iterations=iterations,
    )
