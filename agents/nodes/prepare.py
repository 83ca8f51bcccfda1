"""Start of a turn: the question, the reply language, and fresh per-turn fields."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import HumanMessage

from agents.language import reply_language
from agents.state import AgentState, turn_start
from agents.trace import PrepareStep, elapsed_ms

FOLLOW_UP_MAX_WORDS = 6


def prepare(state: AgentState) -> dict[str, Any]:
    """Read the latest visitor message; a short follow-up is completed with the previous question."""
    started = time.perf_counter()
    humans = [m for m in state.get("messages", []) if isinstance(m, HumanMessage)]
    message = humans[-1].text if humans else ""
    language = reply_language(message, state.get("language"))
    question = message
    if len(humans) > 1 and len(message.split()) <= FOLLOW_UP_MAX_WORDS:
        question = f"{humans[-2].text} {message}"
    step = PrepareStep(ms=elapsed_ms(started), language=language, question=question)
    return {**turn_start(step), "question": question, "language": language}
