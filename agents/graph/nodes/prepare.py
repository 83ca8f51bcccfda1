"""Start of a turn: the reply language, and fresh per-turn fields; how a model reads the turn is its own."""

from __future__ import annotations

import time
from typing import Any

from agents.answer.language import conversation_language
from agents.graph.state import AgentState, spent_artifacts, turn_start, visitor_messages
from agents.graph.trace import PrepareStep, elapsed_ms


def prepare(state: AgentState) -> dict[str, Any]:
    """The language to reply to the visitor's latest message in; the turn's fields emptied."""
    started, started_at = time.perf_counter(), time.time()
    language = conversation_language(visitor_messages(state.get("messages", [])))
    step = PrepareStep(ms=elapsed_ms(started), language=language)
    return {
        **turn_start(step, started_at),
        "messages": spent_artifacts(state.get("messages", [])),
        "language": language,
    }
