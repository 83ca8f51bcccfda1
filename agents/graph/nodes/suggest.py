"""End of an answered turn: the questions to suggest next, in the reply language, kept in the state
so every door (and a reloaded conversation) shows the same ones."""

from __future__ import annotations

from typing import Any

from agents.answer.follow_ups import suggest_follow_ups
from agents.answer.model import Answer
from agents.graph.state import AgentState
from agents.graph.trace import tools_called


def suggest(state: AgentState) -> dict[str, Any]:
    """Up to three related questions the answer did not answer (none for a refusal or no answer)."""
    reply = state.get("reply") or Answer()
    tools = tools_called(state.get("trace", []))
    return {"suggestions": suggest_follow_ups(reply, state.get("language", ""), tools)}
