"""The service facade: typed events, input errors, provider failures, threads that persist."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage

from agents.config import AgentSettings
from agents.events import ErrorOccurred, FinalAnswer, NodeStarted, ToolCalled, ToolReturned
from agents.graph.schemas import GapAnalysis
from agents.graph.thread_rules import FAILED_TURN_NOTE
from agents.models.provider_errors import ProviderError
from agents.service import AgentService
from rag.config import RagSettings
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, make_settings
from tests.fakes import ScriptedChatModel, tool_call


@pytest.fixture
def retriever(corpus: Path, tmp_path: Path) -> HybridRetriever:
    settings: RagSettings = make_settings(tmp_path / "index")
    embedder = HashingEmbedder()
    index_corpus([corpus], settings, embedder=embedder)
    return HybridRetriever(settings, embedder=embedder)


def _service(retriever: HybridRetriever, tmp_path: Path, script: list[object]) -> AgentService:
    settings = AgentSettings(_env_file=None, checkpoint_path=tmp_path / "state" / "threads.sqlite")
    return AgentService(settings=settings, retriever=retriever, llm=ScriptedChatModel(script=script))


def _one_search(question: str) -> list[object]:
    return [
        AIMessage("", tool_calls=[tool_call("search_knowledge_base", query=question)]),
        GapAnalysis(answered=[question]),
        "The palace opens at nine [1].",
    ]


def test_a_turn_streams_nodes_tool_calls_results_then_the_answer(
    retriever: HybridRetriever, tmp_path: Path
) -> None:
    events = list(_service(retriever, tmp_path, _one_search("opening hours")).stream("Opening hours?", "t"))

    kinds = [type(event) for event in events]
    assert kinds.index(NodeStarted) < kinds.index(ToolCalled) < kinds.index(ToolReturned)
    final = events[-1]
    assert isinstance(final, FinalAnswer)
    assert final.tools == ["search_knowledge_base"]
    assert final.citations == [1] and final.reply.citations[0].number == 1
    assert final.model_calls == 3
    assert final.graph_overhead_ms >= 0


@pytest.mark.parametrize("question", ["", "   ", "x" * 5000])
def test_empty_or_huge_questions_are_refused_with_a_reason(
    retriever: HybridRetriever, tmp_path: Path, question: str
) -> None:
    service = _service(retriever, tmp_path, [])

    result = service.ask(question, "t")

    assert isinstance(result, ErrorOccurred)
    assert "empty" in result.message or "too long" in result.message


class FailingModel(ScriptedChatModel):
    """A provider that is down: every call fails like the retrying client's last attempt."""

    def _generate(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
        raise ProviderError(
            "The Mistral API kept answering 503; try again in a minute.",
            provider="mistral",
            kind="server_error",
        )


def test_a_provider_failure_is_an_error_event_and_the_question_is_kept(
    retriever: HybridRetriever, tmp_path: Path
) -> None:
    settings = AgentSettings(_env_file=None, checkpoint_path=tmp_path / "threads.sqlite")
    service = AgentService(settings=settings, retriever=retriever, llm=FailingModel(script=[]))

    result = service.ask("Opening hours?", "thread-1")

    assert isinstance(result, ErrorOccurred)
    assert "503" in result.message
    kept = service.graph.get_state({"configurable": {"thread_id": "thread-1"}}).values["messages"]
    assert [m.content for m in kept] == ["Opening hours?", FAILED_TURN_NOTE]  # closed for the next turn


def test_threads_persist_in_sqlite_across_service_instances(
    retriever: HybridRetriever, tmp_path: Path
) -> None:
    first = _service(retriever, tmp_path, _one_search("opening hours"))
    assert isinstance(first.ask("Opening hours?", "visitor-42"), FinalAnswer)

    second = _service(retriever, tmp_path, [])
    messages = second.graph.get_state({"configurable": {"thread_id": "visitor-42"}}).values["messages"]

    assert messages[0].content == "Opening hours?"
    assert messages[-1].content == "The palace opens at nine [1]."


def test_a_recursion_limit_too_low_for_the_rounds_is_a_configuration_error() -> None:
    with pytest.raises(ValueError, match="AGENT_RECURSION_LIMIT"):
        AgentSettings(_env_file=None, max_rounds=7, recursion_limit=25)


def test_a_structured_step_answered_in_the_wrong_shape_is_asked_again_then_ends_in_a_sentence(
    retriever: HybridRetriever, tmp_path: Path
) -> None:
    script: list[object] = [
        AIMessage("", tool_calls=[tool_call("search_knowledge_base", query="opening hours")]),
        "The evidence answers everything, I think.",  # plain text where a GapAnalysis call is due
        "Still plain text.",
    ]
    service = _service(retriever, tmp_path, script)

    result = service.ask("When does the palace open?", "shape")

    assert isinstance(result, ErrorOccurred)
    assert result.message.startswith("The model answered the gap analysis step in an unreadable shape twice")
    assert "\n" not in result.message
    assert isinstance(service.llm, ScriptedChatModel) and len(service.llm.calls) == 3  # asked twice, no more
    state = service.graph.get_state({"configurable": {"thread_id": "shape"}}).values
    assert state["messages"][0].content == "When does the palace open?"


def test_a_wrong_shape_once_is_retried_and_the_turn_goes_on(
    retriever: HybridRetriever, tmp_path: Path
) -> None:
    script: list[object] = [
        AIMessage("", tool_calls=[tool_call("search_knowledge_base", query="opening hours")]),
        "plain text",
        GapAnalysis(answered=["opening hours"]),
        "The palace opens at nine [1].",
    ]

    result = _service(retriever, tmp_path, script).ask("When does the palace open?", "retry")

    assert isinstance(result, FinalAnswer) and result.model_calls == 4


def test_a_failed_checkpoint_write_in_sqlite_says_so_and_keeps_what_was_stored(
    corpus: Path, tmp_path: Path
) -> None:
    import sqlite3

    from tests.reliability.turn_worker import build_service

    index_corpus([corpus], make_settings(tmp_path / "idx"), embedder=HashingEmbedder())
    path = tmp_path / "threads.sqlite"
    service = build_service(
        {"index_dir": str(tmp_path / "idx"), "agent": {"checkpoint_path": str(path)}, "delay": 0}
    )
    assert isinstance(service.ask("Opening hours?", "visitor-9"), FinalAnswer)
    with sqlite3.connect(path) as admin:  # a disk that refuses writes, simulated
        admin.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON checkpoints BEGIN SELECT RAISE(ABORT, 'disk full'); END"
        )

    failed = service.ask("Ticket prices?", "visitor-9")

    assert isinstance(failed, ErrorOccurred)
    assert f"could not be saved in the conversation file {path} (disk full)" in failed.message
    with sqlite3.connect(path) as admin:
        admin.execute("DROP TRIGGER refuse")
    after = service.ask("And on Mondays?", "visitor-9")
    assert isinstance(after, FinalAnswer)
    assert after.answer.startswith("Reply to And on Mondays? (earlier questions: 1)")
