"""The seat of a language-model agent: the table as text, answers in words.

The implementation is :mod:`dragonante.interfaces.text` (it needs nothing
beyond the player's install, so an agent without the ``agents`` extra imports
it from there); it is re-exported here beside the learning environments.
See ``docs/agents.md`` ("Text agents").
"""

from dragonante.interfaces.text import (
    LISTED_ANSWER,
    NotAnAnswer,
    Respond,
    TextAgentGaveUp,
    TextAnswer,
    TextBot,
    TextSeat,
    answer_words,
    fold,
    prompt_answers,
    read_answer,
    text_answers,
    turn_text,
)

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
