"""End of an answered turn: the question and its outcome written to the questions log, on every
door that keeps one (:mod:`agents.runtime.turn_graph`). A failed turn ends before it: not logged."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig

from agents.answer.model import Answer
from agents.graph.state import AgentState
from agents.insights.recording import logged_turn
from agents.insights.store import LoggedQuestion

RecordTurn = Callable[[LoggedQuestion], str]  # stores a turn, returns its id ("" when not stored)


def make_record(record: RecordTurn, model_name: str) -> Any:
    """Node factory: ``record`` keeps the turn (masked and failure-tolerant, see agents.insights)."""

    def record_turn(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        """Log the latest visitor message with the answer's kind, sources and missing parts."""
        humans = [m for m in state.get("messages", []) if isinstance(m, HumanMessage)]
        started_at = state.get("started_at") or time.time()
        turn = logged_turn(
            question=humans[-1].text.strip() if humans else "",
            thread_id=str(config.get("configurable", {}).get("thread_id", "")),
            reply=state.get("reply") or Answer(),
            language=state.get("language", ""),
            gaps=state.get("gaps", []),
            model=model_name,
            latency_ms=(time.time() - started_at) * 1000,
        )
        return {"turn_id": record(turn)}

    return record_turn
