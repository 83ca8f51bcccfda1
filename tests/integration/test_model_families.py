"""Every model family gets the parameters it accepts: the real clients, as :mod:`agents.models.llm` builds
them, against the strict fake server, which answers 400 where the real API would (a temperature
sent to an OpenAI reasoning model, ``max_tokens`` where ``max_completion_tokens`` is required)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from agents.config import AgentSettings
from agents.events import FinalAnswer
from agents.models.llm import build_chat_model
from agents.service import AgentService
from rag.retriever import HybridRetriever
from tests.fake_chat_server import FakeChatServer, completion, tool_call
from tests.integration.test_chat_providers import chat_settings
from tests.integration.test_conversation_threads import retriever  # noqa: F401 - a fixture

pytestmark = pytest.mark.usefixtures("no_network_leaks")


@pytest.fixture
def openai() -> Iterator[FakeChatServer]:
    fake = FakeChatServer(rules="openai").start()
    yield fake
    fake.stop()


@pytest.mark.parametrize("model", ["o1", "o3-mini", "o4-mini", "gpt-5-mini"])
def test_reasoning_models_are_sent_no_temperature_and_no_max_tokens(
    openai: FakeChatServer, model: str
) -> None:
    openai.reply(completion("Bonjour."))
    llm = build_chat_model(chat_settings("openai", openai.base_url, model=model))

    assert llm.invoke("Bonjour").text == "Bonjour."
    assert openai.rejected == []
    assert openai.requests[0].body.get("temperature") is None and "max_tokens" not in openai.requests[0].body


@pytest.mark.parametrize(
    ("provider", "model"), [("openai", "gpt-4o-mini"), ("mistral", "mistral-small-latest")]
)
def test_models_that_take_a_temperature_get_the_configured_one(provider: str, model: str) -> None:
    server = FakeChatServer(rules=provider).start()  # type: ignore[arg-type]
    try:
        server.reply(completion("Bonjour."))
        build_chat_model(chat_settings(provider, server.base_url, model=model, temperature=0.3)).invoke("Hi")
    finally:
        server.stop()

    assert server.rejected == [] and server.requests[0].body["temperature"] == 0.3


@pytest.mark.parametrize("provider", ["mistral", "openai"])
def test_streaming_can_be_switched_off(provider: str) -> None:
    server = FakeChatServer(rules=provider).start()  # type: ignore[arg-type]
    try:
        server.reply(completion("Le château ouvre à 9 h."))
        llm = build_chat_model(chat_settings(provider, server.base_url, streaming=False))
        chunks = list(llm.stream("Horaires ?"))
    finally:
        server.stop()

    assert "".join(chunk.text for chunk in chunks) == "Le château ouvre à 9 h."
    assert not server.requests[0].body.get("stream")


def test_an_openai_turn_with_gap_analysis_prints_no_serializer_warning(
    openai: FakeChatServer,
    retriever: HybridRetriever,  # noqa: F811 - the fixture
) -> None:
    analysis = {"answered": ["hours"], "missing": [], "follow_up_queries": []}
    openai.reply(
        completion(None, [tool_call("search_knowledge_base", json.dumps({"query": "horaires"}))]),
        completion(json.dumps(analysis)),
        completion("The palace opens at nine [1]."),
    )
    llm = build_chat_model(chat_settings("openai", openai.base_url))
    settings = AgentSettings(_env_file=None, checkpoint_path=Path("unused.sqlite"))
    agent = AgentService(settings=settings, retriever=retriever, llm=llm, checkpointer=InMemorySaver())

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = agent.ask("Horaires ?", "t")

    assert isinstance(result, FinalAnswer) and openai.rejected == []
    assert [str(w.message) for w in caught if "serializ" in str(w.message).lower()] == []


def test_a_whole_turn_without_streaming_answers_and_never_asks_for_a_stream(
    retriever: HybridRetriever,  # noqa: F811 - the fixture
) -> None:
    server = FakeChatServer(rules="mistral").start()
    try:
        server.reply(
            completion(None, [tool_call("search_knowledge_base", json.dumps({"query": "horaires"}))]),
            completion(None, [tool_call("GapAnalysis", json.dumps({"answered": ["hours"]}), "struct001")]),
            completion("The palace opens at nine [1]."),
        )
        llm = build_chat_model(chat_settings("mistral", server.base_url, streaming=False))
        settings = AgentSettings(_env_file=None, checkpoint_path=Path("unused.sqlite"))
        agent = AgentService(settings=settings, retriever=retriever, llm=llm, checkpointer=InMemorySaver())
        result = agent.ask("Horaires ?", "t")
    finally:
        server.stop()

    assert isinstance(result, FinalAnswer) and result.answer == "The palace opens at nine [1]."
    assert server.rejected == [] and not any(request.body.get("stream") for request in server.requests)
