"""What a node hands its model besides the prompt: the state it already holds, as data.

A real LLM reads the rendered prompt. The offline model reads this brief instead, so it never
parses another module's prompt layout. The brief rides on the node's system message in
``additional_kwargs``, which the Mistral and OpenAI clients do not send (tested), and which is
never stored in the conversation: the system message is built for one call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from langchain_core.messages import BaseMessage, SystemMessage
from pydantic import BaseModel, Field

from agents.reading.request import TurnRequest
from agents.tool_results import ToolOutcome
from rag.passage import Passage

BRIEF_KEY = "agent_brief"
Node = Literal["agent", "gap_analysis", "self_critique", "synthesize"]


class Brief(BaseModel):
    """The question of the turn and what the graph has gathered for it."""

    node: Node
    question: str = ""
    language: str = ""
    kb_language: str = "fr"
    evidence: list[Passage] = Field(default_factory=list)  # numbered passages (AgentState)
    tool_results: list[ToolOutcome] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)  # aspects the gap analysis found missing
    request: TurnRequest | None = None  # the turn as read by the prepare node (agents.reading)


def briefed_system(prompt: str, brief: Brief) -> SystemMessage:
    """The node's system message carrying ``brief``."""
    return SystemMessage(prompt, additional_kwargs={BRIEF_KEY: brief.model_dump(mode="json")})


def read_brief(messages: Sequence[BaseMessage]) -> Brief | None:
    """The brief of the first message that carries one, or None (a caller outside the graph)."""
    for message in messages:
        if isinstance(data := message.additional_kwargs.get(BRIEF_KEY), dict):
            return Brief.model_validate(data)
    return None
