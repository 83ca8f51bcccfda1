"""What a node hands its model besides the prompt: the question and what the turn has gathered.

Every model gets the same user message: its text is the context rendered once (the visitor's earlier
questions, their latest message and the reply language, tagged; the queries run, the numbered
evidence, the tools' results, the aspects still missing), and its ``artifact`` is that context
typed, as a tool message's artifact is its result typed. The provider clients send a user message's
content only (tested); a model that reads data (the offline one) reads the artifact, which says
nothing the text does not.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from langchain_core.messages import BaseMessage, HumanMessage
from pydantic import BaseModel, Field

from agents.graph.evidence import cited_by_number, rendered
from agents.graph.schemas import tagged
from agents.graph.state import AgentState, visitor_messages
from agents.tools.results import ToolOutcome
from rag.passage import Passage


class Gathered(BaseModel):
    """The visitor's question, as they wrote it, and what the graph has gathered for it."""

    question: str = ""  # the visitor's latest message
    # All it asks, when a model reads ``question`` as a part of it (the knowledge base's parts): the
    # message whole, or a follow-up completed. What a line stated in bold must account for.
    whole_question: str = ""
    earlier: list[str] = Field(default_factory=list)  # their earlier messages, oldest first
    language: str = ""  # the reply language
    queries: list[str] = Field(default_factory=list)  # the knowledge-base queries run this turn
    evidence: list[Passage] = Field(default_factory=list)  # numbered passages (AgentState)
    tool_results: list[ToolOutcome] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)  # aspects the gap analysis found missing

    @classmethod
    def of(cls, state: AgentState, missing: bool = False) -> Gathered:
        """What ``state`` has gathered; with the gap analysis' ``missing`` aspects when asked."""
        said = visitor_messages(state.get("messages", []))
        return cls(
            question=said[-1] if said else "",
            earlier=said[:-1],
            language=state.get("language", ""),
            queries=state.get("queries", []),
            evidence=state.get("evidence", []),
            tool_results=state.get("tool_results", []),
            missing=state.get("gaps", []) if missing else [],
        )

    def text(self) -> str:
        """The context as every model reads it; a tool's facts cite passages by evidence number."""
        numbers = {p.chunk_id: p.number for p in self.evidence if p.number is not None}
        results = [
            json.dumps(cited_by_number(r.for_model(), numbers), ensure_ascii=False) for r in self.tool_results
        ]
        parts = (
            tagged("earlier_questions", "\n".join(self.earlier)) if self.earlier else "",
            tagged("question", self.question),
            tagged("language", self.language),
            tagged("queries_run", "; ".join(self.queries)) if self.queries else "",
            rendered(self.evidence) if self.evidence else "",
            tagged("tool_results", "\n".join(results)) if results else "",
            tagged("missing_aspects", "; ".join(self.missing)) if self.missing else "",
        )
        return "\n".join(part for part in parts if part)


class GatheredMessage(HumanMessage):
    """A user message whose content is ``artifact`` rendered; clients send the content alone."""

    artifact: Gathered


def gathered_message(gathered: Gathered) -> GatheredMessage:
    """The user message handing ``gathered`` to a model."""
    return GatheredMessage(content=gathered.text(), artifact=gathered)


def read_gathered(messages: Sequence[BaseMessage]) -> Gathered | None:
    """The context handed in ``messages``, or None (the agent's call, or a caller outside the graph)."""
    return next((m.artifact for m in messages if isinstance(m, GatheredMessage)), None)
