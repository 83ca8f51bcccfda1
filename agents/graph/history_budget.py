"""What of the conversation the tool-choosing model sees: recent turns whole, older ones condensed.

Every knowledge-base turn leaves its retrieved passages in the thread (several kilobytes). Sent
again at every turn they grow the prompt without bound, so older turns are shown as their
question and answer only (a follow-up referring back still finds what was said), and the whole
is trimmed to a token budget with LangChain's ``trim_messages``. The checkpoint keeps everything.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AnyMessage, BaseMessage, trim_messages
from langchain_core.messages.utils import count_tokens_approximately

from agents.graph.thread_rules import is_answer, split_turns


def condensed(turns: Sequence[Sequence[AnyMessage]], full_turns: int) -> list[AnyMessage]:
    """The last ``full_turns`` turns (the one being answered included) as they are; older ones as
    their question and last answer."""
    cut = max(len(turns) - full_turns, 0)
    kept: list[AnyMessage] = []
    for turn in turns[:cut]:
        answers = [message for message in turn if is_answer(message)]
        kept.extend([turn[0], *answers[-1:]])
    return kept + [message for turn in turns[cut:] for message in turn]


def within_budget(messages: Sequence[AnyMessage], full_turns: int, max_tokens: int) -> list[BaseMessage]:
    """``messages`` (already :func:`~agents.graph.thread_rules.sendable`) condensed, then its newest turns
    that fit ``max_tokens`` (approximate count); it always starts on a visitor message."""
    shown: list[BaseMessage] = list(condensed(split_turns(messages), full_turns + 1))
    trimmed = trim_messages(
        shown,
        max_tokens=max_tokens,
        token_counter=count_tokens_approximately,
        strategy="last",
        start_on="human",
        allow_partial=False,
    )
    return trimmed or shown[-1:]
