"""``POST /visitor/feedback``: a visitor's verdict on one of their answers, into the questions log, as
the visitor page stores it (:meth:`agents.insights.store.QuestionLog.set_feedback`).

The route joins the servers' front door (:mod:`agents.serving.guard`, their ``http.app``), which checks
its body and limits and asks the server, as the caller, whether the verdict's thread is theirs.
``langgraph dev`` authenticates the route too (``enable_custom_route_auth``); aegra-api 0.6.0 does not
(it adds its dependency to a custom route after FastAPI has built the route's handler), so the route
reads the visitor token itself when the server left no user. The verdict names the turn by its
``turn_id`` and ``thread_id``; the turn id is a random 128-bit id that only the run's stream and the
thread's state show, both refused to anyone but the thread's owner.
"""

from __future__ import annotations

import asyncio
import logging
from functools import cache
from typing import Literal

from fastapi import FastAPI
from pydantic import BaseModel, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from agents.config import AgentSettings
from agents.insights.store import MAX_COMMENT_CHARS, QuestionLog
from agents.serving.visitors import VisitorRefused, visitor_identity

logger = logging.getLogger(__name__)
FEEDBACK_PATH = "/visitor/feedback"


class FeedbackRequest(BaseModel):
    """What the widget sends: the turn, the verdict, and an optional short comment."""

    thread_id: str = Field(min_length=1, max_length=100)
    turn_id: str = Field(min_length=1, max_length=64)
    verdict: Literal["helpful", "not_helpful"]
    comment: str | None = Field(default=None, max_length=MAX_COMMENT_CHARS)


@cache
def question_log() -> QuestionLog | None:
    """The questions log the served graph writes to (none when ``AGENT_QUESTIONS_LOG`` is off)."""
    settings = AgentSettings()
    return QuestionLog.for_settings(settings) if settings.questions_log else None


def _refusal(status: int, sentence: str) -> JSONResponse:
    return JSONResponse({"detail": sentence}, status_code=status)


async def receive_feedback(request: Request) -> Response:
    """Store the verdict: 204 when it reached the turn's row, 404 when no such turn is the visitor's."""
    user = request.scope.get("user")
    if user is None or not getattr(user, "identity", ""):
        try:
            visitor_identity(request.headers.get("authorization", ""))
        except VisitorRefused as refused:
            return _refusal(refused.status, refused.message)
    try:
        body = FeedbackRequest.model_validate(await request.json())
    except (ValueError, ValidationError):
        return _refusal(
            422,
            'Send {"thread_id": "...", "turn_id": "...", "verdict": "helpful" or "not_helpful", '
            f'"comment": at most {MAX_COMMENT_CHARS} characters or null}}.',
        )
    log = question_log()
    if log is None:
        return _refusal(404, "The questions log is off (AGENT_QUESTIONS_LOG): feedback is not kept.")
    try:
        stored = await asyncio.to_thread(
            log.set_feedback, body.turn_id, body.thread_id, body.verdict, body.comment
        )
    except Exception as error:  # noqa: BLE001 - feedback is a courtesy: never a traceback to a visitor
        logger.warning("Feedback could not be stored (%s).", type(error).__name__)
        return _refusal(503, "The feedback could not be stored: try again in a moment.")
    return Response(status_code=204) if stored else _refusal(404, "No answer of yours has this turn_id.")


def add_feedback_route(app: FastAPI) -> None:
    """Serve the route on ``app``. A FastAPI route: Aegra authenticates FastAPI routes only (a plain
    Starlette one would get no user there and refuse every call). Added directly, not through an
    included router, which langgraph dev cannot wrap with its authentication."""
    app.add_api_route(FEEDBACK_PATH, receive_feedback, methods=["POST"], include_in_schema=False)
