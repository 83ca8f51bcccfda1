"""The questions log in the conversations' database (SQLite file, and PostgreSQL): every turn kept with
its kind, language, sources, model and latency; visitors' personal data masked; old rows deleted;
a failed write never fails the turn."""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest

from agents.answer.model import Answer
from agents.config import AgentSettings
from agents.events import FinalAnswer, PastTurn
from agents.insights.store import DAY_SECONDS, LoggedQuestion, QuestionLog
from agents.runtime.restore import attach_logged_turns
from tests.reliability.turn_worker import build_service

THREAD = "web-visitor-1"


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """The conversation store's settings, for the SQLite file and for PostgreSQL."""
    if request.param == "postgres":
        return {"checkpoint_url": request.getfixturevalue("postgres_url")}
    return {"checkpoint_path": str(tmp_path / "state" / "threads.sqlite")}


def raw_rows(settings: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every column of every row, read around the log's own code."""
    query = "SELECT * FROM visitor_questions"
    if "checkpoint_url" in settings:
        with psycopg.connect(settings["checkpoint_url"]) as connection:
            return connection.execute(query).fetchall()
    with sqlite3.connect(settings["checkpoint_path"]) as connection:
        return connection.execute(query).fetchall()


def test_a_turn_is_logged_beside_the_conversations(index_dir: Path, store: dict[str, Any]) -> None:
    service = build_service({"index_dir": str(index_dir), "agent": store, "delay": 0})

    answer = service.ask("What are the opening hours?", THREAD)
    service.close()

    assert isinstance(answer, FinalAnswer) and answer.turn_id
    [logged] = QuestionLog.for_settings(AgentSettings(_env_file=None, **store)).questions()
    assert logged.id == answer.turn_id and logged.thread_id == THREAD
    assert logged.question == "What are the opening hours?"
    assert logged.kind == answer.kind and logged.language == answer.language
    assert logged.model == service.model_name and logged.latency_ms > 0
    assert logged.feedback is None


def test_emails_phones_and_cards_never_reach_the_database(index_dir: Path, store: dict[str, Any]) -> None:
    service = build_service({"index_dir": str(index_dir), "agent": store, "delay": 0})
    question = "I am jo@example.org, +33 6 12 34 56 78, card 4111 1111 1111 1111: can I get a refund?"

    answer = service.ask(question, THREAD)
    assert isinstance(answer, FinalAnswer)
    log = QuestionLog.for_settings(AgentSettings(_env_file=None, **store))
    assert log.set_feedback(answer.turn_id, THREAD, "not_helpful", "mail me at jo@example.org")
    service.close()

    stored = " ".join(str(value) for row in raw_rows(store) for value in row)
    for secret in ("jo@example.org", "12 34 56 78", "4111"):
        assert secret not in stored
    assert "I am [email], [phone], card [card]: can I get a refund?" in stored
    assert "mail me at [email]" in stored


def test_feedback_is_stored_only_on_a_turn_of_the_same_thread(tmp_path: Path) -> None:
    log = QuestionLog.for_settings(AgentSettings(_env_file=None, checkpoint_path=tmp_path / "c.sqlite"))
    turn_id = log.record(LoggedQuestion(question="Hours?", language="en", kind="answered", thread_id=THREAD))

    assert not log.set_feedback(turn_id, "web-someone-else", "not_helpful")
    assert log.set_feedback(turn_id, THREAD, "not_helpful", "x" * 2000)

    [logged] = log.questions()
    assert logged.feedback == "not_helpful" and logged.comment == "x" * 500


def test_rows_older_than_the_retention_are_deleted(store: dict[str, Any]) -> None:
    log = QuestionLog.for_settings(AgentSettings(_env_file=None, questions_retention_days=30, **store))
    now = time.time()
    log.record_many(
        [
            LoggedQuestion(question="old", language="en", kind="answered", asked_at=now - 31 * DAY_SECONDS),
            LoggedQuestion(
                question="recent", language="en", kind="answered", asked_at=now - 29 * DAY_SECONDS
            ),
        ]
    )
    old_hash = LoggedQuestion("old", "en", "answered").question_hash
    log.store_vectors("fake", {old_hash: np.ones(4)})

    log.record(LoggedQuestion(question="today", language="en", kind="answered"))

    assert [row.question for row in log.questions()] == ["recent", "today"]
    assert log.vectors("fake", [old_hash]) == {}  # its cached embedding went with it


def test_the_retention_defaults_to_ninety_days(monkeypatch: pytest.MonkeyPatch) -> None:
    assert AgentSettings(_env_file=None).questions_retention_days == 90
    monkeypatch.setenv("AGENT_QUESTIONS_RETENTION_DAYS", "7")
    assert AgentSettings(_env_file=None).questions_retention_days == 7


def test_a_failed_log_write_answers_the_turn_and_warns_without_the_question(
    index_dir: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = tmp_path / "state"
    service = build_service(
        {"index_dir": str(index_dir), "agent": {"checkpoint_path": str(state / "threads.sqlite")}, "delay": 0}
    )
    assert service.questions is not None
    service.questions.ensure_schema()
    with sqlite3.connect(state / "threads.sqlite") as connection:
        connection.execute("DROP TABLE visitor_questions")  # every write now fails

    with caplog.at_level(logging.WARNING):
        answer = service.ask("Secret question about jo@example.org", THREAD)
    service.close()

    assert isinstance(answer, FinalAnswer) and answer.turn_id == ""
    assert "questions log could not be written" in caplog.text
    assert "Secret question" not in caplog.text and "jo@example.org" not in caplog.text


def test_evaluation_questions_stay_out_of_the_log_and_asked_ones_are_in(
    index_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rag.retriever
    from agents import cli
    from tests.conftest import HashingEmbedder, make_settings

    monkeypatch.setattr(rag.retriever, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setattr(rag.retriever, "embedder_name", lambda settings: "fake/hashing-64")
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "threads.sqlite"))
    monkeypatch.setenv("AGENT_PROVIDER", "offline")
    monkeypatch.setenv("RAG_COLLECTION", make_settings(index_dir).collection)
    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        '{"id": "q1", "question": "When does the palace open?", "lang": "en"}\n', encoding="utf-8"
    )

    evaluated = [
        "eval",
        "--questions",
        str(questions),
        "--index",
        str(index_dir),
        "--out",
        str(tmp_path / "o"),
    ]
    assert cli.main(evaluated) == 0
    assert cli.main(["ask", "Is the palace closed on Monday?", "--index", str(index_dir), "--json"]) == 0

    log = QuestionLog.for_settings(AgentSettings(_env_file=None, checkpoint_path=tmp_path / "threads.sqlite"))
    assert [row.question for row in log.questions()] == ["Is the palace closed on Monday?"]


def test_a_reload_matches_each_restored_turn_with_its_own_row(store: dict[str, Any]) -> None:
    """By masked question, newest first: a question with an e-mail matches its masked row, a
    repeated question matches the later row for the later turn, and a turn whose row was deleted
    (retention) gets none; only this thread's rows are read."""
    log = QuestionLog.for_settings(AgentSettings(_env_file=None, **store))
    asked = ["Write to me at ana@example.org", "When does it open?", "When does it open?"]
    for n, (question, thread) in enumerate([*((q, THREAD) for q in asked), (asked[1], "web-other")]):
        verdict = "helpful" if n == 1 else None
        row = LoggedQuestion(question, "en", "answered", thread, asked_at=time.time() + n, feedback=verdict)
        log.record(row)
    turns = [
        PastTurn(question=q, final=FinalAnswer(reply=Answer(text="…"), language="en"))
        for q in ["Was there a pruned one?", *asked]
    ]

    verdicts = attach_logged_turns(turns, log.thread_turns(THREAD))

    rows = log.thread_turns(THREAD)
    assert [t.final.turn_id for t in turns] == ["", *(row.id for row in rows)]
    assert verdicts == {rows[1].id: "helpful"}
