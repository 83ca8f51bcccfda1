"""What each node did in a turn, as typed steps: the operator's trace, never a routing signal."""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from agents.answer.model import CheckedValue
from agents.tools.knowledge_base import KnowledgeBaseResult


class Step(BaseModel):
    """A node's step: its name and how long it took."""

    ms: float = 0.0

    def dumped(self) -> dict[str, Any]:
        """The step as ``--json`` and the console show it (empty extras left out)."""
        return self.model_dump(exclude_none=True)


class PrepareStep(Step):
    node: Literal["prepare"] = "prepare"
    language: str = ""  # the reply language


class ToolCallRecord(BaseModel):
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)


class AgentStep(Step):
    node: Literal["agent"] = "agent"
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    dropped_tool_calls: int | None = None  # calls beyond the caps, when any


class ToolSummary(BaseModel):
    tool: str
    status: str
    hits: int | None = None


class CollectStep(Step):
    node: Literal["collect"] = "collect"
    results: list[ToolSummary] = Field(default_factory=list)


class GapStep(Step):
    node: Literal["gap_analysis"] = "gap_analysis"
    missing: list[str] = Field(default_factory=list)
    follow_up_queries: list[str] = Field(default_factory=list)


class CritiqueStep(Step):
    node: Literal["self_critique"] = "self_critique"
    sufficient: bool = False
    reason: str = ""


class FollowUpStep(Step):
    node: Literal["follow_up"] = "follow_up"
    queries: list[str] = Field(default_factory=list)
    dropped_as_duplicates: list[str] = Field(default_factory=list)
    dropped_over_the_search_cap: list[str] | None = None
    # The searches themselves: streamed as tool results like the tool's own, left out of the JSON.
    searches: list[KnowledgeBaseResult] = Field(default_factory=list, exclude=True)


class AnswerStep(Step):
    node: Literal["synthesize", "direct_reply"] = "synthesize"
    cited: list[int] = Field(default_factory=list)
    removed_citations: list[int] = Field(default_factory=list)
    abstained: bool = False
    values: list[CheckedValue] = Field(default_factory=list)  # each stated value and where it was found
    removed_sentences: list[str] = Field(default_factory=list)


TraceStep = Annotated[
    PrepareStep | AgentStep | CollectStep | GapStep | CritiqueStep | FollowUpStep | AnswerStep,
    Field(discriminator="node"),
]


def elapsed_ms(started: float) -> float:
    """Milliseconds since ``started`` (``time.perf_counter()``), rounded for the trace."""
    return round((time.perf_counter() - started) * 1000, 1)


def tools_called(trace: list[TraceStep]) -> list[str]:
    """Names of the tools a turn called, in order (follow-up searches included)."""
    names: list[str] = []
    for step in trace:
        if isinstance(step, AgentStep):
            names.extend(call.tool for call in step.tool_calls)
        elif isinstance(step, FollowUpStep):
            names.extend("search_knowledge_base" for _ in step.queries)
    return names
