"""Conversations in a real PostgreSQL (a throwaway cluster on 127.0.0.1): shared by service
instances, tables set up on first use, one sentence without the password when it cannot be used."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from agents.config import AgentSettings
from agents.conversations.checkpoints import CheckpointStoreError, open_checkpoints
from agents.events import ErrorOccurred, FinalAnswer
from tests.local_server import free_port
from tests.reliability.turn_worker import build_service

PASSWORD = "pw-Ver5ailles-s3cret"
THREAD = "visitor-7"


def with_password(url: str) -> str:
    """The same database with a password in the URL (the test cluster trusts 127.0.0.1 and ignores it)."""
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{PASSWORD}@")


def tables(url: str) -> set[str]:
    with psycopg.connect(url) as connection:
        rows = connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()
    return {row[0] for row in rows}


def test_the_url_in_the_environment_selects_postgres_and_sets_up_its_tables(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_CHECKPOINT_URL", postgres_url)
    assert tables(postgres_url) == set()

    checkpoints = open_checkpoints(AgentSettings(_env_file=None))
    checkpoints.close()

    assert {"checkpoints", "checkpoint_blobs", "checkpoint_writes", "checkpoint_migrations"} <= tables(
        postgres_url
    )
    assert checkpoints.description.startswith("PostgreSQL at 127.0.0.1:")
    assert not Path(".agent_state").exists()  # no SQLite file was created beside the app


def test_a_conversation_continues_in_another_service_instance(index_dir: Path, postgres_url: str) -> None:
    spec = {"index_dir": str(index_dir), "agent": {"checkpoint_url": with_password(postgres_url)}, "delay": 0}
    first, second = build_service(spec), build_service(spec)

    assert isinstance(first.ask("Opening hours?", THREAD), FinalAnswer)
    answer = second.ask("And on Mondays?", THREAD)

    assert isinstance(answer, FinalAnswer)
    assert answer.answer.startswith("Reply to And on Mondays? (earlier questions: 1)")
    first.close()
    second.close()


def test_an_unreachable_database_is_one_sentence_without_the_password() -> None:
    url = f"postgresql://visitor:{PASSWORD}@127.0.0.1:{free_port()}/museum"
    settings = AgentSettings(_env_file=None, checkpoint_url=url, checkpoint_timeout_seconds=2)

    with pytest.raises(CheckpointStoreError) as raised:
        open_checkpoints(settings)

    sentence = str(raised.value)
    assert PASSWORD not in sentence and "\n" not in sentence
    assert sentence.startswith("PostgreSQL at 127.0.0.1:")
    assert "/museum cannot be used" in sentence and "AGENT_CHECKPOINT_URL" in sentence


def test_a_wrong_database_name_is_one_sentence_naming_it(postgres_url: str) -> None:
    url = with_password(postgres_url.rsplit("/", 1)[0] + "/no_such_db")

    with pytest.raises(CheckpointStoreError, match='database "no_such_db" does not exist') as raised:
        open_checkpoints(AgentSettings(_env_file=None, checkpoint_url=url))

    assert PASSWORD not in str(raised.value)


def test_a_failed_checkpoint_write_says_so_and_keeps_what_was_stored(
    index_dir: Path, postgres_url: str
) -> None:
    spec = {"index_dir": str(index_dir), "agent": {"checkpoint_url": with_password(postgres_url)}, "delay": 0}
    service = build_service(spec)
    assert isinstance(service.ask("Opening hours?", THREAD), FinalAnswer)
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'disk full (simulated)'; END $$"
        )
        admin.execute(
            "CREATE TRIGGER refuse_writes BEFORE INSERT OR UPDATE ON checkpoints EXECUTE FUNCTION refuse()"
        )

        failed = service.ask("Ticket prices?", THREAD)

        admin.execute("DROP TRIGGER refuse_writes ON checkpoints")
    assert isinstance(failed, ErrorOccurred)
    assert "could not be saved in PostgreSQL at 127.0.0.1:" in failed.message
    assert "disk full (simulated)" in failed.message and PASSWORD not in failed.message
    assert "\n" not in failed.message

    after = service.ask("And on Mondays?", THREAD)

    assert isinstance(after, FinalAnswer)
    assert after.answer.startswith("Reply to And on Mondays? (earlier questions: 1)")
    service.close()


def test_a_process_waiting_for_the_setup_lock_does_not_deadlock_a_concurrent_index_build(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Proves the migration lock is polled, not awaited in the server: LangGraph's migrations build
    indexes CONCURRENTLY, which wait for every open transaction, and a blocked ``pg_advisory_lock``
    call is one; with a server-side wait this raised "deadlock detected" when replicas started."""
    import threading

    from agents.conversations.checkpoints import SETUP_LOCK_KEY

    monkeypatch.setenv("AGENT_CHECKPOINT_URL", postgres_url)
    opened: list[object] = []
    with psycopg.connect(postgres_url, autocommit=True) as holder:
        holder.execute("CREATE TABLE probe (n int)")
        holder.execute("SELECT pg_advisory_lock(%s)", (SETUP_LOCK_KEY,))
        settings = AgentSettings(_env_file=None)
        waiter = threading.Thread(target=lambda: opened.append(open_checkpoints(settings)))
        waiter.start()
        waiter.join(timeout=1.0)  # the other process is now waiting for the lock
        assert waiter.is_alive()
        holder.execute("SET lock_timeout = '10s'")
        holder.execute("CREATE INDEX CONCURRENTLY probe_n ON probe (n)")  # as a migration does
        holder.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK_KEY,))
    waiter.join(timeout=30)

    assert len(opened) == 1
    opened[0].close()  # type: ignore[attr-defined]
