"""The history sent to a model: repaired to both providers' rules, then condensed to a budget."""

from __future__ import annotations

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately

from agents.graph.history_budget import within_budget
from agents.graph.thread_rules import FAILED_TURN_NOTE, questions_asked, sendable, unfinished


def searched(number: int, passages: str = "passage " * 400) -> list[AnyMessage]:
    """One knowledge-base turn: question, tool call, a large tool result, answer."""
    call = {"name": "search_knowledge_base", "args": {"query": "q"}, "id": f"c{number}", "type": "tool_call"}
    return [
        HumanMessage(f"Question {number}?"),
        AIMessage("", tool_calls=[call]),
        ToolMessage(passages, tool_call_id=f"c{number}"),
        AIMessage(f"Answer {number}."),
    ]


def test_an_unanswered_tool_exchange_and_empty_or_malformed_replies_are_left_out_and_the_turn_closed() -> (
    None
):
    call = {"name": "search_knowledge_base", "args": {"query": "q"}, "id": "a", "type": "tool_call"}
    broken = [
        HumanMessage("One?"),
        AIMessage("", tool_calls=[call, {**call, "id": "b"}]),
        ToolMessage("result", tool_call_id="a"),  # b never answered
        HumanMessage("Two?"),
        AIMessage("", invalid_tool_calls=[{"name": "x", "args": "{", "id": "c", "error": None}]),
        HumanMessage("Three?"),
        AIMessage(""),
        HumanMessage("Four?"),
    ]

    shown = sendable(broken)

    assert [(type(m).__name__, m.text) for m in shown] == [
        ("HumanMessage", "One?"),
        ("AIMessage", FAILED_TURN_NOTE),
        ("HumanMessage", "Two?"),
        ("AIMessage", FAILED_TURN_NOTE),
        ("HumanMessage", "Three?"),
        ("AIMessage", FAILED_TURN_NOTE),
        ("HumanMessage", "Four?"),
    ]
    assert unfinished(broken) and not unfinished(searched(1))


def test_a_complete_exchange_is_kept_with_its_results_right_after_the_call() -> None:
    turn = searched(1)
    moved = [turn[0], turn[1], AIMessage("Answer 1."), turn[2]]  # a result stored after the answer

    assert [type(m).__name__ for m in sendable([*moved, HumanMessage("Next?")])] == [
        "HumanMessage", "AIMessage", "ToolMessage", "AIMessage", "HumanMessage",
    ]  # fmt: skip


def test_older_turns_keep_their_question_and_answer_but_not_their_passages() -> None:
    thread = [message for number in range(1, 21) for message in searched(number)] + [HumanMessage("Now?")]

    shown = within_budget(sendable(thread), full_turns=1, max_tokens=100_000)

    assert sum(isinstance(m, ToolMessage) for m in shown) == 1  # the previous turn's only
    assert [m.text for m in shown if isinstance(m, AIMessage) and m.text][:2] == ["Answer 1.", "Answer 2."]
    assert shown[-1].text == "Now?"


def test_the_history_is_trimmed_to_its_token_budget_from_the_oldest_turn_and_starts_on_a_question() -> None:
    thread = [message for number in range(1, 51) for message in searched(number)] + [HumanMessage("Now?")]

    shown = within_budget(sendable(thread), full_turns=1, max_tokens=1500)

    assert count_tokens_approximately(shown) <= 1500
    assert isinstance(shown[0], HumanMessage) and shown[-1].text == "Now?"
    assert "Answer 49." in [m.text for m in shown]


def test_questions_are_counted_alike_in_messages_and_as_a_server_shows_them() -> None:
    """The turn cap counts the same on the visitor page (messages) and on the served API (JSON)."""
    messages: list[AnyMessage] = [HumanMessage("Hours?"), AIMessage("9 am."), HumanMessage("Prices?")]
    shown = [{"type": message.type, "content": message.content} for message in messages]

    assert questions_asked(messages) == questions_asked(shown) == 2
