"""A served turn whose node failed (a provider down, a bug): closed in the thread as ``AgentService``
closes one, with the assistant's note after the question, so the thread shows the turn failed and its
next turn starts from a valid history.

Only the served graph (:mod:`agents.serving`) routes failures here (LangGraph's node error handler);
the in-process service sees the error itself and writes the same note. The run then ends without an
answer: the widget says so in the visitor's language, and the turn is not logged, as in the service.
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.errors import NodeError

from agents.answer.model import Answer
from agents.graph.state import AgentState
from agents.graph.thread_rules import failed_turn_note

logger = logging.getLogger(__name__)


def close_failed_turn(state: AgentState, error: NodeError) -> dict[str, Any]:
    """The note that closes the turn, and no answer (not even the previous turn's)."""
    logger.warning(
        "A served turn failed in the %s node (%s): the thread keeps its question and a note.",
        error.node,
        type(error.error).__name__,
        exc_info=error.error,
    )
    return {"messages": [failed_turn_note()], "reply": Answer(), "turn_id": ""}
