"""The served API's front door, the same on ``langgraph dev`` and Aegra (their ``http.app``): a rate
limit per visitor, only the requests and fields a visitor's page needs
(:mod:`agents.serving.visitor_requests`), runs only on a thread the caller owns, one question at a time
per thread, and questions the visitor page would accept.

The servers' own authorization handlers (:mod:`agents.serving.auth`) filter threads by owner, but
aegra-api 0.6.0 does not call them when a run is streamed or awaited (``/runs/stream``, ``/runs/wait``):
this middleware asks the server itself, with the caller's credentials, whether the thread is theirs
before a run starts, so the rule holds whichever server runs.

A question on a thread still answering another is refused (409), never run beside it (two runs on one
thread would each save a history without the other's turn) nor in its place: every run is sent with
the Agent Protocol's ``multitask_strategy="reject"``, which ``langgraph dev`` enforces atomically.
aegra-api 0.6.0 ignores that field (``aegra_api/api/runs.py`` starts every run at once), so the guard
also refuses a run when the thread the server shows is ``busy``; two runs sent within the few
milliseconds before Aegra marks the thread busy can still both start there.
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
from agents.serving.visitor_requests import check_new_thread, check_route, check_run
from agents.serving.visitors import RateLimit, VisitorRefused, header, visitor_identity

THREAD_RUN = re.compile(r"^/threads/(?P<thread_id>[^/]+)/runs(?:/stream|/wait)?/?$")
NEW_THREAD = re.compile(r"^/threads/?$")
UNCOUNTED = frozenset({"/ok", "/health", "/info"})  # health probes of the proxy and the tests
MAX_BODY_BYTES = 64 * 1024
PROBE_DROPPED = frozenset({b"content-length", b"accept-encoding"})  # the probe's body is read as JSON
BUSY = "A question is still being answered in this conversation: wait for its answer, then ask again."


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
            scope, receive = await self._admit(scope, receive)
        except VisitorRefused as refused:
            await _answer(send, refused.status, refused.message)
            return
        await self.app(scope, receive, send)

    async def _admit(self, scope: Scope, receive: Receive) -> tuple[Scope, Receive]:
        """Check one request; a run's body is handed on with ``multitask_strategy="reject"``, a new
        thread's as it came."""
        headers = dict(scope.get("headers") or [])
        try:
            client = visitor_identity(header(headers, "authorization"))
        except VisitorRefused:  # the server's authentication answers it; counted by address
            client = "address:" + str((scope.get("client") or ("?",))[0])
        rate_limit().check(client)
        path, method = scope["path"], scope["method"]
        check_route(method, path)
        run = THREAD_RUN.match(path)
        if method != "POST" or (run is None and not NEW_THREAD.match(path)):
            return scope, receive
        body = await _read_body(receive)
        payload = _json_object(body)
        if run is None:
            check_new_thread(payload)
            return scope, _replay(body, receive)
        check_run(payload)
        thread = await self._thread(scope, run["thread_id"])
        if thread is None:
            raise VisitorRefused(404, "This conversation does not exist: start a new one.")
        if thread.get("status") == "busy":
            raise VisitorRefused(409, BUSY)
        body = json.dumps({**payload, "multitask_strategy": "reject"}).encode()
        return _with_length(scope, len(body)), _replay(body, receive)

    async def _thread(self, scope: Scope, thread_id: str) -> dict[str, Any] | None:
        """The thread as the server shows it to the caller (its read rule filters on the owner), or
        None when it does not."""
        status: dict[str, int] = {}
        chunks: list[bytes] = []
        probe: dict[str, Any] = {
            **scope, "method": "GET", "path": f"/threads/{thread_id}", "raw_path": None, "query_string": b"",
            "headers": [(k, v) for k, v in scope.get("headers") or [] if k.lower() not in PROBE_DROPPED],
        }  # fmt: skip

        async def nothing() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def keep(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(probe, nothing, keep)
        if status.get("code") != 200:
            return None
        try:
            thread = json.loads(b"".join(chunks))
        except ValueError:
            return None
        return thread if isinstance(thread, dict) else None


def _json_object(body: bytes) -> dict[str, Any]:
    try:
        payload = json.loads(body or b"{}")
    except ValueError:
        raise VisitorRefused(422, "The request body is not JSON.") from None
    if not isinstance(payload, dict):
        raise VisitorRefused(422, "The request body is not a JSON object.")
    return payload


def _with_length(scope: Scope, length: int) -> Scope:
    """``scope`` with its ``content-length`` header set to ``length`` (the body was rewritten)."""
    headers = [(k, v) for k, v in scope.get("headers") or [] if k.lower() != b"content-length"]
    return {**scope, "headers": [*headers, (b"content-length", str(length).encode())]}


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
