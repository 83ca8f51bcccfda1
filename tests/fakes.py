"""Scripted fake chat models for graph tests: each call returns the next scripted reply."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import BaseModel, PrivateAttr


def tool_call(name: str, args: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    """A tool call as a chat model emits it (``args`` or keyword arguments)."""
    return {
        "name": name,
        "args": {**(args or {}), **kwargs},
        "id": f"call_{uuid.uuid4().hex[:8]}",
        "type": "tool_call",
    }


class ScriptedChatModel(BaseChatModel):
    """Replies from a script: an AIMessage as is; a pydantic object as its structured-output call.

    Records the messages of every call, so tests can check what the model was shown.
    """

    script: list[Any]
    _calls: list[list[BaseMessage]] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> list[list[BaseMessage]]:
        return self._calls

    def bind_tools(self, tools: Sequence[Any], tool_choice: Any = None, **kwargs: Any) -> Any:
        return self.bind(tools=list(tools), **kwargs)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        self._calls.append(list(messages))
        if not self.script:
            raise AssertionError("the scripted model was called more times than scripted")
        reply = self.script.pop(0)
        if isinstance(reply, BaseModel) and not isinstance(reply, BaseMessage):
            reply = AIMessage("", tool_calls=[tool_call(type(reply).__name__, reply.model_dump())])
        elif isinstance(reply, str):
            reply = AIMessage(reply)
        return ChatResult(generations=[ChatGeneration(message=reply)])
