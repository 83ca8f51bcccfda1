"""A stored thread's next turn hands the model the visitor's messages; the state keeps no reading of
its own, and a thread stored while it held one (the offline model's request) still opens."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.sqlite import SqliteSaver
from pydantic import BaseModel

from agents.conversations.checkpoints import state_serializer
from agents.graph.gathered import Gathered, read_gathered
from agents.graph.schemas import GapAnalysis
from tests.integration.test_agent_graph import Harness, build, calls_to

CONFIG = {"configurable": {"thread_id": "visitor"}, "recursion_limit": 25}
FIRST = "What are the opening hours of the palace?"


class TurnRequest(BaseModel):
    """The turn's request as threads stored it, under the module it had then."""

    message: str
    topics: list[str] = []


TurnRequest.__module__ = "agents.reading.request"


def _graph(path: Path, script: list[Any]) -> tuple[Harness, SqliteSaver, sqlite3.Connection]:
    connection = sqlite3.connect(path, check_same_thread=False)
    saver = SqliteSaver(connection, serde=state_serializer())
    return build(script, checkpointer=saver), saver, connection


def _first_turn(path: Path) -> None:
    script = [
        calls_to("search_knowledge_base", query="horaires"),
        GapAnalysis(answered=["hours"]),
        "Ouvert [1].",
    ]
    harness, _, connection = _graph(path, script)
    harness.graph.invoke({"messages": [HumanMessage(FIRST)]}, CONFIG)
    connection.close()


def _second_turn(path: Path) -> tuple[dict[str, Any], Gathered | None]:
    script = [
        calls_to("search_knowledge_base", query="lundi"),
        GapAnalysis(answered=["monday"]),
        "Fermé [1].",
    ]
    harness, _, connection = _graph(path, script)
    harness.graph.invoke({"messages": [HumanMessage("And on Monday?")]}, CONFIG)
    state = harness.graph.get_state(CONFIG).values  # the whole state: a run returns only the output
    connection.close()
    return dict(state), read_gathered(harness.llm.calls[-1])


def test_a_follow_up_in_a_stored_thread_is_handed_with_the_visitor_messages(tmp_path: Path) -> None:
    _first_turn(tmp_path / "threads.sqlite")

    state, answering = _second_turn(tmp_path / "threads.sqlite")

    assert answering is not None and (answering.earlier, answering.question) == ([FIRST], "And on Monday?")
    assert "request" not in state and "question" not in state


def test_a_thread_stored_with_the_turns_request_opens_without_warning_and_drops_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Threads stored while the state held the turn's request (a ``TurnRequest``) still open."""
    path = tmp_path / "threads.sqlite"
    _first_turn(path)
    _, saver, connection = _graph(path, [])
    stored = saver.get_tuple(CONFIG)
    assert stored is not None and stored.parent_config is not None
    request = TurnRequest(message=FIRST, topics=["knowledge_base"])
    checkpoint = {
        **stored.checkpoint,
        "channel_values": {**stored.checkpoint["channel_values"], "request": request, "question": FIRST},
    }
    saver.put(stored.parent_config, checkpoint, stored.metadata, {})  # the same checkpoint, as stored before
    kept = saver.get_tuple(CONFIG)
    assert kept is not None and kept.checkpoint["channel_values"]["request"] == request.model_dump()
    connection.close()

    with caplog.at_level(logging.WARNING):
        state, answering = _second_turn(path)

    assert answering is not None and (answering.earlier, answering.question) == ([FIRST], "And on Monday?")
    assert "request" not in state and "question" not in state
    assert not [r for r in caplog.records if "unregistered" in r.getMessage().lower()]
