"""One turn's LangGraph stream (tasks, updates, messages) turned into the service's typed events."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk, ToolMessage
from langgraph.types import Overwrite

from agents.answer.numbering import CitationStream, SourceNumbering
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
from agents.graph.evidence import add_passages, knowledge_base_result, tool_outcome
from agents.graph.trace import AgentStep, CritiqueStep, FollowUpStep, GapStep
from agents.tools.knowledge_base import KnowledgeBaseResult
from rag.passage import Passage


def search_returned(result: KnowledgeBaseResult) -> ToolReturned:
    """A knowledge-base search as a tool result, every ranking stage's score included: the same
    event whether the model asked for it or a follow-up round ran it."""
    return ToolReturned(
        tool="search_knowledge_base",
        status=result.status,
        summary=result.message if result.status == "error" else f"{len(result.hits)} passages",
        args={"query": result.query},
        hits=[passage.rounded() for passage in result.hits],
        ms=result.ms,
    )


class TurnEvents:
    """Per-turn bookkeeping: node timings, tool-call arguments, model calls, token usage, and the
    evidence as the state's reducer numbers it, so streamed citations are numbered as the answer's."""

    def __init__(self) -> None:
        self.in_nodes = 0.0  # seconds spent inside nodes (the rest is graph overhead)
        self.input_tokens: int | None = None
        self.output_tokens: int | None = None
        self._running: dict[str, float] = {}
        self._call_args: dict[str, dict[str, Any]] = {}
        self._model_calls = 0
        self._pending_tokens: dict[str, tuple[int, int]] = {}
        self._evidence: list[Passage] = []
        self._citations: CitationStream | None = None

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
            if self._citations is None:
                self._citations = CitationStream(SourceNumbering(self._evidence))
            if text := self._citations.feed(message.text):
                yield AnswerToken(text=text)

    def _update(self, node: str, update: dict[str, Any]) -> Iterator[AgentEvent]:
        if "evidence" in update:
            added = update["evidence"]
            self._evidence = (
                list(added.value) if isinstance(added, Overwrite) else add_passages(self._evidence, added)
            )
        calls = update.get("model_calls")
        if isinstance(calls, int) and calls > 0:
            tokens = self._pending_tokens.pop(node, None)
            yield ModelCalled(
                node=node,
                calls=calls,
                input_tokens=tokens[0] if tokens else None,
                output_tokens=tokens[1] if tokens else None,
            )
            self._model_calls += calls
        if node == "synthesize" and self._citations is not None and (rest := self._citations.flush()):
            yield AnswerToken(text=rest)
        if node == "tools":
            for message in update.get("messages", []):
                if isinstance(message, ToolMessage):
                    yield self._tool_returned(message)
            return
        steps = update.get("trace", [])
        for step in (steps.value if isinstance(steps, Overwrite) else steps)[-1:]:
            if getattr(step, "node", None) == node:
                yield from self._traced(step, update)

    def _traced(self, step: Any, update: dict[str, Any]) -> Iterator[AgentEvent]:
        if isinstance(step, AgentStep):
            for message in update.get("messages", []):
                for call in getattr(message, "tool_calls", []):
                    self._call_args[str(call.get("id"))] = call.get("args", {})
            for call in step.tool_calls:
                yield ToolCalled(tool=call.tool, args=call.args)
        elif isinstance(step, FollowUpStep):
            for search in step.searches:
                yield ToolCalled(tool="search_knowledge_base", args={"query": search.query})
                yield search_returned(search)
        elif isinstance(step, GapStep):
            yield GapAnalysed(missing=step.missing, follow_up_queries=step.follow_up_queries, ms=step.ms)
        elif isinstance(step, CritiqueStep):
            yield CritiqueGiven(sufficient=step.sufficient, reason=step.reason, ms=step.ms)

    def _tool_returned(self, message: ToolMessage) -> ToolReturned:
        args = self._call_args.get(str(message.tool_call_id), {})
        kb = knowledge_base_result(message) if message.name == "search_knowledge_base" else None
        if kb is not None:
            return search_returned(kb)
        outcome = tool_outcome(message, args)
        return ToolReturned(
            tool=outcome.tool,
            status=outcome.status,
            summary=outcome.summary,
            args=args,
            result=outcome.result,
        )
