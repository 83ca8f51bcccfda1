"""Typed events streamed by the service; the CLI and the Streamlit app only render these."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class NodeStarted(BaseModel):
    type: Literal["node_started"] = "node_started"
    node: str


class NodeFinished(BaseModel):
    type: Literal["node_finished"] = "node_finished"
    node: str


class ToolCalled(BaseModel):
    type: Literal["tool_call"] = "tool_call"
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)


class ToolReturned(BaseModel):
    type: Literal["tool_result"] = "tool_result"
    tool: str
    status: str
    summary: str = ""


class AnswerToken(BaseModel):
    type: Literal["answer_token"] = "answer_token"
    text: str


class FinalAnswer(BaseModel):
    """The turn's outcome: the fields of ``python -m agents ask --json``."""

    type: Literal["final_answer"] = "final_answer"
    answer: str
    language: str
    tools: list[str] = Field(default_factory=list)
    citations: list[int] = Field(default_factory=list)
    sources: list[dict[str, Any]] = Field(default_factory=list)
    abstained: bool = False
    model_calls: int = 0
    seconds: float = 0.0
    graph_overhead_ms: float = 0.0
    offline_model: bool = False
    trace: list[dict[str, Any]] = Field(default_factory=list)


class ErrorOccurred(BaseModel):
    type: Literal["error"] = "error"
    message: str


AgentEvent = (
    NodeStarted | NodeFinished | ToolCalled | ToolReturned | AnswerToken | FinalAnswer | ErrorOccurred
)
