"""Conversations that survive real providers: the service, the real Mistral and OpenAI clients, and
a strict fake server that answers 400 to any request the real API would refuse.

Each test plays a conversation whose first turn goes wrong (a failure at one node, malformed tool
arguments, an empty reply) and then asks again: the next request must be one the provider accepts,
so a visitor is never locked out of a thread. A scripted server is a fake LLM: these tests prove
what is sent and stored, not what a real model would answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from agents.config import AgentSettings
from agents.conversations.checkpoints import state_serializer
from agents.events import ErrorOccurred, FinalAnswer
from agents.graph.thread_rules import FAILED_TURN_NOTE
from agents.models.llm import build_chat_model
from agents.service import AgentService
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, make_settings
from tests.fake_chat_server import FakeChatServer, Reply, completion, error, tool_call
from tests.integration.test_chat_providers import chat_settings

pytestmark = pytest.mark.usefixtures("no_network_leaks")
PROVIDERS = ["mistral", "openai"]


@pytest.fixture(scope="module")
def retriever(tmp_path_factory: pytest.TempPathFactory) -> HybridRetriever:
    from tests.conftest import write_corpus

    root = tmp_path_factory.mktemp("threads")
    settings = make_settings(root / "index")
    embedder = HashingEmbedder()
    index_corpus([write_corpus(root / "corpus")], settings, embedder=embedder)
    return HybridRetriever(settings, embedder=embedder)


@pytest.fixture(params=PROVIDERS)
def server(request: pytest.FixtureRequest) -> Iterator[FakeChatServer]:
    fake = FakeChatServer(rules=request.param).start()
    yield fake
    fake.stop()


def service(
    server: FakeChatServer, retriever: HybridRetriever, saver: Any = None, **overrides: Any
) -> AgentService:
    """The agent service over the real client of the server's API, failing at once (no retries)."""
    flavour = server.rules or "openai"
    llm = build_chat_model(chat_settings(flavour, server.base_url, max_retries=0, **overrides))
    settings = AgentSettings(_env_file=None, checkpoint_path=Path("unused.sqlite"))
    return AgentService(
        settings=settings, retriever=retriever, llm=llm, checkpointer=saver or InMemorySaver()
    )


def search(query: str = "horaires du château", call_id: str = "call00001") -> Reply:
    return completion(None, [tool_call("search_knowledge_base", json.dumps({"query": query}), call_id)])


def structured(flavour: str, name: str, value: dict[str, Any]) -> Reply:
    """A structured-output answer as each client asks for it: a tool call (Mistral), JSON text (OpenAI)."""
    if flavour == "mistral":
        return completion(None, [tool_call(name, json.dumps(value), "struct001")])
    return completion(json.dumps(value))


def gap(flavour: str, missing: list[str] | None = None) -> Reply:
    return structured(
        flavour, "GapAnalysis", {"answered": ["hours"], "missing": missing or [], "follow_up_queries": []}
    )


def knowledge_turn(flavour: str, answer: str = "The palace opens at nine [1].") -> list[Reply]:
    """A turn that searches once, finds nothing missing and answers."""
    return [search(), gap(flavour), completion(answer)]


# The replies of a first turn that fails at each node calling the model (HTTP 500, no retries).
FAILING_AT = {
    "agent": lambda flavour: [error(500)],
    "gap_analysis": lambda flavour: [search(), error(500)],
    "self_critique": lambda flavour: [search(), gap(flavour, ["price"]), error(500)],
    "synthesize": lambda flavour: [search(), gap(flavour), error(500)],
    "rewrite": lambda flavour: [search(), gap(flavour), completion("It opens at 4 am [1]."), error(500)],
}


def ask_next(server: FakeChatServer, agent: AgentService, thread: str) -> FinalAnswer | ErrorOccurred:
    """A second, ordinary turn on ``thread``; the strict server refuses it if the thread is broken."""
    server.reply(*knowledge_turn(server.rules or "openai"), completion("unused"))
    return agent.ask("Et le dimanche ?", thread)


@pytest.mark.parametrize("node", list(FAILING_AT))
def test_a_turn_failing_at_any_node_leaves_a_thread_the_next_turn_can_use(
    server: FakeChatServer, retriever: HybridRetriever, node: str
) -> None:
    agent = service(server, retriever)
    server.reply(*FAILING_AT[node](server.rules))

    failed = agent.ask("Quels sont les horaires du château ?", "t")
    following = ask_next(server, agent, "t")

    assert isinstance(failed, ErrorOccurred) and failed.kind == "provider"
    assert server.rejected == []
    assert isinstance(following, FinalAnswer) and following.answer == "The palace opens at nine [1]."
    sent = server.requests[-3].body["messages"]  # the second turn's tool-choosing call
    assert [m["content"] for m in sent if m["role"] == "user"][:1] == ["Quels sont les horaires du château ?"]
    assert sent[-2] == {"role": "assistant", "content": FAILED_TURN_NOTE}


@pytest.mark.parametrize("arguments", ['{"query": horaires}', "not json at all"])
def test_malformed_tool_arguments_are_asked_again_once_and_never_stored(
    server: FakeChatServer, retriever: HybridRetriever, arguments: str
) -> None:
    agent = service(server, retriever)
    broken = completion(None, [tool_call("search_knowledge_base", arguments)])
    server.reply(broken, *knowledge_turn(server.rules or "openai"))

    result = agent.ask("Horaires ?", "t")

    assert isinstance(result, FinalAnswer) and result.answer == "The palace opens at nine [1]."
    assert "not valid JSON" in server.requests[1].body["messages"][-1]["content"]  # the correction
    stored = agent.graph.get_state({"configurable": {"thread_id": "t"}}).values["messages"]
    assert not any(isinstance(m, AIMessage) and m.invalid_tool_calls for m in stored)
    assert isinstance(ask_next(server, agent, "t"), FinalAnswer) and server.rejected == []


def test_malformed_tool_arguments_twice_end_the_turn_in_one_sentence(
    server: FakeChatServer, retriever: HybridRetriever
) -> None:
    agent = service(server, retriever)
    server.reply(completion(None, [tool_call("search_knowledge_base", '{"query": horaires}')]))

    result = agent.ask("Horaires ?", "t")

    assert isinstance(result, ErrorOccurred) and result.kind == "provider"
    assert len(server.requests) == 2 and "could not be used twice" in result.message
    assert isinstance(ask_next(server, agent, "t"), FinalAnswer) and server.rejected == []


@pytest.mark.parametrize("where", ["agent", "synthesize"])
def test_an_empty_reply_is_asked_again_then_fails_without_storing_an_empty_answer(
    server: FakeChatServer, retriever: HybridRetriever, where: str
) -> None:
    agent = service(server, retriever)
    before = [] if where == "agent" else [search(), gap(server.rules or "openai")]
    server.reply(*before, completion(""), completion(""))

    result = agent.ask("Horaires ?", "t")

    assert isinstance(result, ErrorOccurred) and "empty" in result.message
    stored = agent.graph.get_state({"configurable": {"thread_id": "t"}}).values["messages"]
    assert all(m.text.strip() for m in stored if isinstance(m, AIMessage) and not m.tool_calls)
    assert isinstance(ask_next(server, agent, "t"), FinalAnswer) and server.rejected == []


def test_an_empty_reply_then_a_good_one_answers(server: FakeChatServer, retriever: HybridRetriever) -> None:
    agent = service(server, retriever)
    server.reply(completion(""), completion("Bonjour ! Comment puis-je vous aider ?"))

    result = agent.ask("Bonjour", "t")

    assert isinstance(result, FinalAnswer) and result.answer == "Bonjour ! Comment puis-je vous aider ?"


def test_a_thread_stored_broken_is_repaired_when_read(
    server: FakeChatServer, retriever: HybridRetriever
) -> None:
    """Shapes earlier versions stored: an unanswered tool exchange, malformed calls, an empty answer."""
    from langchain_core.messages import HumanMessage

    agent = service(server, retriever)
    config = {"configurable": {"thread_id": "t"}}
    broken = [
        HumanMessage("Horaires ?"),
        AIMessage(
            "", tool_calls=[{"name": "search_knowledge_base", "args": {"query": "x"}, "id": "abc123XYZ"}]
        ),
        ToolMessage('{"status": "ok", "query": "x", "hits": []}', tool_call_id="abc123XYZ"),
        HumanMessage("Prix ?"),
        AIMessage("", invalid_tool_calls=[{"name": "search_knowledge_base", "args": "{", "id": "def456XYZ"}]),
        HumanMessage("Merci"),
        AIMessage(""),
    ]
    agent.graph.update_state(config, {"messages": broken}, as_node="synthesize")

    result = ask_next(server, agent, "t")

    assert server.rejected == [] and isinstance(result, FinalAnswer)


def test_a_provider_switch_after_a_failed_turn_keeps_the_thread(retriever: HybridRetriever) -> None:
    """OpenAI's long tool-call ids and a failed turn, then Mistral with its nine-character ids."""
    saver = InMemorySaver(serde=state_serializer())
    openai, mistral = FakeChatServer(rules="openai").start(), FakeChatServer(rules="mistral").start()
    try:
        openai.reply(search(call_id="call_Zk2dR9sPqLmN0aB7xYt1"), gap("openai"), error(500))
        first = service(openai, retriever, saver).ask("Horaires du château ?", "t")
        openai.reply(*knowledge_turn("openai", "Nine to six [1]."))
        second = service(openai, retriever, saver).ask("Et les jardins ?", "t")
        third = ask_next(mistral, service(mistral, retriever, saver), "t")
    finally:
        openai.stop()
        mistral.stop()

    assert isinstance(first, ErrorOccurred) and isinstance(second, FinalAnswer)
    assert isinstance(third, FinalAnswer) and mistral.rejected == [] and openai.rejected == []


def request_size(server: FakeChatServer, turn_first_request: int) -> int:
    return len(json.dumps(server.requests[turn_first_request].body, ensure_ascii=False).encode())


def test_a_twenty_turn_conversation_stays_valid_and_within_the_history_budget(
    server: FakeChatServer, retriever: HybridRetriever
) -> None:
    agent = service(server, retriever)
    flavour = server.rules or "openai"
    first_requests = []
    for number in range(1, 21):
        first_requests.append(len(server.requests))
        answer = f"Answer number {number}: the palace opens at nine [1]. " + "More details. " * 30
        server.reply(*knowledge_turn(flavour, answer))
        result = agent.ask(f"Question {number} sur les horaires ?", "t")
        assert isinstance(result, FinalAnswer), result

    assert server.rejected == []
    turn_2, turn_20 = request_size(server, first_requests[1]), request_size(server, first_requests[19])
    assert turn_20 <= 2.5 * turn_2, (turn_2, turn_20)
    last = server.requests[first_requests[19]].body["messages"]
    assert any(m["content"].startswith("Answer number 1:") for m in last if m["role"] == "assistant")
    assert sum(m["role"] == "tool" for m in last) == 1  # only the previous turn's passages are sent again


def test_a_failed_turn_is_not_restored_as_an_answer_in_the_app(
    server: FakeChatServer, retriever: HybridRetriever
) -> None:
    agent = service(server, retriever)
    server.reply(*FAILING_AT["synthesize"](server.rules))
    agent.ask("Quels sont les horaires du château ?", "t")
    ask_next(server, agent, "t")

    turns = agent.conversation("t").turns

    assert [(turn.question, turn.final.answer) for turn in turns] == [
        ("Et le dimanche ?", "The palace opens at nine [1].")
    ]
