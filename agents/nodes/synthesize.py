"""The answer: in the visitor's language, citations checked against the evidence."""

from __future__ import annotations

import json
import time
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from agents.brief import Brief, briefed_system
from agents.citations import check_citations
from agents.deps import AgentDeps, trace_event
from agents.evidence import rendered
from agents.prompts import language_name, render
from agents.schemas import tagged
from agents.state import AgentState


def _tool_results(state: AgentState) -> str:
    results = [json.dumps(r, ensure_ascii=False) for r in state.get("tool_results", [])]
    return tagged("tool_results", "\n".join(results)) if results else ""


def finish(state: AgentState, text: str, started: float, node: str, calls: int) -> dict[str, Any]:
    """Check citations, list the cited sources and decide whether the agent abstained."""
    evidence = {entry["number"]: entry for entry in state.get("evidence", [])}
    check = check_citations(text, evidence)
    sources = [
        {"number": n, "title": evidence[n]["title"], "url": evidence[n]["source"]} for n in check.cited
    ]
    searched = bool(state.get("queries"))
    abstained = searched and not check.cited and not state.get("tool_results")
    event = trace_event(
        node, started, cited=check.cited, removed_citations=check.removed, abstained=abstained
    )
    return {
        "messages": [AIMessage(check.text)],
        "answer": check.text,
        "citations": check.cited,
        "sources": sources,
        "abstained": abstained,
        "model_calls": calls,
        "trace": [*state.get("trace", []), event],
    }


def make_synthesize(deps: AgentDeps) -> Any:
    """Node factory: one model call writing the cited answer."""

    def synthesize(state: AgentState) -> dict[str, Any]:
        started = time.perf_counter()
        system = render("synthesize", language=language_name(state.get("language", "")))
        context = "\n".join(
            part
            for part in (
                tagged("question", state.get("question", "")),
                tagged("language", state.get("language", "")),
                rendered(state.get("evidence", [])) if state.get("evidence") else "",
                _tool_results(state),
            )
            if part
        )
        brief = Brief(
            node="synthesize",
            question=state.get("question", ""),
            language=state.get("language", ""),
            kb_language=deps.kb_language,
            evidence=state.get("evidence", []),
            tool_results=state.get("tool_results", []),
            request=state.get("request"),
        )
        reply = deps.llm.invoke([briefed_system(system, brief), HumanMessage(context)])
        return finish(state, reply.text, started, "synthesize", state.get("model_calls", 0) + 1)

    return synthesize


def direct_reply(state: AgentState) -> dict[str, Any]:
    """The agent answered without tools (a greeting, small talk): that reply is the answer."""
    started = time.perf_counter()
    last = state["messages"][-1]
    result = finish(state, last.text, started, "direct_reply", state.get("model_calls", 0))
    result.pop("messages")  # the reply is already in the conversation
    return result
