"""How large each model call of a long conversation is, with and without the history budget (issue 38).

The real graph answers a 50-turn conversation. A scripted model stands in for the LLM (it searches
once, finds nothing missing, answers in about 700 characters); each turn's search returns five
passages of 1,000 characters, the size of the bundled index's widened chunks. For every call the
request body is built as ``ChatOpenAI`` would send it (messages and tool schemas, OpenAI wire
format), and its size recorded. Tokens are estimated as bytes / 3, a conservative rate for JSON of
French and English text (about 3.5-4 characters a token on OpenAI's and Mistral's tokenizers).

Run: ``python -m benchmarks.prompt_budget`` (``--turns 50``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
from typing import Any

import numpy as np
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from benchmarks._common import save_result
from rag.passage import Passage

logger = logging.getLogger(__name__)
ANSWER = (
    "The palace opens in the morning and closes in the evening; the gardens stay open longer [1]. " * 8
).strip()
PASSAGE = (
    "Le château est ouvert tous les jours sauf le lundi; les jardins ferment au coucher du soleil. " * 11
)


class RecordingModel(BaseChatModel):
    """Scripted turns (search, nothing missing, an answer); records each call's request size."""

    calls: list[tuple[str, int]] = Field(default_factory=list)  # (node, request bytes)

    @property
    def _llm_type(self) -> str:
        return "recording"

    def bind_tools(self, tools: Any, tool_choice: Any = None, **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools], **kwargs)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        from langchain_openai.chat_models.base import _convert_message_to_dict

        node = str((run_manager.metadata if run_manager else {}).get("langgraph_node", ""))
        body = {"model": "gpt-4o-mini", "messages": [_convert_message_to_dict(m) for m in messages]}
        if kwargs.get("tools"):
            body["tools"] = kwargs["tools"]
        self.calls.append((node, len(json.dumps(body, ensure_ascii=False).encode())))
        return ChatResult(generations=[ChatGeneration(message=self._reply(node, len(self.calls)))])

    def _reply(self, node: str, number: int) -> AIMessage:
        if node == "agent":
            call = {"name": "search_knowledge_base", "args": {"query": "horaires"}, "id": f"call{number:05d}"}
            return AIMessage("", tool_calls=[{**call, "type": "tool_call"}])
        if node == "gap_analysis":
            gap = {"answered": ["hours"], "missing": [], "follow_up_queries": []}
            return AIMessage("", tool_calls=[{"name": "GapAnalysis", "args": gap, "id": f"gap{number:05d}"}])
        return AIMessage(ANSWER)


class FivePassages:
    """A knowledge base answering every query with five passages of 1,000 characters."""

    languages = ("fr",)

    def __init__(self) -> None:
        self.searches = 0

    def search(self, query: str, k: int = 5) -> list[Passage]:
        self.searches += 1
        return [
            Passage(
                chunk_id=f"{self.searches}-{i}", text=PASSAGE[:1000], title="Horaires", source="https://x.fr"
            )
            for i in range(k)
        ]


def conversation(turns: int, full_turns: int, max_tokens: int) -> list[dict[str, int]]:
    """Per turn: the tool-choosing call's size and the largest call's size, in bytes."""
    from langgraph.checkpoint.memory import InMemorySaver

    from agents.conversations.checkpoints import state_serializer
    from agents.graph.builder import build_graph
    from agents.graph.deps import AgentDeps
    from agents.runtime.tool_catalog import VisitorTools
    from agents.tools.knowledge_base import build_knowledge_base_tool, search_knowledge_base

    model, searcher = RecordingModel(), FivePassages()
    deps = AgentDeps(
        llm=model,
        tools=[build_knowledge_base_tool(searcher), *VisitorTools().tools],
        search=lambda query: search_knowledge_base(searcher, query),
        embed=lambda texts: np.eye(len(texts), 8, dtype=np.float32),
        rewrite_unverified=False,
        history_full_turns=full_turns,
        history_max_tokens=max_tokens,
    )
    graph = build_graph(deps, InMemorySaver(serde=state_serializer()))
    rows = []
    for number in range(1, turns + 1):
        first = len(model.calls)
        config = {"configurable": {"thread_id": "bench"}, "recursion_limit": 25}
        graph.invoke({"messages": [HumanMessage(f"Question {number}: quels sont les horaires ?")]}, config)
        sizes = dict(model.calls[first:])  # node -> bytes (one call per node here)
        rows.append({"turn": number, "agent": sizes["agent"], "largest": max(sizes.values())})
    return rows


def summary(rows: list[dict[str, int]]) -> dict[str, Any]:
    at = {row["turn"]: row for row in rows}
    largest = max(row["largest"] for row in rows)
    return {
        "agent_bytes": {turn: at[turn]["agent"] for turn in (1, 2, 10, 20, 50) if turn in at},
        "turn_20_over_turn_2": round(at[20]["agent"] / at[2]["agent"], 2) if 20 in at else None,
        "largest_call_bytes": largest,
        "largest_call_tokens_estimate": largest // 3,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=50)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    os.environ.setdefault("TOOLS_OFFLINE", "true")
    results = {
        "budget (1 full turn, 4000 tokens)": summary(conversation(args.turns, 1, 4000)),
        "everything sent (before issue 38)": summary(conversation(args.turns, args.turns, 10_000_000)),
    }
    for name, figures in results.items():
        logger.info("%s: %s", name, json.dumps(figures))
    logger.info("saved to %s", save_result("prompt_budget", results))


if __name__ == "__main__":
    main()
