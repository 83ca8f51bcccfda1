"""A conversation stored before the passages, the trace and the answer became typed still opens.

``tests/data/thread_stored_before_issue_19.sqlite`` was written by the code before issue 19 (the
evidence, trace and tool results as dicts; the answer as a string): one turn with a knowledge-base
search and a weather call. Today's graph reads it and continues the conversation.
"""

from __future__ import annotations

import logging
import shutil
import warnings
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from agents.config import AgentSettings
from agents.conversations.checkpoints import open_checkpoints
from agents.graph.schemas import GapAnalysis
from tests.fakes import tool_call
from tests.integration.test_agent_graph import build

STORED = Path(__file__).resolve().parent.parent / "data" / "thread_stored_before_issue_19.sqlite"
THREAD = {"configurable": {"thread_id": "before-issue-19"}, "recursion_limit": 25}


def test_a_thread_stored_before_opens_and_continues(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "threads.sqlite"
    shutil.copy(STORED, path)
    checkpoints = open_checkpoints(AgentSettings(_env_file=None, checkpoint_path=path))
    script = [
        AIMessage("", tool_calls=[tool_call("search_knowledge_base", {"query": "tarif billet"})]),
        GapAnalysis(answered=["price"]),
        "Tickets are sold online [1].",
    ]
    graph = build(script, checkpointer=checkpoints.saver).graph
    caplog.set_level(logging.WARNING)
    try:
        before = graph.get_state(THREAD).values
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            graph.invoke({"messages": [HumanMessage("And how much is a ticket?")]}, THREAD)
            after = graph.get_state(THREAD).values  # the whole state: a run returns only the output
    finally:
        checkpoints.close()

    assert before["messages"][-1].content == "The palace opens at nine [1]; sunny on 1 June."
    assert [m.content for m in after["messages"] if isinstance(m, HumanMessage)] == [
        "When does the palace open, and the weather on 1 June?",
        "And how much is a ticket?",
    ]
    assert after["reply"].text == "Tickets are sold online [1]."
    assert [p.chunk_id for p in after["evidence"]] == ["tarif-billet#1", "tarif-billet#2"]
    assert after["tool_results"] == []
    reopened = open_checkpoints(AgentSettings(_env_file=None, checkpoint_path=path))
    graph_again = build([], checkpointer=reopened.saver).graph
    try:
        stored = graph_again.get_state(THREAD).values
    finally:
        reopened.close()
    assert stored["reply"].citations[0].passages[0].chunk_id == "tarif-billet#1"
    assert not [r for r in caplog.records if "unregistered type" in r.getMessage()]  # our types are allowed
