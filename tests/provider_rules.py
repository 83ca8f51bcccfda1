"""The request rules the real Mistral and OpenAI chat APIs enforce, for the strict fake server.

Each rule is worded as the real API words its 400 answer (Mistral's request validator in
``mistral_common``, the OpenAI Chat Completions request checks, and the error texts users
report), so a request a real provider would refuse fails a test here instead of in production.
"""

from __future__ import annotations

import re
from typing import Any, Literal

Flavour = Literal["mistral", "openai"]

MISTRAL_FIELDS = frozenset(
    {
        "model", "messages", "temperature", "top_p", "max_tokens", "stream", "stop", "random_seed",
        "response_format", "tools", "tool_choice", "presence_penalty", "frequency_penalty", "n",
        "prediction", "parallel_tool_calls", "safe_prompt", "prompt_mode",
    }
)  # fmt: skip
MISTRAL_TOOL_CALL_ID = re.compile(r"[a-zA-Z0-9]{9}")
FUNCTION_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
# OpenAI reasoning models take neither a temperature (other than 1) nor max_tokens.
REASONING_MODELS = re.compile(r"(o1|o3|o4|gpt-5)([-.].*)?")
MISTRAL_NEXT_ROLES = {
    "system": {"system", "user", "assistant"},
    "user": {"system", "user", "assistant"},
    "assistant": {"assistant", "user", "tool"},
    "tool": {"assistant", "tool"},
}


def _has_content(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return bool(content.strip()) if isinstance(content, str) else bool(content)


def _tool_call_problem(flavour: Flavour, call: dict[str, Any]) -> str | None:
    function = call.get("function") or {}
    if not FUNCTION_NAME.fullmatch(str(function.get("name", ""))):
        return f"Invalid function name {function.get('name')!r}"
    if not isinstance(function.get("arguments"), str):
        return "Invalid type for 'messages.tool_calls.function.arguments': expected a string"
    if flavour == "mistral" and not MISTRAL_TOOL_CALL_ID.fullmatch(str(call.get("id", ""))):
        return f"Tool call id was {call.get('id')} but must be a-z, A-Z, 0-9, with a length of 9."
    return None


def mistral_problem(body: dict[str, Any]) -> str | None:
    """The first rule of Mistral's validator the request breaks, or None."""
    unknown = sorted(set(body) - MISTRAL_FIELDS)
    if unknown:
        return f"extra_forbidden: Extra inputs are not permitted ({unknown[0]})"
    messages = body.get("messages") or []
    previous = None
    pending = 0  # function calls of the last assistant message not answered yet
    for message in messages:
        role = message.get("role")
        if previous is not None and role not in MISTRAL_NEXT_ROLES.get(previous, set()):
            return f"Unexpected role '{role}' after role '{previous}'"
        if role == "assistant":
            if pending:
                return "Not the same number of function calls and responses"
            calls = message.get("tool_calls") or []
            if _has_content(message) == bool(calls):
                return "Assistant message must have either content or tool_calls, but not both."
            for call in calls:
                if problem := _tool_call_problem("mistral", call):
                    return problem
            pending = len(calls)
        elif role == "tool":
            pending -= 1
            if pending < 0:
                return "Not the same number of function calls and responses"
        elif role == "user":
            if pending:
                return "Not the same number of function calls and responses"
            if not _has_content(message):
                return "User message content must not be empty"
        previous = role
    if pending:
        return "Not the same number of function calls and responses"
    if previous not in ("user", "tool"):
        return (
            f"Expected last role User or Tool (or Assistant with prefix True) for serving but got {previous}"
        )
    return None


def _unanswered(ids: list[str]) -> str:
    return (
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
        f"'tool_call_id'. The following tool_call_ids did not have response messages: {', '.join(ids)}"
    )


def openai_problem(body: dict[str, Any]) -> str | None:
    """The first OpenAI Chat Completions request check the request fails, or None."""
    model = str(body.get("model", ""))
    if REASONING_MODELS.fullmatch(model):
        if "temperature" in body and body["temperature"] not in (None, 1):
            return (
                f"Unsupported value: 'temperature' does not support {body['temperature']} with this "
                "model. Only the default (1) value is supported."
            )
        if body.get("max_tokens") is not None:
            return (
                "Unsupported parameter: 'max_tokens' is not supported with this model. "
                "Use 'max_completion_tokens' instead."
            )
    unanswered: list[str] = []
    for message in body.get("messages") or []:
        role = message.get("role")
        if role == "tool":
            if message.get("tool_call_id") not in unanswered:
                return (
                    "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                    "message with 'tool_calls'."
                )
            unanswered.remove(message["tool_call_id"])
            continue
        if unanswered:
            return _unanswered(unanswered)
        if role == "assistant":
            calls = message.get("tool_calls") or []
            if message.get("content") is None and not calls:
                return "Invalid value for 'content': expected a string, got null."
            for call in calls:
                if problem := _tool_call_problem("openai", call):
                    return problem
            unanswered = [str(call.get("id")) for call in calls]
    if unanswered:
        return _unanswered(unanswered)
    return None


def request_problem(flavour: Flavour, body: dict[str, Any]) -> str | None:
    """Why the real API of ``flavour`` would answer 400 to ``body``, or None when it would accept it."""
    return mistral_problem(body) if flavour == "mistral" else openai_problem(body)
