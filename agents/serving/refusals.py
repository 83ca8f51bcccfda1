"""What a client reads when the front door refuses or the server fails: one JSON sentence, readable by
the museum's page, and nothing of the server's insides.

``langgraph dev`` puts the front door outside its own CORS middleware (a custom app's middleware comes
first there), so a refusal would reach the widget without ``Access-Control-Allow-Origin`` and the
browser would hide it ("conversation full" read as a network error). A refusal therefore passes through
the server's own CORS middleware, built from its settings, when the front door sits outside it; Aegra
puts its CORS middleware outside the front door and needs nothing.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agents.serving.visitors import VisitorRefused

logger = logging.getLogger(__name__)
SERVER_FAILED = "The assistant could not handle this request: try again in a moment."


def server_cors() -> Middleware | None:
    """``langgraph dev``'s CORS middleware (it runs inside the front door), or None elsewhere."""
    server = sys.modules.get("langgraph_api.server")
    for middleware in getattr(server, "global_middleware", ()):
        if isinstance(middleware, Middleware) and middleware.cls is CORSMiddleware:
            return middleware
    return None


async def _nothing() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


async def refuse(scope: Scope, send: Send, refused: VisitorRefused) -> None:
    """Answer ``refused`` as ``{"detail": sentence, "kind": …}``, with ``Retry-After`` on a 429."""
    content: dict[str, Any] = {"detail": refused.message, **({"kind": refused.kind} if refused.kind else {})}
    headers = {"Retry-After": str(refused.retry_after)} if refused.retry_after is not None else None
    app: ASGIApp = JSONResponse(content, refused.status, headers=headers)
    cors = server_cors()
    if cors is not None:
        options: dict[str, Any] = dict(cors.kwargs)  # langgraph_api names every option
        app = CORSMiddleware(app, **options)
    await app(scope, _nothing, send)


def hiding_server_errors(send: Send) -> Send:
    """``send`` with a server's 5xx body (an exception, an SQL statement, a parameter) replaced by one
    sentence; its status and other headers (CORS) are kept."""
    failed = False

    async def guarded(message: Message) -> None:
        nonlocal failed
        if message["type"] == "http.response.start" and message["status"] >= 500:
            failed = True
            body = json.dumps({"detail": SERVER_FAILED}).encode()
            kept = [
                (k, v)
                for k, v in message.get("headers", [])
                if k.lower() not in {b"content-length", b"content-type"}
            ]
            length = str(len(body)).encode()
            await send(
                {
                    **message,
                    "headers": [*kept, (b"content-type", b"application/json"), (b"content-length", length)],
                }
            )
            await send({"type": "http.response.body", "body": body})
        elif not (failed and message["type"] == "http.response.body"):
            await send(message)

    return guarded


async def forwarded(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """``app`` answering the request; should it raise before answering, one sentence instead."""
    started = False

    async def tracked(message: Message) -> None:
        nonlocal started
        started = started or message["type"] == "http.response.start"
        await send(message)

    try:
        await app(scope, receive, hiding_server_errors(tracked))
    except Exception as error:
        if started:
            raise
        # The type only: an exception's text may quote the request (a parameter, an SQL statement).
        logger.error("The server failed on %s %s (%s).", scope["method"], scope["path"], type(error).__name__)
        await refuse(scope, send, VisitorRefused(500, SERVER_FAILED))
