"""The served API's authentication and authorization (``langgraph_sdk.Auth``, which ``langgraph dev``
and Aegra both call): visitors are not operators.

An anonymous visitor (:mod:`agents.serving.visitors`) creates threads that carry their identity as
``owner`` metadata, and every thread read, deletion, search and run is filtered on it: other
visitors' threads do not exist for them. A thread changes only through its runs: its metadata and
state are never updated directly (aegra-api 0.6.0 does not ask this module before a state update, so
the front door, :mod:`agents.serving.guard`, refuses that route on both servers). Assistants can be
read (a client looks up ``visitor``), never created, changed or deleted; the store, crons and anything
else is refused. The questions log has no route at all: only the operator console reads it.
"""

from __future__ import annotations

from typing import Any

from langgraph_sdk import Auth

from agents.serving.visitors import VisitorRefused, header, visitor_identity

auth = Auth()


def refused(error: VisitorRefused) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=error.status, detail=error.message)


@auth.authenticate
async def authenticate(headers: dict[Any, Any]) -> Auth.types.MinimalUserDict:
    """A visitor known by their token's hash (the rate limit and the question: agents.serving.guard)."""
    try:
        identity = visitor_identity(header(headers, "authorization"))
    except VisitorRefused as error:
        raise refused(error) from None
    return {"identity": identity, "display_name": "visitor", "permissions": ["visitor"]}


def owned(ctx: Auth.types.AuthContext) -> dict[str, str]:
    """The filter that shows a visitor their own threads only."""
    return {"owner": ctx.user.identity}


@auth.on.threads.create
async def on_thread_create(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """A new thread belongs to its creator, whatever metadata the request sent."""
    if value.get("metadata") is None:
        value["metadata"] = {}
    value["metadata"]["owner"] = ctx.user.identity  # the server's own dict: changed in place
    return owned(ctx)


@auth.on.threads.create_run
async def on_run(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """A run on one's own thread only."""
    return owned(ctx)


async def on_own_threads(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    return owned(ctx)


CANCELLING = frozenset({"interrupt", "rollback"})  # the actions of POST /threads/{id}/runs/{run}/cancel


@auth.on.threads.update
async def on_run_cancel(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str] | bool:
    """Cancelling a run of one's own thread (``langgraph dev`` asks this hook); any other change of a
    thread (its metadata) stays refused."""
    return owned(ctx) if value.get("action") in CANCELLING else False


async def on_assistant_lookup(ctx: Auth.types.AuthContext, value: Any) -> bool:
    return True


auth.on.threads.read(on_own_threads)
auth.on.threads.delete(on_own_threads)
auth.on.threads.search(on_own_threads)
auth.on.assistants.read(on_assistant_lookup)
auth.on.assistants.search(on_assistant_lookup)


@auth.on
async def refuse_the_rest(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Changing assistants or a thread's state, the store, crons, runs outside a thread: operators'
    business, not the API's."""
    return False
