"""A turn whose node failed (a provider down, the index unreadable, a bug) is closed in the thread:
the assistant's note after the question, so the thread shows the turn failed and its next turn
starts from a valid history, and the failure's kind and sentence in the state, for the door that
ran it (LangGraph's node error handler routes every node's error here, on every door).

The run then ends without an answer and the turn is not logged. A failure the project wrote for a
user (``rag.errors.USER_ERRORS``) keeps its sentence, and the log gets that sentence alone (the
error's chain may hold a provider's URL with its key); any other is a bug: its traceback goes to the
log, and the visitor reads only that the answer failed.
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.errors import NodeError

from agents.answer.model import Answer
from agents.graph.state import AgentState, TurnFailure
from agents.graph.thread_rules import failed_turn_note
from agents.models.provider_errors import ProviderError
from rag.errors import USER_ERRORS, error_sentence
from rag.redact import redact_text
from rag.store import KnowledgeBaseError

logger = logging.getLogger(__name__)

INTERNAL_FAILURE = "The answer failed because of an error on our side; it was logged. Ask again in a moment."


def failure_of(error: BaseException) -> TurnFailure:
    """The kind and the sentence a door shows for ``error``."""
    if isinstance(error, ProviderError):
        return TurnFailure(kind="provider", message=error_sentence(error))
    if isinstance(error, KnowledgeBaseError):
        return TurnFailure(kind="knowledge_base", message=error_sentence(error))
    if isinstance(error, USER_ERRORS):
        return TurnFailure(kind="other", message=error_sentence(error))
    return TurnFailure(kind="other", message=INTERNAL_FAILURE)


def close_failed_turn(state: AgentState, error: NodeError) -> dict[str, Any]:
    """The note that closes the turn, the failure, and no answer (not even the previous turn's)."""
    failure = failure_of(error.error)
    if isinstance(error.error, USER_ERRORS):  # its sentence says it all; its chain may hold a secret URL
        logger.warning(
            "A turn failed in the %s node (%s): %s The thread keeps its question and a note.",
            error.node,
            type(error.error).__name__,
            redact_text(failure["message"]),
        )
    else:
        logger.warning(
            "A turn failed in the %s node (%s): the thread keeps its question and a note.",
            error.node,
            type(error.error).__name__,
            exc_info=error.error,
        )
    return {"messages": [failed_turn_note()], "reply": Answer(), "turn_id": "", "failure": failure}
