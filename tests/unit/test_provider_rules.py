"""The strict fake server's rules refuse what the real APIs refuse, and accept a valid conversation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.provider_rules import request_problem

CALL = {
    "id": "abcDEF123",
    "type": "function",
    "function": {"name": "search_knowledge_base", "arguments": "{}"},
}
VALID = [
    {"role": "system", "content": "You help visitors."},
    {"role": "user", "content": "Hours?"},
    {"role": "assistant", "content": "", "tool_calls": [CALL]},
    {"role": "tool", "tool_call_id": "abcDEF123", "content": "{}"},
    {"role": "assistant", "content": "Nine to six."},
    {"role": "user", "content": "Sunday?"},
]


def body(messages: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    return {"model": "mistral-small-latest", "messages": messages, **fields}


@pytest.mark.parametrize("flavour", ["mistral", "openai"])
def test_a_valid_conversation_is_accepted(flavour: Any) -> None:
    assert request_problem(flavour, body(VALID, temperature=0.1)) is None


def test_mistral_refuses_a_user_message_after_a_tool_message() -> None:
    broken = [*VALID[:4], {"role": "user", "content": "Sunday?"}]

    assert request_problem("mistral", body(broken)) == "Unexpected role 'user' after role 'tool'"
    assert request_problem("openai", body(broken)) is None  # OpenAI accepts this order


@pytest.mark.parametrize("flavour", ["mistral", "openai"])
def test_unanswered_tool_calls_are_refused(flavour: Any) -> None:
    broken = [*VALID[:3], {"role": "user", "content": "Sunday?"}]

    assert request_problem(flavour, body(broken))


def test_mistral_refuses_an_empty_assistant_message_and_a_long_tool_call_id() -> None:
    empty = [*VALID[:5], {"role": "assistant", "content": ""}, {"role": "user", "content": "?"}]
    long_id = [
        VALID[1],
        {"role": "assistant", "content": "", "tool_calls": [{**CALL, "id": "call_123456789"}]},
    ]

    assert "either content or tool_calls" in str(request_problem("mistral", body(empty)))
    assert "length of 9" in str(
        request_problem("mistral", body([*long_id, {**VALID[3], "tool_call_id": "x"}]))
    )


def test_openai_reasoning_models_refuse_a_temperature_and_max_tokens() -> None:
    assert "temperature" in str(
        request_problem("openai", {"model": "o4-mini", "messages": VALID, "temperature": 0.1})
    )
    assert "max_completion_tokens" in str(
        request_problem("openai", {"model": "o3-mini", "messages": VALID, "max_tokens": 5})
    )
    assert request_problem("openai", {"model": "gpt-4o-mini", "messages": VALID, "temperature": 0.1}) is None
