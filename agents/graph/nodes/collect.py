"""After the tools ran: knowledge-base passages, and the excerpts other tools cite, join the evidence;
other results are kept aside."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from agents.graph.evidence import knowledge_base_result, tool_outcome
from agents.graph.state import AgentState
from agents.graph.trace import CollectStep, ToolSummary, elapsed_ms


def collect(state: AgentState) -> dict[str, Any]:
    """Read this turn's tool messages into new passages, queries and tool results."""
    started = time.perf_counter()
    messages = state["messages"]
    last_human = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    turn = messages[last_human + 1 :]
    arguments = {c["id"]: c["args"] for m in turn if isinstance(m, AIMessage) for c in m.tool_calls}
    passages, queries, outcomes, summaries = [], [], [], []
    for message in turn:
        if not isinstance(message, ToolMessage):
            continue
        kb = knowledge_base_result(message) if message.name == "search_knowledge_base" else None
        if kb is not None:
            queries.append(kb.query)
            passages.extend(kb.hits)
            summaries.append(ToolSummary(tool=str(message.name), status=kb.status, hits=len(kb.hits)))
            continue
        outcome = tool_outcome(message, arguments.get(message.tool_call_id, {}))
        outcomes.append(outcome)
        if outcome.status == "ok":  # the excerpts a tool's facts are cited from
            passages.extend(outcome.passages)
        summaries.append(ToolSummary(tool=outcome.tool, status=outcome.status))
    return {
        "evidence": passages,
        "queries": queries,
        "tool_results": outcomes,
        "round": 1,
        "trace": [CollectStep(ms=elapsed_ms(started), results=summaries)],
    }
