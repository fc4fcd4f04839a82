"""The viewer's question: its text and only its legal answers, each saying what it does.

The answers are the narrator's :class:`~dragonante.interfaces.narrate.Option`
list, built from the seat's own pending decision, so nothing illegal can
be offered.  A card answer is drawn as its colored badge with the trigger
mark; an answer with a ``detail`` (an ability's text) shows it underneath,
wrapped lines hanging under the answer's text.
The first ten answers are numbered 1-9 and 0 for the number keys; arrows
and Enter or a click choose any of them.  While a card to play is
highlighted, the line under the answers says why it would trigger or not
(:mod:`dragonante.interfaces.trigger_hint`).
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option as ListOption

from dragonante.interfaces.narrate import Option, Prompt
from dragonante.interfaces.tui.cards import card_badge

#: The number keys, in the order of the answers they choose.
NUMBER_KEYS = "1234567890"


def option_renderable(index: int, option: Option, lang: str) -> RenderableType:
    """One answer as the list shows it: its number key, its label or card, its detail.

    The key stands in a column of its own, so a long label or detail (an
    ability's text) wraps under its own first word, never back under the key.
    """
    key = NUMBER_KEYS[index] if index < len(NUMBER_KEYS) else " "
    if option.card >= 0:
        label = card_badge(option.card, lang, option.triggers, label=option.label)
    else:
        label = Text(option.label)
    body: RenderableType = label
    if option.detail:
        body = Group(label, Text(option.detail, style="italic"))
    grid = Table.grid()
    grid.add_column(width=len(key) + 1, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(Text(key, style="bold"), body)
    return grid


class QuestionPanel(Vertical):
    """The prompt text and its answers; posts :class:`Answered` when one is chosen."""

    class Answered(Message):
        """The viewer chose an answer of the question ``decision_id``."""

        def __init__(self, answer: int, decision_id: int) -> None:
            super().__init__()
            self.answer = answer
            self.decision_id = decision_id

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.prompt: Prompt | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="question-text")
        yield OptionList(id="answers")
        yield Static(id="question-why")

    def show(self, prompt: Prompt | None, lang: str, waiting: str) -> None:
        """Show ``prompt`` (None: ``waiting`` says whose turn it is, no answers)."""
        same = (
            prompt is not None
            and self.prompt is not None
            and prompt.decision_id == self.prompt.decision_id
        )
        self.prompt = prompt
        self.query_one("#question-text", Static).update(
            Text(prompt.text if prompt else waiting, style="bold")
        )
        answers = self.query_one("#answers", OptionList)
        if same:
            return  # keep the highlighted answer where the viewer left it
        answers.set_options(
            [ListOption(option_renderable(i, o, lang)) for i, o in enumerate(prompt.options)]
            if prompt
            else []
        )
        if prompt:
            answers.highlighted = 0
            answers.focus()
        self._show_why()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show_why()

    def _show_why(self) -> None:
        """Why the highlighted card would trigger or not (nothing for other answers)."""
        option = self.highlighted_option()
        why = self.query_one("#question-why", Static)
        text = option.why if option is not None else ""
        why.update(Text(text, style="italic"))
        why.display = bool(text)

    def highlighted_option(self) -> Option | None:
        """The answer under the cursor (for the card text key)."""
        index = self.query_one("#answers", OptionList).highlighted
        if self.prompt is None or index is None or not 0 <= index < len(self.prompt.options):
            return None
        return self.prompt.options[index]

    def choose(self, index: int) -> bool:
        """Answer with the ``index``-th answer; False (nothing happens) if there is none."""
        if self.prompt is None or not 0 <= index < len(self.prompt.options):
            return False
        prompt = self.prompt
        self.prompt = None  # one answer per question, however fast the keys come
        self.post_message(self.Answered(prompt.options[index].answer, prompt.decision_id))
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(event.option_index)
