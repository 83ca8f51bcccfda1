"""Whether a turn may start: the question shows something and is not too long, and the conversation
has room for it. Every door asks here (the visitor page and the CLI through ``AgentService``, the
served API in its front door), so each rule and its sentence live in one place.

A refusal is a :class:`Refusal`: a ``kind`` a page words in the visitor's language, and one English
sentence for the CLI and the API's body.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from agents.graph.thread_rules import questions_asked

MAX_QUESTION_CHARS = 4000
# Letters that draw nothing (Hangul fillers, the blank Braille pattern), beside the categories below.
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


@dataclass(frozen=True)
class Refusal:
    """Why a turn does not start."""

    kind: Literal["empty_question", "question_too_long", "conversation_full"]
    message: str


def is_blank(question: str) -> bool:
    """Whether ``question`` shows nothing: only spaces, control and format characters (zero-width
    spaces and joiners, U+2060, U+FEFF, bidi marks) or letters that draw nothing."""
    return all(
        unicodedata.category(char)[0] in "CZ" or char in INVISIBLE_LETTERS or char.isspace()
        for char in question
    )


def question_refusal(question: str) -> Refusal | None:
    """Why ``question`` cannot be asked as it is, or None when it can."""
    if is_blank(question):
        return Refusal("empty_question", "The question is empty: type a question about your visit.")
    length = len(question.strip())
    if length > MAX_QUESTION_CHARS:
        return Refusal(
            "question_too_long",
            f"The question is too long ({length} characters; at most {MAX_QUESTION_CHARS}). "
            "Shorten it or split it into several questions.",
        )
    return None


def conversation_refusal(messages: Sequence[object], cap: int) -> Refusal | None:
    """A conversation holding ``cap`` questions (``AGENT_MAX_TURNS_PER_CONVERSATION``; a failed turn's
    question counts, it is kept) takes no more: the visitor goes on in a new one."""
    if questions_asked(messages) < cap:
        return None
    return Refusal(
        "conversation_full",
        f"This conversation has reached its limit of {cap} questions: "
        "start a new conversation and ask there.",
    )
