"""The graph's state: one conversation thread, checkpointed per thread id."""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages


class AgentState(TypedDict, total=False):
    """Everything a turn reads and writes; turn fields are reset when a new question arrives."""

    messages: Annotated[list[AnyMessage], add_messages]
    question: str  # the visitor's question, made standalone when it is a short follow-up
    request: dict[str, Any]  # the turn read (agents.reading.request.TurnRequest.model_dump())
    language: str  # reply language (ISO 639-1)
    queries: list[str]  # every knowledge-base query run this turn
    evidence: list[dict[str, Any]]  # passages, de-duplicated by chunk id, numbered from 1, stable
    tool_results: list[dict[str, Any]]  # weather / travel results this turn
    gaps: list[str]  # aspects the evidence does not answer yet
    follow_ups: list[str]  # queries proposed by gap analysis, not yet run
    critiques: list[dict[str, Any]]  # verdicts of self-critique: sufficient, reason
    round: int  # retrieval rounds done this turn
    trace: list[dict[str, Any]]  # events: node, tool, arguments, result summary, timing
    model_calls: int  # LLM calls this turn
    answer: str
    citations: list[int]
    sources: list[dict[str, Any]]
    abstained: bool


TURN_DEFAULTS: dict[str, Any] = {
    "queries": [],
    "evidence": [],
    "tool_results": [],
    "gaps": [],
    "follow_ups": [],
    "critiques": [],
    "round": 0,
    "trace": [],
    "model_calls": 0,
    "answer": "",
    "citations": [],
    "sources": [],
    "abstained": False,
}
