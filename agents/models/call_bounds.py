"""Bounds on one model call: an overall deadline and a largest answer, streaming included.

The HTTP clients' timeout is per read: a provider sending a token a second never trips it, and
a provider sending 30 MB is read whole. :class:`BoundedChatModel` sits in front of the retrying
model built by :mod:`agents.models.llm` and watches every chunk: past the deadline or the size it stops
reading and closes the provider's stream (closing the generator closes its HTTP response), then
raises a :class:`~agents.models.provider_errors.ProviderError`, so the turn ends like any provider
failure: one sentence in the visitor's language, the question kept in the thread. A call too long
for the size ends the turn too, rather than showing a cut answer: an answer that size is a provider
gone wrong, not one a visitor can read.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncGenerator, AsyncIterator, Generator, Iterator
from typing import Any, cast

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from pydantic import BaseModel, ConfigDict

from agents.config import AgentSettings
from agents.models.provider_errors import ProviderError


class CallBounds(BaseModel):
    """How long one model call may take in all, and how many characters its answer may hold."""

    model_config = ConfigDict(frozen=True)

    deadline_seconds: float
    max_answer_chars: int
    server: str = "The chat model"  # for sentences: "The OpenAI API", "The Mistral-compatible server at …"
    provider: str = ""

    @classmethod
    def from_settings(cls, settings: AgentSettings, server: str) -> CallBounds:
        return cls(
            deadline_seconds=settings.model_call_deadline_seconds,
            max_answer_chars=settings.max_answer_chars,
            server=server,
            provider=settings.resolved_provider,
        )

    def overdue(self) -> ProviderError:
        return ProviderError(
            f"{self.server} did not finish its answer within {self.deadline_seconds:g} s: try again, "
            "or raise AGENT_MODEL_CALL_DEADLINE_SECONDS.",
            provider=self.provider,
            kind="timeout",
        )

    def too_long(self) -> ProviderError:
        return ProviderError(
            f"{self.server} sent an answer longer than {self.max_answer_chars} characters and was "
            "stopped: ask a narrower question, or raise AGENT_MAX_ANSWER_CHARS.",
            provider=self.provider,
            kind="malformed",
        )


def chunk_chars(chunk: ChatGenerationChunk) -> int:
    """Characters a chunk adds to the answer: its text and its tool calls' argument pieces."""
    message = chunk.message
    arguments = message.tool_call_chunks if isinstance(message, AIMessageChunk) else []
    return len(chunk.text) + sum(len(call.get("args") or "") for call in arguments)


class CallWatch:
    """One call's clock and running size; :meth:`check` raises once either bound is passed."""

    def __init__(self, bounds: CallBounds, clock: Any = time.monotonic) -> None:
        self.bounds = bounds
        self._clock = clock
        self.ends = clock() + bounds.deadline_seconds
        self.chars = 0

    def remaining(self) -> float:
        return max(0.0, self.ends - self._clock())

    def check(self, chars: int = 0) -> None:
        self.chars += chars
        if self.chars > self.bounds.max_answer_chars:
            raise self.bounds.too_long()
        if self._clock() > self.ends:
            raise self.bounds.overdue()


class BoundedChatModel(BaseChatModel):
    """A deadline and a size bound around a chat model's calls (a mixin, first in the MRO).

    Each chunk is checked as it arrives; a silent server is cut by the client's per-read timeout,
    so a streamed call ends at most one read timeout after its deadline. Async calls are cancelled
    at the deadline itself. A non-streamed sync answer is checked for size once read.
    """

    call_bounds: CallBounds

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        watch = CallWatch(self.call_bounds)
        chunks = cast(
            Generator[ChatGenerationChunk, None, None],
            super()._stream(messages, stop=stop, run_manager=run_manager, **kwargs),
        )
        try:
            for chunk in chunks:
                watch.check(chunk_chars(chunk))
                yield chunk
        finally:
            chunks.close()  # stopping early closes the provider's HTTP stream now, not at GC

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        watch = CallWatch(self.call_bounds)
        chunks = cast(
            AsyncGenerator[ChatGenerationChunk, None],
            super()._astream(messages, stop=stop, run_manager=run_manager, **kwargs),
        )
        try:
            while True:
                try:
                    chunk = await asyncio.wait_for(anext(chunks), watch.remaining())
                except StopAsyncIteration:
                    return
                except TimeoutError:
                    raise self.call_bounds.overdue() from None
                watch.check(chunk_chars(chunk))
                yield chunk
        finally:
            await chunks.aclose()

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # A mixin: the provider class after it in the MRO implements _generate.
        generate = super()._generate  # type: ignore[safe-super]
        result = generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        return _within_size(result, self.call_bounds)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        call = super()._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
        try:
            result = await asyncio.wait_for(call, self.call_bounds.deadline_seconds)
        except TimeoutError:
            raise self.call_bounds.overdue() from None
        return _within_size(result, self.call_bounds)


def _within_size(result: ChatResult, bounds: CallBounds) -> ChatResult:
    chars = sum(len(generation.text) for generation in result.generations)
    for generation in result.generations:
        for call in getattr(generation.message, "tool_calls", []) or []:
            chars += len(str(call.get("args", "")))
    if chars > bounds.max_answer_chars:
        raise bounds.too_long()
    return result


@functools.cache
def bounded_class(base: type[BaseChatModel]) -> type[BaseChatModel]:
    """``base`` with :class:`BoundedChatModel` in front of its calls."""
    namespace = {"__module__": __name__, "__doc__": f"{base.__name__} with a deadline and a size bound."}
    return cast(type[BaseChatModel], type(f"Bounded{base.__name__}", (BoundedChatModel, base), namespace))


def with_bounds(model: BaseChatModel, bounds: CallBounds) -> BaseChatModel:
    """The same model, same fields and clients, as an instance of :func:`bounded_class` of its class."""
    bounded = bounded_class(type(model)).model_construct(
        _fields_set={*model.model_fields_set, "call_bounds"}, **model.__dict__, call_bounds=bounds
    )
    if model.__pydantic_private__:
        object.__setattr__(bounded, "__pydantic_private__", dict(model.__pydantic_private__))
    return bounded
