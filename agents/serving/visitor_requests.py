"""What an anonymous visitor may send to the served API: allow-lists, pure rules, no server.

A visitor's browser needs few requests (create a conversation, ask in it, read it, send feedback) and,
in a run, few fields: the assistant, one question, how to stream the answer. Everything else the two
servers accept (``langgraph_api``'s ``RunCreateStateful`` and ``ThreadCreate`` schemas, aegra-api 0.6.0's
``RunCreate`` and ``ThreadCreate`` models) is the operator's: a model or tools set in ``config``, a
resumed or redirected run (``command``), time travel (``checkpoint``), a state written directly (an
``input`` key other than ``messages``, ``/threads/{id}/state``, a thread's ``supersteps`` or
``initial_state``), webhooks, delays. Only what is listed here passes; a field either server adds later
is refused until it is listed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from uuid import UUID, uuid5

from agents.serving.visitors import VisitorRefused, check_question

GRAPH = "visitor"
# Both servers name a graph's default assistant uuid5(this namespace, graph id)
# (langgraph_api.graph.NAMESPACE_GRAPH, aegra_api.constants.ASSISTANT_NAMESPACE_UUID).
ASSISTANT_NAMESPACE = UUID("6ba7b821-9dad-11d1-80b4-00c04fd430c8")
ASSISTANTS = frozenset({GRAPH, str(uuid5(ASSISTANT_NAMESPACE, GRAPH))})
# The widget streams "messages-tuple" and "updates"; the SDK's default is "values". The others show
# the graph's internals (every model call's prompt in "events", task inputs in "debug" and "tasks").
STREAM_MODES = frozenset({"values", "updates", "messages-tuple"})
VISITOR_ROLES = frozenset({"user", "human"})
MESSAGE_FIELDS = frozenset({"role", "type", "content"})

_ID = r"[^/]+"
STATELESS_RUN = re.compile(r"^/runs(?:/.*)?$")
THREAD_WRITE = re.compile(f"^/threads/(?!(?:search|count|prune)/?$){_ID}(?:/state|/copy)?/?$")

OPERATOR_ONLY = (
    "The assistant's model, tools and settings are the operator's: send the question without '{}'."
)
RUN_REFUSALS: dict[str, str] = {
    "config": OPERATOR_ONLY,
    "context": OPERATOR_ONLY,
    "durability": OPERATOR_ONLY,
    "checkpoint_during": OPERATOR_ONLY,
    "command": "Resuming or redirecting a run ('{}') is not open to visitors: ask a new question instead.",
    "checkpoint": "Going back in a conversation ('{}') is not open to visitors: start a new conversation.",
    "checkpoint_id": "Going back in a conversation ('{}') is not open to visitors: start a new conversation.",
    "interrupt_before": "Pausing the assistant between its steps ('{}') is not open to visitors: send the "
    "question alone.",
    "interrupt_after": "Pausing the assistant between its steps ('{}') is not open to visitors: send the "
    "question alone.",
    "webhook": "Webhooks are set by the operator: read the answer from the run's stream instead.",
    "after_seconds": "Delayed runs ('{}') are not open to visitors: send the question when it should be "
    "answered.",
    "metadata": "A run's metadata, its owner included, is set by the server: send the question without "
    "'metadata'.",
}
THREAD_REFUSALS: dict[str, str] = {
    "metadata": "A conversation's metadata, its owner included, is set by the server: create it with an "
    "empty body.",
    "supersteps": "A new conversation starts empty, as the assistant writes its state: create it with an "
    "empty body.",
    "initial_state": "A new conversation starts empty, as the assistant writes its state: create it with "
    "an empty body.",
}


def _route(method: str, pattern: str) -> tuple[str, re.Pattern[str]]:
    return method, re.compile(f"^{pattern}/?$")


def check_route(method: str, path: str) -> None:
    """Refuse (403) a request other than a read that is not one of :data:`BODY_RULES`."""
    if method in {"GET", "HEAD", "OPTIONS"}:
        return
    if any(method == allowed and pattern.match(path) for allowed, pattern, _ in BODY_RULES):
        return
    if STATELESS_RUN.match(path):
        raise VisitorRefused(403, "Runs need a thread: create one, then run on it.")
    if THREAD_WRITE.match(path):
        raise VisitorRefused(
            403, "A conversation changes only through the visitor's questions: its state and metadata "
            "cannot be written.",
        )  # fmt: skip
    raise VisitorRefused(
        403, "This request is the operator's: a visitor may create a conversation, ask in it, read it "
        "and send feedback.",
    )  # fmt: skip


def check_new_thread(payload: Mapping[str, object]) -> None:
    """Refuse a thread creation that sends anything: the server sets the owner, the assistant the state."""
    for field, value in payload.items():
        if value is None:
            continue
        if field in THREAD_REFUSALS:
            raise VisitorRefused(403, THREAD_REFUSALS[field])
        raise VisitorRefused(422, f"A visitor creates a conversation with an empty body: remove '{field}'.")


def _assistant(value: object) -> None:
    if not isinstance(value, str) or value not in ASSISTANTS:
        raise VisitorRefused(
            422, f"The only assistant open to visitors is '{GRAPH}': send assistant_id '{GRAPH}'."
        )


def _stream_mode(value: object) -> None:
    modes = [value] if isinstance(value, str) or value is None else value
    if not isinstance(modes, list) or not all(mode is None or mode in STREAM_MODES for mode in modes):
        allowed = ", ".join(sorted(STREAM_MODES))
        raise VisitorRefused(422, f"A visitor's answer streams as {allowed}: choose stream_mode among these.")


def _off(field: str) -> Callable[[object], None]:
    def check(value: object) -> None:
        if value not in (None, False):
            raise VisitorRefused(422, f"'{field}' is not open to visitors: leave it out or false.")

    return check


def _reject(value: object) -> None:
    if value not in (None, "reject"):
        raise VisitorRefused(
            422, "A question on a busy conversation is refused, never queued: leave multitask_strategy out."
        )


def check_input(run_input: object) -> None:
    """Refuse an input other than one question: ``{"messages": [{"role": "user", "content": "…"}]}``."""
    if not isinstance(run_input, Mapping) or "messages" not in run_input:
        raise VisitorRefused(422, 'Send the question as {"messages": [{"role": "user", "content": "..."}]}.')
    for key in run_input:
        if key != "messages":
            raise VisitorRefused(
                403,
                f"The conversation's '{key}' is written by the assistant: send only 'messages' in the input.",
            )
    messages = run_input["messages"]
    if not isinstance(messages, list) or len(messages) != 1 or not isinstance(messages[0], Mapping):
        raise VisitorRefused(422, "Send one question at a time: 'messages' holds one user message.")
    [message] = messages
    for key in message:
        if key not in MESSAGE_FIELDS:
            raise VisitorRefused(422, f"A visitor's message has a role and a content only: remove '{key}'.")
    roles = [message[key] for key in ("role", "type") if key in message]
    if not roles or not all(isinstance(role, str) and role in VISITOR_ROLES for role in roles):
        raise VisitorRefused(403, "A visitor sends their own words only: the message's role is 'user'.")
    if not isinstance(message.get("content"), str):
        raise VisitorRefused(422, "The question's content is text: send it as a string.")
    check_question(run_input)


RUN_FIELDS: dict[str, Callable[[object], None]] = {
    "assistant_id": _assistant,
    "input": check_input,
    "stream_mode": _stream_mode,
    "stream_subgraphs": _off("stream_subgraphs"),  # the SDK sends both as false by default
    "stream_resumable": _off("stream_resumable"),
    "multitask_strategy": _reject,  # the guard sends "reject" whatever the client asks
}


def check_run(payload: Mapping[str, object]) -> None:
    """Refuse a run request with a field a visitor may not send, or an allowed one set otherwise."""
    for field, value in payload.items():
        if value is None:  # JSON null: the field left to its default, as the SDK leaves it out
            continue
        if field in RUN_REFUSALS:
            raise VisitorRefused(403, RUN_REFUSALS[field].format(field))
        if field not in RUN_FIELDS:
            raise VisitorRefused(
                422, f"A visitor's run carries only {', '.join(RUN_FIELDS)}: remove '{field}'."
            )
    for field, check in RUN_FIELDS.items():
        check(payload.get(field))


def _integer(low: int, high: int) -> Callable[[object], None]:
    def check(value: object) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise VisitorRefused(422, f"Send a whole number from {low} to {high} where a number is asked.")

    return check


def _text(longest: int) -> Callable[[object], None]:
    def check(value: object) -> None:
        if not isinstance(value, str) or len(value) > longest:
            raise VisitorRefused(422, f"Send text of at most {longest} characters where text is asked.")

    return check


def _texts(value: object) -> None:
    if (
        not isinstance(value, list)
        or len(value) > 100
        or not all(isinstance(v, str) and len(v) <= 100 for v in value)
    ):
        raise VisitorRefused(422, "Send a list of at most 100 short texts where a list is asked.")


def _filter(value: object) -> None:
    """A metadata filter: names and plain values (the servers add the owner to it)."""
    if not isinstance(value, Mapping) or len(value) > 20:
        raise VisitorRefused(422, "A filter is an object of at most 20 names and plain values: send one.")
    for item in value.values():
        if item is not None and not isinstance(item, str | int | float | bool):
            raise VisitorRefused(422, "A filter's values are plain text, numbers or true/false: send those.")


CHECKPOINT_FIELDS = frozenset({"checkpoint_id", "checkpoint_ns"})


def _checkpoint(value: object) -> None:
    """A checkpoint of the thread in the path: Aegra merges this object into the reading's
    configuration, so a ``thread_id`` in it would read another visitor's conversation."""
    if not isinstance(value, Mapping):
        raise VisitorRefused(422, "A checkpoint is an object with a checkpoint_id: send one.")
    for key, item in value.items():
        if key == "thread_id":
            raise VisitorRefused(
                403,
                "A conversation is read through its own address: leave 'thread_id' out of the checkpoint.",
            )
        if key not in CHECKPOINT_FIELDS:
            raise VisitorRefused(
                422, f"A checkpoint names only checkpoint_id and checkpoint_ns: remove '{key}'."
            )
        if item is not None:
            _text(100)(item)


def _fields(
    what: str, fields: Mapping[str, Callable[[object], None]]
) -> Callable[[Mapping[str, object]], None]:
    """The check of a body that may carry ``fields`` only (null is a field left out), each checked."""

    def check(payload: Mapping[str, object]) -> None:
        for field, value in payload.items():
            if value is None:
                continue
            if field not in fields:
                allowed = ", ".join(fields) if fields else "nothing"
                raise VisitorRefused(422, f"{what} carries {allowed}: remove '{field}'.")
            fields[field](value)

    return check


SORT: dict[str, Callable[[object], None]] = {"sort_by": _text(40), "sort_order": _text(4), "select": _texts}
SEARCH = {"limit": _integer(1, 100), "offset": _integer(0, 10_000), "status": _text(20), "metadata": _filter,
          "ids": _texts}  # fmt: skip
HISTORY = {
    "limit": _integer(1, 1000),
    "checkpoint": _checkpoint,
    "checkpoint_ns": _text(100),
    "metadata": _filter,
}
AT_CHECKPOINT = {"checkpoint": _checkpoint, "subgraphs": _off("subgraphs"), "select": _texts}
ASSISTANTS_SEARCH = {
    "graph_id": _text(100),
    "name": _text(100),
    "metadata": _filter,
    "limit": _integer(1, 1000),
}
VERDICT = {"thread_id": _text(100), "turn_id": _text(64), "verdict": _text(20), "comment": _text(2000)}
# Every request other than a read a visitor may make, with what its body may carry; reads are filtered
# on the owner by the servers' authorization handlers (agents.serving.auth).
BODY_RULES: tuple[tuple[str, re.Pattern[str], Callable[[Mapping[str, object]], None]], ...] = tuple(
    (*_route(method, pattern), check)
    for method, pattern, check in (
        ("POST", "/threads", check_new_thread),
        ("POST", "/threads/search", _fields("A search of conversations", {**SEARCH, **SORT})),
        ("POST", f"/threads/{_ID}/runs(?:/stream|/wait)?", check_run),
        ("POST", f"/threads/{_ID}/runs/{_ID}/cancel", _fields("A cancellation", {})),
        ("POST", f"/threads/{_ID}/history", _fields(  # a read, sent as POST by the SDK
            "A conversation's history", {**HISTORY, "subgraphs": _off("subgraphs"), "select": _texts})),
        ("POST", f"/threads/{_ID}/state/checkpoint", _fields("A checkpoint's state", AT_CHECKPOINT)),
        ("DELETE", f"/threads/{_ID}", _fields("A deletion", {})),
        ("POST", "/assistants/search", _fields(
            "A search of assistants", {**ASSISTANTS_SEARCH, "offset": _integer(0, 10_000), **SORT})),
        ("POST", "/visitor/feedback", _fields("A verdict", VERDICT)),
    )
)  # fmt: skip


def check_body(method: str, path: str, payload: Mapping[str, object]) -> None:
    """Refuse a body with a field its route does not take; a read or another request carries none."""
    for allowed, pattern, check in BODY_RULES:
        if method == allowed and pattern.match(path):
            check(payload)
            return
    if any(value is not None for value in payload.values()):
        raise VisitorRefused(422, "This request carries no body: send it without one.")
