"""Start of a turn: the standalone question and the reply language, and fresh per-turn fields."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import HumanMessage

from agents.graph.deps import AgentDeps
from agents.graph.state import AgentState, spent_artifacts, turn_start
from agents.graph.trace import PrepareStep, elapsed_ms
from agents.reading.intent import intent_index
from agents.reading.read import read_conversation


def make_prepare(deps: AgentDeps) -> Any:
    """Node factory: the turns are read by meaning with the knowledge base's query embedder."""

    def prepare(state: AgentState) -> dict[str, Any]:
        """Read the latest visitor message, completed from the turns before it when elliptical."""
        started, started_at = time.perf_counter(), time.time()
        humans = [m.text for m in state.get("messages", []) if isinstance(m, HumanMessage)]
        request = read_conversation(humans, intent_index(deps.embed))
        step = PrepareStep(ms=elapsed_ms(started), language=request.language, question=request.question)
        return {
            **turn_start(step, started_at),
            "messages": spent_artifacts(state.get("messages", [])),
            "question": request.question,
            "language": request.language,
        }

    return prepare
