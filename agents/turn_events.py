"""One turn's LangGraph stream (tasks, updates, messages) turned into the service's typed events."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk, ToolMessage

from agents.events import (
    AgentEvent,
    AnswerToken,
    CritiqueGiven,
    GapAnalysed,
    ModelCalled,
    NodeFinished,
    NodeStarted,
    ToolCalled,
    ToolReturned,
)
from agents.evidence import knowledge_base_result, parse_tool_result
from agents.search_log import SearchLog


class TurnEvents:
    """Per-turn bookkeeping: node timings, tool-call arguments, model calls and token usage."""

    def __init__(self, searches: SearchLog | None = None) -> None:
        self.searches = searches
        self.in_nodes = 0.0  # seconds spent inside nodes (the rest is graph overhead)
        self.input_tokens: int | None = None
        self.output_tokens: int | None = None
        self._running: dict[str, float] = {}
        self._call_args: dict[str, dict[str, Any]] = {}
        self._model_calls = 0
        self._pending_tokens: dict[str, tuple[int, int]] = {}

    def events(self, mode: str, chunk: Any) -> Iterator[AgentEvent]:
        """The events for one item of ``graph.stream(..., stream_mode=["tasks", "updates", "messages"])``."""
        if mode == "tasks" and isinstance(chunk, dict):
            yield from self._task(chunk)
        elif mode == "messages":
            yield from self._message(*chunk)
        elif mode == "updates" and isinstance(chunk, dict):
            for node, update in chunk.items():
                yield from self._update(node, update or {})

    def _task(self, chunk: dict[str, Any]) -> Iterator[AgentEvent]:
        now = time.perf_counter()
        if "result" in chunk or "error" in chunk:
            started = self._running.pop(chunk["id"], None)
            seconds = now - started if started is not None else 0.0
            self.in_nodes += seconds
            yield NodeFinished(node=chunk["name"], ms=round(seconds * 1000, 1) if started else None)
        else:
            self._running[chunk["id"]] = now
            yield NodeStarted(node=chunk["name"])

    def _message(self, message: Any, metadata: dict[str, Any]) -> Iterator[AgentEvent]:
        node = str(metadata.get("langgraph_node", ""))
        usage = getattr(message, "usage_metadata", None)
        if isinstance(message, AIMessage | AIMessageChunk) and usage:
            before = self._pending_tokens.get(node, (0, 0))
            inputs, outputs = int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))
            self._pending_tokens[node] = (before[0] + inputs, before[1] + outputs)
            self.input_tokens = (self.input_tokens or 0) + inputs
            self.output_tokens = (self.output_tokens or 0) + outputs
        if node == "synthesize" and isinstance(message, AIMessageChunk) and message.text:
            yield AnswerToken(text=message.text)

    def _update(self, node: str, update: dict[str, Any]) -> Iterator[AgentEvent]:
        calls = update.get("model_calls")
        if isinstance(calls, int) and calls > self._model_calls:
            tokens = self._pending_tokens.pop(node, None)
            yield ModelCalled(
                node=node,
                calls=calls - self._model_calls,
                input_tokens=tokens[0] if tokens else None,
                output_tokens=tokens[1] if tokens else None,
            )
            self._model_calls = calls
        if node == "tools":
            for message in update.get("messages", []):
                if isinstance(message, ToolMessage):
                    yield self._tool_returned(message)
            return
        for event in update.get("trace", [])[-1:]:
            if event.get("node") == node:
                yield from self._traced(node, event, update)

    def _traced(self, node: str, event: dict[str, Any], update: dict[str, Any]) -> Iterator[AgentEvent]:
        if node == "agent":
            for message in update.get("messages", []):
                for call in getattr(message, "tool_calls", []):
                    self._call_args[str(call.get("id"))] = call.get("args", {})
            for call in event.get("tool_calls", []):
                yield ToolCalled(tool=call["tool"], args=call["args"])
        elif node == "follow_up":
            for query in event.get("queries", []):
                yield ToolCalled(tool="search_knowledge_base", args={"query": query})
                yield self._search_returned(query)
        elif node == "gap_analysis":
            yield GapAnalysed(
                missing=event.get("missing", []),
                follow_up_queries=event.get("follow_up_queries", []),
                ms=event.get("ms"),
            )
        elif node == "self_critique":
            yield CritiqueGiven(
                sufficient=bool(event.get("sufficient")),
                reason=str(event.get("reason", "")),
                ms=event.get("ms"),
            )

    def _search_returned(self, query: str, status: str | None = None, message: str = "") -> ToolReturned:
        record = self.searches.lookup(query) if self.searches else None
        hits = record.hits if record else []
        return ToolReturned(
            tool="search_knowledge_base",
            status=status or ("ok" if hits else "no_results"),
            summary=message or f"{len(hits)} passages",
            args={"query": query},
            hits=hits,
            ms=record.ms if record else None,
        )

    def _tool_returned(self, message: ToolMessage) -> ToolReturned:
        content = str(message.content)
        args = self._call_args.get(str(message.tool_call_id), {})
        kb = knowledge_base_result(message) if message.name == "search_knowledge_base" else None
        if kb is not None:
            returned = self._search_returned(kb.query, kb.status, kb.message if kb.status == "error" else "")
            if not returned.hits and kb.hits:  # dropped from the log: the final scores only
                returned.hits = [hit.model_dump() for hit in kb.hits]
                returned.summary = f"{len(kb.hits)} passages"
            return returned
        result = parse_tool_result(content) or {"status": "error", "summary": content}
        return ToolReturned(
            tool=str(message.name),
            status=str(result.get("status", "ok")),
            summary=str(result.get("summary", "")),
            args=args,
            result=result,
        )
