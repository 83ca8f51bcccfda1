"""What the nodes need, built once per service and passed to the node factories."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from agents.tools.knowledge_base import KnowledgeBaseResult

Embed = Callable[[Sequence[str]], np.ndarray]
Search = Callable[[str], KnowledgeBaseResult]


@dataclass
class AgentDeps:
    """The chat model, the tools, direct knowledge-base search and query embedding."""

    llm: BaseChatModel
    tools: list[BaseTool]
    search: Search
    embed: Embed
    kb_language: str = "fr"
    max_rounds: int = 3
    duplicate_query_threshold: float = 0.85
    max_tool_calls: int = 8  # per model reply
    max_searches: int = 12  # per turn, the agent's and the follow-ups' together
    history_full_turns: int = 1  # earlier turns the tool-choosing model sees whole (tool results included)
    history_max_tokens: int = 4000  # the conversation it sees, at most (approximate tokens)
    rewrite_unverified: bool = True  # ask the model once to rewrite an answer whose values fail the check
