"""The real Mistral and OpenAI chat clients, as built by :mod:`agents.models.llm`, against a local fake
server.

Tool calls, streaming, retries, timeouts and malformed answers go over real HTTP on 127.0.0.1
through the same code the agent uses, so a provider behaving badly meets the same policy either way.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.tools import tool
from pydantic import BaseModel

from agents.config import AgentSettings
from agents.models.llm import build_chat_model
from agents.models.provider_errors import ProviderError
from tests.fake_chat_server import (
    API_KEY,
    FakeChatServer,
    Reply,
    completion,
    error,
    streamed_text,
    streamed_tool_call,
    tool_call,
)

PROVIDERS = ["mistral", "openai"]
CALL_MODES = ["invoke", "ainvoke", "stream", "astream"]
# A failure must surface well before this; a client stuck retrying fails the test instead of hanging.
DEADLINE_S = 15.0
# Variables the SDKs or this project read on their own, which would bypass the settings under test.

pytestmark = pytest.mark.usefixtures("no_network_leaks")


@tool
def get_weather(city: str, days: int) -> str:
    """Weather forecast for a city over the next days."""
    return f"{city}: sunny for {days} days"


class VisitRequest(BaseModel):
    """What the visitor asked for."""

    language: str
    party_size: int


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    fake = FakeChatServer().start()
    yield fake
    fake.stop()


def chat_settings(provider: str, base_url: str, **overrides: Any) -> AgentSettings:
    """Settings pointing ``provider`` at ``base_url``, with waits short enough for tests."""
    values: dict[str, Any] = {
        "provider": provider,
        f"{provider}_api_key": API_KEY,
        f"{provider}_base_url": base_url,
        "max_retries": 2,
        "request_timeout_seconds": 5.0,
        "retry_initial_wait_seconds": 0.01,
        "retry_max_wait_seconds": 0.05,
        **overrides,
    }
    return AgentSettings(_env_file=None, **values)


def within(seconds: float, call: Callable[[], Any]) -> Any:
    """Return what ``call`` returns or raise what it raises; fail the test if it takes longer."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = call()
        except BaseException as raised:  # noqa: BLE001 - re-raised in the test thread below
            outcome["error"] = raised

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"no answer after {seconds:.0f} s: the client hangs or keeps retrying")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def ask(model: Any, mode: str, prompt: str = "Quel temps à Versailles ?") -> AIMessage | AIMessageChunk:
    """One model call in ``mode``; streamed chunks are added up into one message."""

    async def collect_async() -> AIMessageChunk:
        chunks = [chunk async for chunk in model.astream(prompt)]
        return sum(chunks[1:], chunks[0])

    if mode == "invoke":
        return within(DEADLINE_S, lambda: model.invoke(prompt))
    if mode == "ainvoke":
        return within(DEADLINE_S, lambda: asyncio.run(model.ainvoke(prompt)))
    if mode == "stream":
        chunks = within(DEADLINE_S, lambda: list(model.stream(prompt)))
        return sum(chunks[1:], chunks[0])
    return within(DEADLINE_S, lambda: asyncio.run(collect_async()))


def fail(model: Any, mode: str) -> ProviderError:
    """The :class:`ProviderError` a call in ``mode`` raises (anything else fails the test)."""
    with pytest.raises(ProviderError) as raised:
        ask(model, mode)
    return raised.value


@pytest.mark.parametrize("provider", PROVIDERS)
def test_tool_call_is_parsed_after_bind_tools(provider: str, server: FakeChatServer) -> None:
    server.reply(completion(None, [tool_call("get_weather", '{"city": "Versailles", "days": 2}')]))
    model = build_chat_model(chat_settings(provider, server.base_url)).bind_tools([get_weather])

    message = ask(model, "invoke")

    assert [(call["name"], call["args"]) for call in message.tool_calls] == [
        ("get_weather", {"city": "Versailles", "days": 2})
    ]
    assert message.invalid_tool_calls == []
    (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    assert request.body["model"] == {"mistral": "mistral-small-latest", "openai": "gpt-4o-mini"}[provider]
    assert [spec["function"]["name"] for spec in request.body["tools"]] == ["get_weather"]


@pytest.mark.parametrize("mode", ["stream", "astream"])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_streamed_tool_call_is_parsed(provider: str, mode: str, server: FakeChatServer) -> None:
    server.reply(streamed_tool_call("get_weather", '{"city": "Versailles", "days": 2}'))
    model = build_chat_model(chat_settings(provider, server.base_url)).bind_tools([get_weather])

    message = ask(model, mode)

    assert [(call["name"], call["args"]) for call in message.tool_calls] == [
        ("get_weather", {"city": "Versailles", "days": 2})
    ]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_structured_output_is_parsed_and_retried(provider: str, server: FakeChatServer) -> None:
    fields = '{"language": "fr", "party_size": 4}'
    if provider == "openai":  # json_schema by default: the answer is the JSON content
        answer = completion(fields)
    else:  # function calling by default: the answer is a call named after the schema
        answer = completion(None, [tool_call("VisitRequest", fields)])
    server.reply(error(429), answer)
    structured = build_chat_model(chat_settings(provider, server.base_url)).with_structured_output(
        VisitRequest
    )

    result = within(DEADLINE_S, lambda: structured.invoke("Nous sommes quatre, en français svp."))

    assert result == VisitRequest(language="fr", party_size=4)
    assert len(server.requests) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_streamed_text_arrives_in_several_chunks(provider: str, server: FakeChatServer) -> None:
    pieces = ["Le château ", "ouvre à ", "9 h, ", "sauf le lundi."]
    server.reply(streamed_text(pieces))
    model = build_chat_model(chat_settings(provider, server.base_url))

    chunks = within(DEADLINE_S, lambda: list(model.stream("Quand ouvre le château ?")))

    assert [chunk.content for chunk in chunks if chunk.content] == pieces
    assert "".join(str(chunk.content) for chunk in chunks) == "Le château ouvre à 9 h, sauf le lundi."
    assert server.requests[0].body["stream"] is True


@pytest.mark.parametrize("mode", CALL_MODES)
@pytest.mark.parametrize("provider", PROVIDERS)
def test_rate_limit_then_success_is_retried(provider: str, mode: str, server: FakeChatServer) -> None:
    answer = streamed_text(["Bonjour", " !"]) if "stream" in mode else completion("Bonjour !")
    server.reply(error(429, "slow down"), answer)
    model = build_chat_model(chat_settings(provider, server.base_url))

    message = ask(model, mode)

    assert message.content == "Bonjour !"
    assert len(server.requests) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_bound_tools_survive_a_retry(provider: str, server: FakeChatServer) -> None:
    server.reply(error(503), completion(None, [tool_call("get_weather", '{"city": "Paris", "days": 1}')]))
    model = build_chat_model(chat_settings(provider, server.base_url)).bind_tools([get_weather])

    message = ask(model, "invoke")

    assert message.tool_calls[0]["args"] == {"city": "Paris", "days": 1}
    assert len(server.requests) == 2
    assert all("tools" in request.body for request in server.requests)


@pytest.mark.parametrize("mode", CALL_MODES)
@pytest.mark.parametrize("provider", PROVIDERS)
def test_persistent_server_error_gives_up_after_max_retries(
    provider: str, mode: str, server: FakeChatServer
) -> None:
    server.reply(error(500, "the fake server is broken on purpose"))
    model = build_chat_model(chat_settings(provider, server.base_url, max_retries=2))
    started = time.perf_counter()

    failure = fail(model, mode)

    assert time.perf_counter() - started < 3.0
    assert len(server.requests) == 3
    assert (failure.provider, failure.kind, failure.status_code, failure.attempts) == (
        provider,
        "server_error",
        500,
        3,
    )
    assert "HTTP 500" in str(failure)
    assert "after 3 attempts" in str(failure)
    assert "AGENT_PROVIDER" in str(failure)


@pytest.mark.parametrize(("status", "hint"), [(400, "AGENT_MODEL"), (401, "_API_KEY"), (404, "AGENT_MODEL")])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_client_errors_are_not_retried(provider: str, status: int, hint: str, server: FakeChatServer) -> None:
    server.reply(error(status))
    model = build_chat_model(chat_settings(provider, server.base_url))

    failure = fail(model, "invoke")

    assert len(server.requests) == 1
    assert (failure.kind, failure.status_code) == ("rejected", status)
    assert hint in str(failure)


@pytest.mark.parametrize("mode", ["invoke", "stream"])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_silent_server_times_out_per_attempt(provider: str, mode: str, server: FakeChatServer) -> None:
    server.reply(Reply(hang=True))
    settings = chat_settings(provider, server.base_url, request_timeout_seconds=1.0, max_retries=1)
    model = build_chat_model(settings)
    started = time.perf_counter()

    failure = fail(model, mode)

    elapsed = time.perf_counter() - started
    assert 2.0 <= elapsed < 2 * 1.0 + 1.5  # two attempts of one second, tiny backoff
    assert len(server.requests) == 2
    assert (failure.kind, failure.attempts) == ("timeout", 2)
    assert "AGENT_REQUEST_TIMEOUT_SECONDS" in str(failure)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_unreachable_server_is_retried_then_reported(provider: str) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    model = build_chat_model(chat_settings(provider, f"http://127.0.0.1:{port}/v1"))

    failure = fail(model, "invoke")

    assert (failure.kind, failure.attempts) == ("unreachable", 3)
    assert f"{provider.upper()}_BASE_URL" in str(failure)


@pytest.mark.parametrize("mode", CALL_MODES)
@pytest.mark.parametrize("provider", PROVIDERS)
def test_invalid_json_arguments_become_an_invalid_tool_call(
    provider: str, mode: str, server: FakeChatServer
) -> None:
    broken = '{"city": Versailles, "days": 2}'
    if "stream" in mode:
        server.reply(streamed_tool_call("get_weather", broken))
    else:
        server.reply(completion(None, [tool_call("get_weather", broken)]))
    model = build_chat_model(chat_settings(provider, server.base_url)).bind_tools([get_weather])

    message = ask(model, mode)

    assert message.tool_calls == []
    (invalid,) = message.invalid_tool_calls
    assert (invalid["name"], invalid["args"]) == ("get_weather", broken)
    assert len(server.requests) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_truncated_arguments_differ_between_invoke_and_stream(provider: str, server: FakeChatServer) -> None:
    """Streamed arguments go through langchain-core's partial JSON parser, which completes them.

    So a truncated stream yields a tool call with keys missing: tools must validate their arguments.
    """
    truncated = '{"city": "Versailles", "days": '
    server.reply(
        completion(None, [tool_call("get_weather", truncated)]), streamed_tool_call("get_weather", truncated)
    )
    model = build_chat_model(chat_settings(provider, server.base_url)).bind_tools([get_weather])

    invoked, streamed = ask(model, "invoke"), ask(model, "stream")

    assert [(call["name"], call["args"]) for call in invoked.invalid_tool_calls] == [
        ("get_weather", truncated)
    ]
    assert [(call["name"], call["args"]) for call in streamed.tool_calls] == [
        ("get_weather", {"city": "Versailles"})
    ]


@pytest.mark.parametrize("mode", ["invoke", "ainvoke"])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_object_arguments_are_read_when_not_streaming(
    provider: str, mode: str, server: FakeChatServer
) -> None:
    arguments = {"city": "Versailles", "days": 2}  # a JSON object where the API specifies a string
    server.reply(completion(None, [tool_call("get_weather", arguments)]))
    model = build_chat_model(chat_settings(provider, server.base_url)).bind_tools([get_weather])

    if provider == "mistral":  # agents.models.llm normalises them: some Mistral-compatible servers do this
        message = ask(model, mode)
        assert [(call["name"], call["args"]) for call in message.tool_calls] == [("get_weather", arguments)]
    else:  # the openai SDK's typed response cannot hold them: a clear error, not a traceback
        failure = fail(model, mode)
        assert failure.kind == "malformed"
        assert "OPENAI_BASE_URL" in str(failure)
    assert len(server.requests) == 1


@pytest.mark.parametrize("mode", ["stream", "astream"])
def test_streamed_object_arguments_from_mistral_are_reported(mode: str, server: FakeChatServer) -> None:
    server.reply(streamed_tool_call("get_weather", {"city": "Versailles", "days": 2}))
    model = build_chat_model(chat_settings("mistral", server.base_url)).bind_tools([get_weather])

    failure = fail(model, mode)

    assert failure.kind == "malformed"
    assert "MISTRAL_BASE_URL" in str(failure)
    assert len(server.requests) == 1


@pytest.mark.parametrize("mode", ["invoke", "stream"])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_body_that_is_not_json_is_reported_without_retry(
    provider: str, mode: str, server: FakeChatServer
) -> None:
    if "stream" in mode:
        server.reply(Reply(events=["<html>this is not json{"]))
    else:
        server.reply(Reply(raw=b"<html>this is not json{"))
    model = build_chat_model(chat_settings(provider, server.base_url))

    failure = fail(model, mode)

    assert failure.kind == "malformed"
    assert len(server.requests) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_stream_answered_with_plain_json_is_reported(provider: str, server: FakeChatServer) -> None:
    server.reply(completion("Bonjour"))  # a server ignoring "stream": true
    model = build_chat_model(chat_settings(provider, server.base_url))

    failure = fail(model, "stream")

    assert failure.kind == "malformed"
    assert len(server.requests) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_failure_after_first_chunk_is_reported_not_retried(provider: str, server: FakeChatServer) -> None:
    first = streamed_text(["Le château "]).events or []
    server.reply(Reply(events=[*first[:2], "<html>broken{"]))
    model = build_chat_model(chat_settings(provider, server.base_url))
    received: list[Any] = []

    def consume() -> None:
        for chunk in model.stream("Quand ouvre le château ?"):
            received.append(chunk)

    with pytest.raises(ProviderError) as raised:
        within(DEADLINE_S, consume)

    assert "".join(str(chunk.content) for chunk in received) == "Le château "
    assert raised.value.kind == "malformed"
    assert "middle of a streamed answer" in str(raised.value)
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({}, "offline"),
        ({"MISTRAL_API_KEY": "m"}, "mistral"),
        ({"OPENAI_API_KEY": "o"}, "openai"),
        ({"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"}, "openai"),
        ({"MISTRAL_API_KEY": "m", "OPENAI_API_KEY": "o"}, "mistral"),
        ({"MISTRAL_API_KEY": "", "OPENAI_API_KEY": "o"}, "openai"),
        ({"AGENT_PROVIDER": "openai", "MISTRAL_API_KEY": "m"}, "openai"),
        ({"AGENT_PROVIDER": "offline", "MISTRAL_API_KEY": "m"}, "offline"),
        ({"AGENT_PROVIDER": "", "OPENAI_API_KEY": "o"}, "openai"),
    ],
)
def test_resolved_provider_from_environment(
    environment: dict[str, str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)

    assert AgentSettings(_env_file=None).resolved_provider == expected


def test_explicit_value_beats_environment_which_beats_dotenv(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text("AGENT_PROVIDER=mistral\nAGENT_MAX_RETRIES=7\nAGENT_MODEL=from-dotenv\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AGENT_MODEL", "from-environment")

    from_files = AgentSettings()
    explicit = AgentSettings(provider="openai", model="explicit")

    assert (from_files.resolved_provider, from_files.resolved_model, from_files.max_retries) == (
        "mistral",
        "from-environment",
        7,
    )
    assert (explicit.resolved_provider, explicit.resolved_model) == ("openai", "explicit")


@pytest.mark.parametrize(
    ("provider", "model"),
    [("mistral", "mistral-small-latest"), ("openai", "gpt-4o-mini"), ("offline", "offline-extractive")],
)
def test_resolved_model_defaults_per_provider(provider: str, model: str) -> None:
    assert AgentSettings(_env_file=None, provider=provider).resolved_model == model


def test_offline_uses_the_factory_it_is_given() -> None:
    offline = FakeListChatModel(responses=["Bonjour"])
    seen: list[AgentSettings] = []

    def factory(settings: AgentSettings) -> BaseChatModel:
        seen.append(settings)
        return offline

    settings = AgentSettings(_env_file=None)

    assert build_chat_model(settings, offline_factory=factory) is offline
    assert seen == [settings]


def test_offline_without_a_factory_says_what_to_configure() -> None:
    with pytest.raises(ProviderError, match="MISTRAL_API_KEY") as raised:
        build_chat_model(AgentSettings(_env_file=None, provider="offline"))

    assert raised.value.kind == "not_configured"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_missing_key_names_the_variable(provider: str) -> None:
    with pytest.raises(ProviderError, match=f"{provider.upper()}_API_KEY"):
        build_chat_model(AgentSettings(_env_file=None, provider=provider))


def test_importing_the_factory_loads_no_provider_package() -> None:
    code = (
        "import sys, agents.models.llm, agents.config\n"
        "loaded = {'langchain_mistralai', 'langchain_openai', 'openai'} & set(sys.modules)\n"
        "assert not loaded, loaded\n"
    )
    root = Path(__file__).resolve().parents[2]
    environment = {**os.environ, "PYTHONPATH": str(root)}
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root, env=environment, timeout=60)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_key_echoed_by_the_server_never_reaches_the_user(provider: str, server: FakeChatServer) -> None:
    server.reply(error(400, f"invalid request for key {API_KEY} (Bearer {API_KEY})"))
    model = build_chat_model(chat_settings(provider, server.base_url))

    failure = fail(model, "invoke")

    assert API_KEY not in str(failure) and "***" in str(failure)


@pytest.mark.parametrize(("provider", "prefix"), [("mistral", "mistralai"), ("openai", "openai")])
def test_provider_colon_model_selects_the_provider_and_the_model(
    provider: str, prefix: str, server: FakeChatServer
) -> None:
    server.reply(
        error(429), completion(None, [tool_call("get_weather", '{"city": "Versailles", "days": 2}')])
    )
    settings = AgentSettings(
        _env_file=None,
        model=f"{prefix}:house-model-2",  # no AGENT_PROVIDER: the prefix chooses
        retry_initial_wait_seconds=0.01,
        retry_max_wait_seconds=0.05,
        **{f"{provider}_api_key": API_KEY, f"{provider}_base_url": server.base_url},
    )
    model = build_chat_model(settings).bind_tools([get_weather])

    message = ask(model, "invoke")

    assert settings.resolved_provider == provider
    assert message.tool_calls[0]["args"] == {"city": "Versailles", "days": 2}
    assert [request.body["model"] for request in server.requests] == ["house-model-2"] * 2  # 429 retried
    assert all(request.headers["authorization"] == f"Bearer {API_KEY}" for request in server.requests)


def test_an_ollama_model_name_with_a_colon_is_a_model_not_a_provider(server: FakeChatServer) -> None:
    server.reply(completion("Bonjour"))
    settings = AgentSettings(_env_file=None, model="mistral:7b", openai_base_url=server.base_url)

    assert ask(build_chat_model(settings), "invoke").content == "Bonjour"
    assert (settings.resolved_provider, server.requests[0].body["model"]) == ("openai", "mistral:7b")


def test_another_installed_provider_gets_the_same_retries_and_sentences(
    server: FakeChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Azure OpenAI (its class ships in langchain-openai) stands for any provider the user installs."""
    azure_key = "azure-key-4d1f"
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", azure_key)
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", server.base_url.removesuffix("/v1"))
    monkeypatch.setenv("OPENAI_API_VERSION", "2024-10-21")
    settings = AgentSettings(
        _env_file=None,
        model="azure_openai:gpt-4o",
        retry_initial_wait_seconds=0.01,
        retry_max_wait_seconds=0.05,
    )
    model = build_chat_model(settings)
    server.reply(error(503), completion("Bonjour"))

    assert ask(model, "invoke").content == "Bonjour"
    assert len(server.requests) == 2
    assert server.requests[0].path.startswith("/openai/deployments/gpt-4o/chat/completions")

    server.reply(error(500))
    failure = fail(model, "invoke")
    assert (failure.provider, failure.kind, failure.attempts) == ("azure_openai", "server_error", 3)
    assert "after 3 attempts" in str(failure)

    server.reply(error(400, f"bad request for key {azure_key}"))
    assert azure_key not in str(fail(model, "invoke"))


def test_a_provider_whose_package_is_missing_names_the_package_to_install() -> None:
    import importlib.util

    if importlib.util.find_spec("langchain_anthropic") is not None:
        pytest.skip("langchain-anthropic is installed here")
    with pytest.raises(ProviderError) as raised:
        build_chat_model(AgentSettings(_env_file=None, model="anthropic:claude-sonnet-4-5"))

    assert "pip install -c constraints.txt langchain-anthropic" in str(raised.value)
    assert raised.value.kind == "not_configured"


def test_agent_provider_and_a_different_prefix_are_refused_in_one_sentence() -> None:
    from pydantic import ValidationError

    from rag.errors import error_sentence

    with pytest.raises(ValidationError) as raised:
        AgentSettings(_env_file=None, provider="mistral", model="openai:gpt-4.1-mini")

    assert error_sentence(raised.value).startswith(
        "AGENT_PROVIDER=mistral and AGENT_MODEL=openai:gpt-4.1-mini name different providers"
    )


def test_other_sdks_transport_errors_are_classified_by_their_names() -> None:
    """Anthropic, Groq (Stainless SDKs), botocore and google-api-core name these errors alike."""
    from agents.models.llm import classify_failure

    class APIConnectionError(Exception): ...

    class APITimeoutError(APIConnectionError): ...

    class EndpointConnectionError(Exception): ...

    class DeadlineExceeded(Exception): ...

    assert classify_failure(APITimeoutError("request timed out")) == "timeout"
    assert classify_failure(DeadlineExceeded("504")) == "timeout"
    assert classify_failure(APIConnectionError("connection refused")) == "unreachable"
    assert classify_failure(EndpointConnectionError("no route")) == "unreachable"
    assert classify_failure(RuntimeError("a bug in a tool")) is None
