"""Typed events streamed by the service; the CLI and the Streamlit app only render these."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from agents.answer.model import Answer, AnswerKind


class NodeStarted(BaseModel):
    type: Literal["node_started"] = "node_started"
    node: str


class NodeFinished(BaseModel):
    type: Literal["node_finished"] = "node_finished"
    node: str
    ms: float | None = None  # wall time of the node, when the stream reported its start


class ToolCalled(BaseModel):
    type: Literal["tool_call"] = "tool_call"
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)


class ToolReturned(BaseModel):
    """A tool's result; a search carries its passages with the score of every ranking stage."""

    type: Literal["tool_result"] = "tool_result"
    tool: str
    status: str
    summary: str = ""
    args: dict[str, Any] = Field(default_factory=dict)
    hits: list[dict[str, Any]] = Field(default_factory=list)  # search: chunk, title, source, scores
    result: dict[str, Any] = Field(default_factory=dict)  # other tools: their JSON result
    ms: float | None = None  # search time, when measured


class GapAnalysed(BaseModel):
    """One round's gap analysis: what the evidence does not answer yet and the searches proposed."""

    type: Literal["gap_analysis"] = "gap_analysis"
    missing: list[str] = Field(default_factory=list)
    follow_up_queries: list[str] = Field(default_factory=list)
    ms: float | None = None


class CritiqueGiven(BaseModel):
    """One round's self-critique verdict: is the evidence enough to answer?"""

    type: Literal["critique"] = "critique"
    sufficient: bool
    reason: str = ""
    ms: float | None = None


class ModelCalled(BaseModel):
    """A node called the chat model; tokens are None when the provider does not report them."""

    type: Literal["model_call"] = "model_call"
    node: str
    calls: int = 1
    input_tokens: int | None = None
    output_tokens: int | None = None


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
    sources: list[dict[str, Any]] = Field(default_factory=list)  # one per cited source: number, title, url
    abstained: bool = False
    kind: AnswerKind = "answered"  # answered, partial or not_found
    model_calls: int = 0
    seconds: float = 0.0
    graph_overhead_ms: float = 0.0
    offline_model: bool = False
    trace: list[dict[str, Any]] = Field(default_factory=list)
    evidence: list[dict[str, Any]] = Field(default_factory=list)  # the cited passages: number, text, url
    passage_numbers: dict[str, int] = Field(default_factory=dict)  # chunk id -> evidence number, all passages
    reply: Answer = Field(default_factory=Answer)  # the typed answer: text, kind, numbered citations
    follow_ups: list[str] = Field(default_factory=list)  # questions to suggest next, in the reply language
    input_tokens: int | None = None  # None: the provider reported no usage
    output_tokens: int | None = None
    turn_id: str = ""  # the turn's row in the questions log (feedback refers to it); empty when not logged


ErrorKind = Literal[
    "empty_question", "question_too_long", "provider", "knowledge_base", "busy", "conversation_full", "other"
]


class ErrorOccurred(BaseModel):
    """A turn that could not be answered: one sentence, and its kind (the visitor page words it)."""

    type: Literal["error"] = "error"
    message: str
    kind: ErrorKind = "other"


AgentEvent = (
    NodeStarted
    | NodeFinished
    | ToolCalled
    | ToolReturned
    | GapAnalysed
    | CritiqueGiven
    | ModelCalled
    | AnswerToken
    | FinalAnswer
    | ErrorOccurred
)
