"""Typed events streamed by the service; the CLI and the Streamlit app only render these."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agents.answer.model import Answer, AnswerKind
from rag.passage import Passage


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
    hits: list[Passage] = Field(default_factory=list)  # search: the passages, scores rounded, unnumbered
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
    """The turn's outcome: the typed answer, and what the turn measured beside it. Views of the
    answer (its text, kind, sources, cited passages) are read from ``reply``, never copied beside
    it; ``agents.evaluation.ask_json`` lays them flat for ``python -m agents ask --json``."""

    model_config = ConfigDict(extra="forbid")  # a view given as a field would be dropped silently

    type: Literal["final_answer"] = "final_answer"
    reply: Answer = Field(default_factory=Answer)  # the typed answer: text, kind, numbered citations
    language: str
    tools: list[str] = Field(default_factory=list)
    model_calls: int = 0
    seconds: float = 0.0
    graph_overhead_ms: float = 0.0
    offline_model: bool = False
    trace: list[dict[str, Any]] = Field(default_factory=list)
    passage_numbers: dict[str, int] = Field(default_factory=dict)  # chunk id -> evidence number, all passages
    follow_ups: list[str] = Field(default_factory=list)  # questions to suggest next, in the reply language
    input_tokens: int | None = None  # None: the provider reported no usage
    output_tokens: int | None = None
    turn_id: str = ""  # the turn's row in the questions log (feedback refers to it); empty when not logged

    @property
    def answer(self) -> str:
        """The answer's text."""
        return self.reply.text

    @property
    def kind(self) -> AnswerKind:
        """answered, partial or not_found."""
        return self.reply.kind

    @property
    def abstained(self) -> bool:
        """The knowledge base was searched and the answer says it does not tell."""
        return self.reply.abstained

    @property
    def citations(self) -> list[int]:
        """The numbers the answer shows, in the order first cited."""
        return [citation.number for citation in self.reply.citations]


ErrorKind = Literal[
    "empty_question", "question_too_long", "provider", "knowledge_base", "busy", "conversation_full", "other"
]


class ErrorOccurred(BaseModel):
    """A turn that could not be answered: one sentence, and its kind (the visitor page words it)."""

    type: Literal["error"] = "error"
    message: str
    kind: ErrorKind = "other"


class PastTurn(BaseModel):
    """A finished turn read back from a stored conversation: its question and its answer as first
    shown (sources where still stored, its follow-ups, and its row in the questions log)."""

    question: str
    final: FinalAnswer


class StoredConversation(BaseModel):
    """A conversation read back for a reloaded page: its turns, oldest first, and the verdicts its
    visitor already gave (``{turn id: "helpful" | "not_helpful" | "sent"}``)."""

    turns: list[PastTurn] = Field(default_factory=list)
    verdicts: dict[str, str] = Field(default_factory=dict)


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
