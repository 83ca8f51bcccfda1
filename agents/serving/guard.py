"""The served API's front door, the same on ``langgraph dev`` and Aegra (their ``http.app``): limits per
client address, per visitor and for the whole server (:mod:`agents.serving.rate_limits`), every body
checked before the server reads it (:mod:`agents.serving.bodies`), only the requests and fields a
visitor's page needs (:mod:`agents.serving.visitor_requests`), runs and feedback only on a thread the
caller owns, one question at a time per thread, and questions the visitor page would accept. Refusals
and server failures are one sentence (:mod:`agents.serving.refusals`).

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
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache, partial
from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agents.config import AgentSettings
from agents.runtime.admission import conversation_refusal
from agents.serving.bodies import json_object, read_body, without_nulls
from agents.serving.claims import run_claimed, served_claims
from agents.serving.client_address import TrustedProxies, networks
from agents.serving.deletion import erase_deleted_thread
from agents.serving.feedback import FEEDBACK_PATH, add_feedback_route
from agents.serving.rate_limits import FrontDoorLimits, RequestKind
from agents.serving.refusals import forwarded, refuse
from agents.serving.served_graph import warm_in_background
from agents.serving.settings import ServingSettings
from agents.serving.upkeep import upkeep
from agents.serving.visitor_requests import check_body, check_route
from agents.serving.visitors import VisitorRefused, header, visitor_identity

logger = logging.getLogger(__name__)

THREAD_RUN = re.compile(r"^/threads/(?P<thread_id>[^/]+)/runs(?:/stream|/wait)?/?$")
NEW_THREAD = re.compile(r"^/threads/?$")
THREAD = re.compile(r"^/threads/(?P<thread_id>[^/]+)/?$")
UNCOUNTED = frozenset({"/ok", "/health", "/info"})  # health probes of the proxy and the tests
OPERATORS_ONLY = re.compile(r"^/metrics(?:/.*)?$")  # langgraph dev's counters: the operator's
THREAD_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
PROBE_DROPPED = frozenset({b"content-length", b"accept-encoding"})  # the probe's body is read as JSON
CLAIMED = "visitor_claimed_thread"  # in the scope of a run request holding its thread's claim
BUSY = "A question is still being answered in this conversation: wait for its answer, then ask again."
NOT_YOURS = "No answer of yours is in this conversation: send the thread_id of your own conversation."
NOT_ERASED = (
    "The conversation was deleted, but its saved messages could not be erased: ask the museum to erase "
    "conversation {}."
)


@cache
def limits() -> FrontDoorLimits:
    return FrontDoorLimits.from_settings(ServingSettings())


@cache
def trusted_proxies() -> TrustedProxies:
    return TrustedProxies(networks(ServingSettings().proxy_networks()))


def request_kind(method: str, path: str) -> RequestKind:
    """What a request draws on beyond its count: the run budget, the new conversations' budget, or none."""
    if method != "POST":
        return RequestKind.OTHER
    if THREAD_RUN.match(path):
        return RequestKind.RUN
    return RequestKind.NEW_CONVERSATION if NEW_THREAD.match(path) else RequestKind.OTHER


@cache
def turn_cap() -> int:
    """``AGENT_MAX_TURNS_PER_CONVERSATION``, read as the served graph reads its settings."""
    return AgentSettings().max_turns_per_conversation


def server_checkpointer() -> Any | None:
    """Aegra's own checkpointer when Aegra runs this app (it keeps a deleted thread's checkpoints),
    else None (``langgraph dev`` deletes them with the thread)."""
    database = sys.modules.get("aegra_api.core.database")
    return None if database is None else database.db_manager.get_checkpointer()


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
            await refuse(scope, send, refused)
            return
        deleted = THREAD.match(scope["path"]) if scope["method"] == "DELETE" else None
        claimed = scope.get(CLAIMED)
        if claimed is not None:
            read = partial(self._read, scope, f"/threads/{claimed}")
            answer = partial(forwarded, self.app, scope, receive, send)
            await run_claimed(served_claims(), claimed, answer, read)
        elif deleted is None:
            await forwarded(self.app, scope, receive, send)
        else:
            await self._delete(scope, receive, send, deleted["thread_id"])

    async def _delete(self, scope: Scope, receive: Receive, send: Send, thread_id: str) -> None:
        """The server's deletion, then (once it said 2xx) what it leaves of the thread elsewhere."""
        held: list[Message] = []

        async def hold(message: Message) -> None:
            held.append(message)

        await forwarded(self.app, scope, receive, hold)
        status = next((m["status"] for m in held if m["type"] == "http.response.start"), 500)
        if 200 <= status < 300:
            try:
                await erase_deleted_thread(server_checkpointer(), thread_id)
            except Exception:  # the row is gone: say so rather than claim an erasure that did not happen
                logger.exception(
                    "What deleted thread %s left was not erased: run python -m agents forget %s",
                    thread_id, thread_id,
                )  # fmt: skip
                await refuse(scope, send, VisitorRefused(500, NOT_ERASED.format(thread_id)))
                return
        for message in held:
            await send(message)

    async def _admit(self, scope: Scope, receive: Receive) -> tuple[Scope, Receive]:
        """Check one request; its body is handed on without null fields, a run's with
        ``multitask_strategy="reject"``."""
        headers = dict(scope.get("headers") or [])
        path, method = scope["path"], scope["method"]
        peer = str((scope.get("client") or ("?",))[0])
        address = trusted_proxies().client(peer, header(headers, "x-forwarded-for"))
        try:
            visitor: str | None = visitor_identity(header(headers, "authorization"))
        except VisitorRefused:  # the server's authentication answers it; counted by address
            visitor = None
        run = THREAD_RUN.match(path) if method == "POST" else None
        limits().admit(address, visitor, request_kind(method, path))
        if OPERATORS_ONLY.match(path):
            raise VisitorRefused(
                403, "The server's metrics are the operator's: read them on its own machine."
            )
        check_route(method, path)
        body = await read_body(receive, header(headers, "content-length"))
        payload = json_object(body)
        check_body(method, path, payload)
        if path.rstrip("/") == FEEDBACK_PATH:
            await self._own_thread(scope, payload.get("thread_id"))
        if run is None:
            if not body:
                return scope, _replay(body, receive)
            body = without_nulls(payload)
            return _with_length(scope, len(body)), _replay(body, receive)
        thread_id = run["thread_id"]
        if await self._read(scope, f"/threads/{thread_id}") is None:
            raise VisitorRefused(404, "This conversation does not exist: start a new one.")
        if not await served_claims().claim(thread_id):
            raise VisitorRefused(409, BUSY, "busy")
        try:  # counted under the claim: no other question of the thread can start meanwhile
            values = (await self._read(scope, f"/threads/{thread_id}/state") or {}).get("values")
            messages = values.get("messages") if isinstance(values, dict) else None
            full = conversation_refusal(messages, turn_cap()) if isinstance(messages, list) else None
            if full is not None:
                raise VisitorRefused(409, full.message, full.kind)
        except BaseException:
            await served_claims().release(thread_id)
            raise
        body = without_nulls({**payload, "multitask_strategy": "reject"})
        return {**_with_length(scope, len(body)), CLAIMED: thread_id}, _replay(body, receive)

    async def _own_thread(self, scope: Scope, thread_id: object) -> None:
        """Refuse (404) feedback on a thread the server does not show the caller: Aegra runs no
        authentication on a custom route, so the front door asks it, as the caller, for the thread."""
        if not isinstance(thread_id, str) or not THREAD_ID.fullmatch(thread_id):
            raise VisitorRefused(404, NOT_YOURS)
        if await self._read(scope, f"/threads/{thread_id}") is None:
            raise VisitorRefused(404, NOT_YOURS)

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


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Read the front door's settings as the server starts (a mistyped one stops it with its
    sentence), build and warm the graph before the server accepts its first request (a health check
    answers once a first answer is fast), then run the upkeep beside the server: retention and
    settling (agents.serving.upkeep)."""
    limits()
    trusted_proxies()
    await warm_in_background()  # the graph and what a first answer needs: the server opens ready
    async with upkeep(app):
        yield


app = FastAPI(title="Visitor assistant", lifespan=lifespan)
app.add_middleware(VisitorGuard)
add_feedback_route(app)  # POST /visitor/feedback: the widget's verdicts
