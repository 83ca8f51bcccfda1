"""The turn's request is kept in the checkpoint and read back as a TurnRequest by the next turn."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.sqlite import SqliteSaver

from agents.checkpoints import state_serializer
from agents.reading.request import TurnRequest
from agents.schemas import GapAnalysis
from tests.integration.test_agent_graph import build, calls_to


def _graph(path: Path, script: list[Any]) -> tuple[Any, sqlite3.Connection]:
    connection = sqlite3.connect(path, check_same_thread=False)
    return build(script, checkpointer=SqliteSaver(connection, serde=state_serializer())).graph, connection


def test_a_stored_thread_gives_its_request_back_and_the_next_turn_inherits_from_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = {"configurable": {"thread_id": "visitor"}, "recursion_limit": 25}
    first = [
        calls_to("search_knowledge_base", query="horaires"),
        GapAnalysis(answered=["hours"]),
        "Ouvert [1].",
    ]
    graph, connection = _graph(tmp_path / "threads.sqlite", first)
    graph.invoke({"messages": [HumanMessage("What are the opening hours of the palace?")]}, config)
    connection.close()

    second = [
        calls_to("search_knowledge_base", query="lundi"),
        GapAnalysis(answered=["monday"]),
        "Fermé [1].",
    ]
    graph, connection = _graph(tmp_path / "threads.sqlite", second)
    with caplog.at_level(logging.WARNING):
        stored = TurnRequest.model_validate(graph.get_state(config).values["request"])
        state = graph.invoke({"messages": [HumanMessage("And on Monday?")]}, config)
    connection.close()

    assert stored.message == "What are the opening hours of the palace?"
    request = TurnRequest.model_validate(state["request"])
    assert request.elliptical and request.knowledge_base.subject == stored.knowledge_base.subject
    assert not [r for r in caplog.records if "unregistered" in r.getMessage().lower()]
