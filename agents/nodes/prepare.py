"""Start of a turn: the question, the reply language, and fresh per-turn fields."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import HumanMessage

from agents.deps import trace_event
from agents.language import reply_language
from agents.state import TURN_DEFAULTS, AgentState

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
    return {
        **TURN_DEFAULTS,
        "question": question,
        "language": language,
        "trace": [trace_event("prepare", started, language=language, question=question)],
    }
