"""Bounded answers: a slow or endless provider stream ends at the call's deadline and size.

The real OpenAI and Mistral clients, as :mod:`agents.models.llm` builds them, against the local fake
server streaming a token every 0.3 s or a 30 MB answer; then the whole service, whose turn ends
with the visitor's sentence and keeps the question.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from agents.config import AgentSettings
from agents.events import AnswerToken, ErrorOccurred
from agents.graph.thread_rules import FAILED_TURN_NOTE
from agents.models.llm import build_chat_model
from agents.models.provider_errors import ProviderError
from agents.service import AgentService
from app_ui.labels import Labels
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, make_settings
from tests.fake_chat_server import API_KEY, FakeChatServer, huge_text, slow_text

pytestmark = pytest.mark.usefixtures("no_network_leaks")

SLOW = ["Le ", "château ", "ouvre ", "à ", "9 h. "] * 40  # 200 tokens, 60 s at 0.3 s each
DEADLINE = 1.0
HUGE = 30_000_000


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    fake = FakeChatServer().start()
    yield fake
    fake.stop()


def bounded_settings(provider: str, base_url: str, **overrides: Any) -> AgentSettings:
    values: dict[str, Any] = {
        "provider": provider,
        f"{provider}_api_key": API_KEY,
        f"{provider}_base_url": base_url,
        "max_retries": 0,
        "request_timeout_seconds": 5.0,  # per read: a token every 0.3 s never trips it
        "model_call_deadline_seconds": DEADLINE,
        **overrides,
    }
    return AgentSettings(_env_file=None, **values)


def _stream(model: Any, mode: str) -> list[Any]:
    if mode == "stream":
        return list(model.stream("Horaires ?"))

    async def collect() -> list[Any]:
        return [chunk async for chunk in model.astream("Horaires ?")]

    return asyncio.run(collect())


@pytest.mark.parametrize("mode", ["stream", "astream"])
@pytest.mark.parametrize("provider", ["openai", "mistral"])
def test_a_slow_stream_stops_at_the_call_deadline_and_its_connection_is_closed(
    server: FakeChatServer, provider: str, mode: str
) -> None:
    server.reply(slow_text(SLOW, delay=0.3))
    model = build_chat_model(bounded_settings(provider, server.base_url))

    started = time.monotonic()
    with pytest.raises(ProviderError) as raised:
        _stream(model, mode)

    assert time.monotonic() - started < DEADLINE + 1.5
    assert raised.value.kind == "timeout"
    assert "AGENT_MODEL_CALL_DEADLINE_SECONDS" in str(raised.value)
    assert server.hung_up.wait(3), "the provider's stream was left open"
    assert server.events_sent < 12


@pytest.mark.parametrize("provider", ["openai", "mistral"])
def test_a_huge_answer_stops_at_the_answer_size(server: FakeChatServer, provider: str) -> None:
    server.reply(huge_text(HUGE))
    model = build_chat_model(
        bounded_settings(provider, server.base_url, max_answer_chars=20_000, model_call_deadline_seconds=30)
    )

    with pytest.raises(ProviderError) as raised:
        list(model.stream("Horaires ?"))

    assert "AGENT_MAX_ANSWER_CHARS" in str(raised.value)
    assert server.hung_up.wait(5), "the provider's stream was read on"
    # Events still in the sockets' buffers when it hung up; the answer held 1.25 million.
    assert server.events_sent < 100_000


def test_a_huge_non_streamed_answer_is_refused(server: FakeChatServer) -> None:
    from tests.fake_chat_server import completion

    server.reply(completion("Le château ouvre à 9 h. " * 2000))
    model = build_chat_model(bounded_settings("openai", server.base_url, max_answer_chars=20_000))

    with pytest.raises(ProviderError, match="AGENT_MAX_ANSWER_CHARS"):
        model.invoke("Horaires ?")


@pytest.fixture
def retriever(corpus: Path, tmp_path: Path) -> HybridRetriever:
    settings = make_settings(tmp_path / "index")
    embedder = HashingEmbedder()
    index_corpus([corpus], settings, embedder=embedder)
    return HybridRetriever(settings, embedder=embedder)


@pytest.mark.parametrize("reply", ["slow", "huge"])
def test_a_turn_past_its_bounds_ends_in_one_sentence_and_keeps_the_question(
    server: FakeChatServer, retriever: HybridRetriever, tmp_path: Path, reply: str
) -> None:
    server.reply(slow_text(SLOW, delay=0.3) if reply == "slow" else huge_text(HUGE))
    settings = bounded_settings(
        "openai",
        server.base_url,
        checkpoint_path=tmp_path / "threads.sqlite",
        max_answer_chars=20_000,
        model_call_deadline_seconds=DEADLINE if reply == "slow" else 30,
    )
    service = AgentService(settings=settings, retriever=retriever)

    started = time.monotonic()
    events = list(service.stream("Quels sont les horaires du château ?", "visitor-1"))

    assert time.monotonic() - started < 10
    error = events[-1]
    assert isinstance(error, ErrorOccurred) and error.kind == "provider"
    assert sum(len(e.text) for e in events if isinstance(e, AnswerToken)) < 25_000
    assert Labels("fr").error(error.kind).startswith("L'assistant ne peut pas répondre")
    kept = service.graph.get_state({"configurable": {"thread_id": "visitor-1"}}).values["messages"]
    assert [m.content for m in kept] == ["Quels sont les horaires du château ?", FAILED_TURN_NOTE]


@pytest.mark.parametrize("value", ["inf", "nan", "1e400", "0", "-5"])
def test_the_call_deadline_must_be_finite_and_positive(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("AGENT_MODEL_CALL_DEADLINE_SECONDS", value)
    with pytest.raises(ValidationError, match="model_call_deadline_seconds"):
        AgentSettings(_env_file=None)


@pytest.mark.parametrize("value", ["0", "-1", "abc"])
def test_the_answer_size_must_be_a_positive_count(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("AGENT_MAX_ANSWER_CHARS", value)
    with pytest.raises(ValidationError, match="max_answer_chars"):
        AgentSettings(_env_file=None)
