"""What the app reads from the service: verdicts per round, scores per stage, tokens, cited passages."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage

from agents.config import AgentSettings
from agents.events import (
    AgentEvent,
    CritiqueGiven,
    FinalAnswer,
    GapAnalysed,
    ModelCalled,
    NodeFinished,
    ToolReturned,
)
from agents.graph.schemas import Critique, GapAnalysis
from agents.service import AgentService
from app_ui.presenters import Turn, retrieval_tables, timeline_rows
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, make_settings
from tests.fakes import ScriptedChatModel, tool_call


def _usage(inputs: int, outputs: int) -> dict[str, int]:
    return {"input_tokens": inputs, "output_tokens": outputs, "total_tokens": inputs + outputs}


@pytest.fixture
def events(corpus: Path, tmp_path: Path) -> list[AgentEvent]:
    """One turn with two rounds: the critique asks for a follow-up search, the second round suffices."""
    settings = make_settings(tmp_path / "index")
    embedder = HashingEmbedder()
    index_corpus([corpus], settings, embedder=embedder)
    script: list[object] = [
        AIMessage(
            "",
            tool_calls=[tool_call("search_knowledge_base", query="palace opening hours")],
            usage_metadata=_usage(120, 12),
        ),
        GapAnalysis(answered=["hours"], missing=["price"], follow_up_queries=["passport ticket price"]),
        Critique(sufficient=False, reason="The price is missing."),
        GapAnalysis(answered=["hours", "price"]),
        AIMessage(
            "The palace hours are in the first passage [1]; the ticket price in the second [2].",
            usage_metadata=_usage(300, 20),
        ),
    ]
    service = AgentService(
        settings=AgentSettings(_env_file=None, checkpoint_path=tmp_path / "threads.sqlite"),
        retriever=HybridRetriever(settings, embedder=embedder),
        llm=ScriptedChatModel(script=script),
    )
    return list(service.stream("When does the palace open and how much is a ticket?", "t"))


def test_each_round_has_its_gap_analysis_and_critique_verdict(events: list[AgentEvent]) -> None:
    gaps = [event for event in events if isinstance(event, GapAnalysed)]
    verdicts = [event for event in events if isinstance(event, CritiqueGiven)]

    assert [gap.follow_up_queries for gap in gaps] == [["passport ticket price"], []]
    assert (verdicts[0].sufficient, verdicts[0].reason) == (False, "The price is missing.")
    assert verdicts[1].sufficient


def test_searches_carry_their_hits_with_every_stage_score(events: list[AgentEvent]) -> None:
    searches = [event for event in events if isinstance(event, ToolReturned)]

    assert [search.args["query"] for search in searches] == ["palace opening hours", "passport ticket price"]
    assert all(search.hits and {"bm25", "dense", "rrf"} <= set(search.hits[0].scores) for search in searches)
    assert all(search.ms is not None for search in searches)


def test_model_calls_report_tokens_when_the_provider_does(events: list[AgentEvent]) -> None:
    calls = [event for event in events if isinstance(event, ModelCalled)]
    final = events[-1]

    assert [(call.node, call.input_tokens) for call in calls] == [
        ("agent", 120), ("gap_analysis", None), ("self_critique", None), ("gap_analysis", None),
        ("synthesize", 300),
    ]  # fmt: skip
    assert isinstance(final, FinalAnswer)
    assert (final.input_tokens, final.output_tokens) == (420, 32)
    assert final.model_calls == sum(call.calls for call in calls)


def test_the_final_answer_carries_the_cited_passages(events: list[AgentEvent]) -> None:
    final = events[-1]

    assert isinstance(final, FinalAnswer)
    cited = final.reply.cited_passages()
    assert [passage.number for _, passage in cited] == final.citations == [1, 2]
    assert "nine in the morning" in cited[0][1].text
    assert cited[0][1].page == final.reply.citations[0].page


def test_nodes_report_their_duration(events: list[AgentEvent]) -> None:
    finished = [event for event in events if isinstance(event, NodeFinished)]

    assert finished and all(event.ms is not None and event.ms >= 0 for event in finished)


def test_a_turn_record_feeds_the_inspectors_tables(events: list[AgentEvent]) -> None:
    turn = Turn("question")
    for event in events:
        turn.add(event)

    assert turn.rounds == 2
    assert [query for query, _ in retrieval_tables(turn.events)] == [
        "palace opening hours",
        "passport ticket price",
    ]
    assert "critique" in {row["event"] for row in timeline_rows(turn.events)}
    assert any("**Critique, round 1**: not sufficient" in line for line in turn.steps)
    assert any("**Critique, round 2**: sufficient" in line for line in turn.steps)
