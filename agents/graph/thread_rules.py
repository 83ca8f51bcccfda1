"""A conversation every provider accepts (pure): what is sent is repaired, what is stored is kept.

Mistral and OpenAI validate each request's history: an assistant message with tool calls is
followed at once by one tool message per call, a tool message answers a call before it, no
assistant message is empty, and (Mistral) a user message never follows a tool message. A turn
that failed after its tools ran, a reply with malformed tool arguments, an empty reply, or a
thread stored broken by an earlier version breaks those rules; :func:`sendable` is the history
as it may be sent, and :func:`failed_turn_note` closes a failed turn in the checkpoint.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, ToolMessage

FAILED_TURN_KEY = "failed_turn"  # in response_metadata, which no client sends
FAILED_TURN_NOTE = "(This question was not answered: the turn failed. Answer it if the visitor asks again.)"


def failed_turn_note() -> AIMessage:
    """The assistant message that closes a turn that ended without an answer."""
    return AIMessage(FAILED_TURN_NOTE, response_metadata={FAILED_TURN_KEY: True})


def questions_asked(messages: Sequence[object]) -> int:
    """Visitor questions a thread holds, as messages or as a server shows them (``{"type": "human"}``);
    a failed turn's question counts: it is kept."""
    return sum(
        isinstance(message, HumanMessage) or (isinstance(message, Mapping) and message.get("type") == "human")
        for message in messages
    )


def is_answer(message: BaseMessage) -> bool:
    """An assistant message that says something and asks for no tool."""
    return isinstance(message, AIMessage) and not message.tool_calls and bool(message.text.strip())


def split_turns(messages: Sequence[AnyMessage]) -> list[list[AnyMessage]]:
    """The messages in turns, each opened by a visitor message; anything before the first is dropped."""
    turns: list[list[AnyMessage]] = []
    for message in messages:
        if isinstance(message, HumanMessage):
            turns.append([message])
        elif turns:
            turns[-1].append(message)
    return turns


def _paired(turn: Sequence[AnyMessage]) -> list[AnyMessage]:
    """One turn with each tool exchange complete and in order: calls left unanswered, malformed
    calls, empty replies and stray tool messages are left out; a reply's text is kept."""
    results: dict[str, ToolMessage] = {}
    for message in turn:
        if isinstance(message, ToolMessage):
            results.setdefault(message.tool_call_id, message)
    kept: list[AnyMessage] = [turn[0]]
    used: set[str] = set()
    for message in turn[1:]:
        if not isinstance(message, AIMessage):
            continue
        ids = [call["id"] for call in message.tool_calls if call["id"]]
        answered = bool(ids) and len(ids) == len(message.tool_calls) and all(i in results for i in ids)
        answered = answered and not used.intersection(ids) and len(set(ids)) == len(ids)
        if answered:
            kept.append(message.model_copy(update={"invalid_tool_calls": []}))
            kept.extend(results[i] for i in ids)
            used.update(ids)
        elif message.text.strip():
            kept.append(AIMessage(message.text, id=message.id, response_metadata=message.response_metadata))
    return kept


def sendable(messages: Sequence[AnyMessage]) -> list[AnyMessage]:
    """The history as both providers accept it: every earlier turn ends on an answer (a failed one
    on :func:`failed_turn_note`); the last turn is the one being answered and is left open."""
    turns = [_paired(turn) for turn in split_turns(messages)]
    for turn in turns[:-1]:
        if not is_answer(turn[-1]):
            turn.append(failed_turn_note())
    return [message for turn in turns for message in turn]


def unfinished(messages: Sequence[AnyMessage]) -> bool:
    """Whether the thread's last turn has no answer (it failed): it needs :func:`failed_turn_note`."""
    turns = split_turns(messages)
    return bool(turns) and not is_answer(turns[-1][-1])
