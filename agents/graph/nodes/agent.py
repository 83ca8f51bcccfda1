"""The LLM with the tools bound decides which tools to call (several at once if needed)."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolCall

from agents.graph.deps import AgentDeps
from agents.graph.history_budget import within_budget
from agents.graph.prompts import language_name, render
from agents.graph.state import AgentState
from agents.graph.thread_rules import sendable
from agents.graph.trace import AgentStep, ToolCallRecord, elapsed_ms
from agents.models.provider_errors import ProviderError

CORRECTION = (
    "Your last reply could not be used: {problem}. Reply again: call the tools you need with "
    "arguments in valid JSON, or answer in plain text."
)


def capped_calls(calls: list[ToolCall], max_calls: int, searches_left: int) -> list[ToolCall]:
    """The tool calls of one reply that go beyond the caps: ``max_calls`` in all, and no more
    knowledge-base searches than the turn has left (a reply of 300 calls runs 8, not 300)."""
    kept: list[ToolCall] = []
    for call in calls:
        search = call["name"] == "search_knowledge_base"
        if len(kept) < max_calls and (not search or searches_left > 0):
            kept.append(call)
            searches_left -= search
    return [call for call in calls if call not in kept]


def misbehaviour(reply: BaseMessage) -> str:
    """What makes a reply unusable (tool arguments that are not valid JSON, nothing at all), or ""."""
    if isinstance(reply, AIMessage) and reply.invalid_tool_calls:
        return "the arguments of a tool call were not valid JSON"
    if not reply.text.strip() and not (isinstance(reply, AIMessage) and reply.tool_calls):
        return "it was empty"
    return ""


def usable_reply(model: Any, messages: list[BaseMessage]) -> tuple[AIMessage, int]:
    """The model's reply and the calls it took: an unusable one is asked once more with a short
    correction (never stored), then ends the turn with one sentence."""
    problem = ""
    for attempt in (1, 2):
        correction = [HumanMessage(CORRECTION.format(problem=problem))] if problem else []
        reply = model.invoke([*messages, *correction])
        problem = misbehaviour(reply)
        if not problem and isinstance(reply, AIMessage):
            return reply, attempt
    raise ProviderError(
        f"The model's reply could not be used twice ({problem}): ask again, or choose a model that "
        "supports tool calling with AGENT_MODEL.",
        provider="model",
        kind="malformed",
    )


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
        history = within_budget(sendable(state["messages"]), deps.history_full_turns, deps.history_max_tokens)
        reply, used = usable_reply(model, [SystemMessage(system), *history])
        calls = reply.tool_calls if isinstance(reply, AIMessage) else []
        dropped = capped_calls(calls, deps.max_tool_calls, deps.max_searches - len(state.get("queries", [])))
        if dropped and isinstance(reply, AIMessage):
            reply = reply.model_copy(update={"tool_calls": [c for c in calls if c not in dropped]})
            calls = reply.tool_calls
        step = AgentStep(
            ms=elapsed_ms(started),
            tool_calls=[ToolCallRecord(tool=c["name"], args=c["args"]) for c in calls],
            dropped_tool_calls=len(dropped) or None,
        )
        return {"messages": [reply], "model_calls": used, "trace": [step]}

    return agent
