"""The served API's front door, the same on ``langgraph dev`` and Aegra (their ``http.app``): a rate
limit per visitor, runs only on a thread the caller owns, and questions the visitor page would accept.

The servers' own authorization handlers (:mod:`agents.serving.auth`) filter threads by owner, but
aegra-api 0.6.0 does not call them when a run is streamed or awaited (``/runs/stream``, ``/runs/wait``):
this middleware asks the server itself, with the caller's credentials, whether the thread is theirs
before a run starts, so the rule holds whichever server runs.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agents.serving.feedback import add_feedback_route
from agents.serving.settings import ServingSettings
from agents.serving.visitors import RateLimit, VisitorRefused, check_question, header, visitor_identity

THREAD_RUN = re.compile(r"^/threads/(?P<thread_id>[^/]+)/runs(?:/stream|/wait)?/?$")
STATELESS_RUN = re.compile(r"^/runs(?:/.*)?$")
UNCOUNTED = frozenset({"/ok", "/health", "/info"})  # health probes of the proxy and the tests
MAX_BODY_BYTES = 64 * 1024


@cache
def rate_limit() -> RateLimit:
    return RateLimit.parse(ServingSettings().rate_limit)


async def _answer(send: Send, status: int, message: str) -> None:
    body = json.dumps({"detail": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Receive) -> bytes:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if len(body) > MAX_BODY_BYTES:
            raise VisitorRefused(413, "The request is too large: send one question at a time.")
        if not message.get("more_body"):
            return body


class VisitorGuard:
    """ASGI middleware: refusals are one JSON sentence with the status a client can act on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] == "OPTIONS" or scope["path"] in UNCOUNTED:
            await self.app(scope, receive, send)
            return
        try:
            receive = await self._admit(scope, receive)
        except VisitorRefused as refused:
            await _answer(send, refused.status, refused.message)
            return
        await self.app(scope, receive, send)

    async def _admit(self, scope: Scope, receive: Receive) -> Receive:
        """Check one request; the body, when read, is handed on unchanged."""
        headers = dict(scope.get("headers") or [])
        try:
            client = visitor_identity(header(headers, "authorization"))
        except VisitorRefused:  # the server's authentication answers it; counted by address
            client = "address:" + str((scope.get("client") or ("?",))[0])
        rate_limit().check(client)
        path, method = scope["path"], scope["method"]
        if method == "POST" and STATELESS_RUN.match(path):
            raise VisitorRefused(403, "Runs need a thread: create one, then run on it.")
        run = THREAD_RUN.match(path)
        if method != "POST" or run is None:
            return receive
        body = await _read_body(receive)
        try:
            payload = json.loads(body or b"{}")
        except ValueError:
            raise VisitorRefused(422, "The request body is not JSON.") from None
        check_question(payload.get("input") if isinstance(payload, dict) else None)
        if not await self._owns(scope, run["thread_id"]):
            raise VisitorRefused(404, "This conversation does not exist: start a new one.")
        return _replay(body, receive)

    async def _owns(self, scope: Scope, thread_id: str) -> bool:
        """Whether the server shows the caller this thread (its read rule filters on the owner)."""
        status: dict[str, int] = {}
        probe: dict[str, Any] = {
            **scope, "method": "GET", "path": f"/threads/{thread_id}", "raw_path": None, "query_string": b"",
            "headers": [(k, v) for k, v in scope.get("headers") or [] if k.lower() != b"content-length"],
        }  # fmt: skip

        async def nothing() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def keep_status(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]

        await self.app(probe, nothing, keep_status)
        return status.get("code") == 200


def _replay(body: bytes, then: Receive) -> Receive:
    """The body read once, then the client's own messages (a streamed answer waits on its disconnect)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return await then()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


app = FastAPI(title="Visitor assistant")
app.add_middleware(VisitorGuard)
add_feedback_route(app)  # POST /visitor/feedback: the widget's verdicts
