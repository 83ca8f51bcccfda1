"""The served API's front door, the same on ``langgraph dev`` and Aegra (their ``http.app``): a rate
limit per visitor, only the requests and fields a visitor's page needs
(:mod:`agents.serving.visitor_requests`), runs only on a thread the caller owns, one question at a time
per thread, and questions the visitor page would accept.

The servers' own authorization handlers (:mod:`agents.serving.auth`) filter threads by owner, but
aegra-api 0.6.0 does not call them when a run is streamed or awaited (``/runs/stream``, ``/runs/wait``):
this middleware asks the server itself, with the caller's credentials, whether the thread is theirs
before a run starts, so the rule holds whichever server runs.

A question on a thread still answering another is refused (409), never run beside it (two runs on one
thread would each save a history without the other's turn) nor in its place: a run starts only with the
thread's claim (:mod:`agents.serving.claims`), granted to one request at a time, atomically, on both
servers, and held until the server has finished the run; every run is also sent with the Agent
Protocol's ``multitask_strategy="reject"``, which ``langgraph dev`` enforces itself (aegra-api 0.6.0
ignores it).

A conversation holds at most ``AGENT_MAX_TURNS_PER_CONVERSATION`` questions, as on the visitor page: the
next is refused here (409, ``kind`` ``conversation_full``) before any run starts, so a full thread
stops growing (a refusal inside the graph would still store the question and, on Aegra, one more
full-conversation checkpoint per attempt), and the widget asks the visitor to go on in a new one. The
questions are counted while the thread's claim is held, so two sent at once cannot pass the cap.

A visitor's ``DELETE /threads/{id}`` deletes the thread's checkpoints too: ``langgraph dev`` does so
itself; aegra-api 0.6.0 deletes only its ``thread`` row (and the runs with it), so once it has answered
2xx (the thread was the caller's, its runs cancelled) the guard deletes them with Aegra's own
checkpointer, with the events of its runs and, on both servers, its rows of the questions log
(:mod:`agents.serving.deletion`).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from functools import cache, partial
from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agents.config import AgentSettings
from agents.serving.claims import run_claimed, served_claims
from agents.serving.deletion import erase_deleted_thread
from agents.serving.feedback import add_feedback_route
from agents.serving.settings import ServingSettings
from agents.serving.upkeep import upkeep
from agents.serving.visitor_requests import check_new_thread, check_route, check_run
from agents.serving.visitors import RateLimit, VisitorRefused, header, visitor_identity
from agents.thread_rules import questions_asked

logger = logging.getLogger(__name__)

THREAD_RUN = re.compile(r"^/threads/(?P<thread_id>[^/]+)/runs(?:/stream|/wait)?/?$")
NEW_THREAD = re.compile(r"^/threads/?$")
THREAD = re.compile(r"^/threads/(?P<thread_id>[^/]+)/?$")
UNCOUNTED = frozenset({"/ok", "/health", "/info"})  # health probes of the proxy and the tests
MAX_BODY_BYTES = 64 * 1024
PROBE_DROPPED = frozenset({b"content-length", b"accept-encoding"})  # the probe's body is read as JSON
CLAIMED = "visitor_claimed_thread"  # in the scope of a run request holding its thread's claim
BUSY = "A question is still being answered in this conversation: wait for its answer, then ask again."
FULL = "This conversation has reached its limit of {} questions: start a new conversation and ask there."
NOT_ERASED = (
    "The conversation was deleted, but its saved messages could not be erased: ask the museum to erase "
    "conversation {}."
)


@cache
def rate_limit() -> RateLimit:
    return RateLimit.parse(ServingSettings().rate_limit)


@cache
def turn_cap() -> int:
    """``AGENT_MAX_TURNS_PER_CONVERSATION``, read as the served graph reads its settings."""
    return AgentSettings().max_turns_per_conversation


def server_checkpointer() -> Any | None:
    """Aegra's own checkpointer when Aegra runs this app (it keeps a deleted thread's checkpoints),
    else None (``langgraph dev`` deletes them with the thread)."""
    database = sys.modules.get("aegra_api.core.database")
    return None if database is None else database.db_manager.get_checkpointer()


async def _answer(send: Send, status: int, message: str, kind: str = "") -> None:
    body = json.dumps({"detail": message, **({"kind": kind} if kind else {})}).encode()
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
            await _answer(send, refused.status, refused.message, refused.kind)
            return
        deleted = THREAD.match(scope["path"]) if scope["method"] == "DELETE" else None
        claimed = scope.get(CLAIMED)
        if claimed is not None:
            read = partial(self._read, scope, f"/threads/{claimed}")
            await run_claimed(served_claims(), claimed, partial(self.app, scope, receive, send), read)
        elif deleted is None:
            await self.app(scope, receive, send)
        else:
            await self._delete(scope, receive, send, deleted["thread_id"])

    async def _delete(self, scope: Scope, receive: Receive, send: Send, thread_id: str) -> None:
        """The server's deletion, then (once it said 2xx) what it leaves of the thread elsewhere."""
        held: list[Message] = []

        async def hold(message: Message) -> None:
            held.append(message)

        await self.app(scope, receive, hold)
        status = next((m["status"] for m in held if m["type"] == "http.response.start"), 500)
        if 200 <= status < 300:
            try:
                await erase_deleted_thread(server_checkpointer(), thread_id)
            except Exception:  # the row is gone: say so rather than claim an erasure that did not happen
                logger.exception(
                    "What deleted thread %s left was not erased: run python -m agents forget %s",
                    thread_id, thread_id,
                )  # fmt: skip
                await _answer(send, 500, NOT_ERASED.format(thread_id))
                return
        for message in held:
            await send(message)

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
        thread_id = run["thread_id"]
        if await self._read(scope, f"/threads/{thread_id}") is None:
            raise VisitorRefused(404, "This conversation does not exist: start a new one.")
        if not await served_claims().claim(thread_id):
            raise VisitorRefused(409, BUSY, "busy")
        try:  # counted under the claim: no other question of the thread can start meanwhile
            values = (await self._read(scope, f"/threads/{thread_id}/state") or {}).get("values")
            messages = values.get("messages") if isinstance(values, dict) else None
            if isinstance(messages, list) and questions_asked(messages) >= turn_cap():
                raise VisitorRefused(409, FULL.format(turn_cap()), "conversation_full")
        except BaseException:
            await served_claims().release(thread_id)
            raise
        body = json.dumps({**payload, "multitask_strategy": "reject"}).encode()
        return {**_with_length(scope, len(body)), CLAIMED: thread_id}, _replay(body, receive)

    async def _read(self, scope: Scope, path: str) -> dict[str, Any] | None:
        """What the server shows the caller at ``path`` (its read rule filters threads on the owner),
        or None when it shows nothing."""
        status: dict[str, int] = {}
        chunks: list[bytes] = []
        probe: dict[str, Any] = {
            **scope, "method": "GET", "path": path, "raw_path": None, "query_string": b"",
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


app = FastAPI(title="Visitor assistant", lifespan=upkeep)  # retention and settling: agents.serving.upkeep
app.add_middleware(VisitorGuard)
add_feedback_route(app)  # POST /visitor/feedback: the widget's verdicts
