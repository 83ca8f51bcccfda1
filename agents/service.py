"""The one facade the CLI and the UI call: stream typed events for a question on a thread."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessageChunk, HumanMessage

from agents.config import AgentSettings
from agents.deps import AgentDeps
from agents.events import (
    AgentEvent,
    AnswerToken,
    ErrorOccurred,
    FinalAnswer,
    NodeFinished,
    NodeStarted,
    ToolCalled,
    ToolReturned,
)
from agents.graph import build_graph
from agents.llm import ProviderError, build_chat_model
from agents.tools.knowledge_base import build_knowledge_base_tool, search_knowledge_base
from agents.tools.pending import pending_tools
from rag.config import RagSettings
from rag.retriever import HybridRetriever

logger = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 4000


def tools_called(trace: list[dict[str, Any]]) -> list[str]:
    """Names of the tools called this turn, in order (follow-up searches included)."""
    names: list[str] = []
    for event in trace:
        if event.get("node") == "agent":
            names.extend(call["tool"] for call in event.get("tool_calls", []))
        elif event.get("node") == "follow_up":
            names.extend("search_knowledge_base" for _ in event.get("queries", []))
    return names


def _offline_model(settings: AgentSettings) -> BaseChatModel:
    from agents.offline_model import OfflineChatModel

    return OfflineChatModel()


class AgentService:
    """Builds the model, tools, retriever and checkpointer once; answers many threads."""

    def __init__(
        self,
        settings: AgentSettings | None = None,
        rag_settings: RagSettings | None = None,
        llm: BaseChatModel | None = None,
        retriever: HybridRetriever | None = None,
        checkpointer: Any = None,
    ) -> None:
        self.settings = settings or AgentSettings()
        self.retriever = retriever or HybridRetriever(rag_settings)
        self.llm = llm or build_chat_model(self.settings, offline_factory=_offline_model)
        self.offline = llm is None and self.settings.resolved_provider == "offline"
        self.model_name = "offline-extractive" if self.offline else self.settings.resolved_model
        retriever_ = self.retriever
        deps = AgentDeps(
            llm=self.llm,
            tools=[build_knowledge_base_tool(retriever_), *pending_tools()],
            search=lambda query: search_knowledge_base(retriever_, query),
            embed=retriever_.embedder.embed_documents,
            kb_language=(retriever_.languages or ["fr"])[0],
            max_rounds=self.settings.max_rounds,
            duplicate_query_threshold=self.settings.duplicate_query_threshold,
        )
        self.graph = build_graph(deps, checkpointer if checkpointer is not None else self._sqlite_saver())

    def _sqlite_saver(self) -> Any:
        from langgraph.checkpoint.sqlite import SqliteSaver

        path = self.settings.checkpoint_path
        path.parent.mkdir(parents=True, exist_ok=True)
        return SqliteSaver(sqlite3.connect(str(path), check_same_thread=False))

    def stream(self, question: str, thread_id: str = "default") -> Iterator[AgentEvent]:
        """Events of one turn: nodes, tool calls and results, answer tokens, then the answer."""
        question = question.strip()
        if not question:
            yield ErrorOccurred(message="The question is empty: type a question about your visit.")
            return
        if len(question) > MAX_QUESTION_CHARS:
            yield ErrorOccurred(
                message=f"The question is too long ({len(question)} characters; at most "
                f"{MAX_QUESTION_CHARS}). Shorten it or split it into several questions."
            )
            return
        started = time.perf_counter()
        in_nodes = 0.0
        running: dict[str, float] = {}
        config = {"configurable": {"thread_id": thread_id}, "recursion_limit": self.settings.recursion_limit}
        try:
            for mode, chunk in self.graph.stream(
                {"messages": [HumanMessage(question)]}, config, stream_mode=["tasks", "updates", "messages"]
            ):
                if mode == "tasks" and isinstance(chunk, dict):
                    if "result" in chunk or "error" in chunk:
                        in_nodes += time.perf_counter() - running.pop(chunk["id"], time.perf_counter())
                    else:
                        running[chunk["id"]] = time.perf_counter()
                yield from self._events(mode, chunk)
        except ProviderError as error:
            yield ErrorOccurred(message=str(error))
            return
        values = self.graph.get_state(config).values
        trace = values.get("trace", [])
        seconds = time.perf_counter() - started
        yield FinalAnswer(
            answer=values.get("answer", ""),
            language=values.get("language", ""),
            tools=tools_called(trace),
            citations=values.get("citations", []),
            sources=values.get("sources", []),
            abstained=bool(values.get("abstained")),
            model_calls=values.get("model_calls", 0),
            seconds=round(seconds, 3),
            graph_overhead_ms=round((seconds - in_nodes) * 1000, 1),
            offline_model=self.offline,
            trace=trace,
        )

    def ask(self, question: str, thread_id: str = "default") -> FinalAnswer | ErrorOccurred:
        """The final event of :meth:`stream` (an answer or an error)."""
        last: FinalAnswer | ErrorOccurred = ErrorOccurred(message="No answer was produced.")
        for event in self.stream(question, thread_id):
            if isinstance(event, FinalAnswer | ErrorOccurred):
                last = event
        return last

    @staticmethod
    def _events(mode: str, chunk: Any) -> Iterator[AgentEvent]:
        if mode == "tasks" and isinstance(chunk, dict):
            if "result" in chunk or "error" in chunk:
                yield NodeFinished(node=chunk["name"])
            else:
                yield NodeStarted(node=chunk["name"])
        elif mode == "messages":
            message, metadata = chunk
            in_synthesis = metadata.get("langgraph_node") == "synthesize"
            if in_synthesis and isinstance(message, AIMessageChunk) and message.text:
                yield AnswerToken(text=message.text)
        elif mode == "updates" and isinstance(chunk, dict):
            for node, update in chunk.items():
                for event in (update or {}).get("trace", [])[-1:]:
                    if event.get("node") != node:
                        continue
                    if node == "agent":
                        for call in event.get("tool_calls", []):
                            yield ToolCalled(tool=call["tool"], args=call["args"])
                    elif node == "follow_up":
                        for query in event.get("queries", []):
                            yield ToolCalled(tool="search_knowledge_base", args={"query": query})
                    elif node == "collect":
                        for result in event.get("results", []):
                            summary = f"{result['hits']} passages" if "hits" in result else ""
                            yield ToolReturned(
                                tool=result["tool"], status=str(result["status"]), summary=summary
                            )
