"""OfflineChatModel: the built-in chat model used when no provider key is configured.

Like any chat model it reads only the messages it is given and knows its role by the tools bound:
the visit's tools ask for tool calls (``router``), the GapAnalysis or Critique schema for a
structured verdict, and no tool for an extractive, cited answer (``reply``, from ``reader``). In
every role it reads the visitor's messages itself (``reading``: a follow-up completed from the
turns before it). The evidence and the tools' results come typed, as the artifact of the user
message whose text renders them (``agents.graph.gathered``), never from the prompt's text. It writes
no fact of its own: values and quotes come from the evidence, quotes in their language.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import PrivateAttr

from agents.answer.model import ANSWER_KIND_KEY
from agents.graph.gathered import Gathered, read_gathered
from agents.graph.schemas import Critique, GapAnalysis
from agents.offline import reply, router
from agents.offline.reading.intent import default_embedder, intent_index
from agents.offline.reading.read import read_conversation
from agents.offline.reading.request import TurnRequest
from agents.offline.word_translation import keep_evidence_words
from rag.embeddings import PassageVectorCache
from rag.sentence_store import SentenceVectorStore

MODEL_NAME = "offline-extractive"
RELATED = "related"  # response_metadata key: the passages a declined answer quotes
STRUCTURED = {GapAnalysis.__name__: reply.gap_analysis, Critique.__name__: reply.critique}


class OfflineChatModel(BaseChatModel):
    """Extractive chat model; ``embedder`` (the knowledge base's own ``rag.embeddings.Embedder``)
    ranks evidence sentences by meaning, and without one they are ranked by words and values;
    ``sentence_store`` holds the vectors of the indexed passages' sentences (``rag.sentence_vectors``)."""

    model_name: str = MODEL_NAME
    embedder: Any = None
    sentence_store: SentenceVectorStore | None = None
    kb_language: str = "fr"  # the knowledge base's language: a sentence's when it cannot be told
    word_seconds: float = 0.0  # pause between streamed words (0: none)
    _vectors: PassageVectorCache | None = PrivateAttr(default=None)

    @property
    def _llm_type(self) -> str:
        return MODEL_NAME

    def bind_tools(
        self, tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool], **kwargs: Any
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind ``tools`` (in the OpenAI tool format) like any tool-calling model."""
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools], **kwargs)

    def respond(self, messages: Sequence[BaseMessage], tools: set[str]) -> AIMessage:
        """The reply to ``messages`` in the role ``tools`` give: tool calls, a verdict, an answer."""
        structured = [name for name in STRUCTURED if name in tools]
        if tools and not structured:
            last_human = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
            if any(isinstance(m, ToolMessage) for m in messages[last_human + 1 :]):
                return AIMessage(content="")  # the tools have answered: on to the evidence checks
            said = [m.text for m in messages if isinstance(m, HumanMessage)]
            return router.route(self._read(said), tools)
        gathered, request = self._gathered_as_read(messages)
        if self.embedder is not None and self._vectors is None:
            self._vectors = PassageVectorCache(
                self.embedder.embed_documents, store=self.sentence_store, name=self.embedder.name
            )
            if self.sentence_store is not None:
                keep_evidence_words(self.embedder.embed_queries, self.sentence_store, self.embedder.name)
        queries = self.embedder.embed_queries if self.embedder is not None else None
        # Only the answer weighs the knowledge base's parts beside what a tool answered.
        searched = not structured and bool(gathered.queries)
        checks = request.knowledge_base.beside_tool
        reading = reply.Reading.of(gathered, self.kb_language, queries, self._vectors, searched, checks)
        if structured:
            name = structured[0]
            return AIMessage(content="", tool_calls=[router.tool_call(name, STRUCTURED[name](reading), 0)])
        kind, related = reply.answer_kind(reading), [c.number for c in reply.related(reading)]
        return AIMessage(
            content=reply.synthesis(reading), response_metadata={ANSWER_KIND_KEY: kind, RELATED: related}
        )

    def _read(self, said: Sequence[str]) -> TurnRequest:
        """The turn the visitor's messages ``said`` ask, each read after the one before it, by meaning
        with the knowledge base's embedder (its default one when the model was given none)."""
        embedder = self.embedder if self.embedder is not None else default_embedder()
        return read_conversation(said, intent_index(embedder.embed_queries))

    def _gathered(self, messages: Sequence[BaseMessage]) -> Gathered:
        """What was gathered for the turn, as the answer reads it: the question made standalone (a
        follow-up completed from the visitor's earlier messages, the knowledge base's parts only),
        and the whole of what the turn asks."""
        return self._gathered_as_read(messages)[0]

    def _gathered_as_read(self, messages: Sequence[BaseMessage]) -> tuple[Gathered, TurnRequest]:
        """``_gathered``, with the request its question was read as."""
        said: list[str] = [m.text for m in messages if isinstance(m, HumanMessage)] or [""]
        gathered = read_gathered(messages) or Gathered(question=said[-1], earlier=said[:-1])
        request = self._read([*gathered.earlier, gathered.question])
        whole = request.question if request.elliptical else gathered.question
        update = {"question": request.question, "whole_question": whole}
        return gathered.model_copy(update=update), request

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        message = self.respond(messages, _tool_names(kwargs.get("tools")))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Iterator[ChatGenerationChunk]:
        """A reply word by word, as a provider streams it (tool calls come whole, in one chunk); an
        answer's opening (``reply.opening``: the stated lines) goes out before the evidence is read."""
        tools = _tool_names(kwargs.get("tools"))
        head = "" if tools else reply.opening(self._gathered(messages))
        yield from self._words(head, run_manager, {}, more=True)
        message = self.respond(messages, tools)
        if message.tool_calls:
            chunks = [{"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                      for i, c in enumerate(message.tool_calls)]  # fmt: skip
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=chunks))
            return
        if not message.text.startswith(head):  # never expected: the opening is how the answer starts
            raise ValueError("The offline answer does not start with the opening it streamed.")
        # The kind rides on the last chunk.
        yield from self._words(message.text[len(head) :], run_manager, message.response_metadata)

    def _words(
        self, text: str, run_manager: Any, metadata: dict[str, Any], more: bool = False
    ) -> Iterator[ChatGenerationChunk]:
        """``text`` in chunks of one word and its space; ``metadata`` on the last (``more``: text
        follows, so none is the last)."""
        if not text and more:
            return
        pieces = text.split(" ")
        for index, piece in enumerate(pieces):
            last = index == len(pieces) - 1
            token = piece if last else f"{piece} "
            if not token and not last:
                continue
            if run_manager is not None and token:
                run_manager.on_llm_new_token(token)
            chunk_metadata = metadata if last and not more else {}
            yield ChatGenerationChunk(message=AIMessageChunk(content=token, response_metadata=chunk_metadata))
            if self.word_seconds and not (last and not more):
                time.sleep(self.word_seconds)


def _tool_names(tools: Any) -> set[str]:
    return {str(t.get("function", t).get("name", "")) for t in tools or [] if isinstance(t, dict)} - {""}
