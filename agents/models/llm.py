"""The one place chat models are built: any LangChain provider through ``init_chat_model``, one retry policy.

``AGENT_MODEL=provider:model`` (``mistralai:…``, ``openai:…``, ``anthropic:…``: any provider
``init_chat_model`` knows whose integration package is installed) or the provider chosen from the
keys; the offline model when no key is set. Every client is built with its own retries switched off
(ChatMistralAI would retry only lost connections, ChatOpenAI its own set of statuses) and re-homed
in a subclass of its own class with :class:`RetryingChatModel` in front, which retries ``_generate`` /
``_agenerate`` / ``_stream`` / ``_astream`` the same way for all and turns failures into one sentence.
Retrying inside the model, rather than with ``.with_retry()``, keeps a ``BaseChatModel``: ``bind_tools``,
``with_structured_output`` and streaming callbacks keep working and keep retrying.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

import httpx
import tenacity
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.exceptions import ModelConnectionError, ModelTimeoutError
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from pydantic import BaseModel, ConfigDict, SecretStr

from agents.config import AgentSettings
from agents.models.call_bounds import CallBounds, with_bounds
from agents.models.provider_errors import FailureKind, ProviderError
from rag.redact import redact_client_logs, redact_text, redact_url

logger = logging.getLogger(__name__)

RETRYABLE: frozenset[FailureKind] = frozenset({"rate_limited", "server_error", "timeout", "unreachable"})
API_NAMES = {"mistral": "Mistral", "openai": "OpenAI"}
# One sentence per failure: what happened, then what the user can do about it.
_MESSAGES: dict[str, str] = {
    "rate_limited": "{server} was still rate-limiting requests (HTTP 429){tried}: "
    "wait a minute and try again, or use a plan with higher limits.",
    "server_error": "{server} kept failing with a server error ({code}){tried}: "
    "try again later, or choose another provider with AGENT_PROVIDER or AGENT_MODEL.",
    "timeout": "{server} did not answer within {timeout:g} s{tried}: "
    "try again, or raise AGENT_REQUEST_TIMEOUT_SECONDS.",
    "unreachable": "{server} could not be reached or dropped the connection{tried}: "
    "check the network and {url_variable}.",
    "refused_key": "{server} refused the API key (HTTP {status}): check {key_variable} in .env.",
    "unknown_model": "{server} does not know the model {model!r} or the endpoint (HTTP 404): "
    "check AGENT_MODEL and {url_variable}.",
    "rejected": "{server} rejected the request (HTTP {status}: {detail}): "
    "check AGENT_MODEL and the conversation sent; it is not retried.",
    "malformed": "{server} sent an answer that could not be read ({detail}){tried}: "
    "check that {url_variable} points to a server speaking the {api} API.",
}
OfflineFactory = Callable[[AgentSettings], BaseChatModel]
_OpenedAsyncStream = tuple[ChatGenerationChunk | None, AsyncIterator[ChatGenerationChunk]]


def _status_code(error: BaseException) -> int | None:
    if isinstance(error, httpx.HTTPStatusError):  # ChatMistralAI
        return error.response.status_code
    status = getattr(error, "status_code", None)  # openai.APIStatusError and subclasses
    return status if isinstance(status, int) else None


def _kind_by_class_name(error: BaseException) -> FailureKind | None:
    """Other providers' SDKs (anthropic, groq, botocore, google) name their transport errors alike."""
    names = [cls.__name__ for cls in type(error).__mro__]
    if any("Timeout" in name or name == "DeadlineExceeded" for name in names):
        return "timeout"
    if any(name.endswith(("ConnectionError", "ConnectError")) for name in names):
        return "unreachable"
    return None


def classify_failure(error: BaseException) -> FailureKind | None:
    """What went wrong in a provider call, from what either client raised; None: not a provider failure."""
    httpx_sse = sys.modules.get("httpx_sse")  # used by ChatMistralAI; none of these exist unless imported
    if httpx_sse is not None and isinstance(error, httpx_sse.SSEError):
        return "malformed"  # e.g. a JSON body where a stream was asked for; also a TransportError
    # Timeouts before connection errors: they are also connection errors for both httpx and openai.
    if isinstance(error, ModelTimeoutError | httpx.TimeoutException | TimeoutError):
        return "timeout"
    if isinstance(error, ModelConnectionError | httpx.TransportError):
        return "unreachable"
    if (by_name := _kind_by_class_name(error)) is not None:
        return by_name
    status = _status_code(error)
    if status is not None and status >= 400:
        if status == 429:
            return "rate_limited"
        return "server_error" if status >= 500 else "rejected"
    openai = sys.modules.get("openai")
    if openai is not None and isinstance(error, openai.APIError) and status is None:
        return "server_error"  # e.g. an error event inside a stream
    if status is not None or isinstance(error, ValueError | KeyError | IndexError | TypeError):
        return "malformed"  # JSON, SSE or schema errors while reading a 2xx answer
    return None


class RetryPolicy(BaseModel):
    """How a chat model retries, and what it tells the user when it gives up."""

    model_config = ConfigDict(frozen=True)

    provider: str
    server: str
    model: str
    api: str = "OpenAI"  # the wire format, for "a server speaking the … API"
    key_variable: str = "OPENAI_API_KEY"
    url_variable: str = "OPENAI_BASE_URL"
    max_retries: int
    initial_wait_seconds: float
    max_wait_seconds: float
    timeout_seconds: float
    secrets: tuple[SecretStr, ...] = ()  # never shown: a server may echo the key in its error
    urls: tuple[SecretStr, ...] = ()  # the configured endpoints: their credentials are never shown

    def scrub(self, text: str) -> str:
        """``text`` with every configured secret replaced by ``***`` and every URL's credentials removed."""
        for secret in self.secrets:
            if len(value := secret.get_secret_value()) >= 4:
                text = text.replace(value, "***")
        return redact_text(text, [url.get_secret_value() for url in self.urls])

    def retrying(self) -> tenacity.Retrying:
        return tenacity.Retrying(**self._tenacity_arguments())

    def async_retrying(self) -> tenacity.AsyncRetrying:
        return tenacity.AsyncRetrying(**self._tenacity_arguments())

    def _tenacity_arguments(self) -> dict[str, Any]:
        return {
            "retry": tenacity.retry_if_exception(lambda error: classify_failure(error) in RETRYABLE),
            "stop": tenacity.stop_after_attempt(self.max_retries + 1),
            "wait": tenacity.wait_exponential_jitter(
                multiplier=self.initial_wait_seconds,
                max=self.max_wait_seconds,
                jitter=self.initial_wait_seconds,
            ),
            "before_sleep": self._log_retry,
            "reraise": True,
        }

    def _log_retry(self, state: tenacity.RetryCallState) -> None:
        error = state.outcome.exception() if state.outcome else None
        logger.warning(
            "%s: %s (%s); retry %d of %d in %.1f s",
            self.server,
            classify_failure(error) if error else "failure",
            self.scrub(str(error)),
            state.attempt_number,
            self.max_retries,
            state.upcoming_sleep,
        )

    def failure(self, error: BaseException, attempts: int | None) -> ProviderError | None:
        """The user-facing error for ``error`` after ``attempts`` (None: mid-stream), or None."""
        kind = classify_failure(error)
        if kind is None:
            return None
        status = _status_code(error)
        template: str = kind
        if kind == "rejected" and status in (401, 403):
            template = "refused_key"
        elif kind == "rejected" and status == 404:
            template = "unknown_model"
        detail = self.scrub(" ".join(str(error).split())) or type(error).__name__
        tried = f" after {attempts} attempts" if attempts and attempts > 1 else ""
        message = _MESSAGES[template].format(
            server=self.server,
            status=status,
            code=f"HTTP {status}" if status else detail,
            detail=detail if len(detail) <= 160 else detail[:159] + "…",
            tried=" in the middle of a streamed answer" if attempts is None else tried,
            timeout=self.timeout_seconds,
            model=self.model,
            api=self.api,
            key_variable=self.key_variable,
            url_variable=self.url_variable,
        )
        return ProviderError(
            message, provider=self.provider, kind=kind, status_code=status, attempts=attempts or 1
        )


@contextmanager
def _as_provider_errors(policy: RetryPolicy, retrying: tenacity.BaseRetrying | None) -> Iterator[None]:
    """Turn provider failures into :class:`ProviderError`; anything else passes through unchanged."""
    try:
        yield
    except ProviderError:
        raise
    except Exception as error:
        attempts = retrying.statistics.get("attempt_number", 1) if retrying is not None else None
        failure = policy.failure(error, attempts)
        if failure is None:
            raise
        raise failure from error


class RetryingChatModel(BaseChatModel):
    """Bounded retries with exponential backoff around a provider's own calls (a mixin for subclasses).

    A stream is retried only until its first chunk: chunks already handed on cannot be taken back.
    """

    retry_policy: RetryPolicy

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        retrying = self.retry_policy.retrying()
        with _as_provider_errors(self.retry_policy, retrying):
            # A mixin: the provider class after it in the MRO implements _generate.
            generate = super()._generate  # type: ignore[safe-super]
            return retrying(generate, messages, stop=stop, run_manager=run_manager, **kwargs)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        retrying = self.retry_policy.async_retrying()
        with _as_provider_errors(self.retry_policy, retrying):
            generate = super()._agenerate
            return cast(
                ChatResult, await retrying(generate, messages, stop=stop, run_manager=run_manager, **kwargs)
            )

    def _empty_stream(self, retrying: tenacity.BaseRetrying) -> ProviderError:
        # The openai client yields nothing when a server ignores "stream": true and sends JSON.
        empty = ValueError("the streamed answer ended before its first chunk")
        return cast(
            ProviderError, self.retry_policy.failure(empty, retrying.statistics.get("attempt_number"))
        )

    def _open_stream(
        self, *args: Any, **kwargs: Any
    ) -> tuple[ChatGenerationChunk | None, Iterator[ChatGenerationChunk]]:
        chunks = super()._stream(*args, **kwargs)
        return next(chunks, None), chunks

    async def _aopen_stream(self, *args: Any, **kwargs: Any) -> _OpenedAsyncStream:
        chunks = super()._astream(*args, **kwargs)
        return await anext(chunks, None), chunks

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        retrying = self.retry_policy.retrying()
        with _as_provider_errors(self.retry_policy, retrying):
            first, chunks = retrying(
                self._open_stream, messages, stop=stop, run_manager=run_manager, **kwargs
            )
        if first is None:
            raise self._empty_stream(retrying)
        yield first
        with _as_provider_errors(self.retry_policy, None):
            yield from chunks

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        retrying = self.retry_policy.async_retrying()
        with _as_provider_errors(self.retry_policy, retrying):
            opened: _OpenedAsyncStream = await retrying(
                self._aopen_stream, messages, stop=stop, run_manager=run_manager, **kwargs
            )
        first, chunks = opened
        if first is None:
            raise self._empty_stream(retrying)
        yield first
        with _as_provider_errors(self.retry_policy, None):
            async for chunk in chunks:
                yield chunk


def _tool_arguments_as_strings(response: Any) -> Any:
    """Some Mistral-compatible servers send tool arguments as a JSON object; the client wants a string."""
    choices = response.get("choices") if isinstance(response, dict) else None
    for choice in choices if isinstance(choices, list) else []:
        message = choice.get("message") if isinstance(choice, dict) else None
        for call in (message.get("tool_calls") or []) if isinstance(message, dict) else []:
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict) and isinstance(function.get("arguments"), dict):
                function["arguments"] = json.dumps(function["arguments"], ensure_ascii=False)
    return response


class ToolArgumentsAsStrings:
    """A mixin for ChatMistralAI: reads tool arguments that a compatible server sent as JSON objects."""

    def _create_chat_result(self, response: dict) -> ChatResult:
        return super()._create_chat_result(_tool_arguments_as_strings(response))  # type: ignore[misc]


@functools.cache
def retrying_class(base: type[BaseChatModel]) -> type[BaseChatModel]:
    """``base`` (any LangChain chat model class) with :class:`RetryingChatModel` in front of its calls."""
    mistral = sys.modules.get("langchain_mistralai")
    mixins: tuple[type, ...] = (RetryingChatModel,)
    if mistral is not None and issubclass(base, mistral.ChatMistralAI):
        mixins += (ToolArgumentsAsStrings,)
    namespace = {"__module__": __name__, "__doc__": f"{base.__name__} with the shared retry policy."}
    return cast(type[BaseChatModel], type(f"Retrying{base.__name__}", (*mixins, base), namespace))


def with_retries(model: BaseChatModel, policy: RetryPolicy) -> BaseChatModel:
    """The same model, same fields and clients, as an instance of its class with retries mixed in.

    ``init_chat_model`` builds the provider's own class; this re-homes the validated instance in
    :func:`retrying_class` of it without building it (or its HTTP clients) a second time.
    """
    retrying = retrying_class(type(model)).model_construct(
        _fields_set={*model.model_fields_set, "retry_policy"}, **model.__dict__, retry_policy=policy
    )
    if model.__pydantic_private__:
        object.__setattr__(retrying, "__pydantic_private__", dict(model.__pydantic_private__))
    return retrying


def _policy(settings: AgentSettings, server: str) -> RetryPolicy:
    provider = settings.resolved_provider
    key_variable = f"{provider.upper()}_API_KEY"
    configured = (settings.mistral_api_key, settings.openai_api_key)
    from_environment = os.environ.get(key_variable)  # a key another integration reads by itself
    secrets = [*configured, SecretStr(from_environment) if from_environment else None]
    return RetryPolicy(
        provider=provider,
        server=server,
        model=settings.resolved_model,
        api=API_NAMES.get(provider, provider.replace("_", " ").title()),
        key_variable=key_variable,
        url_variable=f"{provider.upper()}_BASE_URL" if provider in API_NAMES else "the provider's endpoint",
        max_retries=settings.max_retries,
        initial_wait_seconds=settings.retry_initial_wait_seconds,
        max_wait_seconds=settings.retry_max_wait_seconds,
        timeout_seconds=settings.request_timeout_seconds,
        secrets=tuple(secret for secret in secrets if secret is not None),
        urls=tuple(SecretStr(url) for url in (settings.mistral_base_url, settings.openai_base_url) if url),
    )


def _not_configured(provider: str, key: str, url: str) -> ProviderError:
    return ProviderError(
        f"AGENT_PROVIDER={provider} needs {key} (or {url} for a local server) in .env.",
        provider=provider,
        kind="not_configured",
    )


def _provider_arguments(settings: AgentSettings) -> tuple[str, dict[str, Any]]:
    """The server's name for sentences, and what ``init_chat_model`` passes to the provider's class.

    ``timeout`` and ``max_retries`` are LangChain's standard parameters: every integration takes them.
    """
    provider = settings.resolved_provider
    common: dict[str, Any] = {
        "timeout": settings.request_timeout_seconds,
        "max_retries": 0,  # ours are in RetryingChatModel
        "disable_streaming": not settings.streaming,
    }
    if settings.temperature is not None:
        common["temperature"] = settings.temperature
    if provider == "mistral":
        base_url = settings.mistral_base_url
        if settings.mistral_api_key is None and base_url is None:
            raise _not_configured(provider, "MISTRAL_API_KEY", "MISTRAL_BASE_URL")
        server = f"The Mistral-compatible server at {redact_url(base_url)}" if base_url else "The Mistral API"
        # ChatMistralAI's timeout is whole seconds; the exact value is set on its clients afterwards.
        common["timeout"] = math.ceil(settings.request_timeout_seconds)
        return server, {**common, "api_key": settings.mistral_api_key or "not-needed", "endpoint": base_url}
    if provider == "openai":
        base_url = settings.openai_base_url
        if settings.openai_api_key is None and base_url is None:
            raise _not_configured(provider, "OPENAI_API_KEY", "OPENAI_BASE_URL")
        server = f"The OpenAI-compatible server at {redact_url(base_url)}" if base_url else "The OpenAI API"
        return server, {
            **common,
            # Local servers ignore the key; the client requires one.
            "api_key": settings.openai_api_key or "not-needed",
            "base_url": base_url,
            # Compatible servers (Ollama, vLLM, LM Studio) speak Chat Completions, not the Responses API.
            "use_responses_api": False if base_url else None,
        }
    return f"The {provider} provider", common  # its integration reads its own key and endpoint variables


def integration_package(provider: str) -> str:
    """The PyPI package holding ``provider``'s chat model class, as ``init_chat_model`` imports it."""
    from langchain.chat_models import base

    module = base._BUILTIN_PROVIDERS[provider][0]
    return module.split(".", 1)[0].replace("_", "-")


def for_its_family(model: BaseChatModel) -> BaseChatModel:
    """``model`` without the parameters its profile says it refuses: reasoning models (OpenAI's
    o-series, gpt-5) answer 400 to any temperature but their default. (ChatOpenAI already sends
    ``max_completion_tokens`` rather than ``max_tokens``, which those models require.)"""
    profile = model.profile or {}
    if profile.get("temperature") is False and getattr(model, "temperature", None) is not None:
        logger.info("%s takes no temperature (its profile): the setting is not sent.", type(model).__name__)
        return model.model_copy(update={"temperature": None})
    return model


def without_streaming(model: BaseChatModel) -> BaseChatModel:
    """The same model, asked for whole answers: for calls nobody watches arrive (structured output),
    where a stream only adds work and, on OpenAI, a pydantic serializer warning per call."""
    return model.model_copy(update={"disable_streaming": True})


def _init_chat_model(
    settings: AgentSettings, arguments: dict[str, Any], policy: RetryPolicy
) -> BaseChatModel:
    """``init_chat_model`` for the resolved provider; a missing package or bad setting is one sentence."""
    from langchain.chat_models import init_chat_model

    provider, model = settings.langchain_provider, settings.resolved_model
    try:
        return for_its_family(init_chat_model(model, model_provider=provider, **arguments))
    except ImportError:
        raise ProviderError(
            f"AGENT_MODEL={provider}:{model} needs LangChain's integration for {provider}: install it with "
            f"pip install -c constraints.txt {integration_package(provider)}.",
            provider=settings.resolved_provider,
            kind="not_configured",
        ) from None
    except (ValueError, TypeError) as error:  # pydantic's ValidationError is a ValueError
        detail = policy.scrub(" ".join(str(error).split()))[:200]
        raise ProviderError(
            f"The {provider} chat model could not be set up ({detail}): check AGENT_MODEL and "
            f"{policy.key_variable}.",
            provider=settings.resolved_provider,
            kind="not_configured",
        ) from None


def build_chat_model(settings: AgentSettings, offline_factory: OfflineFactory | None = None) -> BaseChatModel:
    """The chat model the settings ask for, built by LangChain's ``init_chat_model`` with our retries.

    Provider packages are imported only when chosen; the offline model needs no key and no package.
    """
    if settings.resolved_provider == "offline":
        if offline_factory is None:
            raise ProviderError(
                "The offline model is not available yet: set MISTRAL_API_KEY, OPENAI_API_KEY or "
                "OPENAI_BASE_URL in .env to use a hosted or local model.",
                provider="offline",
                kind="not_configured",
            )
        return offline_factory(settings)
    redact_client_logs()

    server, arguments = _provider_arguments(settings)
    policy = _policy(settings, server)
    model = with_retries(_init_chat_model(settings, arguments, policy), policy)
    model = with_bounds(model, CallBounds.from_settings(settings, server))
    if settings.resolved_provider == "mistral":  # ChatMistralAI's own field holds whole seconds only
        timeout = httpx.Timeout(settings.request_timeout_seconds)
        model.client.timeout = timeout  # type: ignore[attr-defined]
        model.async_client.timeout = timeout  # type: ignore[attr-defined]
    return model
