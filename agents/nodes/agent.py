"""The LLM with the tools bound decides which tools to call (several at once if needed)."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import AIMessage

from agents.brief import Brief, briefed_system
from agents.deps import AgentDeps, trace_event
from agents.prompts import language_name, render
from agents.state import AgentState


def make_agent(deps: AgentDeps) -> Any:
    """Node factory: one model call with the conversation and the tools."""
    model = deps.llm.bind_tools(deps.tools)

    def agent(state: AgentState) -> dict[str, Any]:
        started = time.perf_counter()
        system = render(
            "agent",
            language=language_name(state.get("language", "")),
            language_code=state.get("language", "") or "en",
            kb_language=language_name(deps.kb_language),
        )
        brief = Brief(
            node="agent",
            question=state.get("question", ""),
            language=state.get("language", ""),
            kb_language=deps.kb_language,
        )
        reply = model.invoke([briefed_system(system, brief), *state["messages"]])
        calls = reply.tool_calls if isinstance(reply, AIMessage) else []
        event = trace_event(
            "agent", started, tool_calls=[{"tool": c["name"], "args": c["args"]} for c in calls]
        )
        return {
            "messages": [reply],
            "model_calls": state.get("model_calls", 0) + 1,
            "trace": [*state.get("trace", []), event],
        }

    return agent
