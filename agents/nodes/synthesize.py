"""The answer: in the visitor's language, citations checked against the evidence."""

from __future__ import annotations

import json
import time
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from agents.answer.compose import compose_answer
from agents.brief import Brief, briefed_system
from agents.deps import AgentDeps
from agents.evidence import rendered
from agents.prompts import language_name, render
from agents.schemas import tagged
from agents.state import AgentState
from agents.trace import AnswerStep, elapsed_ms


def _tool_results(state: AgentState) -> str:
    results = [json.dumps(r.for_model(), ensure_ascii=False) for r in state.get("tool_results", [])]
    return tagged("tool_results", "\n".join(results)) if results else ""


def finish(state: AgentState, text: str, started: float, node: str) -> dict[str, Any]:
    """The typed answer: citations checked and numbered per source; abstained when the knowledge
    base was searched and nothing was cited (and no tool answered)."""
    evidence = state.get("evidence", [])
    composed = compose_answer(text, evidence)
    abstained = bool(state.get("queries")) and not composed.cited and not state.get("tool_results")
    reply = composed.answer.model_copy(update={"kind": "not_found" if abstained else "answered"})
    step = AnswerStep(
        node="synthesize" if node == "synthesize" else "direct_reply",
        ms=elapsed_ms(started),
        cited=composed.cited,
        removed_citations=reply.removed_citations,
        abstained=abstained,
    )
    return {"messages": [AIMessage(reply.text)], "reply": reply, "trace": [step]}


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
        )
        reply = deps.llm.invoke([briefed_system(system, brief), HumanMessage(context)])
        return {**finish(state, reply.text, started, "synthesize"), "model_calls": 1}

    return synthesize


def direct_reply(state: AgentState) -> dict[str, Any]:
    """The agent answered without tools (a greeting, small talk): that reply is the answer."""
    started = time.perf_counter()
    result = finish(state, state["messages"][-1].text, started, "direct_reply")
    result.pop("messages")  # the reply is already in the conversation
    return result
