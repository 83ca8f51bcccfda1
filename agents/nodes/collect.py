"""After the tools ran: knowledge-base passages join the evidence, other results are kept aside."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from agents.deps import trace_event
from agents.evidence import knowledge_base_result, merge_evidence, parse_tool_result
from agents.state import AgentState


def collect(state: AgentState) -> dict[str, Any]:
    """Read this turn's tool messages into evidence, queries and tool results."""
    started = time.perf_counter()
    messages = state["messages"]
    last_human = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    turn = messages[last_human + 1 :]
    arguments = {c["id"]: c["args"] for m in turn if isinstance(m, AIMessage) for c in m.tool_calls}
    evidence, queries = list(state.get("evidence", [])), list(state.get("queries", []))
    tool_results = list(state.get("tool_results", []))
    summaries = []
    for message in turn:
        if not isinstance(message, ToolMessage):
            continue
        content = str(message.content)
        kb = knowledge_base_result(message) if message.name == "search_knowledge_base" else None
        if kb is not None:
            queries.append(kb.query)
            evidence = merge_evidence(evidence, kb.hits)
            summaries.append({"tool": message.name, "status": kb.status, "hits": len(kb.hits)})
            continue
        result = parse_tool_result(content) or {"status": "error", "summary": content}
        tool_results.append({"tool": message.name, "args": arguments.get(message.tool_call_id, {}), **result})
        summaries.append({"tool": message.name, "status": result.get("status", "ok")})
    return {
        "evidence": evidence,
        "queries": queries,
        "tool_results": tool_results,
        "round": state.get("round", 0) + 1,
        "trace": [*state.get("trace", []), trace_event("collect", started, results=summaries)],
    }
