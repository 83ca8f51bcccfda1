"""``POST /visitor/feedback``: a visitor's verdict reaches their turn's row in the questions log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

from agents.insights.store import Database, LoggedQuestion, QuestionLog
from agents.serving import feedback
from agents.serving.feedback import FEEDBACK_PATH


class Visitor:
    """What the server's authentication leaves in the scope for an authenticated visitor."""

    def __init__(self, app: ASGIApp, identity: str) -> None:
        self.app, self.identity = app, identity

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.identity:
            scope["user"] = SimpleNamespace(identity=self.identity)
        await self.app(scope, receive, send)


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[QuestionLog]:
    path = tmp_path / "threads.sqlite"
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(path))
    monkeypatch.setenv("AGENT_QUESTIONS_LOG", "true")
    feedback.question_log.cache_clear()
    yield QuestionLog(Database(sqlite_path=path))
    feedback.question_log.cache_clear()


def _post(body: Any, identity: str = "visitor:abc") -> Any:
    app = FastAPI()
    feedback.add_feedback_route(app)
    with TestClient(Visitor(app, identity)) as client:
        return client.post(FEEDBACK_PATH, json=body)


def test_a_comment_on_a_logged_turn_is_stored_masked(log: QuestionLog) -> None:
    turn = log.record(LoggedQuestion(question="Horaires ?", language="fr", kind="answered", thread_id="t-1"))
    response = _post(
        {
            "thread_id": "t-1",
            "turn_id": turn,
            "verdict": "not_helpful",
            "comment": "Écrivez-moi à ana@example.org",
        }
    )
    assert response.status_code == 204
    [row] = log.thread_turns("t-1")
    assert row.feedback == "not_helpful"
    assert row.comment is not None and "ana@example.org" not in row.comment


def test_a_turn_of_another_thread_is_not_found(log: QuestionLog) -> None:
    turn = log.record(LoggedQuestion(question="Horaires ?", language="fr", kind="answered", thread_id="t-1"))
    response = _post({"thread_id": "t-2", "turn_id": turn, "verdict": "helpful"})
    assert response.status_code == 404
    assert log.thread_turns("t-1")[0].feedback is None


@pytest.mark.parametrize(
    "body",
    [
        {"thread_id": "t-1", "turn_id": "x", "verdict": "great"},
        {"thread_id": "t-1", "verdict": "helpful"},
        {"thread_id": "t-1", "turn_id": "x", "verdict": "helpful", "comment": "x" * 501},
        ["not", "an", "object"],
    ],
)
def test_a_malformed_verdict_gets_one_sentence(log: QuestionLog, body: Any) -> None:
    response = _post(body)
    assert response.status_code == 422
    assert response.json()["detail"].startswith("Send {")


def test_without_the_servers_authentication_the_route_refuses(log: QuestionLog) -> None:
    assert _post({"thread_id": "t-1", "turn_id": "x", "verdict": "helpful"}, identity="").status_code == 401
