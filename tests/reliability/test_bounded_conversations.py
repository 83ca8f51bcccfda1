"""Bounded conversations: a thread keeps its latest checkpoint only, old threads are forgotten,
and a conversation holds a bounded number of questions, refused politely past it."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from langgraph.channels.delta import DeltaChannel

from agents.cli import main as agents_main
from agents.config import AgentSettings
from agents.conversations.retention import checkpoint_id_at, forget_old_threads
from agents.events import ErrorOccurred, FinalAnswer
from agents.service import AgentService
from app_ui.labels import Labels, ui_languages
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, make_settings
from tests.integration.test_agent_service import FailingModel
from tests.reliability.turn_worker import build_service

THREAD = "visitor-5"


def _service(index_dir: Path, tmp_path: Path, **agent: Any) -> AgentService:
    agent = {"checkpoint_path": str(tmp_path / "threads.sqlite"), **agent}
    return build_service({"index_dir": str(index_dir), "agent": agent, "delay": 0})


def _rows(path: Path, sql: str, *values: Any) -> int:
    with sqlite3.connect(path) as connection:
        return int(connection.execute(sql, values).fetchone()[0])


def _questions(service: AgentService, thread: str = THREAD) -> list[str]:
    messages = service.graph.get_state({"configurable": {"thread_id": thread}}).values.get("messages", [])
    return [m.content for m in messages if m.type == "human"]


def test_a_thread_keeps_only_its_latest_checkpoint_and_the_whole_conversation(
    index_dir: Path, tmp_path: Path
) -> None:
    service = _service(index_dir, tmp_path)
    for question in ("Opening hours?", "Ticket prices?", "And on Mondays?"):
        assert isinstance(service.ask(question, THREAD), FinalAnswer)

    path = tmp_path / "threads.sqlite"
    assert _rows(path, "SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", THREAD) == 1
    orphan_writes = (
        "SELECT COUNT(*) FROM writes WHERE checkpoint_id NOT IN (SELECT checkpoint_id FROM checkpoints)"
    )
    assert _rows(path, orphan_writes) == 0
    assert _questions(service) == ["Opening hours?", "Ticket prices?", "And on Mondays?"]
    answer = service.ask("Parking?", THREAD)
    assert isinstance(answer, FinalAnswer)
    assert answer.answer.startswith("Reply to Parking? (earlier questions: 3)")


def test_the_number_of_checkpoints_kept_is_a_setting(index_dir: Path, tmp_path: Path) -> None:
    service = _service(index_dir, tmp_path, checkpoints_per_thread=3)
    for question in ("Opening hours?", "Ticket prices?", "And on Sunday?", "Any guided tours?"):
        service.ask(question, THREAD)  # a turn is saved once, when it ends: four checkpoints written

    assert _rows(tmp_path / "threads.sqlite", "SELECT COUNT(*) FROM checkpoints") == 3


def test_a_failed_turn_keeps_its_question_when_older_checkpoints_go(index_dir: Path, tmp_path: Path) -> None:
    assert isinstance(_service(index_dir, tmp_path).ask("Opening hours?", THREAD), FinalAnswer)
    settings = AgentSettings(_env_file=None, checkpoint_path=tmp_path / "threads.sqlite")
    retriever = HybridRetriever(make_settings(index_dir), embedder=HashingEmbedder())
    failing = AgentService(settings, retriever=retriever, llm=FailingModel(script=[]))

    result = failing.ask("Ticket prices?", THREAD)

    assert isinstance(result, ErrorOccurred) and "503" in result.message
    assert _questions(failing) == ["Opening hours?", "Ticket prices?"]
    assert _rows(tmp_path / "threads.sqlite", "SELECT COUNT(*) FROM checkpoints") == 1


def test_no_state_channel_is_rebuilt_from_older_checkpoints(index_dir: Path, tmp_path: Path) -> None:
    """Deleting older checkpoints is safe only while no channel is a DeltaChannel."""
    service = _service(index_dir, tmp_path)
    assert not [name for name, channel in service.graph.channels.items() if isinstance(channel, DeltaChannel)]


def test_postgres_keeps_the_latest_checkpoint_its_writes_and_blobs(
    index_dir: Path, postgres_url: str
) -> None:
    service = build_service(
        {"index_dir": str(index_dir), "agent": {"checkpoint_url": postgres_url}, "delay": 0}
    )
    for question in ("Opening hours?", "Ticket prices?", "And on Mondays?"):
        assert isinstance(service.ask(question, THREAD), FinalAnswer)
    service.close()

    with psycopg.connect(postgres_url) as connection:
        checkpoints = connection.execute("SELECT COUNT(*) FROM checkpoints").fetchone()
        unused_blobs = connection.execute(
            "SELECT COUNT(*) FROM checkpoint_blobs b WHERE NOT EXISTS (SELECT 1 FROM checkpoints c "
            "WHERE c.checkpoint -> 'channel_versions' ->> b.channel = b.version)"
        ).fetchone()
        orphan_writes = connection.execute(
            "SELECT COUNT(*) FROM checkpoint_writes "
            "WHERE checkpoint_id NOT IN (SELECT checkpoint_id FROM checkpoints)"
        ).fetchone()
    assert checkpoints == (1,) and unused_blobs == (0,) and orphan_writes == (0,)
    again = build_service(
        {"index_dir": str(index_dir), "agent": {"checkpoint_url": postgres_url}, "delay": 0}
    )
    answer = again.ask("Parking?", THREAD)
    assert isinstance(answer, FinalAnswer)
    assert answer.answer.startswith("Reply to Parking? (earlier questions: 3)")
    again.close()


def test_conversations_past_the_retention_are_forgotten_and_recent_ones_kept(
    index_dir: Path, tmp_path: Path
) -> None:
    service = _service(index_dir, tmp_path)
    service.ask("Opening hours?", "old-visitor")
    between = time.time()
    time.sleep(0.01)
    service.ask("Opening hours?", "recent-visitor")
    assert service.checkpoints is not None

    deleted = forget_old_threads(service.checkpoints.saver, days=1, now=between + 86400)

    assert deleted == 1
    assert _questions(service, "old-visitor") == []
    assert _questions(service, "recent-visitor") == ["Opening hours?"]


def test_the_prune_command_deletes_old_conversations(
    index_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    service = _service(index_dir, tmp_path)
    service.ask("Opening hours?", THREAD)
    service.close()
    time.sleep(1.0)
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "threads.sqlite"))

    assert agents_main(["prune", "--days", "0.00001"]) == 0  # under a second

    assert "Deleted 1 conversations older than 1e-05 days" in capsys.readouterr().out
    assert _rows(tmp_path / "threads.sqlite", "SELECT COUNT(*) FROM checkpoints") == 0


def test_checkpoint_ids_sort_by_time() -> None:
    from langgraph.checkpoint.base.id import uuid6

    before = checkpoint_id_at(time.time() - 1)
    now = str(uuid6(clock_seq=-1))
    assert before < now < checkpoint_id_at(time.time() + 1)


def test_a_conversation_past_its_cap_is_refused_politely_and_keeps_what_it_holds(
    index_dir: Path, tmp_path: Path
) -> None:
    service = _service(index_dir, tmp_path, max_turns_per_conversation=2)
    for question in ("Opening hours?", "Ticket prices?"):
        assert isinstance(service.ask(question, THREAD), FinalAnswer)

    refused = service.ask("And on Mondays?", THREAD)

    assert isinstance(refused, ErrorOccurred) and refused.kind == "conversation_full"
    assert "start a new conversation" in refused.message
    assert _questions(service) == ["Opening hours?", "Ticket prices?"]
    assert isinstance(service.ask("And on Mondays?", "a-new-conversation"), FinalAnswer)


@pytest.mark.parametrize("language", ["en", "fr", "de", "es", "it", "pt", "nl", "ja", "zh"])
def test_the_cap_sentence_is_in_the_visitors_language(language: str) -> None:
    assert language in ui_languages()
    sentence = Labels(language).error("conversation_full")
    assert sentence != Labels(language).error("other")
    assert language == "en" or sentence != Labels("en").error("conversation_full")


def test_earlier_turns_keep_their_tool_text_but_not_its_artifact(index_dir: Path, tmp_path: Path) -> None:
    from tests.fakes import ScriptedChatModel
    from tests.integration.test_agent_service import _one_search

    settings = AgentSettings(_env_file=None, checkpoint_path=tmp_path / "threads.sqlite")
    retriever = HybridRetriever(make_settings(index_dir), embedder=HashingEmbedder())
    script = [*_one_search("opening hours"), *_one_search("ticket prices")]
    service = AgentService(settings, retriever=retriever, llm=ScriptedChatModel(script=script))
    for question in ("Opening hours?", "Ticket prices?"):
        assert isinstance(service.ask(question, THREAD), FinalAnswer)

    messages = service.graph.get_state({"configurable": {"thread_id": THREAD}}).values["messages"]
    earlier, latest = [m for m in messages if m.type == "tool"]
    assert earlier.artifact is None and "opening hours" in str(earlier.content)
    assert latest.artifact is not None
