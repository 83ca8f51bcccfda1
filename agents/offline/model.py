"""OfflineChatModel: the built-in chat model used when no provider key is configured.

It plays the roles the graph asks of any model, reading each node's brief (``agents.brief``)
rather than the prompt: the agent node gets tool calls (``router``), gap analysis and self-critique
get structured verdicts and the synthesis an extractive answer (``reply``, from ``reader``'s
ranking of the evidence sentences). It never writes a fact of its own: values and quotes come from
the evidence, cited, and quotes stay in the source's language (the reply says which).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, PrivateAttr

from agents.brief import Brief, read_brief
from agents.offline import reply, router
from agents.offline.reader import SentenceVectors

MODEL_NAME = "offline-extractive"


class OfflineChatModel(BaseChatModel):
    """Extractive chat model for running the assistant without a provider key.

    ``embedder`` (an ``rag.embeddings.Embedder``: the knowledge base's own) ranks evidence
    sentences by meaning; without one, sentences are ranked by their words and values only.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)
    model_name: str = MODEL_NAME
    embedder: Any = None
    _vectors: SentenceVectors | None = PrivateAttr(default=None)

    @property
    def _llm_type(self) -> str:
        return MODEL_NAME

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind ``tools`` (converted to the OpenAI tool format) like any tool-calling model."""
        return self.bind(
            tools=[convert_to_openai_tool(tool) for tool in tools], tool_choice=tool_choice, **kwargs
        )

    def respond(self, messages: Sequence[BaseMessage], tools: set[str]) -> AIMessage:
        """The reply to ``messages`` with ``tools`` bound, following the node's brief."""
        brief = read_brief(messages) or _brief_from_messages(messages, tools)
        if brief.node == "agent":
            last_human = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
            if any(isinstance(m, ToolMessage) for m in messages[last_human + 1 :]):
                return AIMessage(content="")  # the tools have answered: on to the evidence checks
            return router.route(messages, brief, tools)
        embed_queries = self.embedder.embed_queries if self.embedder is not None else None
        if self.embedder is not None and self._vectors is None:
            self._vectors = SentenceVectors(self.embedder.embed_documents)
        reading = reply.Reading.of(brief, embed_queries, self._vectors)
        if brief.node == "gap_analysis":
            return AIMessage(
                content="", tool_calls=[router.tool_call("GapAnalysis", reply.gap_analysis(reading), 0)]
            )
        if brief.node == "self_critique":
            return AIMessage(
                content="", tool_calls=[router.tool_call("Critique", reply.critique(reading), 0)]
            )
        return AIMessage(content=reply.synthesis(reading))

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = self.respond(messages, _tool_names(kwargs.get("tools")))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """A reply word by word, as a provider streams it (tool calls come whole, in one chunk)."""
        message = self.respond(messages, _tool_names(kwargs.get("tools")))
        if message.tool_calls:
            chunks = [
                {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                for i, c in enumerate(message.tool_calls)
            ]
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=chunks))
            return
        pieces = message.text.split(" ")
        for index, piece in enumerate(pieces):
            token = piece if index == len(pieces) - 1 else f"{piece} "
            if run_manager is not None:
                run_manager.on_llm_new_token(token)
            yield ChatGenerationChunk(message=AIMessageChunk(content=token))


def _tool_names(tools: Any) -> set[str]:
    return {str(t.get("function", t).get("name", "")) for t in tools or [] if isinstance(t, dict)} - {""}


def _brief_from_messages(messages: Sequence[BaseMessage], tools: set[str]) -> Brief:
    """Outside the graph (a plain chat call, no brief): route the last human message when tools are
    bound, else answer it from no evidence (an abstention)."""
    question = next((m.text for m in reversed(messages) if isinstance(m, HumanMessage)), "")
    return Brief(node="agent" if tools else "synthesize", question=question)
