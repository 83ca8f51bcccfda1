"""Every body a visitor sends, checked before any server reads it: size, nesting, JSON, control
characters, and per route only the fields the visitor's page needs."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from starlette.testclient import TestClient

from agents.serving.bodies import MAX_BODY_BYTES, json_object, nesting_depth
from agents.serving.guard import VisitorGuard
from agents.serving.visitor_requests import check_body
from agents.serving.visitors import VisitorRefused
from tests.unit.test_visitor_requests import WIDGET_RUN, Server


def refusal(check: Any, *args: Any) -> VisitorRefused:
    with pytest.raises(VisitorRefused) as refused:
        check(*args)
    return refused.value


def front_door(server: Any = None) -> tuple[TestClient, Any]:
    server = server or Server()
    client = TestClient(VisitorGuard(server), raise_server_exceptions=False)
    client.headers["Authorization"] = f"Bearer {secrets.token_urlsafe(24)}"
    return client, server


def test_nesting_is_measured_without_parsing_and_strings_do_not_count() -> None:
    assert nesting_depth(json.dumps(WIDGET_RUN).encode()) == 4
    assert nesting_depth(b'{"a": "[[[[{{{{\\"]]]]"}') == 1
    assert nesting_depth(b"[" * 200_000) == 200_000


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"a":' * 20_000 + b"1" + b"}" * 20_000])
def test_a_deeply_nested_body_is_one_sentence(body: bytes) -> None:
    refused = refusal(json_object, body)

    assert refused.status == 422 and "nests too deeply" in refused.message


@pytest.mark.parametrize("char", ["\u0000", "\u001b", "\u007f", "\u0085", "\ud800"])
def test_a_control_character_anywhere_is_refused_and_named(char: str) -> None:
    question = {"messages": [{"role": "user", "content": f"Horaires{char} ?"}]}

    refused = refusal(json_object, json.dumps({"assistant_id": "visitor", "input": question}).encode())
    in_a_key = refusal(json_object, json.dumps({f"k{char}": 1}).encode())

    assert refused.status == in_a_key.status == 422
    assert f"U+{ord(char):04X}" in refused.message and "remove it" in refused.message


def test_line_breaks_and_tabs_a_text_box_allows_pass() -> None:
    assert json_object(json.dumps({"comment": "Il manque\tles\r\nhoraires"}).encode())


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b"\xff\xfe{}", b'"text"'])
def test_a_body_that_is_no_json_object_is_one_sentence(body: bytes) -> None:
    assert refusal(json_object, body).status == 422


@pytest.mark.parametrize(
    ("checkpoint", "status", "words"),
    [
        ({"thread_id": "someone-elses"}, 403, "leave 'thread_id' out"),
        ({"checkpoint_id": "1", "thread_id": "someone-elses"}, 403, "leave 'thread_id' out"),
        ({"checkpoint_map": {}}, 422, "remove 'checkpoint_map'"),
        ("1ef4a9b8", 422, "an object"),
    ],
)
def test_a_history_or_checkpoint_read_names_no_other_thread(
    checkpoint: object, status: int, words: str
) -> None:
    for path in ("/threads/t-1/history", "/threads/t-1/state/checkpoint"):
        refused = refusal(check_body, "POST", path, {"checkpoint": checkpoint})
        assert refused.status == status and words in refused.message


@pytest.mark.parametrize(
    ("method", "path", "payload"),
    [
        ("POST", "/threads/t-1/history", {"limit": 100}),  # what the SDK's get_history sends
        ("POST", "/threads/t-1/history", {"limit": 10, "checkpoint": {"checkpoint_ns": ""}}),
        ("POST", "/threads/t-1/state/checkpoint", {"checkpoint": {"checkpoint_id": "1"}, "subgraphs": False}),
        ("POST", "/threads/search", {"limit": 10, "offset": 0}),
        ("POST", "/assistants/search", {"graph_id": "visitor", "limit": 10, "offset": 0}),
        ("POST", "/threads/t-1/runs/r-1/cancel", {}),
        (
            "POST",
            "/visitor/feedback",
            {"thread_id": "t", "turn_id": "u", "verdict": "helpful", "comment": None},
        ),
        ("DELETE", "/threads/t-1", {}),
        ("GET", "/threads/t-1/state", {}),
    ],
)
def test_the_bodies_of_the_widget_and_the_sdk_pass(method: str, path: str, payload: dict[str, Any]) -> None:
    check_body(method, path, payload)


@pytest.mark.parametrize(
    ("method", "path", "payload", "words"),
    [
        ("POST", "/threads/t-1/history", {"before": {"thread_id": "x"}}, "remove 'before'"),
        ("POST", "/threads/t-1/history", {"limit": "all"}, "whole number"),
        ("POST", "/threads/search", {"values": {"reply": {}}}, "remove 'values'"),
        ("POST", "/threads/search", {"metadata": {"owner": {"$ne": ""}}}, "plain"),
        ("POST", "/assistants/search", {"limit": 10**9}, "whole number"),
        ("POST", "/threads/t-1/runs/r-1/cancel", {"action": "rollback"}, "remove 'action'"),
        (
            "POST",
            "/visitor/feedback",
            {"thread_id": "t", "turn_id": "u", "verdict": "helpful", "x": 1},
            "remove 'x'",
        ),
        ("DELETE", "/threads/t-1", {"thread_id": "t-2"}, "remove 'thread_id'"),
        ("GET", "/threads/t-1/state", {"checkpoint": {}}, "no body"),
    ],
)
def test_a_field_a_route_does_not_take_is_refused(
    method: str, path: str, payload: dict[str, Any], words: str
) -> None:
    refused = refusal(check_body, method, path, payload)

    assert refused.status == 422 and words in refused.message


def test_the_front_door_refuses_a_body_over_64_kb_on_every_route() -> None:
    client, server = front_door()
    large = json.dumps({"limit": 10, "padding": "x" * MAX_BODY_BYTES})

    answers = [
        client.post(path, content=large)
        for path in ("/threads/t-1/history", "/threads/search", "/visitor/feedback")
    ]

    assert [a.status_code for a in answers] == [413] * 3 and server.received is None


def test_the_front_door_answers_a_deep_body_in_one_sentence_rather_than_failing() -> None:
    client, server = front_door()

    answer = client.post("/threads/t-1/runs/wait", content=b"[" * 50_000)

    assert answer.status_code == 422 and "nests too deeply" in answer.json()["detail"]
    assert server.received is None


def test_a_null_field_is_left_out_of_what_the_server_reads() -> None:
    client, server = front_door()

    answer = client.post("/threads/t-1/runs/wait", json={**WIDGET_RUN, "config": None, "context": None})

    assert answer.status_code == 200
    assert server.received == {
        "path": "/threads/t-1/runs/wait",
        "body": {**WIDGET_RUN, "multitask_strategy": "reject"},
    }


class FailingServer:
    """A server whose error page shows what it was sent, as Aegra's 500 showed an SQL statement."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["path"] == "/threads/search":
            raise RuntimeError("INSERT INTO runs VALUES ('secret question')")
        body = b'{"detail": "psycopg.errors: INSERT INTO runs VALUES (\'secret question\')"}'
        await send({"type": "http.response.start", "status": 500, "headers": [(b"x-request-id", b"r-1")]})
        await send({"type": "http.response.body", "body": body})


def test_a_server_failure_reaches_the_client_as_one_sentence_without_its_insides() -> None:
    client, _ = front_door(FailingServer())

    answered = client.get("/threads/t-1")
    raised = client.post("/threads/search", json={})

    for answer in (answered, raised):
        assert answer.status_code == 500 and "secret" not in answer.text and "INSERT" not in answer.text
        assert answer.json() == {
            "detail": "The assistant could not handle this request: try again in a moment."
        }
    assert answered.headers["x-request-id"] == "r-1"


def test_metrics_are_closed_to_visitors() -> None:
    client, _ = front_door()

    answer = client.get("/metrics")

    assert answer.status_code == 403 and "operator's" in answer.json()["detail"]
