"""The graph's input is the visitor's message alone and its output the turn's outcome: what a door
sends cannot set the rest of the state, and what a run returns is not the evidence or the trace."""

from __future__ import annotations

from langchain_core.messages import HumanMessage

from agents.answer.model import Answer
from tests.integration.test_agent_graph import build


def test_the_graph_takes_only_messages_and_returns_only_the_turns_outcome() -> None:
    graph = build([]).graph

    assert set(graph.get_input_jsonschema()["properties"]) == {"messages"}
    assert set(graph.get_output_jsonschema()["properties"]) == {
        "messages",
        "reply",
        "language",
        "suggestions",
        "turn_id",
        "failure",
    }


def test_a_run_returns_the_reply_and_not_the_evidence() -> None:
    harness = build(["Hello! How can I help you plan your visit?"])
    config = {"configurable": {"thread_id": "io"}, "recursion_limit": 25}

    output = harness.graph.invoke(
        {"messages": [HumanMessage("Hello there")], "reply": Answer(text="planted"), "turn_id": "x"}, config
    )

    assert output["reply"].text == "Hello! How can I help you plan your visit?"
    assert "evidence" not in output and "trace" not in output
    assert output["turn_id"] == ""
