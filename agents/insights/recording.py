"""One answered turn written to the questions log, the same way for the visitor page and the API:
what is kept, and a failed write that never fails the turn."""

from __future__ import annotations

import logging

from agents.answer.model import Answer
from agents.conversations.checkpoints import failure_reason
from agents.insights.store import LoggedQuestion, QuestionLog

logger = logging.getLogger(__name__)


def logged_turn(
    question: str,
    thread_id: str,
    reply: Answer,
    language: str,
    gaps: list[str],
    model: str,
    latency_ms: float,
) -> LoggedQuestion:
    """The log's row for one turn: the missing parts only when the answer is not complete."""
    return LoggedQuestion(
        question=question,
        language=language,
        kind=reply.kind,
        thread_id=thread_id,
        missing=[str(gap) for gap in gaps] if reply.kind != "answered" else [],
        sources=[{"title": citation.title, "url": citation.page} for citation in reply.citations],
        model=model,
        latency_ms=round(latency_ms, 1),
    )


def record_turn(log: QuestionLog, turn: LoggedQuestion, secret_url: str | None = None) -> str:
    """Store ``turn`` (masked by the log) and return its id; "" when the write failed. The warning
    names neither the question nor the database's password (``secret_url``)."""
    try:
        return log.record(turn)
    except Exception as error:  # noqa: BLE001 - logging is a side job: the visitor gets the answer
        reason = failure_reason(error, secret_url)
        logger.warning("The questions log could not be written (%s): this turn is not logged.", reason)
        return ""
